package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestTripInOneSentence: a train's whole trip told in one sentence, or
// its day and clocks on the line under its stops, in the languages that
// write it so; a sentence whose stops are not names gives none.
func TestTripInOneSentence(t *testing.T) {
	for _, c := range []struct {
		text string
		want string // number from to depart arrive
	}{
		{"Ihre Reise:\nICE 123 von Köln Hbf nach Berlin Hbf am 12.03. um 08:15\n",
			"ICE 123|Köln Hbf|Berlin Hbf|2027-03-12T08:15+01:00|"},
		{"ICE 577 von Frankfurt am Main Hbf nach Stuttgart Hbf\nam Freitag, 19.03.2027 um 09:20, an 10:38\n",
			"ICE 577|Frankfurt am Main Hbf|Stuttgart Hbf|2027-03-19T09:20+01:00|2027-03-19T10:38+01:00"},
		{"Votre trajet : TGV 6204 de Paris Gare de Lyon à Lyon Part-Dieu le 12/03/2027 à 08h15, arrivée à 10h11.\n",
			"TGV 6204|Paris Gare de Lyon|Lyon Part-Dieu|2027-03-12T08:15+01:00|2027-03-12T10:11+01:00"},
		{"Frecciarossa 9541 da Milano Centrale a Roma Termini il 12/03/2027 alle 08:15, arrivo alle 11:29\n",
			"Frecciarossa 9541|Milano Centrale|Roma Termini|2027-03-12T08:15+01:00|2027-03-12T11:29+01:00"},
		{"AVE 3063 de Madrid Puerta de Atocha a Barcelona Sants el 12/03/2027 a las 08:30\n",
			"AVE 3063|Madrid Puerta de Atocha|Barcelona Sants|2027-03-12T08:30+01:00|"},
		{"IC 1012 van Amsterdam Centraal naar Rotterdam Centraal op 12-03-2027 om 08:15, aankomst om 08:55\n",
			"IC 1012|Amsterdam Centraal|Rotterdam Centraal|2027-03-12T08:15+01:00|2027-03-12T08:55+01:00"},
		// Not a trip: a cancellation's verb, not a station.
		{"ICE 123 von Köln Hbf nach Berlin fällt am 12.03. um 08:15 aus.\n", ""},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Bahnreisen", Address: "tickets@bahnreisen.example"}}, Subject: "Ihre Fahrkarte", Text: c.text,
			Date: time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)}
		got := ""
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && s.Type == extract.KindTrain {
				got = s.Number + "|" + placeName(s.From) + "|" + placeName(s.To) + "|" + s.Depart.Time.Format("2006-01-02T15:04Z07:00") + "|"
				if s.Arrive != nil {
					got += s.Arrive.Time.Format("2006-01-02T15:04Z07:00")
				}
			}
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", strings.TrimSpace(c.text), got, c.want)
		}
	}
}

func placeName(p *extract.Place) string {
	if p == nil {
		return ""
	}
	return p.Name
}
