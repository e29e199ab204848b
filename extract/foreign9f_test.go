package extract_test

import (
	"strings"
	"testing"
	"time"
)

// Classes found by the held-out set foreign-9 in forwarded and
// receipt-style travel mail (issue 46, xf9f, 2026-11-30), each proved
// here in other brands' words.

// TestReceiptCellBlocks: an e-ticket receipt's flight table flattened to
// a cell a block, blocks apart by blank lines ("Calgary (AB)" over the
// day and clock it leaves at), its header naming columns no flight is
// read from ("Stops", "Fare Type", "Meal", "Seat"), a row's last cell
// empty; forwarded by Apple Mail with quote marks or by Proton, it reads
// as it does unforwarded.
func TestReceiptCellBlocks(t *testing.T) {
	type leg struct{ number, from, to, depart, arrive, ref string }
	date := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	rows := "Flight\n\nFrom\n\nTo\n\nStops\n\nFare Type\n\nSeat\n\n" +
		"VA812\n\nSydney (NSW)\nMon 05-Oct 2026\n07:00\n\nMelbourne (VIC)\nMon 05-Oct 2026\n08:35\n\n0\n\nChoice\n\n14A\n\n" +
		"VA847\n\nMelbourne (VIC)\nWed 07-Oct 2026\n18:00\n\nSydney (NSW)\nWed 07-Oct 2026\n19:25\n\n0\n\nChoice\n\n\nPassenger Information\n\n1: Ana Ruiz : Ticket Number: 7952104417763\n"
	want := []leg{{"VA 812", "SYD", "MEL", "2026-10-05T07:00:00+11:00", "2026-10-05T08:35:00+11:00", "TQ4RZP"},
		{"VA 847", "MEL", "SYD", "2026-10-07T18:00:00+11:00", "2026-10-07T19:25:00+11:00", "TQ4RZP"}}
	quote := func(s string) string {
		return "> " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n> ") + "\n"
	}
	body := "ELECTRONIC TICKET RECEIPT\n\nBooking Reference:\n\nTQ4RZP\n\nFlight Itinerary\n\n" + rows
	for _, c := range []struct {
		name, from, subject, body string
		want                      []leg
	}{
		{"the airline's own", "Virgin Australia <noreply@virginaustralia.example>", "Electronic Ticket Receipt", body, want},
		{"Apple Mail's forward, quoted", "Ana Ruiz <ana.ruiz@example.net>", "Fwd: Electronic Ticket Receipt",
			"See below.\n\nBegin forwarded message:\n\n> From: Virgin Australia <noreply@virginaustralia.example>\n> Subject: Electronic Ticket Receipt\n> Date: 1 July 2026 at 9:58:12 pm AEST\n> To: Ana Ruiz <ana.ruiz@example.net>\n>\n" + quote(body), want},
		{"Proton's forward", "Ana Ruiz <ana.ruiz@proton.example>", "Fw: Electronic Ticket Receipt",
			"Sent with Proton Mail secure email.\n\n------- Forwarded Message -------\nFrom: Virgin Australia <noreply@virginaustralia.example>\nDate: On Wednesday, July 1st, 2026 at 21:58\nSubject: Electronic Ticket Receipt\nTo: ana.ruiz@proton.example <ana.ruiz@proton.example>\n\n" + quote(body), want},
	} {
		facts := mailFacts(c.from, c.subject, c.body, date)
		if len(facts) != len(c.want) {
			t.Errorf("%s: got %d facts, want %d: %+v", c.name, len(facts), len(c.want), facts)
			continue
		}
		for i, w := range c.want {
			s := facts[i].Segment
			if s == nil || s.From == nil || s.To == nil || s.Depart == nil || s.Arrive == nil {
				t.Errorf("%s: fact %d: %+v", c.name, i, facts[i])
				continue
			}
			got := leg{s.Number, s.From.Code, s.To.Code, s.Depart.Time.Format(time.RFC3339), s.Arrive.Time.Format(time.RFC3339), s.Reservation}
			if got != w {
				t.Errorf("%s: leg %d = %+v, want %+v", c.name, i, got, w)
			}
		}
	}
}

// TestStayNameNoSectionLink: a lodging word with only a section's or a
// heading's words beside it ("Hotel Fact Sheet" among a chain's links,
// "Hotel Information", "Informations hôtel") names no place, nor does a
// forwarder's own name when the client's header block ran into the text;
// the stay keeps its dates and number. Booking.com's Portuguese "Número
// da confirmação" is a stay's number.
func TestStayNameNoSectionLink(t *testing.T) {
	date := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, from, subject, body string
		hotel, ref, in            string
	}{
		{"a chain's links under the stay", "Fairmont Reservations <reservations@fairmont.example>", "Reservation Details: 12-Oct-2026",
			"RESERVATION\n\nDEAR MS JUNE PARK\nThank you for booking online.\nYour reservation number is: 55120934\n\nARRIVING on 12-Oct-2026\nDEPARTING on 14-Oct-2026\nTOTAL NIGHTS: 2\n\nQUICK LINKS\n\nHotel Fact Sheet\nCancel/Modify Reservation\n",
			"", "55120934", "2026-10-12"},
		{"a heading in French", "Réservations <resa@hotel-reservations.example>", "Confirmation 7731204",
			"Bonjour,\n\nNuméro de réservation : 7731204\nArrivée : 12/10/2026\nDépart : 14/10/2026\n\nInformations hôtel\nPlan d'accès\n",
			"", "7731204", "2026-10-12"},
		{"run-together forward from a person", "June Park <june.park@example.net>", "Fwd: Hotels Reservation Details: 12-Oct-2026",
			"Another one.June Park> Begin forwarded message:> > From: > Subject: Hotels Reservation Details> > DEAR MS JUNE PARK> Your reservation number is: 55120934 > ARRIVING on 12-Oct-2026> DEPARTING on 14-Oct-2026> TOTAL NIGHTS: 2> QUICK LINKS> > Hotel Fact Sheet > Cancel/Modify Reservation> June Park",
			"", "55120934", "2026-10-12"},
		{"Portuguese confirmation number", "Hotel Atlântico <reservas@hotelatlantico.example>", "A sua reserva está confirmada",
			"Número da confirmação: 4410927713\nCódigo PIN: 1184\n\nHotel Atlântico\nCheck-in: 12 de outubro de 2026\nCheck-out: 14 de outubro de 2026\n",
			"Hotel Atlântico", "4410927713", "2026-10-12"},
	} {
		facts := mailFacts(c.from, c.subject, c.body, date)
		if len(facts) != 1 || facts[0].Segment == nil || facts[0].Segment.CheckIn == nil {
			t.Errorf("%s: got %+v, want one stay", c.name, facts)
			continue
		}
		s := facts[0].Segment
		if s.Hotel != c.hotel || s.Reservation != c.ref || s.CheckIn.Time.Format(time.DateOnly) != c.in {
			t.Errorf("%s: stay = %q %q %s, want %q %q %s", c.name, s.Hotel, s.Reservation, s.CheckIn.Time.Format(time.DateOnly), c.hotel, c.ref, c.in)
		}
	}
}

// TestStayCardDaysOverLabels: a chain's stay card prints each day alone
// over its label, which gives only the clock ("Friday" / "Oct 16" /
// "Check In: 4:00 PM"), the year only in a sentence, the name over a
// rule that underlines it; forwarded from Proton, quoted, it reads the
// same. A fact sheet's clocks under their labels, no day above, are no
// stay.
func TestStayCardDaysOverLabels(t *testing.T) {
	date := time.Date(2026, 9, 20, 9, 0, 0, 0, time.FixedZone("PDT", -7*3600)) // the stay's zone is the mail's
	card := "Hello MEI,\n\nYour reservation for Friday Oct 16, 2026 has been confirmed.\n\nConfirmation # 61742209\n\nHyatt Regency Seattle\n---------------------\n\n808 Howell Street, Seattle, WA, 98101 US\n\n+12069730100\n\n" +
		"Friday\n\nOct 16\n\nCheck In:  4:00 PM\n\n### 3\n\nNights\n\nMonday\n\nOct 19\n\nCheck Out: 12:00 PM\n"
	quoted := "> " + strings.ReplaceAll(strings.TrimSuffix(card, "\n"), "\n", "\n> ") + "\n"
	for _, c := range []struct {
		name, from, subject, body string
		hotel, in, out            string
	}{
		{"the chain's own", "Hyatt Regency Seattle <reservations@hyatt.example>", "Your Oct-16-2026 Confirmation #61742209", card,
			"Hyatt Regency Seattle", "2026-10-16T16:00:00-07:00", "2026-10-19T12:00:00-07:00"},
		{"forwarded from Proton", "Mei Lin <mei.lin@proton.example>", "Fw: Your Oct-16-2026 Confirmation #61742209",
			"Sent with Proton Mail secure email.\n\n------- Forwarded Message -------\nFrom: Hyatt Regency Seattle <reservations@hyatt.example>\nDate: On Sunday, September 20th, 2026 at 09:02\nSubject: Your Oct-16-2026 Confirmation #61742209\nTo: mei.lin@proton.example <mei.lin@proton.example>\n\n" + quoted,
			"Hyatt Regency Seattle", "2026-10-16T16:00:00-07:00", "2026-10-19T12:00:00-07:00"},
		{"a fact sheet's clocks", "Group Sales <groups@hyatt.example>", "Hotel Fact Sheet",
			"HOTEL FACT SHEET\n\nHyatt Regency Seattle\n\nHotel Information\n\nCheck In: 4:00 PM\n\nCheck Out: 12:00 PM\n", "", "", ""},
	} {
		facts := mailFacts(c.from, c.subject, c.body, date)
		if c.in == "" {
			if len(facts) != 0 {
				t.Errorf("%s: got %+v, want none", c.name, facts)
			}
			continue
		}
		if len(facts) != 1 || facts[0].Segment == nil || facts[0].Segment.CheckIn == nil || facts[0].Segment.CheckOut == nil {
			t.Errorf("%s: got %+v, want one stay", c.name, facts)
			continue
		}
		s := facts[0].Segment
		if got := [3]string{s.Hotel, s.CheckIn.Time.Format(time.RFC3339), s.CheckOut.Time.Format(time.RFC3339)}; got != [3]string{c.hotel, c.in, c.out} {
			t.Errorf("%s: stay = %q, want %q", c.name, got, [3]string{c.hotel, c.in, c.out})
		}
	}
}
