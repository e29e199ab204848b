package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
)

// TestPrintoutWordsAreNoFields: a booking confirmation's printout
// (issue 46, foreign-24's Air Arabia Maroc itinerary) holds words that
// looked like its fields: "NUMERO" under a title ending in a reservation's
// label is the next label's word, "(NON-STOP)" no airport NON, and
// "Aircraft: Airbus A320" no flight A3 20.
func TestPrintoutWordsAreNoFields(t *testing.T) {
	text := "CONFIRMATION DE RESERVATION\nNUMERO DE RESERVATION 77120345 RÉFÉRENCES DE RÉSERVATION 77120345\n" +
		"SEGMENTS DE VOYAGE\nVOLS ORIGINE / DESTINATION DÉPART / ARRIVÉE L'ENREGISTREMENT COMMENCE CLASS STATUT\n" +
		"Lyon-Saint Exupery - lun., 12 mai 2027 09:10\n3O271 lun., 12 mai 2027 06:10 Economy OK\nTétouan - lun., 12 mai 2027 10:05\n(NON-STOP)\n" +
		"Durée du vol: 02:55 Aircraft: Airbus A320 Transit: - Remarks: -\n"
	// Without the number's line, the plane's type is the only number.
	noNumber := strings.Replace(text, "3O271 lun., 12 mai 2027 06:10 Economy OK\n", "", 1)
	var facts []extract.Fact
	// Nor with a first stop no reader names: the last named stop and the
	// line under it.
	unnamed := strings.Replace(noNumber, "Lyon-Saint Exupery - ", "Terminal 1 - ", 1)
	for _, txt := range []string{text, noNumber, unnamed} {
		facts = append(facts, mailFacts("Air Arabia Maroc <noreply@airarabia.example>", "Confirmation de reservation 77120345", txt, time.Date(2027, 4, 1, 9, 0, 0, 0, time.UTC))...)
	}
	for _, f := range facts {
		s := f.Segment
		if s == nil {
			continue
		}
		if s.Reservation == "NUMERO" || s.Number == "A3 20" || s.From != nil && s.From.Code == "NON" || s.To != nil && s.To.Code == "NON" {
			t.Errorf("a %s from %v to %v, number %q, reservation %q: a word of the printout read as a field", s.Type, s.From, s.To, s.Number, s.Reservation)
		}
	}
}
