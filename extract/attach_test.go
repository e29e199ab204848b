package extract_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestWalletPasses reads every Wallet pass of KItinerary's test data as an
// attachment and compares what it yields with KItinerary's reading: the
// flight (number, departure airport, day, booking reference) or the event
// (name, start); a pass whose barcode is no boarding pass yields nothing.
func TestWalletPasses(t *testing.T) {
	files, _ := filepath.Glob("pkpass/testdata/*.pkpass")
	if len(files) < 8 {
		t.Fatalf("%d passes", len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var want []struct {
			Type              string `json:"@type"`
			ReservationNumber string `json:"reservationNumber"`
			For               struct {
				FlightNumber     string `json:"flightNumber"`
				DepartureDay     string `json:"departureDay"`
				Name             string `json:"name"`
				StartDate        string `json:"startDate"`
				DepartureAirport struct {
					IataCode string `json:"iataCode"`
				} `json:"departureAirport"`
			} `json:"reservationFor"`
		}
		b, err := os.ReadFile(strings.TrimSuffix(f, ".pkpass") + ".json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(f, err)
		}
		msg := &mime.Message{From: []mime.Address{{Address: "noreply@airline.example"}}, Subject: "Your pass",
			Date:      time.Date(2017, 1, 1, 0, 0, 0, 0, time.UTC),
			Documents: []mime.Document{{Kind: "pkpass", Filename: filepath.Base(f), Data: raw}}}
		var got, exp []string
		for _, fc := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			s := fc.Segment
			switch fc.Kind {
			case extract.KindFlight:
				_, num, _ := strings.Cut(s.Number, " ")
				got = append(got, "flight "+num+" "+s.From.Code+" "+s.Depart.Format("2006-01-02")+" "+s.Reservation)
			case extract.KindEvent:
				got = append(got, "event "+s.Name+" "+s.Depart.Format(time.RFC3339))
			}
		}
		for _, w := range want {
			switch w.Type {
			case "FlightReservation":
				exp = append(exp, "flight "+w.For.FlightNumber+" "+w.For.DepartureAirport.IataCode+" "+w.For.DepartureDay+" "+w.ReservationNumber)
			case "EventReservation":
				exp = append(exp, "event "+w.For.Name+" "+w.For.StartDate)
			}
		}
		if strings.Join(got, "\n") != strings.Join(exp, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", filepath.Base(f), got, exp)
		}
	}
}
