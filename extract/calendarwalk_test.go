package extract

import (
	"strings"
	"testing"
	"time"

	"mailnode/mail/mime"
)

// TestCalendarWalkBeforeTrains: a rail operator's calendar event lists
// its legs, each under its route and its train's line, every stop marked
// ("● ab", "○ an"); the first leg is a walk from an address to the
// station, which names no train (foreign-28: DB's calendar). Each train
// keeps its own number, not the next leg's, and the walk is no train.
func TestCalendarWalkBeforeTrains(t *testing.T) {
	const desc = `DESCRIPTION:Bahnhofstr. 3 ➞ Erfurt - Gartenweg 9\nDatum: 14.03.2028\nKlasse: 2. Klasse\n\n` +
		`Bahnhofstr. 3 ➞ Leipzig Hbf\n● ab 09:02 Bahnhofstr. 3\n○ an 09:14 Leipzig Hbf\n\n` +
		`Leipzig Hbf ➞ Erfurt Hbf\nICE 1651\n● ab 09:30 Leipzig Hbf ▷ Gleis 11\n○ an 10:14 Erfurt Hbf ▷ Gleis 3\n\n` +
		`Erfurt Hbf ➞ Gotha\nRE 1\n● ab 10:25 Erfurt Hbf ▷ Gleis 5\n○ an 10:44 Gotha ▷ Gleis 2\n\nDauer: 1h 42min`
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1@example.org\r\nDTSTAMP:20280301T100000Z\r\n" +
		"DTSTART:20280314T090200\r\nSUMMARY:Bahnhofstr. 3 ➞ Gotha\r\n" + desc + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	c := newMsgContext(&mime.Message{Date: time.Date(2028, 3, 1, 10, 0, 0, 0, time.UTC)}, true)
	var got []string
	for _, f := range c.calendarFacts(ics) {
		s := f.Segment
		got = append(got, s.Number+" "+s.From.Name+" "+s.Depart.Format("15:04")+" "+s.To.Name+" "+s.Arrive.Format("15:04"))
	}
	want := "ICE 1651 Leipzig Hbf 09:30 Erfurt Hbf 10:14|RE 1 Erfurt Hbf 10:25 Gotha 10:44"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("legs %q, want %q", g, want)
	}
}

// TestCalendarBookingInMail: a booking's mail whose journey is only in
// its calendar attachment names the booking in its subject and text
// ("Auftrag: 100000000002"; foreign-28, DB's): the event's legs, which
// name none, are that booking's.
func TestCalendarBookingInMail(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1@example.org\r\nDTSTAMP:20280301T100000Z\r\nDTSTART:20280314T093000\r\n" +
		"SUMMARY:Leipzig Hbf ➞ Gotha\r\nDESCRIPTION:Datum: 14.03.2028\\n\\nLeipzig Hbf ➞ Erfurt Hbf\\nICE 1651\\n● ab 09:30 Leipzig Hbf\\n○ an 10:14 Erfurt Hbf\\n\\n" +
		"Erfurt Hbf ➞ Gotha\\nRE 1\\n● ab 10:25 Erfurt Hbf\\n○ an 10:44 Gotha\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	m := &mime.Message{
		From:      []mime.Address{{Name: "Bahn", Address: "buchung@bahn.example.de"}},
		Subject:   "Buchungsbestätigung (Auftrag: 550012345678)",
		HTMLText:  "Auftrag mit der Auftragsnummer 550012345678 wie folgt gebucht\nLeistungen\nSuper Sparpreis, 2. Klasse\nGesamtbetrag: 44,79 EUR\n",
		Calendars: []string{ics},
		Date:      time.Date(2028, 3, 1, 10, 0, 0, 0, time.UTC),
	}
	c := newMsgContext(m, true)
	facts := c.markupFacts(m)
	if len(facts) != 2 {
		t.Fatalf("%d facts, want the two trains", len(facts))
	}
	for _, f := range facts {
		if f.Segment.Reservation != "550012345678" {
			t.Errorf("%s: reservation %q, want 550012345678", f.Segment.Number, f.Segment.Reservation)
		}
	}
}
