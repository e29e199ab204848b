package extract_test

import (
	"mailnode/extract/places"
	"testing"
	"time"
)

// TestNamedStopsAmidStayOffers: an airline's confirmation that names its
// stops by their towns in the mail's language, no code beside them, and
// sells hotels under them ("… för 1 rum i 2 nätter", "2 Nächte") has more
// of a stay's words than a flight's; the stay rules read nothing, and the
// flight rules read its legs, each with its number and both airports
// (issue 46, xf10c; foreign-10's Norwegian). Every mail gave no fact
// before.
func TestNamedStopsAmidStayOffers(t *testing.T) {
	type leg struct{ number, from, to, depart string }
	for _, c := range []struct {
		name, from, subject, body string
		want                      []leg
	}{
		{"sv: clocks glued to the towns, hotel offers below", "SAS <noreply@flysas.example>", "Din resa QWE7RT",
			"Bokningsbekräftelse\n\nBOKNINGSREFERENS: QWE7RT\n\nFlyginformation\n\nSK1425-2026 mar 12\n\n06:50Köpenhamn\n\n08:05Göteborg\n\nSK1430-2026 mar 15\n\n18:20Göteborg\n\n19:25Köpenhamn\n\nHotell i Göteborg\n\nHotel Avalon - 3 120 SEK för 1 rum i 2 nätter\nHotel Pigalle - 2 880 SEK för 1 rum i 2 nätter\nHotel Eggers - 2 410 SEK för 1 rum i 3 nätter\n",
			[]leg{{"SK 1425", "CPH", "GOT", "2026-03-12 06:50"}, {"SK 1430", "GOT", "CPH", "2026-03-15 18:20"}}},
		{"de: a town over each clock, exonyms, hotels after", "Condor <noreply@condor.example>", "Buchungsbestätigung K7PLM2",
			"Buchungsbestätigung\n\nBuchungsnummer: K7PLM2\n\nHinflug DE1502 am 14.05.2026\nAbflug 06:10 Frankfurt\nAnkunft 08:05 Lissabon\n\nRückflug DE1503 am 21.05.2026\nAbflug 10:50 Lissabon\nAnkunft 14:40 Frankfurt\n\nUnsere Hotelempfehlungen in Lissabon\nHotel Avenida Palace: 2 Nächte ab 389 €\nHotel Tivoli: 2 Nächte ab 412 €\nZimmer buchen\n",
			[]leg{{"DE 1502", "FRA", "LIS", "2026-05-14 06:10"}, {"DE 1503", "LIS", "FRA", "2026-05-21 10:50"}}},
		{"it: a plain printout, the hotel's nights in a sentence", "Volotea <noreply@volotea.example>", "Conferma prenotazione XK4RT9",
			"CONFERMA DI PRENOTAZIONE\nCodice prenotazione: XK4RT9\n\nVOLO V71822  18/09/2026\n  07:35  Venezia\n  09:05  Napoli\n\nSoggiorno consigliato a Napoli: Hotel Palazzo Caracciolo, 1 camera per 3 notti, colazione inclusa.\nHotel Excelsior Napoli, 1 camera per 3 notti.\n",
			[]leg{{"V7 1822", "VCE", "NAP", "2026-09-18 07:35"}}},
		// A hotel's own confirmation that names a guest's flight in
		// passing and no airline's number keeps no flight.
		{"en distractor: a hotel's stay with a shuttle time", "Harbour Hotel <stay@harbourhotel.example>", "Your stay at Harbour Hotel",
			"Your reservation is confirmed.\nConfirmation number: 88412\nArrival: 12 June 2026\nDeparture: 14 June 2026\n2 nights, 1 room\nAirport shuttle\n07:45 Hotel\n08:20 Airport\n",
			nil},
	} {
		facts := mailFacts(c.from, c.subject, c.body, time.Date(2026, 1, 20, 9, 0, 0, 0, time.UTC))
		var got []leg
		for _, f := range facts {
			if s := f.Segment; s != nil && f.Kind == "flight" && s.From != nil && s.To != nil && s.Depart != nil {
				got = append(got, leg{s.Number, s.From.Code, s.To.Code, s.Depart.Time.Format("2006-01-02 15:04")})
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: leg %d: got %+v, want %+v", c.name, i, got[i], c.want[i])
			}
		}
	}
}

// TestRunOnLegsCodeElsewhere: legs whose cells run together on one line
// (a part whose breaks were lost), each stop's word right before its
// clock without a colon, the stops named by towns, one of which names two
// airports (Valencia: Spain's and Venezuela's), its code printed only in
// the booking's route further on (issue 46, xf10c; foreign-10's
// Eurowings). Before, the first leg lost its arrival and the second leg
// was not read.
func TestRunOnLegsCodeElsewhere(t *testing.T) {
	type leg struct{ number, from, to, depart, arrive string }
	for _, c := range []struct {
		name, from, subject, body string
		want                      []leg
	}{
		{"de: cells apart by bars, route in codes at the end", "Condor <noreply@condor.example>", "Buchungsbestätigung QP4K7Z",
			"Buchungsbestätigung Hallo Eva Beispiel, vielen Dank für deine Buchung. Buchungsnummer: QP4K7Z Flugdaten (Ortszeiten) Flug: 12.06.2026 | Flugnummer: DE 1420 | Abflug 06:20 Uhr Düsseldorf | | Ankunft 09:05 Uhr Valencia Flug: 19.06.2026 | Flugnummer: DE 1421 | Abflug 10:05 Uhr Valencia | | Ankunft 12:40 Uhr Düsseldorf Reisende: Frau Eva Beispiel Düsseldorf ( DUS ) - Valencia ( VLC ) Gesamtpreis | 289,90 € |\n",
			[]leg{{"DE 1420", "DUS", "VLC", "2026-06-12 06:20 +0200", "2026-06-12 09:05 +0200"}, {"DE 1421", "VLC", "DUS", "2026-06-19 10:05 +0200", "2026-06-19 12:40 +0200"}}},
		{"en: flight labels over days, clocks after their words", "Vueling <noreply@vueling.example>", "Booking confirmation WX8M2P",
			"Booking confirmation Thank you for flying with us. Booking reference: WX8M2P Your flights (local times) Flight: 03/10/2026 | Flight number: VY 7841 | Departure 16:40 London Gatwick | | Arrival 20:15 Valencia Flight: 10/10/2026 | Flight number: VY 7840 | Departure 13:05 Valencia | | Arrival 14:50 London Gatwick Passenger: Mr John Example London Gatwick (LGW) - Valencia (VLC) Total | GBP 212.40 |\n",
			[]leg{{"VY 7841", "LGW", "VLC", "2026-10-03 16:40 +0100", "2026-10-03 20:15 +0200"}, {"VY 7840", "VLC", "LGW", "2026-10-10 13:05 +0200", "2026-10-10 14:50 +0100"}}},
		// A fares newsletter of the same layout, no booking's reference:
		// no flight.
		{"en distractor: a fare offer run on", "Vueling <news@vueling.example>", "Autumn sale",
			"Autumn sale! Fly to the sun this October. Flight: 03/10/2026 | Flight number: VY 7841 | Departure 16:40 London Gatwick | | Arrival 20:15 Valencia Flight: 10/10/2026 | Flight number: VY 7840 | Departure 13:05 Valencia | | Arrival 14:50 London Gatwick London Gatwick (LGW) - Valencia (VLC) from GBP 39.99 Book now\n",
			nil},
	} {
		facts := mailFacts(c.from, c.subject, c.body, time.Date(2026, 1, 20, 9, 0, 0, 0, time.UTC))
		var got []leg
		for _, f := range facts {
			if s := f.Segment; s != nil && f.Kind == "flight" && s.From != nil && s.To != nil && s.Depart != nil && s.Arrive != nil {
				got = append(got, leg{s.Number, s.From.Code, s.To.Code, s.Depart.Time.Format("2006-01-02 15:04 -0700"), s.Arrive.Time.Format("2006-01-02 15:04 -0700")})
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: leg %d: got %+v, want %+v", c.name, i, got[i], c.want[i])
			}
		}
	}
}

// TestPrintedCodeServesName: a code printed beside a name is the name's
// only where it serves it: "Valencia (VLC)" is, a hotel's "(TXL)" beside
// Valencia is not, and two codes beside one name give none.
func TestPrintedCodeServesName(t *testing.T) {
	for _, c := range []struct {
		name, code string
		want       bool
	}{
		{"Valencia", "VLC", true},
		{"Valencia", "VLN", true},
		{"Valencia", "TXL", false},
		{"Lissabon", "LIS", true},
		{"Rome Fiumicino", "FCO", true},
		{"Milan", "FCO", false},
	} {
		if got := places.Serves(c.name, c.code); got != c.want {
			t.Errorf("Serves(%q, %q) = %v, want %v", c.name, c.code, got, c.want)
		}
	}
}
