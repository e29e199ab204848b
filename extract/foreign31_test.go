package extract_test

import (
	"testing"
	"time"
)

// Classes of mail the outside set foreign-31 found (issue 46,
// 2026-12-03), proved here with other senders and words than the mails
// that showed them.

// TestForeign31Orders: orders of foreign-31 that gave nothing or less.
//   - "Bestellnr." over the number: the short form without its hyphen.
//   - A step bar of a shop's order page whose steps only blank lines
//     part ("Bestellt", "Versendet", "In Zustellung", "Zugestellt") is
//     no state of the order's; the mail's thanks for the order are.
//   - A delivery's notice whose subject numbers the order ("Eine
//     Lieferung aus der Bestellung #2766 wurde zugestellt") over a
//     sentence of the goods with no digit.
func TestForeign31Orders(t *testing.T) {
	sent := time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ name, from, subject, text, want string }{
		{"Bestellnr. and a bar of blank-parted steps", "Gartenwelt <bestellung@gartenwelt.example.de>", "Bestellt: „Rasenschere“",
			"Meine Bestellungen\n\n    Vielen Dank für deine Bestellung!\nBestellt\n\nVersendet\n\nIn Zustellung\n\nZugestellt\n\nZustellung: Montag\n\nBestellnr.\n118-5520931\n",
			"Gartenwelt | 118-5520931 | ordered |"},
		{"the subject numbers the order", "Hofladen Berg <store+5512@t.shopmail.example.com>", "Eine Lieferung aus der Bestellung #4410 wurde zugestellt",
			"Ihre Sendung mit Bergkäse (mild) und Bauernbrot wurde zugestellt.\n", "Hofladen Berg | 4410 | delivered |"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := orderLineOf(mailFacts(tt.from, tt.subject, tt.text, sent)); got != tt.want {
				t.Errorf("order %q, want %q", got, tt.want)
			}
		})
	}
}
