package extract_test

import (
	"strings"
	"testing"

	"mailnode/extract"
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

// TestOfferedStaysAreNoBooking: a hotel's offer, a newsletter's rooms, an
// unfinished booking's reminder or a comparison's hotels, with a stay's
// labelled dates, give no stay in any language; the same mail with a
// booking's number or words still gives it.
func TestOfferedStaysAreNoBooking(t *testing.T) {
	for _, c := range []struct{ from, subject, body, sign string }{
		{"Seaview Hotel <news@seaviewhotel.example>", "Anna, we have rooms for you",
			"Dear Anna,\n\nwe have rooms for you at the Seaview Hotel Brighton.\n\nCheck-in: 14 December 2026\nCheck-out: 17 December 2026\n\nBook now and save 20%.\n",
			"Your reservation is confirmed."},
		{"Hotel Alpenblick <info@alpenblick.example>", "Ihr Zimmer im Hotel Alpenblick",
			"Hallo Herr Maier,\n\nIhr Zimmer im Hotel Alpenblick ist noch frei:\n\nAnreise: 12.12.2026\nAbreise: 15.12.2026\n\nJetzt buchen und Frühstück gratis erhalten.\n",
			"Buchungsnummer: 48213"},
		{"Hotel Bellavista <info@bellavista.example>", "Offerta speciale",
			"Gentile Marco,\n\nHotel Bellavista\nArrivo: 18 dicembre 2026\nPartenza: 20 dicembre 2026\n\nPrenota ora: offerta valida fino al 30 novembre.\n",
			"La sua prenotazione è confermata."},
		{"Duinhotel <nieuws@duinhotel.example>", "Nog kamers beschikbaar",
			"Beste Sanne,\n\nDuinhotel Zandvoort\nAankomst: 12 december 2026\nVertrek: 14 december 2026\n\nBoek nu via onze website.\n",
			"Uw reservering is bevestigd."},
		// Serbian in both scripts and Macedonian had no offer's words.
		{"Hotel Zlatibor <ponude@hotel-zlatibor.example.rs>", "Specijalna ponuda za decembar",
			"Poštovani gospodine Jovanović,\n\nHotel Zlatibor\nDatum dolaska: 18. decembra 2026.\nDatum odlaska: 21. decembra 2026.\n\nRezervišite sada uz 15% popusta, ponuda važi do 30. novembra.\n",
			"Vaša rezervacija je potvrđena."},
		{"Хотел Дунав <ponude@hotel-dunav.example.rs>", "Специјална понуда",
			"Поштовани,\n\nХотел Дунав\nДатум доласка: 18. децембра 2026.\nДатум одласка: 21. децембра 2026.\n\nРезервишите сада, понуда важи до 30. новембра.\n",
			"Ваша резервација је потврђена."},
		{"Хотел Охрид <ponudi@hotel-ohrid.example.mk>", "Специјална понуда",
			"Почитувани,\n\nХотел Охрид\nДатум на пристигнување: 18 декември 2026\nДатум на заминување: 21 декември 2026\n\nРезервирајте сега, понудата важи до 30 ноември.\n",
			"Вашата резервација е потврдена."},
	} {
		if n := stays(c.from, c.subject, c.body); n != 0 {
			t.Errorf("%s: an offer gave %d stays", c.subject, n)
		}
		if stays(c.from, c.subject, strings.Replace(c.body, "\n\n", "\n\n"+c.sign+"\n\n", 1)) == 0 {
			t.Errorf("%s with %q: the booked stay was lost", c.subject, c.sign)
		}
	}
}

// TestOfferedStayTicketCode: a stay whose mail offers another stay but
// gives a ticket's or a transaction's code is booked, as the plan and the
// reply gates hold (numbersBooking).
func TestOfferedStayTicketCode(t *testing.T) {
	for _, c := range []struct{ from, subject, body string }{
		{"Seaview Hotel <stay@seaviewhotel.example>", "Seaview Hotel Brighton",
			"Dear Anna,\n\nSeaview Hotel Brighton\nTransaction ID: TX-5512093\nCheck-in: 14 December 2026\nCheck-out: 17 December 2026\n\nSpecial offer for your next visit: book now and save 20%.\n"},
		{"Hotel Alpenblick <info@alpenblick.example>", "Hotel Alpenblick",
			"Hallo Herr Maier,\n\nHotel Alpenblick\nTransaktionsnummer: 44712093\nAnreise: 12.12.2026\nAbreise: 15.12.2026\n\nJetzt buchen: Sonderangebot für den Sommer.\n"},
	} {
		if n := stays(c.from, c.subject, c.body); n != 1 {
			t.Errorf("%s: %d stays, want 1", c.subject, n)
		}
	}
}

func stays(from, subject, body string) int {
	n := 0
	for _, f := range review4Mail(from, subject, body).Facts {
		if f.Segment != nil && f.Segment.Type == extract.KindHotel {
			n++
		}
	}
	return n
}
