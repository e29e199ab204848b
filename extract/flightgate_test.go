package extract_test

import (
	"testing"
	"time"
)

// TestGateIsNoFlight: an airport gate's number ("Gate B24", "porte F32",
// "uscita B12", "Flugsteig A10") is no flight number, so a one-leg
// confirmation told in a sentence, a route's label and a departure's
// label keeps its lines: the flight is the sentence's.
func TestGateIsNoFlight(t *testing.T) {
	for _, tt := range []struct {
		name, body, num, from, to, dep string
	}{
		{"de", "Buchungscode: X4TQ7M\nFlug LH 1124 am 6. April 2027\nStrecke: FRA – LIS\nFrankfurt am Main, Terminal 1, Flugsteig A10\nAbflug 09:20 Uhr, Boarding ab 08:40 Uhr\n",
			"LH 1124", "FRA", "LIS", "2027-04-06T09:20:00+02:00"},
		{"fr", "Référence de réservation : Q2MZ8T\nVol AF 1362 le 6 avril 2027\nTrajet : ORY – BIQ\nParis-Orly, porte B24\nDépart 11:05, embarquement à 10:30\n",
			"AF 1362", "ORY", "BIQ", "2027-04-06T11:05:00+02:00"},
		{"it", "Codice di prenotazione: W8RZ2K\nVolo AZ 1161 il 6 aprile 2027\nTratta: LIN – NAP\nMilano Linate, uscita B12\nPartenza ore 07:15, imbarco dalle 06:40\n",
			"AZ 1161", "LIN", "NAP", "2027-04-06T07:15:00+02:00"},
		{"ru", "Код бронирования: T5KQ2W\nРейс SU 6121 6 апреля 2027\nМаршрут: SVO – AER\nШереметьево, терминал B, выход B24\nВылет 10:25, посадка с 09:45\n",
			"SU 6121", "SVO", "AER", "2027-04-06T10:25:00+03:00"},
		{"tr", "Rezervasyon kodu: G4MZ7P\nUçuş TK 2310 6 Nisan 2027\nGüzergah: IST – ADB\nİstanbul Havalimanı, kapı F12\nKalkış 13:40, biniş 13:00\n",
			"TK 2310", "IST", "ADB", "2027-04-06T13:40:00+03:00"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := mailFacts("Airline <booking@airline.example>", "Booking", tt.body, time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC))
			if len(fs) != 1 || fs[0].Segment == nil {
				t.Fatalf("facts = %+v, want one flight", fs)
			}
			s := fs[0].Segment
			if s.Number != tt.num || s.From == nil || s.From.Code != tt.from || s.To == nil || s.To.Code != tt.to || s.Depart == nil || s.Depart.Format(time.RFC3339) != tt.dep {
				t.Errorf("flight = %s %+v %+v %v, want %s %s %s %s", s.Number, s.From, s.To, s.Depart, tt.num, tt.from, tt.to, tt.dep)
			}
		})
	}
}
