package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDropInvisible: bidi and zero-width marks go, wherever they stand;
// every other character stays, and a text without them is not copied.
func TestDropInvisible(t *testing.T) {
	for in, want := range map[string]string{
		"Nr zamówienia \u202b403-1234567-1234567": "Nr zamówienia 403-1234567-1234567",
		"HT\u200b-40917":                  "HT-40917",
		"\ufeffTotal: \u2066$38.50\u2069": "Total: $38.50",
		"pad\u034f \u034f\u00adx":         "pad x",
		"€ – ’ plain":                     "€ – ’ plain",
		"\xe2\x80":                        "\xe2\x80",
		"":                                "",
	} {
		if got := dropInvisible(in); got != want {
			t.Errorf("dropInvisible(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSpacedBoldLabel: Gmail's "* Label: *" loses its marks; a bullet,
// or marks around words without a colon, keep theirs.
func TestSpacedBoldLabel(t *testing.T) {
	for in, want := range map[string]string{
		"* Numer zamówienia: * GPA.3379": "  Numer zamówienia:   GPA.3379",
		"* Order date: *\n":              "  Order date:  \n",
		"* item one * item two":          "* item one * item two",
		"* Zdobyte punkty Play *":        "* Zdobyte punkty Play *",
		"* 12: * x":                      "* 12: * x",
		"*":                              "*",
		"* a: *x":                        "* a: *x",
	} {
		if got := unboldLabels(in); got != want {
			t.Errorf("unboldLabels(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDropInvisible: any text loses exactly its marks that print nothing,
// as a rune-by-rune copy drops them, and keeps its bytes otherwise.
func FuzzDropInvisible(f *testing.F) {
	for _, s := range []string{"Nr zamówienia \u202b403-1234567", "€ 12,00\u00a0EUR\u200b", "\xe2\xef\xc2\xcd", "abc", "\u00ad\u034f\ufeff", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !printsNothing(r) || n == 1 {
				b.WriteString(s[i : i+n])
			}
			i += n
		}
		if got := dropInvisible(s); got != b.String() {
			t.Fatalf("dropInvisible(%q) = %q, want %q", s, got, b.String())
		}
	})
}
