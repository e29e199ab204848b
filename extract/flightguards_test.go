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

// TestHoldPrintoutWordsAreNoStops: an agent's booking on hold (issue 46,
// foreign-25's AirSial printout) prints two legs side by side on one row
// with days broken by the PDF's text ("26- NOV-23"), its time limit's
// clock with the zone after it ("08:26 am PST") and the agent's address
// in a sentence after "TRAVEL". None is a stop: a zone's abbreviation
// after a clock is the clock's, a name does not begin with a number, and
// a word of capitals in a sentence is no two codes run together
// ("TRAVEL": Taramajima and Vernal).
func TestHoldPrintoutWordsAreNoStops(t *testing.T) {
	text := "Electronic Booking\nThis document is not valid for travel PNR: 7QWZKD\nThis reservation will be held until payment up to 04-03-2027 ECONOMY\n09:40 am PST\n" +
		"Travel Information\nLahore - Dubai Dubai - Lahore\nDATE FLIGHT DEPARTURE ARRIVAL BAGGAGE DATE FLIGHT DEPARTURE ARRIVAL BAGGAGE\n" +
		"12- MAR-27 PF714 02:10 PM 04:25 PM Standard 19- MAR-27 PF715 06:05 AM 10:40 AM Standard\n" +
		"Agent\nNoor Travels\nName:\nE-TICKET Office#4, Mall Road Plaza Time Limit Expiry\nAddress:\nTRAVEL Canal Road, Lahore This reservation will be held until payment up to 04-03-2027 09:40 am\nAGENT Phone 042-5550100 PST\n"
	for _, f := range mailFacts("AirSial <noreply@airsial.example>", "Electronic Booking PNR: 7QWZKD", text, time.Date(2027, 3, 3, 9, 40, 0, 0, time.UTC)) {
		s := f.Segment
		if s == nil {
			continue
		}
		for _, p := range []*extract.Place{s.From, s.To} {
			if p == nil {
				continue
			}
			if p.Code == "TRA" || p.Code == "VEL" || p.Code == "PST" || p.Name == "PST" || p.Name != "" && p.Name[0] >= '0' && p.Name[0] <= '9' {
				t.Errorf("%s %s from %+v to %+v: a word of the printout read as a stop", s.Type, s.Number, *s.From, *s.To)
			}
		}
	}
}
