package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestMonthInItsLanguage: "listopad" is October in Croatian and November
// in Czech and Polish; a Croatian mail's "listopada" is October (by its
// words, or by its sender's country when its words say no language),
// a Polish or Czech one's November as before.
func TestMonthInItsLanguage(t *testing.T) {
	for _, c := range []struct{ from, body, want string }{
		{"recepcija@hotel-jadran.example.hr", "Poštovana gospođo Kovač,\n\nhvala na rezervaciji. Vaša rezervacija je potvrđena.\n\nBroj rezervacije: 55120\nPrijava: 17. listopada 2027. od 14:00\nOdjava: 20. listopada 2027. do 10:00\n3 noćenja\n",
			"2027-10-17 2027-10-20"},
		// No word or letter of any language, a Croatian sender: Croatian
		// typed without diacritics, or a Croatian host's Polish, whose
		// "listopada" is November (the sixth outside review); either
		// reading may be wrong by a month, so neither is taken.
		{"booking@apartmani-more.example.hr", "Broj rezervacije: 55121\nPrijava: 3. listopada 2027.\nOdjava: 6. listopada 2027.\n",
			""},
		{"rezerwacje@hotel-pod-lipami.example.pl", "Dzień dobry,\n\ndziękujemy za rezerwację. Twoja rezerwacja jest potwierdzona i czeka na Ciebie pokój.\n\nNumer rezerwacji: 77120\nZameldowanie: 17 listopada 2027\nWymeldowanie: 20 listopada 2027\n",
			"2027-11-17 2027-11-20"},
		{"recepce@hotel-kastan.example.cz", "Dobrý den,\n\nděkujeme za rezervaci. Vaše rezervace je potvrzena a těšíme se na vás.\n\nČíslo rezervace: 88130\nPříjezd: 17. listopadu 2027\nOdjezd: 20. listopadu 2027\n",
			"2027-11-17 2027-11-20"},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Hotel", Address: c.from}}, Subject: "Rezervacija / rezerwacja / rezervace",
			Date: time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC), Text: c.body}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && f.Kind == extract.KindHotel && s.CheckIn != nil && s.CheckOut != nil {
				got = append(got, s.CheckIn.Format("2006-01-02")+" "+s.CheckOut.Format("2006-01-02"))
			}
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: stays %q, want %q", c.from, got, c.want)
		}
	}
}
