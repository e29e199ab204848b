package extract

import (
	"strings"
	"testing"
)

// naiveIndexDigit is indexDigit a byte at a time, the reference.
func naiveIndexDigit(text string, from int) int {
	for i := from; i < len(text); i++ {
		if text[i] >= '0' && text[i] <= '9' {
			return i
		}
	}
	return -1
}

func TestIndexDigit(t *testing.T) {
	long := strings.Repeat("no digits here / : ;", 5)
	for _, tc := range []struct {
		text string
		from int
	}{
		{"", 0}, {"7", 0}, {"abc", 0}, {"abcdefgh9", 0}, {"12345678", 3},
		{"/:/:/:/:/:/:/:/:", 0},          // the bytes either side of the digits
		{"\xb0\xb9\xc0\xb1 Zürich 1", 0}, // non-ASCII bytes whose low bits are digits
		{long + "0", 0}, {long + "9" + long, 0}, {long, 0},
		{"a1b2c3d4e5f6g7h8i9", 5}, {"Preis 12,50 €", 100},
	} {
		if got, want := indexDigit(tc.text, min(tc.from, len(tc.text))), naiveIndexDigit(tc.text, min(tc.from, len(tc.text))); got != want {
			t.Errorf("indexDigit(%q, %d) = %d, want %d", tc.text, tc.from, got, want)
		}
	}
}

func FuzzIndexDigit(f *testing.F) {
	f.Add("Rechnung vom 12.11.", 0)
	f.Add("\xb0\xb9\xc0\xb1\xff\x00/:", 1)
	f.Fuzz(func(t *testing.T, text string, from int) {
		if from < 0 || from > len(text) {
			return
		}
		if got, want := indexDigit(text, from), naiveIndexDigit(text, from); got != want {
			t.Fatalf("indexDigit(%q, %d) = %d, want %d", text, from, got, want)
		}
	})
}
