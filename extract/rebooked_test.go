package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestRebookedLegNotCancelled: a cancellation that rebooks in the same
// mail cancels the old leg only, in the words of several languages; a
// cancellation that rebooks nothing cancels every leg it lists.
func TestRebookedLegNotCancelled(t *testing.T) {
	for _, c := range []struct {
		name, subject, text string
		want                map[string]string // number: status
	}{
		{"en labels", "Flight cancelled - booking XK4R7Q",
			"Booking reference: XK4R7Q\n\nCancelled: LH 400 Frankfurt (FRA) 10:10 -> New York (JFK) 12:55, 14 December 2026\nRebooked: LH 402 Frankfurt (FRA) 13:25 -> New York (JFK) 16:05, 14 December 2026\n",
			map[string]string{"LH 400": "cancelled", "LH 402": "confirmed"}},
		{"en sentence", "Your flight has been cancelled",
			"Booking reference: XK4R7Q\n\nUnfortunately your flight BA 117 on 14 December 2026 has been cancelled. We have rebooked you on the following flight:\n\nBA 173 London (LHR) 14:25 -> New York (JFK) 17:30, 14 December 2026\n",
			map[string]string{"BA 117": "cancelled", "BA 173": "confirmed"}},
		{"de", "Ihr Flug wurde annulliert",
			"Buchungscode: K7QX2M\n\nIhr ursprünglicher Flug:\nOS 231 Wien (VIE) 07:10 -> Berlin (BER) 08:25, 3. März 2027\n\nIhr neuer Flug:\nOS 235 Wien (VIE) 11:40 -> Berlin (BER) 12:55, 3. März 2027\n",
			map[string]string{"OS 231": "cancelled", "OS 235": "confirmed"}},
		{"fr", "Votre vol est annulé",
			"Référence de réservation : P4ZR8T\n\nVol initial :\nAF 1234 Paris (CDG) 08:00 -> Nice (NCE) 09:25, 12 avril 2027\n\nVotre nouveau vol :\nAF 7702 Paris (ORY) 10:15 -> Nice (NCE) 11:40, 12 avril 2027\n",
			map[string]string{"AF 1234": "cancelled", "AF 7702": "confirmed"}},
		{"en no rebooking", "Your booking has been cancelled",
			"Booking reference: XK4R7Q\n\nYour booking has been cancelled:\nLH 400 Frankfurt (FRA) 10:10 -> New York (JFK) 12:55, 14 December 2026\nLH 401 New York (JFK) 16:40 -> Frankfurt (FRA) 06:05, 20 December 2026\n",
			map[string]string{"LH 400": "cancelled", "LH 401": "cancelled"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &mime.Message{From: []mime.Address{{Name: "Airline", Address: "info@airline.example"}}, Subject: c.subject,
				Text: c.text, Date: time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)}
			got := map[string]string{}
			for _, f := range extract.Extract(m, msgauth.Verdict{}).Facts {
				if f.Segment != nil {
					got[f.Segment.Number] = f.Segment.Status
				}
			}
			for n, st := range c.want {
				if got[n] != st {
					t.Errorf("%s: %q, want %q (all: %v)", n, got[n], st, got)
				}
			}
		})
	}
}
