package extract_test

import (
	"strings"
	"testing"
	"time"
)

// The sixth outside review's proofs (2026-11-29) that the extractor's own
// readers answer; the injection filters' are in extract/injection.

// TestLabelledValuesBounded: one line of a label and a date repeated
// 256 KB long took 15 s of CPU: each of a label set's 40 values ran to the
// end of the line, and every reader that dated them searched 40 strings
// of a quarter megabyte. A stay's labels with dotted dates on one line
// (1 MB) took 4-5 s. 64 KB took 4 s before, 0.3 s after.
func TestLabelledValuesBounded(t *testing.T) {
	for _, unit := range []string{"Check-in: 18 Dec 2026 ", "Check-in: 18 December 2026 ", "Prijava 18.12.2026 Odjava 21.12.2026 "} {
		text := strings.Repeat(unit, 64_000/len(unit))
		if _, d := review4Extract(review4Plain("Hotel <info@hotel.example.de>", "Your booking confirmation", text)); d > 2*time.Second*raceSlowdown {
			t.Errorf("one line of %d bytes of %q held the reader %v", len(text), unit, d)
		}
	}
}

// TestConditionDoesNotHideState: "if", "unless" and "otherwise" make a
// return's phrase a condition ("if not collected, it is returned"); an
// earlier sentence's condition is no condition on a later sentence's
// cancellation or delivery.
func TestConditionDoesNotHideState(t *testing.T) {
	for _, c := range []struct{ subject, body, want string }{
		{"Your order #403-1234567-7654321", "Hello Alex,\n\nOrder #403-1234567-7654321\n\nWe are sorry, but one of the items is no longer available. If you paid by card, the amount will be refunded to your card within 5 days. Your order has been cancelled.\n", "cancelled"},
		{"Your order update", "Hi Alex,\n\nOrder #112-5550001-7777777\n\nGood news! If you were not at home, don't worry: your package has been delivered to the front desk of your building.\n\nTracking number: 1Z999AA10123456784\n", "delivered"},
		{"Dein Paket", "Hallo Alex,\n\nBestellung 4471-2290\n\nFalls du Fragen hast, antworte einfach auf diese Mail. Deine Bestellung wurde storniert.\n", "cancelled"},
		// A condition on the state's own clause still holds it.
		{"Your parcel is waiting", "Hi Alex,\n\nOrder #112-5550002-7777777\n\nYour parcel is at the pickup point. If it is not collected within 7 days it will be returned to the sender.\n\nTracking number: 1Z999AA10123456784\n", "shipped"},
	} {
		res := review4Mail("Shop <orders@shopexample.com>", c.subject, c.body)
		got := ""
		for _, f := range res.Facts {
			if f.Order != nil {
				got = string(f.Order.Status)
			}
		}
		if got != c.want {
			t.Errorf("%s: status %q, want %q", c.subject, got, c.want)
		}
	}
}

// TestNumberedOrderIsNoPhoneLine: a Turkish shop's order line, "0850-333-
// 0333 numaralı sipariş hattımız", is a phone number, no order's.
func TestNumberedOrderIsNoPhoneLine(t *testing.T) {
	res := review4Mail("Mağaza <bilgi@magaza-ornek.com.tr>", "Siparişiniz kargoda",
		"Merhaba,\n\nSiparişiniz kargoya verildi.\nSipariş hattı: 0850-333-0333 numaralı sipariş hattımız 7/24 açıktır.\nKargo takip no: 1234567890123\n")
	for _, f := range res.Facts {
		if f.Order != nil && f.Order.Number == "0850-333-0333" {
			t.Errorf("a phone number read as the order's number: %+v", f.Order)
		}
	}
}

// TestPolishFromCroatianSender: "listopad" is October only in Croatian
// mail; a Croatian host's Polish or Czech confirmation typed without
// diacritics is Polish or Czech, its "listopada" November.
func TestPolishFromCroatianSender(t *testing.T) {
	for _, body := range []string{
		"Dzien dobry,\n\nPotwierdzamy rezerwacje w naszym apartamencie. Prosimy o wplate zaliczki.\n\nNumer rezerwacji: 4471823\nApartamenty Jadran, Split\nZameldowanie: 18 listopada 2027\nWymeldowanie: 21 listopada 2027\n\nPozdrawiamy\n",
		"Dobry den,\n\nvase rezervace je potvrzena.\n\nCislo rezervace: 4471823\nApartman Jadran, Split\nPrijezd: 18. listopadu 2027\nOdjezd: 21. listopadu 2027\n",
	} {
		res := review4Mail("Apartmani Jadran <info@apartmani-jadran.hr>", "Potwierdzenie rezerwacji", body)
		for _, f := range res.Facts {
			if s := f.Segment; s != nil && s.CheckIn != nil && s.CheckIn.Time.Month() != time.November {
				t.Errorf("a November stay checks in %v", s.CheckIn.Time.Format("2006-01-02"))
			}
		}
	}
}

// TestCoachAboveConnectingFlight: an airline's coach to the airport,
// its stops labelled as a flight's are, over a sentence naming the
// connecting flight, is no flight of that number (xrail3 found it; the
// route above a number is read when nothing is below it).
func TestCoachAboveConnectingFlight(t *testing.T) {
	for _, coach := range []string{"Coach: Express Bus 1469", "Bus 1469", "Zug: ICE 723"} {
		res := review4Mail("Lufthansa <online@booking-lufthansa.com>", "Your booking confirmation - Booking code 7QXK2L",
			"Dear Mr Morgan,\n\nBooking code: 7QXK2L\n\n"+coach+"\nDeparture: Strasbourg Gare Routiere (XER) 12 March 2027 08:15\n"+
				"Arrival: Frankfurt Airport (FRA) 12 March 2027 10:45\nOperated by: Lufthansa Express Bus\n"+
				"Your connecting flight LH 400 to New York leaves from Terminal 1.\n\nHave a pleasant journey.\n")
		for _, f := range res.Facts {
			if s := f.Segment; s != nil && s.Type == "flight" {
				t.Errorf("%s: a flight %s from %v", coach, s.Number, s.From)
			}
		}
	}
	// The flight of the sentence is read when its stops are its own.
	res := review4Mail("Lufthansa <online@booking-lufthansa.com>", "Your booking confirmation - Booking code 7QXK2L",
		"Booking code: 7QXK2L\n\nDeparture: Frankfurt (FRA) 12 March 2027 13:20\nArrival: New York JFK (JFK) 12 March 2027 16:05\nYour flight LH 400 leaves from Terminal 1.\n")
	if len(res.Facts) != 1 || res.Facts[0].Segment == nil || res.Facts[0].Segment.Number != "LH 400" {
		t.Errorf("the flight under its own stops: %+v", res.Facts)
	}
}

// TestDepartureWithoutArrival: a route line and a departure line, no
// arrival's: the flight with its departure. The route's code FRA is
// also Danish "fra" (from), a departure label's word: the labelled line
// with a clock is the departure, not the route line.
func TestDepartureWithoutArrival(t *testing.T) {
	for _, body := range []string{
		"Booking code: 7QXK2L\n\nFlight LH 400 Frankfurt (FRA) to New York (JFK)\nDeparture: 12 March 2027 13:20\n\nHave a good trip!\n",
		"Buchungscode: 7QXK2L\n\nFlug LH 400 Frankfurt (FRA) → New York (JFK)\nAbflug: 12.03.2027 13:20\n\nGute Reise!\n",
	} {
		res := review4Mail("Lufthansa <online@booking-lufthansa.com>", "Booking 7QXK2L", body)
		if len(res.Facts) != 1 || res.Facts[0].Segment == nil || res.Facts[0].Segment.Number != "LH 400" ||
			res.Facts[0].Segment.From.Code != "FRA" || res.Facts[0].Segment.To.Code != "JFK" || res.Facts[0].Segment.Depart == nil {
			t.Errorf("%q: %+v", body, res.Facts)
		}
	}
}
