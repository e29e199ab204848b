package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// Classes the outside set foreign-32 found (issue 46, 2026-12-03),
// proved with other senders and words than its mails.

// TestCheckInFirstRows: an itinerary whose table a PDF ran into single
// spaces opens each row with the departure's clock and the check-in's
// close before it, then the two cities, the number and the arrival's
// clock; the day first on the row, or alone on the line above with its
// year's digits under the row. The booking's code the subject names heads
// the row of values under its headings, lines below them.
func TestCheckInFirstRows(t *testing.T) {
	sent := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, subject, text string
		want                []flightLeg
		ref                 string
	}{
		{"the day on the row", "Your SkyLine Itinerary - K7TR2Q",
			"SkyLine Flight(s)\nCheck-\nDep\nDate Departs in/Bag drop From To Via Flight Arrives\nTerminal\ncloses\n" +
				"12Mar27 09:10 08:25 Delhi Mumbai SG 8157 11:20\n\n19Mar27 21:40 20:55 Mumbai Delhi SG 8158 23:50\n\n" +
				"Booking Reference Numeric Booking ID Status Date of Booking * Payment Status\n\n\n01Mar27\nK7TR2Q 220014151202 CONFIRMED Approved\n08:11:02 (UTC)\n",
			[]flightLeg{{"SG 8157", "DEL", "BOM", "2027-03-12 09:10 +0530", "2027-03-12 11:20 +0530"}, {"SG 8158", "BOM", "DEL", "2027-03-19 21:40 +0530", "2027-03-19 23:50 +0530"}}, "K7TR2Q"},
		{"the day above the row, the arrival after midnight", "Your SkyLine Itinerary - P4QW9Z",
			"Dep Check-in/Bag drop Dep Arr\n\nDate From To Via Flight\nTime closes Terminal Time\n\n14 Mar\n22:50 22:05 Kolkata Bengaluru 6E 6512 01:35\n27\n\n" +
				"Booking Reference Booking Status Date Of Booking* Payment Status\n\n\nP4QW9Z Confirmed 01 Mar 27 05:47:27* Complete\n",
			[]flightLeg{{"6E 6512", "CCU", "BLR", "2027-03-14 22:50 +0530", "2027-03-15 01:35 +0530"}}, "P4QW9Z"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts("SkyLine <itinerary@skyline.example.in>", tt.subject, tt.text, sent)
			checkLegs(t, flightLegs(facts), tt.want)
			for _, f := range facts {
				if f.Segment != nil && f.Segment.Reservation != tt.ref {
					t.Errorf("reservation %q, want %q", f.Segment.Reservation, tt.ref)
				}
			}
		})
	}
	// A row whose second clock is no check-in's close before the first
	// is no such row: "10:00 12:00 Delhi Mumbai SG 1 13:00" tells nothing
	// of which clock departs.
	facts := mailFacts("SkyLine <itinerary@skyline.example.in>", "Timetable", "12Mar27 10:00 12:00 Delhi Mumbai SG 8157 13:00\n", sent)
	if legs := flightLegs(facts); len(legs) != 0 {
		t.Errorf("legs %+v from a row with no check-in's close", legs)
	}
}

// TestFlattenedRouteBeforeNumber: an itinerary whose rows a PDF ran into
// one line prints each flight's route, two names with their codes,
// before its number and its clocks after it: each route is its own
// flight's, not the flight's before it.
func TestFlattenedRouteBeforeNumber(t *testing.T) {
	text := "Travel ItineraryBooking Details Booking Date : Mon 01 Feb 2027 Name : SITI AMINAH Contact : 60 (tel)Guest Details 1. MS SITI AMINAH" +
		"Flight Details Flight Departing Arriving Penang (PEN) Kuching (KCH) FY2130 Penang International Airport Kuching International Airport ECONOMY Fri 12 Mar 2027, 0715 hrs ( 7:15AM) Fri 12 Mar 2027, 0920 hrs ( 9:20AM) PROMO " +
		"Kuching (KCH) Penang (PEN) FY2131 Kuching International Airport Penang International Airport ECONOMY Sun 14 Mar 2027, 1810 hrs ( 6:10PM) Sun 14 Mar 2027, 2015 hrs ( 8:15PM) PROMO In-flight services on next page\n"
	facts := mailFacts("SkyWing <itinerary@skywing.example.my>", "SkyWing Travel Itinerary", text, time.Date(2027, 2, 1, 9, 0, 0, 0, time.UTC))
	checkLegs(t, flightLegs(facts), []flightLeg{
		{"FY 2130", "PEN", "KCH", "2027-03-12 07:15 +0800", "2027-03-12 09:20 +0800"},
		{"FY 2131", "KCH", "PEN", "2027-03-14 18:10 +0800", "2027-03-14 20:15 +0800"},
	})
}

// TestStatusCodeNoPlace: a printout's status column ("OK", "HK1") beside
// where the arrival's place stands is no place of the flight.
func TestStatusCodeNoPlace(t *testing.T) {
	text := "SEGMENTI DI VIAGGIO\n\nVOLO ORIGINE / DESTINAZIONE PARTENZA / ARRIVO CHECK-IN DA CLASS STATO\n\nAgadir  - Terminal 1 mar, 16 mar 2027   09:30  \n\n\nBasic\nmar, 16 mar 2027   06:30   OK\n \n3O211   Y\n" +
		"Parigi - Orly  mar, 16 mar 2027   13:50  \n(NON-STOP)\n"
	for _, f := range mailFacts("Air Example <noreply@airexample.example.ma>", "Conferma della prenotazione 81830001", text, time.Date(2027, 2, 1, 9, 0, 0, 0, time.UTC)) {
		if s := f.Segment; s != nil {
			for _, p := range []*extract.Place{s.From, s.To} {
				if p != nil && (p.Name == "OK" || p.Code == "OK") {
					t.Errorf("a place %+v from the status column", *p)
				}
			}
		}
	}
}

// TestDoubleSpacedTicketReceipt: an Amadeus e-ticket receipt whose text
// came double-spaced (a blank line after every line, as a PDF or a paste
// gives it) still pairs each row with its arrival's line, the
// terminals' lines between, and an open jaw's second row its own
// departure.
func TestDoubleSpacedTicketReceipt(t *testing.T) {
	text := "ELECTRONIC TICKET\n\nPASSENGER ITINERARY RECEIPT\n\nBOOKING REF : AMADEUS: 3XQ7PA, AIRLINE: LO/KQ2W7R\n\n" +
		"FROM /TO FLIGHT CL DATE DEP FARE BASIS NVB NVA BAG ST\n\nWARSAW LO 281 Y 14MAR 0745 YLO1 14MAR 14MAR 23K OK\n\nTERMINAL:A\n\nLONDON LHR ARRIVAL TIME: 0935\n\nTERMINAL:2\n\n" +
		"MANCHESTER LO 286 Y 21MAR 1205 YLO1 21MAR 21MAR 23K OK\n\nTERMINAL:1\n\nWARSAW ARRIVAL TIME: 1530\n\nAT CHECK-IN, PLEASE SHOW A PICTURE IDENTIFICATION\n"
	facts := mailFacts("Travel Agency <tickets@agency.example.pl>", "ELECTRONIC TICKET PASSENGER ITINERARY RECEIPT", text, time.Date(2027, 2, 1, 9, 0, 0, 0, time.UTC))
	checkLegs(t, flightLegs(facts), []flightLeg{
		{"LO 281", "WAW", "LHR", "2027-03-14 07:45 +0100", "2027-03-14 09:35 +0000"},
		{"LO 286", "MAN", "WAW", "2027-03-21 12:05 +0000", "2027-03-21 15:30 +0100"},
	})
}

// TestAmountlessBillNotices: a card's or a service's notice that its
// bill's amount is set, which Japanese issuers send without the amount
// (foreign-32b's card notices), is a bill due from its sender, by the day
// its label gives ("お支払日"); its subject and its text say so both, so a
// forward's note under such a subject is none.
func TestAmountlessBillNotices(t *testing.T) {
	sent := time.Date(2027, 4, 5, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, text, want string
	}{
		{"a Japanese card's amount set, its payment day", "さくらカード <info@sakura-card.example.jp>", "4月のご請求金額が確定しました",
			"いつもさくらカードをご利用いただき、ありがとうございます。\n4月のご請求金額が確定しました。\n\nお支払いについて\nお支払日 ：2027年4月27日\n\nご利用明細はアプリでご確認ください。\n",
			" |  | due | 2027-04-27"},
		{"a Japanese card's notice of its next payment, no day", "みなとカード <info@minato-card.example.jp>", "次回お支払金額のお知らせ",
			"弊社カードをご利用いただきありがとうございます。\n次回お支払金額のお知らせです。\nアプリでご利用明細をご確認ください。\n",
			" |  | due | "},
		{"a note on a bill of nothing, to whom it may concern", "みなとカード <info@minato-card.example.jp>", "お支払い金額のお知らせ",
			"みなとカード\n2027 年 4 月 16 日  お支払い金額のお知らせ\nいつもみなとカードをご利用いただきありがとうございます。\nお支払い金額をご案内いたします。\n※ 請求金額の確定前にキャンセルされたり、お支払いいただくことにより、請求金額が0円となった方にも、ご利用明細のご案内をお送りしています。\nご利用明細を確認する\n",
			" |  | due | "},
		{"an English bill left to the site", "Brightwater <billing@brightwater.example.com>", "Your new bill is ready",
			"Hi Sam,\nYour new bill is ready to view online.\nPayment due date: April 20, 2027\nLog in to see the details.\n",
			" |  | due | 2027-04-20"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := oneBill(t, mailFacts(tt.from, tt.subject, tt.text, sent))
			if got := billLine(b); got != tt.want {
				t.Errorf("bill %q, want %q", got, tt.want)
			}
		})
	}
	for _, f := range mailFacts("Sam <sam@example.com>", "Fwd: Your new bill is ready", "See below, can you pay it?\n", sent) {
		if f.Bill != nil {
			t.Errorf("a bill from a forward's note: %+v", f.Bill)
		}
	}
}

// TestJapaneseScheduledPayment: a card's notice of its next payment
// labels the amount as scheduled ("お支払い予定金額") and the day as the
// payment's ("お支払い日"), each glued to its value.
func TestJapaneseScheduledPayment(t *testing.T) {
	b := oneBill(t, mailFacts("みなとカード <info@minato-card.example.jp>", "次回お支払い予定金額のご案内",
		"いつもご利用いただき、ありがとうございます。次回のお支払い予定金額をご案内いたします。\nお支払い日2027年5月27日\nお支払い予定金額12,480円\n",
		time.Date(2027, 5, 10, 9, 0, 0, 0, time.UTC)))
	if got, want := billLine(b), " | 12480 JPY | due | 2027-05-27"; got != want {
		t.Errorf("bill %q, want %q", got, want)
	}
}

// TestAmountlessNoticesMoreLanguages: foreign-31b's bills that gave
// nothing (opened this session): a notice that the bill is in the
// account ("Ihre aktuelle Vodafone-Rechnung steht ab sofort … zur
// Verfügung", "e-faturanız sisteme yüklenmiştir") under a subject that
// names a bill, and a reminder of an unpaid one ("Aanmaning", "openstaande
// factuur"), are bills due. The issuer is the name the mail signs in full
// ("Sonny Bride" signs "Sonny Bride Security"), less the city after the
// domain's name ("İSKİ İstanbul" is İSKİ of iski.istanbul).
func TestAmountlessNoticesMoreLanguages(t *testing.T) {
	sent := time.Date(2027, 4, 5, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, text, issuer string
	}{
		{"German, the bill in the account", "Funkwelle <rechnung@funkwelle.example>", "Ihre Funkwelle-Rechnung ist verfügbar",
			"Hallo Erika Beispiel,\n\nIhre aktuelle Funkwelle-Rechnung steht ab sofort in Ihrem Kundenkonto zur Verfügung.\n\nIhr Funkwelle-Team\n", "Funkwelle"},
		{"Turkish, the e-invoice uploaded", "Hatnet <bildirim@hatnet.example>", "Hatnet Aylık Faturanız",
			"Değerli müşterimiz, hattınıza ait son dönem e-faturanız sisteme yüklenmiştir. Güncel fatura tutarınızı görüntülemek için giriş yapınız.\n", "Hatnet"},
		{"Dutch, a reminder signed in full", "Lindeboom Beveiliging <info@lindeboombeveiliging.example>", "Aanmaning.",
			"Geachte heer,\nU heeft een openstaande factuur waarvan de betalingstermijn is verlopen.\nWij verzoeken u deze voor de 20ste van deze maand te betalen.\nMet vriendelijke groeten,\nLindeboom Beveiliging Noord\nJ. de Vries\n", "Lindeboom Beveiliging Noord"},
		{"Turkish, a city after the name", "SUKAN İzmir <fatura@sukan.example>", "SUKAN e-Arşiv Fatura Bilgilendirmesi",
			"Abone numaranıza ait son dönem su tüketim faturanız oluşturulmuştur. Son ödeme tarihi geçmeden ödemenizi yapabilirsiniz.\n", "SUKAN"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := oneBill(t, mailFacts(tt.from, tt.subject, tt.text, sent))
			if b.Status != "due" || b.Issuer != tt.issuer {
				t.Errorf("bill %q from %q, want due from %q", b.Status, b.Issuer, tt.issuer)
			}
		})
	}
	// A product's line above the mail's last lines is no signature
	// ("Uber Go", the ride's kind).
	b := oneBill(t, mailFacts("Rideco <billing@rideco.example>", "Your Rideco invoice INV-4471",
		"Invoice number: INV-4471\nAmount due: $24.00\nDue date: April 30, 2027\n\nTrip details\nRideco Go\n11.52 kilometres, 26 minutes\n\nQuestions?\nOur support team is happy to help.\nVisit our help centre.\nThank you.\n", sent))
	if b.Issuer != "Rideco" {
		t.Errorf("issuer %q, want Rideco", b.Issuer)
	}
}
