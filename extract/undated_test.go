package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestUndated: what a mail without a Date header gives (a ticket's text
// carried without its mail's header). No year is guessed for a date
// written without one: the legs it would start are left out, unless the
// store knows when the mail arrived. A train's stop that no data places is
// in the zone of the stop that one does, and with nothing else to go by,
// a text whose words are surely German or Italian is read in that
// country's zone; a line of codes is no language.
func TestUndated(t *testing.T) {
	gds := "ELECTRONIC TICKET\nBOOKING REF: KQ4T9M\n\n" +
		"FROM /TO            FLIGHT   CL DATE  DEP\n" +
		"MADRID BARAJAS      IB 6251  N  02JUL 1215\n" +
		"NEW YORK JFK                            ARRIVAL TIME: 1455  ARRIVAL DATE: 02JUL\n"
	tests := []struct {
		name    string
		from    string
		arrived time.Time
		body    string
		want    string // segLine of each segment, "; " apart
	}{
		{"a year-less printout, nothing to read it by", "Iberia|noreply@iberia.example", time.Time{}, gds, ""},
		{"a year-less printout that arrived in June 2027", "Iberia|noreply@iberia.example", time.Date(2027, 6, 20, 9, 0, 0, 0, time.UTC), gds,
			"flight KQ4T9M IB 6251 MAD>JFK 2027-07-02T12:15:00+02:00[Europe/Madrid] 2027-07-02T14:55:00-04:00[America/New_York] confirmed"},
		{"an unplaced stop in its placed neighbour's zone", "Reservations|reservations@example.com", time.Time{},
			"Your journey on 26.07.2022\nFrom: Leer (Ostfriesl) ZOB 21:30\nTo: Groningen 22:25\nTrain: RE 4567\n",
			"train  RE 4567 Leer (Ostfriesl) ZOB>Groningen 2022-07-26T21:30:00+02:00[Europe/Amsterdam] 2022-07-26T22:25:00+02:00[Europe/Amsterdam] confirmed"},
		{"a line of codes is no language, and its clock in no zone", "Reservations|reservations@example.com", time.Time{},
			"PNR:2438941616,TRAIN:12138,DOJ:25-08-2012,TIME:05:15,SL,NDLS TO FDB,RAMESH KUMAR+2,S7 49 S7 52 S7 55,FARE:140\n", ""},
		{"surely German text, no place known", "Reservations|reservations@example.com", time.Time{},
			"Vielen Dank für Ihre Buchung. Bitte beachten Sie, dass die Fahrkarte nur mit Ausweis gilt.\n\nHinfahrt am 21.09.2028\nab Kleinstadt-Nord 09:12 Gleis 2\nan Hinterdorf Bf 10:05\nZug: RB 3312\n",
			"train  RB 3312 Kleinstadt-Nord>Hinterdorf Bf 2028-09-21T09:12:00+02:00[Europe/Berlin] 2028-09-21T10:05:00+02:00[Europe/Berlin] confirmed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, addr, _ := strings.Cut(tt.from, "|")
			m := &mime.Message{From: []mime.Address{{Name: name, Address: addr}}, Subject: "Your booking", Text: tt.body, Arrived: tt.arrived}
			var got []string
			for _, f := range extract.Extract(m, msgauth.Verdict{}).Facts {
				if f.Segment != nil {
					got = append(got, segLine(f.Segment))
				}
			}
			if g := strings.Join(got, "; "); g != tt.want {
				t.Errorf("got  %s\nwant %s", g, tt.want)
			}
		})
	}
}
