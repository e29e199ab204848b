package bcbp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// reservation is the part of KItinerary's output the test compares.
type reservation struct {
	ReservationNumber string `json:"reservationNumber"`
	AirplaneSeat      string `json:"airplaneSeat"`
	ReservedTicket    struct {
		TicketToken string `json:"ticketToken"`
	} `json:"reservedTicket"`
	ReservationFor struct {
		FlightNumber     string `json:"flightNumber"`
		DepartureDay     string `json:"departureDay"`
		DepartureAirport struct {
			IataCode string `json:"iataCode"`
		} `json:"departureAirport"`
		ArrivalAirport struct {
			IataCode string `json:"iataCode"`
		} `json:"arrivalAirport"`
		DepartureStation struct {
			Identifier string `json:"identifier"`
		} `json:"departureStation"`
		ArrivalStation struct {
			Identifier string `json:"identifier"`
		} `json:"arrivalStation"`
	} `json:"reservationFor"`
}

// TestKItinerary decodes every boarding pass of KItinerary's test data and
// compares each leg with KItinerary's reading: booking reference, airports,
// flight number, seat and the day of the flight (the year from the issue
// date, else from a receipt date two days before).
func TestKItinerary(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	if len(files) < 13 {
		t.Fatalf("%d test files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var want []reservation
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(f, err)
		}
		_, text, _ := strings.Cut(want[0].ReservedTicket.TicketToken, ":")
		p, err := Parse(text)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(p.Legs) != len(want) {
			t.Errorf("%s: %d legs, want %d", f, len(p.Legs), len(want))
			continue
		}
		for i, w := range want {
			l := p.Legs[i]
			from, to := w.ReservationFor.DepartureAirport.IataCode, w.ReservationFor.ArrivalAirport.IataCode
			if from == "" {
				from = strings.TrimPrefix(w.ReservationFor.DepartureStation.Identifier, "iata:")
				to = strings.TrimPrefix(w.ReservationFor.ArrivalStation.Identifier, "iata:")
			}
			day, _ := time.Parse("2006-01-02", w.ReservationFor.DepartureDay)
			got := []string{l.PNR, l.From, l.To, p.Date(i, day.AddDate(0, 0, -2)).Format("2006-01-02")}
			exp := []string{w.ReservationNumber, from, to, w.ReservationFor.DepartureDay}
			if w.AirplaneSeat != "" { // KItinerary gives none for a train
				got, exp = append(got, l.Seat), append(exp, w.AirplaneSeat)
			}
			if w.ReservationFor.FlightNumber != "" {
				got, exp = append(got, l.Flight), append(exp, w.ReservationFor.FlightNumber)
			}
			if strings.Join(got, " ") != strings.Join(exp, " ") {
				t.Errorf("%s leg %d: got %q, want %q", f, i+1, got, exp)
			}
		}
	}
}

// TestYear: without an issue date the year is the one that puts the day
// first on or after 30 days before the receipt date; with one, the flight
// is on or after it.
func TestYear(t *testing.T) {
	for _, c := range []struct {
		day      int
		received time.Time
		want     string
	}{
		{5, time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC), "2027-01-05"},
		{326, time.Date(2018, 1, 1, 9, 0, 0, 0, time.UTC), "2018-11-22"},   // 40 days before is too long ago
		{350, time.Date(2018, 1, 10, 9, 0, 0, 0, time.UTC), "2017-12-16"},  // a pass forwarded after its flight
		{355, time.Date(2018, 1, 20, 23, 0, 0, 0, time.UTC), "2017-12-21"}, // the 30th day before, whatever its hour
		{10, time.Date(2018, 1, 10, 9, 0, 0, 0, time.UTC), "2018-01-10"},
	} {
		p := &Pass{Legs: []Leg{{Day: c.day}}}
		if got := p.Date(0, c.received).Format("2006-01-02"); got != c.want {
			t.Errorf("day %d seen on %s = %s, want %s", c.day, c.received.Format("2006-01-02"), got, c.want)
		}
	}
	p := &Pass{Legs: []Leg{{Day: 5}}, HasIssue: true, IssueYear: 6, IssueDay: 360}
	if got := p.Date(0, time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)); got.Format("2006-01-02") != "2027-01-05" {
		t.Errorf("day 5 issued on day 360 of 2026 = %s", got)
	}
}

func TestBad(t *testing.T) {
	for _, s := range []string{"", "M1", "X1DOE/JOHN            EABC123 TXLBRUSN 2592 110Y", strings.Repeat("M", 5000),
		"M9DOE/JOHN            EABC123 TXLBRUSN 2592 110Y               ", "M1DOE/JOHN            EABC123 TXLBRUSN 2592 999Y000000000000000"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) succeeded", s)
		}
	}
}

// FuzzParse: no input makes Parse panic, and what it returns is whole.
func FuzzParse(f *testing.F) {
	f.Add("M1DESMARAIS/LUC       EAB12C3 YULFRAAC 0834 326J003A0027 167>5321WW1325BAC 0014123456002001412346700100141234789012A0141234567890 1AC AC 1234567890123    4PCYLX58Z^108ABCDEFGH")
	f.Add("M1DOE/JOHN            EXXX007 TXLBRUSN 2592 110Y")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		for i := range p.Legs {
			p.Date(i, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
		}
	})
}
