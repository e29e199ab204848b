package oauth

import (
	"slices"
	"strings"
	"testing"
)

func TestCleanName(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Claude", "Claude"},
		{"  Claude  \t Desktop ", "Claude Desktop"},
		// Line and paragraph separators would fake the phone's lines.
		{"Claude\u2028Client id: https://claude.ai/x\u2029\u2029It asks", "Claude Client id: https://claude.ai/x It asks"},
		{"a\u0085b\nc\u200bd\x07e", "a b cde"},
		// Runs of combining marks are cut to two on a letter; decomposed
		// accents are composed first; enclosing marks go.
		{"Cla\u0301\u0302\u0303\u0304\u0305ude", "Cl\u00e1\u0302\u0303ude"},
		{"Cafe\u0301", "Café"},
		{"\u0301\u0302Claude", "Claude"},
		{"x \u0301y", "x y"},
		{"A\u20dd", "A"},
		{"שָׁלוֹם", "שָׁלוֹם"},
		// Letters that show nothing: Hangul fillers (choseong, jungseong,
		// compatibility, halfwidth), the Braille blank, variation
		// selectors; a name of them alone is empty.
		{"Claude\u3164\u3164Desktop", "ClaudeDesktop"},
		{"\u115f\u1160\uffa0\u3164", ""},
		{"Claude\u2800\u2800\u2800Client id: x", "Claude Client id: x"},
		{"Claude\ufe0f\U000e0100", "Claude"},
		// Mathematical and fullwidth letters are the letters they imitate.
		{"\U0001d402\U0001d425\U0001d41a\U0001d42e\U0001d41d\U0001d41e", "Claude"},
		{"\uff23\uff4c\uff41\uff55\uff44\uff45", "Claude"},
		// Spacing combining marks are marks: two on a letter at most.
		{"\u0915\u093e\u093e\u093e\u093e", "\u0915\u093e\u093e"},
		// Quotation marks would close the quotes the name is shown in.
		{"\u201cClaude\u201d by \"Anthropic\" \u00abx\u00bb 'y'", "Claude by Anthropic x y"},
	} {
		if got := cleanName(tt.in); got != tt.want {
			t.Errorf("cleanName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMixedScripts(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"Claude (claude.ai)", nil},
		{"Сlаudе (claude.ai)", []string{"Cyrillic", "Latin"}}, // Cyrillic С, а, е
		{"ChatGPT 日本語 ひらがな カタカナ", nil},
		{"Ассистент", nil},
		{"Ρaypal", []string{"Greek", "Latin"}},
		// Fullwidth letters are folded before the check.
		{cleanName("\u0421\uff4c\uff41ude"), []string{"Cyrillic", "Latin"}},
		{"", nil},
	} {
		if got := mixedScripts(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("mixedScripts(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestNameNoteDots(t *testing.T) {
	for _, tt := range []struct {
		name string
		flag bool
	}{
		{"Claude (claude.ai)", true},
		{"Claude (claude\u00b7ai)", true},
		{"Claude (claude\u2e31ai)", true},
		{"Claude (claude\u30fbai)", true},
		{"Claude (claude\uff65ai)", true},
		{"Claude (claude\ua78fai)", true},
		{"Claude (claude\u16ebai)", true},
		{"Claude (claude\u2981ai)", true},
		{"Claude (claude\u0589ai)", true},
		{"Claude (claude\u2022ai)", true},
		{"example.com example.com example.com example.com · Claude (claude.ai)", true},
		{"Example Assistant (assistant.example.com)", false},
		{"Mail Helper - by Example", false},
		{"AT&T Assistant", false},
		{"Node.js bridge", true}, // reads as a domain, and is not this client's
	} {
		got := strings.Contains(nameNote(tt.name, "assistant.example.com"), "which is not where it comes from")
		if got != tt.flag {
			t.Errorf("nameNote(%q) flags another site: %v, want %v", tt.name, got, tt.flag)
		}
	}
}
