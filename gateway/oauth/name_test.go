package oauth

import (
	"slices"
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
		{"", nil},
	} {
		if got := mixedScripts(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("mixedScripts(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
