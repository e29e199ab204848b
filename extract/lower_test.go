package extract

import (
	"strings"
	"testing"
)

func TestLower(t *testing.T) {
	for _, s := range []string{
		"", "abc", "ABC", "Rechnung Nr. 2028/114", "ERÄPÄIVÄ 12.3.", "Fälligkeit: 14,50 €",
		"ÇA VA – DÉJÀ", "İstanbul", "ΣΊΣΥΦΟΣ", "a\xffB", "\xe2\x82", "Ǆ ǅ ǆ", "ẞ", "already lower – ä",
	} {
		if got, want := lower(s), strings.ToLower(s); got != want {
			t.Errorf("lower(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzLower holds lower to strings.ToLower on any input, invalid UTF-8
// included.
func FuzzLower(f *testing.F) {
	f.Add("Invoice DUE 12 März")
	f.Add("a\xffB\xc3")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := lower(s), strings.ToLower(s); got != want {
			t.Fatalf("lower(%q) = %q, want %q", s, got, want)
		}
	})
}

func BenchmarkLower(b *testing.B) {
	text := strings.Repeat("Ihre Rechnung für November: Betrag 64,50 € fällig am 14.12.2028. Kundennummer 118342.\n", 30)
	b.Run("lower", func(b *testing.B) {
		for b.Loop() {
			lower(text)
		}
	})
	b.Run("strings.ToLower", func(b *testing.B) {
		for b.Loop() {
			strings.ToLower(text)
		}
	})
}

// TestWidthLower: every letter whose lower case is as long is lowered,
// and the offsets stay those of the text.
func TestWidthLower(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""}, {"Booking CODE", "booking code"}, {"Код бронирования: KXT4LM", "код бронирования: kxt4lm"},
		{"ΚΩΔΙΚΟΣ Κράτησης", "κωδικοσ κράτησης"}, {"İSTANBUL Çıkış", "İstanbul çıkış"}, {"a\xffB", "a\xffb"}, {"ÄRENDE", "ärende"},
	} {
		got := widthLower(c.in)
		if got != c.want || len(got) != len(c.in) {
			t.Errorf("widthLower(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
