package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestBusTimesOfDeparture: a coach ticket without a route line, its stops
// and clocks in labelled fields whose departure and arrival words stand
// in the genitive after a word for the time ("Vreme polaska", "Ώρα
// αναχώρησης", "Čas odhoda", "Čas odchodu").
func TestBusTimesOfDeparture(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // from to depart arrive
	}{
		{"karte@prevoznik.example.rs", "Vaša autobuska karta", "Hvala na kupovini autobuske karte.\n\nBroj rezervacije: NI-20931\nPolazna stanica: Niš\nOdredišna stanica: Beograd (BAS)\nDatum polaska: 12.09.2030\nVreme polaska: 06:10\nVreme dolaska: 09:25\nSedište: 7\n",
			"Niš|Beograd (BAS)|2030-09-12T06:10+02:00|2030-09-12T09:25+02:00"},
		{"karte@prevoznik.example.rs", "Ваша аутобуска карта", "Хвала на куповини аутобуске карте.\n\nБрој резервације: NS-44120\nПолазна станица: Нови Сад\nОдредишна станица: Суботица\nДатум: 12.09.2030\nВреме поласка: 14:00\nВреме доласка: 15:40\n",
			"Нови Сад|Суботица|2030-09-12T14:00+02:00|2030-09-12T15:40+02:00"},
		{"tickets@ktel.example.gr", "Το εισιτήριό σας για το λεωφορείο", "Ευχαριστούμε για την αγορά.\n\nΚωδικός κράτησης: IO-55120\nΣταθμός αναχώρησης: Ιωάννινα\nΣταθμός άφιξης: Θεσσαλονίκη\nΗμερομηνία: 14/09/2030\nΏρα αναχώρησης: 07:00\nΏρα άφιξης: 10:30\n",
			"Ιωάννινα|Θεσσαλονίκη|2030-09-14T07:00+03:00|2030-09-14T10:30+03:00"},
		{"karte@prijevoznik.example.hr", "Vaša autobusna karta", "Hvala na kupnji autobusne karte.\n\nBroj rezervacije: ST-77120\nPolazište: Split\nOdredište: Zadar\nDatum polaska: 12.09.2030\nVrijeme polaska: 09:00\nVrijeme dolaska: 11:45\n",
			"Split|Zadar|2030-09-12T09:00+02:00|2030-09-12T11:45+02:00"},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Prevoznik", Address: c.from}}, Subject: c.subject, Text: c.text,
			Date: time.Date(2030, 9, 1, 9, 0, 0, 0, time.UTC)}
		got := ""
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && s.Type == extract.KindBus && s.Arrive != nil {
				got = placeName(s.From) + "|" + placeName(s.To) + "|" + s.Depart.Time.Format("2006-01-02T15:04Z07:00") + "|" + s.Arrive.Time.Format("2006-01-02T15:04Z07:00")
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
