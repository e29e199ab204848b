package extract_test

import (
	"testing"
	"time"
)

// Stays' label forms found by the held-out set foreign-10 (issue 46,
// xf10s, 2026-11-30), in other brands' words than the mails that showed
// them.

// staySeen is one stay a test wants ("" name: no fact at all).
type staySeen struct{ from, subject, body, name, in, out, ref string }

func checkStays(t *testing.T, day time.Time, cases []staySeen) {
	t.Helper()
	for _, c := range cases {
		facts := mailFacts(c.from, c.subject, c.body, day)
		if c.name == "" {
			if len(facts) != 0 {
				t.Errorf("%s: got %+v, want nothing", c.from, facts)
			}
			continue
		}
		if len(facts) != 1 || facts[0].Kind != "hotel" || facts[0].Segment.CheckIn == nil || facts[0].Segment.CheckOut == nil {
			t.Errorf("%s: got %+v, want one stay", c.from, facts)
			continue
		}
		s := facts[0].Segment
		if s.Hotel != c.name || s.CheckIn.Format("2006-01-02") != c.in || s.CheckOut.Format("2006-01-02") != c.out || s.Reservation != c.ref {
			t.Errorf("%s: stay %q %s - %s %q, want %q %s - %s %q", c.from, s.Hotel, s.CheckIn.Format("2006-01-02"), s.CheckOut.Format("2006-01-02"), s.Reservation,
				c.name, c.in, c.out, c.ref)
		}
	}
}

// TestCheckInSpeltApart: "Check in" and "Check out" spelt apart are a
// stay's labels where they start their line and a colon, a tab, a column
// gap or the line's end sets them off from the day (beside it or under
// it); a night count after the check-out's day under its label counts
// from no stay's start; "check in" inside a sentence labels nothing.
func TestCheckInSpeltApart(t *testing.T) {
	day := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	checkStays(t, day, []staySeen{
		{"Hotel Caledonia <stay@caledonia.example.co.uk>", "Booking confirmed",
			"Booking reference:\tCAL-448210\nHotel:\tHotel Caledonia Perth\nCheck in:\tFri 20 Mar 2026 from 2pm\nCheck out:\tSun 22 Mar 2026 by 11am\n",
			"Hotel Caledonia Perth", "2026-03-20", "2026-03-22", "CAL-448210"},
		{"Harbour Hotels <stay@harbour.example.co.uk>", "Your stay is booked",
			"Booking number: 7730418\n\nHarbour Hotel Falmouth\n\nCheck in\nThu 9 Apr 2026 from 3pm\n\nCheck out\nSat 11 Apr 2026 before 11am (2 nights)\n",
			"Harbour Hotel Falmouth", "2026-04-09", "2026-04-11", "7730418"},
		{"Kro Hotel Ribe <booking@krohotel.example.dk>", "Din booking",
			"Bookingnummer: 4471092\nHotel: Kro Hotel Ribe\nCheck ind: lørdag den 16. maj 2026 fra kl. 15.00\nCheck ud: mandag den 18. maj 2026\n",
			"Kro Hotel Ribe", "2026-05-16", "2026-05-18", "4471092"},
		{"Lakeside Inns <res@lakeside.example.com>", "Reservation 55120947",
			"RESERVATION   55120947\nHOTEL         LAKESIDE HOTEL WINDERMERE\nCHECK IN      MON 04 MAY 2026\nCHECK OUT     WED 06 MAY 2026\n",
			"LAKESIDE HOTEL WINDERMERE", "2026-05-04", "2026-05-06", "55120947"},
		{"Harbour Hotels <news@harbour.example.co.uk>", "Check in for less",
			"Check in for less this spring.\nBook by 20 March 2026 for stays until 30 June 2026.\nCheck in online from 24 hours before you arrive.\n",
			"", "", "", ""},
	})
}

// TestLabelOverLabelNoValue: a label whose next line is a label of its
// own (it ends with a colon) has no value there: "Accommodation" over
// "Booked in the name of:" names no place, and the name comes from
// elsewhere (a brand in two lower-case words over the address).
func TestLabelOverLabelNoValue(t *testing.T) {
	day := time.Date(2026, 5, 11, 9, 0, 0, 0, time.UTC)
	checkStays(t, day, []staySeen{
		{"nhow Hotels <stay@nhow.example.com>", "Confirmation of your reservation",
			"Reservation number: NW5510274\n\nFrom 10 Jun 2026 to 12 Jun 2026\n\nthe nhow Rotterdam\n Wilhelminakade 137, 3072 AP Rotterdam\n\nthe nhow Rotterdam welcomes you.\n\nAccommodation\n\nReservation made in the name of :\n\nMR Lee Chan\n",
			"the nhow Rotterdam", "2026-06-10", "2026-06-12", "NW5510274"},
		{"Gasthof Adler <info@gasthof-adler.example.at>", "Buchungsbestätigung",
			"Buchungsnummer: 20931\nAnreise: 3. Juli 2026\nAbreise: 5. Juli 2026\n\nUnterkunft\n\nGebucht auf den Namen:\n\nFrau Eva Moser\n\nGasthof Adler\nDorfstraße 8, 6330 Kufstein\n",
			"Gasthof Adler", "2026-07-03", "2026-07-05", "20931"},
		// One letter over and over is a masked code, no word.
		{"Pension Linde <info@pension-linde.example.de>", "Ihre Buchung",
			"Pension Linde\nBuchungsnummer: AAAAAAAA\nAnreise: 10. August 2026\nAbreise: 12. August 2026\n",
			"Pension Linde", "2026-08-10", "2026-08-12", "AAAAAAAA"},
	})
}

// TestDayOverCheckInFrom: a stay card's day over its label whose clock
// follows a word for "from" or "by" ("Check-in from 15:00", "Check-out
// ab 11:00"), and a number after "Ref.".
func TestDayOverCheckInFrom(t *testing.T) {
	day := time.Date(2026, 5, 15, 9, 0, 0, 0, time.UTC)
	checkStays(t, day, []staySeen{
		{"Clarion Hotels <noreply@clarion.example.no>", "Your reservation",
			"Your reservation\n\nClarion Hotel Oslo\n\nRef. 50288417\n\nThu 11. Jun 2026\nCheck-in from 15:00\n\nSat 13. Jun 2026\nCheck-out before 12:00\n",
			"Clarion Hotel Oslo", "2026-06-11", "2026-06-13", "50288417"},
		{"Reservierung <buchung@hotel-hafen.example.de>", "Ihre Reservierung",
			"Hotel Hafen Kiel\nBuchungsnummer: 6604127\n\nMo., 6. Juli 2026\nCheck-in ab 14:00\n\nMi., 8. Juli 2026\nCheck-out bis 11:00\n",
			"Hotel Hafen Kiel", "2026-07-06", "2026-07-08", "6604127"},
	})
}
