package extract_test

import (
	"strings"
	"testing"
)

// TestProposedLegsAreNoBooking: a leg a friend or a colleague proposes or
// asks about, in any language, gives no fact; the same mail with one sign
// of a booking (its reference, a seat, a booking's or a payment's words)
// still gives its leg, since the gate needs every sign missing.
func TestProposedLegsAreNoBooking(t *testing.T) {
	for _, c := range []struct{ from, subject, body string }{
		{"Tom <tom.baker@gmail.com>", "Köln on Friday?",
			"Hi Anna,\n\nshall we take the 08:12 from Utrecht Centraal to Köln Hbf on Friday 11 December 2026?\n\nUtrecht Centraal 08:12 -> Köln Hbf 10:50\n\nLet me know,\nTom\n"},
		{"Priya <priya.shah@outlook.com>", "NY trip idea",
			"Hey,\n\nI was thinking LH 400 Frankfurt (FRA) 14 Dec 2026 10:05 -> New York JFK (JFK) 14 Dec 2026 13:00. What do you think?\n"},
		{"Jonas <jonas.weber@web.de>", "Wochenende in Hamburg",
			"Hallo Lena,\n\nmein Vorschlag: wir könnten den ICE 578 nehmen,\n\nFr, 18.12.2026\nFrankfurt(Main)Hbf ab 14:13\nHamburg Hbf an 17:49\n\nWas meinst du?\n"},
		{"Claire <claire.martin@orange.fr>", "Lyon samedi ?",
			"Salut,\n\non pourrait prendre le TGV 6603 samedi 12 décembre 2026 :\nParis Gare de Lyon départ 07:56\nLyon Part-Dieu arrivée 09:53\n\nTu en penses quoi ?\n"},
		{"Daan <daan.devries@ziggo.nl>", "Zaterdag naar Brussel",
			"Hoi Sanne,\n\nvoorstel: zullen we de trein nemen?\n\nza 12 december 2026\nAmsterdam Centraal vertrek 09:17\nBrussel-Zuid aankomst 11:14\n\nWat vind je?\n"},
		{"Erik <erik.lund@telia.se>", "Göteborg i helgen?",
			"Hej!\n\nSka vi ta tåget? Förslag:\n\nlör 19 december 2026\nStockholm C avgång 08:21\nGöteborg C ankomst 11:29\n\nVad tycker du?\n"},
	} {
		if n := proposalLegs(c.from, c.subject, c.body); n != 0 {
			t.Errorf("%s: a plan gave %d legs", c.subject, n)
		}
		for _, sign := range []string{"Booking reference: K7XQ2M", "Your booking is confirmed.", "Seat 42, coach 7"} {
			body := strings.Replace(c.body, "\n\n", "\n\n"+sign+"\n\n", 1)
			if proposalLegs(c.from, c.subject, body) == 0 {
				t.Errorf("%s with %q: the booking's leg was lost", c.subject, sign)
			}
		}
	}
}

func proposalLegs(from, subject, body string) int {
	n := 0
	for _, f := range review4Mail(from, subject, body).Facts {
		if f.Segment != nil {
			n++
		}
	}
	return n
}
