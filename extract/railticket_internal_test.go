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
