package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestFlightRows: a flight's fields on rows of their own, as a flattened
// HTML table gives them (blank lines between, so the leg spans more than
// ten lines), the airports on "From" and "To" rows and the times on
// "Departure" and "Arrival" rows; and stops printed above the number,
// where the rows below belong to the next flight.
func TestFlightRows(t *testing.T) {
	rows := func(num, from, to, date, dep, arr string) string {
		return strings.Join([]string{"Flight " + num, "From " + from, "To " + to, "Date " + date, "Departure " + dep, "Arrival " + arr}, "\n\n")
	}
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"rows", "Booking reference: WQ3RT7\n\nOutbound\n\n" + rows("A3 602", "Athens (ATH)", "Thessaloniki (SKG)", "Monday, 12 July 2027", "07:15", "08:10") +
			"\n\nReturn\n\n" + rows("A3 611", "Thessaloniki (SKG)", "Athens (ATH)", "Friday, 16 July 2027", "20:30", "21:25") + "\n",
			[]string{"A3 602 ATH>SKG 2027-07-12T07:15+03:00 2027-07-12T08:10+03:00", "A3 611 SKG>ATH 2027-07-16T20:30+03:00 2027-07-16T21:25+03:00"}},
		{"stops above the number", "Booking reference: XXX007\n\nDeparture\n\nBerlin (TXL)\nFri, 03 Feb 2017, 18:25\nBrussels (BRU)\nFri, 03 Feb 2017, 19:45\nSN 2588\nBrussels Airlines\n\nNon stop\n\n" +
			"Return\n\nBrussels (BRU)\nSun, 05 Feb 2017, 20:40\nBerlin (TXL)\nSun, 05 Feb 2017, 22:00\nSN 2591\nBrussels Airlines\n",
			[]string{"SN 2588 TXL>BRU 2017-02-03T18:25+01:00 2017-02-03T19:45+01:00", "SN 2591 BRU>TXL 2017-02-05T20:40+01:00 2017-02-05T22:00+01:00"}},
		// Both times on a line under the route line: labelled, or a span.
		{"labelled times", "OUTBOUND\nSat 04 Feb 2017   Flight LS563\nManchester (MAN) to Palma (PMI)\nDeparts 06:15   Arrives 09:50\n",
			[]string{"LS 563 MAN>PMI 2017-02-04T06:15+00:00 2017-02-04T09:50+01:00"}},
		{"a span of times", "Hinflug\n4Y 142   Frankfurt (FRA) – Windhoek (WDH)\n12.02.2017 20:35 – 13.02.2017 06:50\n",
			[]string{"4Y 142 FRA>WDH 2017-02-12T20:35+01:00 2017-02-13T06:50+02:00"}},
		{"a date before the labels", "Voo S4 123\nPonta Delgada (PDL) → Lisboa (LIS)\n22/02/2017 partida 13:05 chegada 16:40\n",
			[]string{"S4 123 PDL>LIS 2017-02-22T13:05-01:00 2017-02-22T16:40+00:00"}},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: "booking@air.example.com"}}, Subject: "Your flight booking", Text: c.text,
			Date: time.Date(2017, 1, 8, 9, 0, 0, 0, time.UTC)}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && f.Kind == extract.KindFlight && s.Depart != nil && s.Arrive != nil {
				got = append(got, s.Number+" "+s.From.Code+">"+s.To.Code+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+s.Arrive.Format("2006-01-02T15:04-07:00"))
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestFlightLayouts: the layouts of issue 46's flight mails that gave
// nothing or a wrong value, each in a wording of its own (the eval's
// mails hold the vendors' own).
func TestFlightLayouts(t *testing.T) {
	for _, c := range []struct {
		name, from, text string
		want             []string
	}{
		// An airport's code that is also a month's abbreviation, before
		// a clock: "LIS 11:35" is Lisbon at 11:35, not the 11th of
		// listopad.
		{"code before a clock", "booking@air.example.ch", "Hinflug – Montag, 7. Februar 2017\nTP 941   Genf GVA 06:10 → Lissabon LIS 07:45\n",
			[]string{"TP 941 GVA>LIS 2017-02-07T06:10+01:00 2017-02-07T07:45+00:00"}},
		// The arrival's own date after its label on the leg's line.
		{"arrival's date", "booking@air.example.com", "Flight UA 940\nMon, Feb 13, 2017\nChicago (ORD) 5:55 PM - Frankfurt (FRA) 9:30 AM (arrives Feb 14)\n",
			[]string{"UA 940 ORD>FRA 2017-02-13T17:55-06:00 2017-02-14T09:30+01:00"}},
		// A .com sender whose few words name no language writes its
		// slashed dates day first.
		{"day first", "reservas@air.example.com", "Vuelo IB 3102\nFecha: 09/02/2017\nMadrid (MAD) 08:15 - Lisboa (LIS) 08:35\n",
			[]string{"IB 3102 MAD>LIS 2017-02-09T08:15+01:00 2017-02-09T08:35+00:00"}},
		// Words that name no flight: the route in parentheses over the
		// number's line, the number's row over the airports' row, the
		// number beside two codes each with its clock, a code that is
		// also a word before its clock.
		{"route over the number", "booking@air.example.com", "Booking reference: QK7M2X\n\nMelbourne (MEL) to Auckland (AKL)\nNZ 124 | Fri 10 Feb 2017 | 09:10 - 14:40\n",
			[]string{"NZ 124 MEL>AKL 2017-02-10T09:10+11:00 2017-02-10T14:40+13:00"}},
		{"number's row over the airports'", "booking@air.example.com", "PNR: QK7M2X\n\nTK 1721\tThu 9 Feb 2017\nIstanbul (IST) 08:25\tHamburg (HAM) 10:30\n",
			[]string{"TK 1721 IST>HAM 2017-02-09T08:25+03:00 2017-02-09T10:30+01:00"}},
		{"codes with their clocks", "booking@air.example.com", "Booking reference: QK7M2X\n\nSV 1021  14FEB  Jeddah JED  09:30  Cairo CAI  11:45  HK\n",
			[]string{"SV 1021 JED>CAI 2017-02-14T09:30+03:00 2017-02-14T11:45+02:00"}},
		{"a word's code before its clock", "booking@air.example.com", "Confirmation code: QK7M2X\n\nAS 123: SEA 7:15 am – SFO 9:30 am, Fri, Feb 3, 2017\n",
			[]string{"AS 123 SEA>SFO 2017-02-03T07:15-08:00 2017-02-03T09:30-08:00"}},
		// A designator that is also a word ("FR", "DE", "OK") in a
		// printout's row whose date stands apart, or under a heading of
		// flights; a printout's row after a word of flights.
		{"a word's designator in a row", "booking@air.example.de", "Vorgang: QK7M2X\n\n24FEB  DE 1514  FRA HER  0610  1025  OK\n",
			[]string{"DE 1514 FRA>HER 2017-02-24T06:10+01:00 2017-02-24T10:25+02:00"}},
		{"a word's designator under a heading", "booking@air.example.com", "Booking reference: QK7M2X\n\nOUTBOUND FLIGHT\nFR 202   Mon 6 Feb 2017\nLondon Stansted (STN)   dep. 06:30\nDublin (DUB)   arr. 07:45\n",
			[]string{"FR 202 STN>DUB 2017-02-06T06:30+00:00 2017-02-06T07:45+00:00"}},
		{"a row after a word", "booking@air.example.com", "Booking reference: QK7M2X\n\nFLIGHT   KL 1234   TUE 14FEB   AMS CPH   0905   1030\n",
			[]string{"KL 1234 AMS>CPH 2017-02-14T09:05+01:00 2017-02-14T10:30+01:00"}},
		// An airline's ICAO number alone on its line under a route by
		// names, a terminal in parentheses after a name.
		{"ICAO number under a route", "booking@air.example.com", "Booking reference: QK7M2X\n\nBristol (Terminal 1) to Faro\nEZY6023\nFriday, 10 February 2017\nDep 07:05   Arr 10:55\n",
			[]string{"EZY 6023 BRS>FAO 2017-02-10T07:05+00:00 2017-02-10T10:55+00:00"}},
		// An airport's code before its clock is no ICAO number ("HEL
		// 07:30" is not flight HEL 7).
		{"code before its clock, number above", "booking@air.example.com", "Booking code: QK7M2X\n\nAY 1071, Monday 6 February 2017\nHelsinki HEL 07:30 - Oslo OSL 08:05\n",
			[]string{"AY 1071 HEL>OSL 2017-02-06T07:30+02:00 2017-02-06T08:05+01:00"}},
		// A flight with nothing under its number does not take the
		// flight's above it, read from those lines already.
		{"no leg from the flight above", "booking@air.example.com", "Booking reference: QK7M2X\n\nFlight LH 400\nMon 6 Feb 2017\nFrankfurt (FRA) 10:00 - New York (JFK) 12:45\n\nFlight LH 401\nTimes to follow\n",
			[]string{"LH 400 FRA>JFK 2017-02-06T10:00+01:00 2017-02-06T12:45-05:00"}},
		// Every flight's route and times first, its number under them
		// (an HTML card rendered to text): the outward number does not
		// take the return's route below it.
		{"numbers under their routes", "booking@air.example.com", "Booking reference:\tQK7M2X\nFlight details\nDeparture\nBerlin, Tegel Airport, DE\nFri, 03 Feb 2017, 18:25\nBrussels Airport, BE\nFri, 03 Feb 2017, 19:45\nSN 2588\nBrussels Airlines\nNon stop\nReturn\nBrussels Airport, BE\nSun, 05 Feb 2017, 20:40\nBerlin, Tegel Airport, DE\nSun, 05 Feb 2017, 22:00\nSN 2591\nBrussels Airlines\nNon stop\n",
			[]string{"SN 2588 TXL>BRU 2017-02-03T18:25+01:00 2017-02-03T19:45+01:00", "SN 2591 BRU>TXL 2017-02-05T20:40+01:00 2017-02-05T22:00+01:00"}},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: c.from}}, Subject: "Booking", Text: c.text,
			Date: time.Date(2017, 1, 8, 9, 0, 0, 0, time.UTC)}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && f.Kind == extract.KindFlight && s.Depart != nil && s.Arrive != nil {
				got = append(got, s.Number+" "+s.From.Code+">"+s.To.Code+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+s.Arrive.Format("2006-01-02T15:04-07:00"))
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestUnbookedTravel: travel in a mail that watches prices or offers a
// booking (unbooked) and names no booking's reference is no trip; the
// same legs with a reference are one.
func TestUnbookedTravel(t *testing.T) {
	const alert = "Prices for your saved search have dropped:\nDepart: Thu 10 Jun 2027\n" +
		"Cheapest: £312 return with Norse Atlantic (N0 702, 11:40 LGW → 14:25 JFK)\nWas: £389\n"
	for _, c := range []struct {
		subject, text string
		want          int
	}{
		{"Price alert: London to New York now £312", alert, 0},
		{"Your flight to New York", "Booking reference: K7XQ2M\n" + alert, 1},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Flights", Address: "no-reply@flights.example"}}, Subject: c.subject,
			Date: time.Date(2027, 5, 4, 7, 0, 0, 0, time.UTC), Text: c.text}
		n := 0
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if f.Kind == extract.KindFlight {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%q: %d flights, want %d", c.subject, n, c.want)
		}
	}
}

// TestExampleLeg: a leg on a line that opens with a word for "example"
// in a mail that names no booking is none; with a reference it stands.
func TestExampleLeg(t *testing.T) {
	const info = "Ab dem 01.06.2027 gelten neue Freigepäckmengen.\n\n" +
		"Beispiel: Flug DE 2204 Frankfurt (FRA) – Palma (PMA), Abflug 07:15, Ankunft 09:25.\n"
	for _, c := range []struct {
		text string
		want int
	}{
		{info, 0},
		{"Buchungsnummer: K7XQ2M\n" + info, 1},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Airline", Address: "service@airline.example"}}, Subject: "Neue Gepäckbestimmungen",
			Date: time.Date(2027, 5, 5, 10, 0, 0, 0, time.UTC), Text: c.text}
		n := 0
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if f.Kind == extract.KindFlight {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%.30q: %d flights, want %d", c.text, n, c.want)
		}
	}
}

// TestReceiptRowOwnDate: a receipt's table row that prints its own day
// ("02FEB27") is of that day, not of the issue date above the table; the
// price's currency code on the line under it is no flight.
func TestReceiptRowOwnDate(t *testing.T) {
	text := "Reisekvittering / Itinerary receipt\nPassasjer: Kari Nordmann   Billettnummer: 328-2401998877\n" +
		"Bestillingsreferanse: L9XWQE   Utstedt: 15.01.2027\nFlight   Fra   Til   Dato   Avgang   Ankomst Klasse Status\n" +
		"SK 4402   Oslo Gardermoen (OSL)   Tromsø (TOS)   02FEB27 07:35 09:25 Go   OK\n" +
		"SK 4431   Tromsø (TOS)   Oslo Gardermoen (OSL)   06FEB27 18:10 20:00 Go   OK\n" +
		"Totalpris: NOK 2 418,00 · Bagasje: 1PC\n"
	msg := &mime.Message{From: []mime.Address{{Address: "noreply@fly.example"}}, Subject: "Reisekvittering", Text: text,
		Date: time.Date(2027, 1, 15, 11, 0, 0, 0, time.UTC)}
	var got []string
	for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
		if s := f.Segment; s != nil && f.Kind == extract.KindFlight && s.Depart != nil && s.Arrive != nil {
			got = append(got, s.Number+" "+s.From.Code+">"+s.To.Code+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+s.Arrive.Format("2006-01-02T15:04-07:00"))
		}
	}
	want := []string{"SK 4402 OSL>TOS 2027-02-02T07:35+01:00 2027-02-02T09:25+01:00", "SK 4431 TOS>OSL 2027-02-06T18:10+01:00 2027-02-06T20:00+01:00"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
