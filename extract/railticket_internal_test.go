package extract

import (
	"testing"
	"time"

	"mailnode/extract/uic918"
)

// TestTicketDay: a ticket's day without a year takes the first year on
// or after the ticket's first day of validity when it prints one, else
// on or after the day it was issued, else the year the mail's rule gives
// (the day nearest after the mail's Date, from 30 days before it).
func TestTicketDay(t *testing.T) {
	c := &msgContext{ref: time.Date(2018, 12, 19, 18, 35, 0, 0, time.UTC)}
	for _, tc := range []struct {
		day           uic918.Date
		valid, issued uic918.Date
		want          string
	}{
		{uic918.Date{Month: 12, Day: 8}, uic918.Date{}, uic918.Date{}, "2018-12-08"},                               // 11 days before the mail
		{uic918.Date{Month: 8, Day: 19}, uic918.Date{}, uic918.Date{}, "2019-08-19"},                               // after the mail
		{uic918.Date{Month: 12, Day: 8}, uic918.Date{Year: 2018, Month: 12, Day: 10}, uic918.Date{}, "2019-12-08"}, // not before its validity
		{uic918.Date{Month: 12, Day: 29}, uic918.Date{Year: 2018}, uic918.Date{}, "2018-12-29"},                    // a year alone
		{uic918.Date{Month: 1, Day: 5}, uic918.Date{}, uic918.Date{Year: 2017, Month: 12, Day: 20}, "2018-01-05"},  // after its issue, the mail a year on
		{uic918.Date{Year: 2021, Month: 1, Day: 13}, uic918.Date{}, uic918.Date{}, "2021-01-13"},
	} {
		d := c.ticketDay(tc.day, &uic918.RCT2{ValidFrom: tc.valid, Issued: tc.issued})
		if got := time.Date(d.y, time.Month(d.m), d.d, 0, 0, 0, 0, time.UTC).Format("2006-01-02"); got != tc.want {
			t.Errorf("%+v valid %+v issued %+v: %s, want %s", tc.day, tc.valid, tc.issued, got, tc.want)
		}
	}
}

// TestFurtherTrains: a further train of a ticket bound to several states
// no station of its own: it is a train with its number, day, clock and
// booking and no station, its clock read in the route's zone when both
// ends keep one time (Wien-Bregenz; Amsterdam-Köln across a border),
// and not given at all when they do not (Lisboa-Madrid) or when it has
// no clock.
func TestFurtherTrains(t *testing.T) {
	c := &msgContext{ref: time.Date(2027, 3, 18, 9, 41, 0, 0, time.UTC)}
	at := func(h, m int) uic918.Clock { return uic918.Clock{Hour: h, Minute: m, OK: true} }
	day := uic918.Date{Year: 2027, Month: 4, Day: 12}
	for _, tc := range []struct {
		from, to string
		clock    uic918.Clock
		want     string
	}{
		{"Wien Hbf", "Bregenz", at(12, 18), "REX 5573 2027-04-12T12:18:00+02:00"},
		{"Amsterdam Centraal", "Köln Hbf", at(10, 41), "REX 5573 2027-04-12T10:41:00+02:00"},
		{"Lisboa Santa Apolónia", "Madrid Chamartín", at(10, 41), ""},
		{"Wien Hbf", "Bregenz", uic918.Clock{}, ""},
	} {
		j := &uic918.RCT2{Booking: "OB7QK2", Legs: []uic918.Leg{
			{From: tc.from, To: tc.to, Depart: day, DepartClock: at(7, 30), Train: "RJX 662"},
			{From: tc.from, To: tc.to, Depart: day, DepartClock: tc.clock, Train: "REX 5573", Further: true},
		}}
		fs := c.journeyFacts(j)
		if len(fs) == 0 || fs[0].Segment.From == nil || fs[0].Segment.From.Name != tc.from {
			t.Errorf("%s: the first train lost: %+v", tc.from, fs)
			continue
		}
		got := ""
		if len(fs) == 2 {
			s := fs[1].Segment
			if s.From != nil || s.To != nil || s.Reservation != "OB7QK2" {
				t.Errorf("%s: further train %+v, want no station and the booking", tc.from, s)
			}
			got = s.Number + " " + s.Depart.Time.Format(time.RFC3339)
		}
		if len(fs) > 2 || got != tc.want {
			t.Errorf("%s-%s: got %q (%d facts), want %q", tc.from, tc.to, got, len(fs), tc.want)
		}
	}
}
