package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// mailFacts are the facts of a plain-text mail from "Name <address>"
// (or a bare address), sent at date, as the table tests read one.
func mailFacts(from, subject, text string, date time.Time) []extract.Fact {
	name, addr, ok := strings.Cut(strings.TrimSuffix(from, ">"), " <")
	if !ok {
		name, addr = "", from
	}
	msg := &mime.Message{From: []mime.Address{{Name: name, Address: addr}}, Subject: subject, Text: text, Date: date}
	return extract.Extract(msg, msgauth.Verdict{}).Facts
}

// flightLeg is a flight's leg as the table tests compare it: its number,
// its airports' codes and its times with their offsets.
type flightLeg struct{ number, from, to, depart, arrive string }

// flightLegs are the flights of facts that have both ends and both times.
func flightLegs(facts []extract.Fact) []flightLeg {
	var out []flightLeg
	for _, f := range facts {
		s := f.Segment
		if s == nil || s.Type != "flight" || s.From == nil || s.To == nil || s.Depart == nil || s.Arrive == nil {
			continue
		}
		out = append(out, flightLeg{s.Number, s.From.Code, s.To.Code, s.Depart.Format("2006-01-02 15:04 -0700"), s.Arrive.Format("2006-01-02 15:04 -0700")})
	}
	return out
}

// checkLegs fails t unless got is want, leg by leg.
func checkLegs(t *testing.T, got, want []flightLeg) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("legs = %+v, want %+v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("leg %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// billAmount is a bill's amount and currency, "" and "" without one.
func billAmount(b *extract.Bill) (amount, currency string) {
	if b.Amount == nil {
		return "", ""
	}
	return b.Amount.Amount, b.Amount.Currency
}
