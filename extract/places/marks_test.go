package places

import (
	"testing"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// FuzzFoldMarks: Fold's mark removal is the transform chain it replaced.
func FuzzFoldMarks(f *testing.F) {
	f.Add("Zürich-Flughafen")
	f.Add("São Paulo, Kraków, Île-de-France")
	f.Add("a\u0301\xffb")
	f.Fuzz(func(t *testing.T, s string) {
		chain := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		want, _, err := transform.String(chain, s)
		if err != nil {
			t.Skip()
		}
		if got := norm.NFC.String(withoutMarks(norm.NFD.String(s))); got != want {
			t.Fatalf("%q: %q, the chain %q", s, got, want)
		}
	})
}
