package extract_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestStackedStopsDayUnder: a card that prints each stop's day under its
// station and clock is one leg, each stop on the day under it; a day
// under the second stop that is not the first's or the next parts them,
// and a card with no booking and only a bus's words gives nothing.
func TestStackedStopsDayUnder(t *testing.T) {
	for _, c := range []struct{ name, from, subject, body, want string }{
		{"da bus", "Nordbus <billet@nordbus.example.dk>", "Din busbillet",
			"Busbillet\nBookingnummer: 44771290\nKøbenhavn Ingerslevsgade\n07:30\nlørdag 13. marts 2027\nAarhus Rutebilstation\n11:55\nlørdag 13. marts 2027\nLinje 888 · Bus · Sæde 14\n",
			"bus 888 København Ingerslevsgade 13 07:30 Aarhus Rutebilstation 13 11:55 44771290"},
		{"en coach", "Westway Coaches <tickets@westway.example.co.uk>", "Your e-ticket",
			"Booking reference: WW-55120\n\nLondon Victoria Coach Station\n08:00\nSaturday 12 June 2027\nBristol Bus Station\n10:45\nSaturday 12 June 2027\n\nService 402\n",
			"bus 402 London Victoria Coach Station 12 08:00 Bristol Bus Station 12 10:45 WW-55120"},
		// The second stop's day is the one under it: a night's coach.
		{"the next day under the second stop", "Nordbus <billet@nordbus.example.dk>", "Din busbillet",
			"Busbillet\nBookingnummer: 44771290\nKøbenhavn Ingerslevsgade\n23:30\nlørdag 13. marts 2027\nAarhus Rutebilstation\n04:10\nsøndag 14. marts 2027\nLinje 888 · Bus\n",
			"bus 888 København Ingerslevsgade 13 23:30 Aarhus Rutebilstation 14 04:10 44771290"},
		// Another day between the stops parts them.
		{"another day between", "Nordbus <billet@nordbus.example.dk>", "Din busbillet",
			"Busbillet\nBookingnummer: 44771290\nKøbenhavn Ingerslevsgade\n07:30\nlørdag 13. marts 2027\nAarhus Rutebilstation\n11:55\nsøndag 20. marts 2027\nLinje 888 · Bus\n",
			""},
		{"no booking", "Nordbus <nyheder@nordbus.example.dk>", "Nye afgange",
			"Nye busafgange\nKøbenhavn Ingerslevsgade\n07:30\nlørdag 13. marts 2027\nAarhus Rutebilstation\n11:55\nlørdag 13. marts 2027\nLinje 888 · Bus\n",
			""},
	} {
		var got []string
		for _, f := range review4Mail(c.from, c.subject, c.body).Facts {
			if s := f.Segment; s != nil {
				got = append(got, fmt.Sprintf("%s %s %s %s %s %s %s", s.Type, s.Number, s.From.Name, s.Depart.Time.Format("02 15:04"), s.To.Name, s.Arrive.Time.Format("02 15:04"), s.Reservation))
			}
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: %q, want %q", c.name, g, c.want)
		}
	}
}
