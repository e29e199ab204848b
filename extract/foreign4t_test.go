package extract_test

import (
	"testing"
)

// Classes found by a fresh outside measurement of travel mail other
// projects wrote (issue 46, xforeign4t, 2026-11-29), each proved here in
// other words than the mails that showed it.

// TestNordicDottedClocksAfterMarkers: a Nordic ticket prints a stop's
// clock with a dot after the station its marker opens ("Avg. Umeå C
// 07.42"), and its number after an abbreviated label ("Bilj. nr",
// "Billetnr."); a promotion under it is no deal of its own.
func TestNordicDottedClocksAfterMarkers(t *testing.T) {
	for _, c := range []struct{ from, subject, body, from2, dep, ref string }{
		{"Norrtåg <biljett@norrtag.example>", "Din biljett",
			"3 mar 2028 kl 07.42\nENKELRESA\nNorrtåg, Tåg 7002\nAvg. Umeå C 07.42\nAnk. Örnsköldsvik C 08.55\n2 klass\nBilj. nr NRT4471K0003\n\nRes från 99 kr i vår!\n",
			"Umeå C", "07:42", "NRT4471K0003"},
		{"Vestbanen <billett@vestbanen.example>", "Din billett",
			"Fredag 12. mai 2028\nAvg. Drammen st. 16.05\nAnk. Kongsberg st. 16.48\nTog 427\nBillettnr. VB55821\n",
			"Drammen st", "16:05", "VB55821"},
	} {
		res := review4Mail(c.from, c.subject, c.body)
		found := false
		for _, f := range res.Facts {
			if s := f.Segment; s != nil && s.From != nil && s.Depart != nil {
				found = true
				if s.Depart.Time.Format("15:04") != c.dep || s.Reservation != c.ref {
					t.Errorf("%s: departs %s, booking %q; want %s, %q", c.subject, s.Depart.Time.Format("15:04"), s.Reservation, c.dep, c.ref)
				}
			}
		}
		if !found {
			t.Errorf("%s: no leg from %s", c.subject, c.from2)
		}
	}
	// "Abreise 12.05" is no stop's clock: no station between.
	res := review4Mail("Hotel <info@hotel.example.de>", "Ihre Buchung", "Buchungsnummer: 44120\nAnreise 10.05\nAbreise 12.05\n")
	for _, f := range res.Facts {
		if s := f.Segment; s != nil && f.Kind != "hotel" {
			t.Errorf("a stay's dates read as a leg: %+v", s)
		}
	}
}

// TestBusTerminalCompound: a stop at a bus terminal written as one
// compound word ("Fjärrbussterminalen") makes a leg that names no train a
// bus's.
func TestBusTerminalCompound(t *testing.T) {
	res := review4Mail("Kustlinjen <bokning@kustlinjen.example>", "Bokningsbekräftelse KL-40218",
		"Bokningsnummer: KL-40218\n\nLördag 20 maj 2028\nAvg: 07:10 UMEÅ Fjärrbussterminalen\nAnk: 09:25 SKELLEFTEÅ Resecentrum\n")
	n := 0
	for _, f := range res.Facts {
		if f.Segment != nil {
			n++
			if f.Kind != "bus" {
				t.Errorf("a coach's leg read as a %s: %+v", f.Kind, f.Segment)
			}
		}
	}
	if n == 0 {
		t.Error("no leg")
	}
}

// TestTownAfterBookingInIsNoStayName: "Your booking in Porto", "Ihre
// Buchung in Bamberg": the town after a word for "in" is where the stay
// is, not its name.
func TestTownAfterBookingInIsNoStayName(t *testing.T) {
	for _, c := range []struct{ subject, body, bad string }{
		{"Ihre Buchung in Bamberg ist bestätigt", "Buchungsnummer: GZP-771201\nAnreise: 18.02.2028\nAbreise: 20.02.2028\nAdresse: Obere Sandstraße 3, 96049 Bamberg\n", "Bamberg"},
		{"Your booking in Lisbon is confirmed", "Confirmation number: 5518831\nCheck-in: 7 April 2028\nCheck-out: 10 April 2028\nRua Augusta 12, Lisbon\n", "Lisbon"},
	} {
		res := review4Mail("Desk <desk@stays.example>", c.subject, c.body)
		for _, f := range res.Facts {
			if s := f.Segment; s != nil && s.Hotel == c.bad {
				t.Errorf("%s: the town %q read as the stay's name", c.subject, s.Hotel)
			}
		}
	}
}

// TestTicketIssuedIsNoOrder: a rail retailer's mail that issues tickets
// under an order's number, its journey in a layout no reader reads (or
// with no clock at all), is no shop's order; its "Off-Peak Return" is no
// parcel sent back. A shop's order of a model railway names no ticket
// issued and stays an order.
func TestTicketIssuedIsNoOrder(t *testing.T) {
	for _, c := range []struct {
		subject, body string
		order         bool
	}{
		{"Your booking confirmation: Bath Spa - Bristol", "Order ID: 77120044319\nYour tickets have been issued. Your e-tickets are attached.\nRailcard applied.\nOff-Peak Return, return within 1 month\nValid on any train, 18 March 2028\nTotal amount £12.40\n", false},
		{"Votre commande 88120", "Commande n° 88120\nVos billets de train sont en pièce jointe.\nTrajet : Lyon Part-Dieu - Grenoble, valable le 18/03/2028 dans tous les trains au départ de la gare\nCarte Avantage appliquée, 2de classe\nTotal : 21,60 €\n", false},
		{"Your order #44120", "Order number: 44120\nThanks for your order!\n1 x Model railway starter set (OO gauge, train and track)\n1 x Station building kit\nTotal: £89.99\n", true},
	} {
		res := review4Mail("Shop <orders@railshop.example>", c.subject, c.body)
		got := false
		for _, f := range res.Facts {
			if f.Order != nil {
				got = true
			}
		}
		if got != c.order {
			t.Errorf("%s: order %v, want %v (%+v)", c.subject, got, c.order, res.Facts)
		}
	}
}

// TestArrivalAtCodeThatIsALabel: a row that arrives at Frankfurt
// "(FRA)", the code Danish "fra" (from) spells, is the arrival's, not a
// departure's labelled line: the return leg of a two-row itinerary.
func TestArrivalAtCodeThatIsALabel(t *testing.T) {
	res := review4Mail("Reisebüro <buchung@reisen.example>", "Ihre Flugbuchung",
		"Buchungscode: TP7K2Q\n\n02 Apr 2028  06:15  Frankfurt (FRA)  TP 573\n02 Apr 2028  08:25  Lisbon    (LIS)\n\n09 Apr 2028  07:40  Lisbon    (LIS)  TP 576\n09 Apr 2028  11:35  Frankfurt (FRA)\n")
	found := false
	for _, f := range res.Facts {
		if s := f.Segment; s != nil && s.Number == "TP 576" {
			found = true
			if s.From.Code != "LIS" || s.To.Code != "FRA" || s.Arrive == nil || s.Arrive.Time.Format("15:04") != "11:35" {
				t.Errorf("the return leg: %+v", s)
			}
		}
	}
	if !found {
		t.Error("no return leg TP 576")
	}
}

// TestDayThenFromIsNoStation: a leg in one sentence whose train's label
// comes first, then its day, then a word for "from" ("Train 8931 on
// 21/03/2028 from Milano Centrale at 07:15 to …"): the station is what
// follows the word, not "on 21/03/2028 from Milano Centrale". "de" in a
// name stays the name's ("Paris Gare de Lyon").
func TestDayThenFromIsNoStation(t *testing.T) {
	for _, c := range []struct{ body, from string }{
		{"Booking code: QKR2TM\nTrain 8931 on 21/03/2028 from Milano Centrale at 07:15 to Bologna Centrale at 08:20\n", "Milano Centrale"},
		{"Buchungsnummer: ET-66120\nZug RE 4410 am 18.03.2028 von Dresden Hbf um 08:12 nach Leipzig Hbf um 09:55\n", "Dresden Hbf"},
		{"Booking code: QKR2TN\nTrain 6611 on 21/03/2028 from Paris Gare de Lyon at 07:15 to Lyon Part-Dieu at 09:11\n", "Paris Gare de Lyon"},
	} {
		res := review4Mail("Rail <noreply@rail.example>", "Your ticket", c.body)
		found := false
		for _, f := range res.Facts {
			if s := f.Segment; s != nil && s.From != nil {
				found = true
				if s.From.Name != c.from {
					t.Errorf("from %q, want %q", s.From.Name, c.from)
				}
			}
		}
		if !found {
			t.Errorf("no leg from %s", c.from)
		}
	}
}
