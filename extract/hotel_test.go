package extract

import (
	"testing"
	"time"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestHotelName: a hotel label's value loses the address that follows the
// name on its line, and keeps a comma that only names a city.
func TestHotelName(t *testing.T) {
	for v, want := range map[string]string{
		"Premier Inn London County Hall":               "Premier Inn London County Hall",
		"Hotel Bristol, Strandkaien 2, 5013 Bergen":    "Hotel Bristol",
		"Adlon Kempinski, Berlin":                      "Adlon Kempinski, Berlin",
		"Adlon Kempinski, Berlin, Unter den Linden 77": "Adlon Kempinski, Berlin",
		"Hotel 1898, Barcelona":                        "Hotel 1898, Barcelona",
		", 12 Main Street":                             ", 12 Main Street",
	} {
		if got := hotelName(v); got != want {
			t.Errorf("hotelName(%q) = %q, want %q", v, got, want)
		}
	}
}

// TestNameOverAddress: a hotel's name is read from the line over its
// street address or before the address on its own line, when the name is
// a lodging's or the sender's; footers, dates and greetings name nothing.
func TestNameOverAddress(t *testing.T) {
	for _, c := range []struct {
		sender, subject, text, want string
	}{
		{"Hilton Reservations", "Your reservation", "Hilton Amsterdam\n\nApollolaan 138, 1077 BG Amsterdam\n", "Hilton Amsterdam"},
		{"Booking.com", "Booking confirmed", "Lisboa Plaza Hotel\nTravessa do Salitre 7, 1269-066 Lisbon\n", "Lisboa Plaza Hotel"},
		{"Cabinn Hotels", "Booking 918273", "Venlig hilsen\nCabinn Copenhagen, Kongens Nytorv 30\n", "Cabinn Copenhagen"},
		{"Best Western", "Reservierung", "Ihr Team vom Best Western Hotel Bremen City\nBahnhofsplatz 8, 28195 Bremen\n", "Best Western Hotel Bremen City"},
		{"Hotels", "Stay", "12 Main Street\nThe Grand Hotel\n1 King Street, London\n", "The Grand Hotel"},
		{"Barceló Hotel Group", "Tu reserva", "Barceló Sevilla Renacimiento\nAvenida Álvaro Alonso Barba, s/n, 41092 Sevilla\n", "Barceló Sevilla Renacimiento"},
		{"Hôtels", "Séjour", "L'équipe de l'Auberge du Lac, 12 route du Lac, 74290 Talloires\n", "Auberge du Lac"},
		{"Accor", "Réservation", "Merci d'avoir choisi l'ibis Paris Gare de Lyon.\nibis Paris Gare de Lyon\n31 bis rue Diderot, 75012 Paris\n", "ibis Paris Gare de Lyon"},
		// A company's footer, a date after a comma, a name nobody else uses.
		{"Booking.com", "Booking confirmed", "Booking.com B.V.\nHerengracht 597, 1017 CE Amsterdam\n", ""},
		{"Booking.com", "Booking confirmed", "Check-in Friday, October 15, 2027\n", ""},
		{"Example Travel", "Your trip", "Reception Desk\nVia Roma 12, Rapallo\n", ""},
	} {
		m := &msgContext{senderName: c.sender}
		if got := m.nameOverAddress(c.subject, c.text, true); got != c.want {
			t.Errorf("nameOverAddress(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestColumnDates: a stay's dates under a header row that names check-in
// and check-out, in the headers' order, in one date order per row; the
// row of headings may be a printed page's whole heading, 300 bytes.
func TestColumnDates(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Entrada Salida Noches\n\n12/02/2028 15/02/2028 3\n", "2028-02-12 2028-02-15"},
		{"Check-out | Check-in\n2028-03-09 | 2028-03-07\n", "2028-03-07 2028-03-09"},
		{"Arrival Departure\nSee below\n\n\n1 May 2028 3 May 2028\n", ""},
		{"Entrada 12/02/2028 Salida 15/02/2028\n", ""},
		// A confirmation's whole heading row flattened to one line.
		{"YOUR BOOKING Arrival Date Departure Date Number of Rooms Number of Guests YOUR ROOM Room Type Guest Name Adults Children Arrival Flight / Time\n\nFriday , 14/04/28 Monday , 17/04/28\n", "2028-04-14 2028-04-17"},
	} {
		m := &msgContext{}
		in, out := m.columnDates(c.text, zoneHint{})
		got := ""
		if in != nil && out != nil {
			got = in.Time.Format("2006-01-02") + " " + out.Time.Format("2006-01-02")
		}
		if got != c.want {
			t.Errorf("columnDates(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestStayNotTrain: "Arrivée" and "Départ" head a hotel's dates as well as
// a train's stops; a hotel near a station ("Gare de Lyon") whose lines
// make no train leg (a day's name is no station) is read as a stay.
func TestStayNotTrain(t *testing.T) {
	msg := &mime.Message{From: []mime.Address{{Name: "Accor", Address: "reservation@accor.com"}},
		Subject: "Confirmation de votre réservation n° 7HX2K91",
		Date:    time.Date(2027, 11, 16, 20, 0, 0, 0, time.UTC),
		Text: "Merci d'avoir choisi l'ibis Paris Gare de Lyon.\n\nNuméro de réservation : 7HX2K91\n" +
			"Arrivée : lundi 6 décembre 2027 à partir de 12h00\nDépart : mercredi 8 décembre 2027 avant 12h00\n" +
			"Chambre : Chambre Standard avec 1 lit double\n"}
	var kinds []string
	for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
		kinds = append(kinds, f.Kind)
		if f.Kind == KindHotel && f.Segment.CheckIn.Format("2006-01-02") != "2027-12-06" {
			t.Errorf("check-in %v, want 2027-12-06", f.Segment.CheckIn)
		}
	}
	if len(kinds) != 1 || kinds[0] != KindHotel {
		t.Errorf("kinds %v, want one hotel", kinds)
	}
}

// TestDatesAloneNoStay: an unlabelled date range with nothing else of a
// stay (no hotel's name, no booking number) is none, as on an event's
// page that speaks of a night; labelled check-in and check-out dates
// still are one without a name.
func TestDatesAloneNoStay(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"FOSDEM\n03-04 February 2024 add to your calendar\nBrussels, Belgium\n" +
			"- The night before the first day there is a beer event in the city centre;\n", 0},
		{"Your stay\nCheck-in: 15/10/2027\nCheck-out: 17/10/2027\nRoom: double\n", 1},
		// A fair about hotels: its name is only a line that says "hotel".
		{"Thanks for registering.\nHotel & Hospitality Expo 2027\n19-21 October 2027, ExCeL London\nHotel partners offer 15% off.\n", 0},
		{"Thanks for your booking.\nHotel Adler Bamberg\n19-21 October 2027\nBooking number: 5512094\n", 1},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Listings", Address: "info@foss.example"}}, Subject: "Events",
			Date: time.Date(2023, 11, 1, 9, 0, 0, 0, time.UTC), Text: c.text}
		n := 0
		for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
			if f.Kind == KindHotel {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%.30q: %d hotels, want %d", c.text, n, c.want)
		}
	}
}

// TestRangeDates: a stay's dates given as a range in a sentence, in the
// words of several languages; a range that is no stay (months apart, the
// end before the start) gives none.
func TestRangeDates(t *testing.T) {
	ref := time.Date(2027, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ text, want string }{
		{"ein Doppelzimmer vom 10. bis 13. Dezember 2027 (3 Nächte)", "2027-12-10 2027-12-13"},
		{"a Superior Double room from Thursday 18 November to Sunday 21 November 2027.", "2027-11-18 2027-11-21"},
		{"su reserva del 26 al 28 de noviembre de 2027, habitación doble", "2027-11-26 2027-11-28"},
		{"Votre séjour du 30 novembre au 2 décembre 2027", "2027-11-30 2027-12-02"},
		{"pobyt od 29 grudnia 2027 do 2 stycznia 2028", "2027-12-29 2028-01-02"},
		{"Sale from 1 January to 31 March 2028", ""},
		{"from 20 to 10 December 2027", "2027-11-20 2027-12-10"},
		{"from 20 December to 10 December 2027", ""},
		{"Ihre Reservierung für den Zeitraum 12.–14. Dezember 2027.", "2027-12-12 2027-12-14"},
		{"Thanks for booking The Lakeside Inn for 13-15 Nov 2027 (2 nights).", "2027-11-13 2027-11-15"},
		{"a double room, 30 Nov – 2 Dec 2027", "2027-11-30 2027-12-02"},
		{"Order 2027-11-12 shipped", ""},
		{"Dates: 18 Nov 2027 – 20 Nov 2027", "2027-11-18 2027-11-20"},
		// Month first, the year after the end only.
		{"Jun 18 – 21, 2028\n3 nights, 1 room", "2028-06-18 2028-06-21"},
		{"June 30 - July 2, 2028", "2028-06-30 2028-07-02"},
		{"Dec 30 – Jan 2, 2028", "2027-12-30 2028-01-02"},
		{"Jun 18, 10:00 - 12:00 breakfast", ""},
	} {
		m := &msgContext{ref: ref, dateLoc: time.UTC}
		if got := stayDays(m.rangeDates(c.text, zoneHint{})); got != c.want {
			t.Errorf("rangeDates(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestNightsFromDate: a stay told as its first day and its nights, on one
// line or two, or its nights and then their first day after a word for
// "from"; two dates before the nights tell no first day, nor does a date
// after other words.
func TestNightsFromDate(t *testing.T) {
	ref := time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ text, want string }{
		{"We look forward to welcoming you on Friday 19 July 2030\nfor 2 nights in the Garden Room.", "2030-07-19 2030-07-21"},
		{"Vi har reservert et dobbeltrom til deg\nfra 3. august 2030, 2 netter.", "2030-08-03 2030-08-05"},
		{"Stay from 30 July 2030, 3 nights", "2030-07-30 2030-08-02"},
		{"Booked on 1 June 2030, arriving 19 July 2030, 2 nights", ""},
		{"2 nights from 19 July 2030", "2030-07-19 2030-07-21"},
		{"You're all booked! 3 nights from Friday 16 July 2030 at Yellow Square.", "2030-07-16 2030-07-19"},
		{"7 nuits à partir du samedi 10 juillet 2030 au Camping", "2030-07-10 2030-07-17"},
		{"2 Nächte ab 12.07.2030", "2030-07-12 2030-07-14"},
		{"Free cancellation up to 2 nights before arrival, by 10 July 2030", ""},
		{"2 nights, 10 July 2030 and 12 July 2030", ""},
		// A departure's or a check-out's date ends a stay: no nights count from it.
		{"Departure: Sunday 13 July 2030\nRoom: single, 3 nights", ""},
		{"Check-out: 13 July 2030\n3 nights", ""},
		{"Arrival: Thursday 10 July 2030\nRoom: single, 3 nights", "2030-07-10 2030-07-13"},
	} {
		m := &msgContext{ref: ref, dateLoc: time.UTC}
		if got := stayDays(m.nightsFromDate(c.text, zoneHint{})); got != c.want {
			t.Errorf("nightsFromDate(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestSenderNamesDomain: a place that writes from its own domain is named
// by its sender's name; a platform that books stays for others is not.
func TestSenderNamesDomain(t *testing.T) {
	for _, c := range []struct {
		name, domain string
		want         bool
	}{
		{"The Hoxton, Paris", "hoxton-paris.com", true},
		{"Claridge's", "claridges.co.uk", true},
		{"Booking.com", "booking.com", false},
		{"Hotels.com", "hotels.com", false},
		{"Reservations", "grandhotel.example.com", false},
		{"", "hoxton-paris.com", false},
	} {
		m := &msgContext{senderName: c.name, senderDomain: c.domain}
		if got := m.senderNamesDomain(); got != c.want {
			t.Errorf("senderNamesDomain(%q, %q) = %v, want %v", c.name, c.domain, got, c.want)
		}
	}
}

// TestSpacedCheckDates: "Check in" spelt apart reads a date that starts
// the rest of its line, never a table header's column beside it.
func TestSpacedCheckDates(t *testing.T) {
	for text, want := range map[string]string{
		"Check in Fri 13 April 2029 from 2pm\nCheck out Sun 15 April 2029 by 11am\n": "2029-04-13 2029-04-15",
		"Hotel Details   Check In   Check Out\n31/12/2017   01/01/2018\n":            "",
		"Check in 15 April 2029\n": "",
	} {
		m := &msgContext{ref: time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC), dateLoc: time.UTC}
		in, out := m.spacedCheckDates(text)
		got := ""
		if in != nil && out != nil {
			got = in.Time.Format("2006-01-02") + " " + out.Time.Format("2006-01-02")
		}
		if got != want {
			t.Errorf("spacedCheckDates(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestFindReservation: a code after its label, its series and year apart
// by slashes too; a slashed date is no code.
func TestFindReservation(t *testing.T) {
	for text, want := range map[string]string{
		"Numer rezerwacji: PL/2030/077\n": "PL/2030/077",
		"Booking reference: OR-4471\n":    "OR-4471",
		"Reservation: 12/07/2030\n":       "",
		"Buchungsnummer: 7712\n":          "7712",
	} {
		if got := findReservation(text); got != want {
			t.Errorf("findReservation(%q) = %q, want %q", text, got, want)
		}
	}
}

// stayDays is a stay's first and last day as "2006-01-02 2006-01-02", or
// "" when either is missing.
func stayDays(in, out *Time) string {
	if in == nil || out == nil {
		return ""
	}
	return in.Time.Format("2006-01-02") + " " + out.Time.Format("2006-01-02")
}

// TestUnbookedStay: a mail that offers, watches or counts stays
// (stay.unbooked) gives no stay unless it also gives a booking's number,
// as a confirmation with a newsletter's footer does.
func TestUnbookedStay(t *testing.T) {
	for _, c := range []struct {
		subject, text string
		want          int
	}{
		{"Still thinking about Hotel Artemide?", "Hotel Artemide\nCheck-in: Fri 16 Apr 2027\nCheck-out: Mon 19 Apr 2027\nComplete your booking: https://x.example/\n", 0},
		{"Preisalarm", "Hotel: Motel One Hamburg-Alster\nAnreise: 22.04.2027\nAbreise: 24.04.2027\nPreisalarm löschen.\n", 0},
		{"Jarní pobyty", "OREA Resort Horal\nPříjezd: kdykoli od 1. 4. 2027\nOdjezd: nejpozději 30. 6. 2027\nOdhlásit odběr.\n", 0},
		{"Poengoversikt", "Poengsaldo: 6 800\nSist bodd: Thon Hotel Bristol (ankomst 03.02.2027, avreise 05.02.2027)\n", 0},
		{"Vendemmia 2027", "Agriturismo Il Poggio\nPeriodo: dal 15 settembre al 10 ottobre 2027.\nCheck-in dalle 15:00.\nSe non desiderate più ricevere le nostre notizie, scriveteci.\n", 0},
		{"Your booking", "Hotel Artemide\nBooking number: 5512094\nCheck-in: Fri 16 Apr 2027\nCheck-out: Mon 19 Apr 2027\nUnsubscribe from our newsletter.\n", 1},
		{"Ihre Buchung", "Hotel: Motel One Hamburg-Alster\nAnreise: 22.04.2027\nAbreise: 24.04.2027\n", 1},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Hotels", Address: "info@hotels.example"}}, Subject: c.subject,
			Date: time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC), Text: c.text}
		n := 0
		for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
			if f.Kind == KindHotel {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%q: %d hotels, want %d", c.subject, n, c.want)
		}
	}
}
