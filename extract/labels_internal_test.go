package extract

import "testing"

// TestCodeAside: a label whose value stands in the parentheses right after
// it, words following ("Je bestelling (90276634) is gelukt!", "your
// invoice (INV12430225), for account …"), gives that value; an aside
// before a value of the line's own, a year, a phone or a word in
// parentheses gives none.
func TestCodeAside(t *testing.T) {
	for _, tc := range []struct{ matched, rest, want string }{
		{"bestelling (90276634) ", "is gelukt!", "90276634"},
		{"invoice (INV12430225)", ", for account number 887452", "INV12430225"},
		{"Bestellung (#AB-55120) ", "", "AB-55120"},
		{"Numer rezerwacji (PNR): ", "K7QX2M", ""},
		{"booking (PNR7Q2) ", "K7QX2M", ""},
		{"invoice (2027) ", "is attached", ""},
		{"bill (1-800-555-0199) ", "if you have questions", ""},
		{"invoice (PDF) ", "attached", ""},
	} {
		got, _ := codeAside(tc.matched, tc.rest)
		if got != tc.want {
			t.Errorf("codeAside(%q, %q) = %q, want %q", tc.matched, tc.rest, got, tc.want)
		}
	}
}
