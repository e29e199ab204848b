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

// TestKItineraryContext reads every pass of KItinerary's test data against
// the day its own test reads them on (2 April 2018): the year of each
// flight comes from the issue date where the pass gives one (any version,
// "1181W 8033B…" of a version-1 pass too), else from that day.
func TestKItineraryContext(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	ref := time.Date(2018, 4, 2, 0, 0, 0, 0, time.UTC)
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
		if err != nil || len(p.Legs) != len(want) {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for i, w := range want {
			if got := p.Date(i, ref).Format("2006-01-02"); got != w.ReservationFor.DepartureDay {
				t.Errorf("%s leg %d: day %s, want %s", f, i+1, got, w.ReservationFor.DepartureDay)
			}
		}
	}
}

// TestIssue: the issue date is read where the unique conditional block
// states a size that covers it, in digits, whatever the version.
func TestIssue(t *testing.T) {
	const head = "M1DOE/JOHN            EXXX007 BRUTXLEW 8103 035Y012C0030 1"
	for _, c := range []struct {
		cond      string
		year, day int
		ok        bool
	}{
		{"47>1181W 8033BEW 0000000000000291040000000000 0   LH 123456789012345     ", 8, 33, true}, // version 1
		{"5D>5181WM7034BSN              2A08200000000000 SN LH 123456789012345      ", 7, 34, true},
		{"30>5002A0571234567890  AF AF 1234567890123456    Y", 0, 0, false}, // size 00: the leg's fields follow
		{"16>5062A W 8033", 0, 0, false},         // size 6 stops before the date
		{"16>5181W +033BEW 000000", 0, 0, false}, // not digits
		{"16>5181W 8 33BEW 000000", 0, 0, false},
		{"16>518  W 8400BEW 000000", 0, 0, false}, // day 400
		{"16>0181W 8033BEW 000000", 0, 0, false},  // no version
	} {
		p, err := Parse(head + c.cond)
		if err != nil {
			t.Errorf("%q: %v", c.cond, err)
			continue
		}
		if p.HasIssue != c.ok || p.IssueYear != c.year || p.IssueDay != c.day {
			t.Errorf("%q: issue %v %d/%d, want %v %d/%d", c.cond, p.HasIssue, p.IssueYear, p.IssueDay, c.ok, c.year, c.day)
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
	f.Add("M1DOE/JOHN             XXX007 BRUTXLEW 8103 035Y012C0030 147>1181W 8033BEW 0000000000000291040000000000 0   LH 123456789012345     ")
	f.Add("M1ROSSI/GIULIA        ER5TQ2M FCOMUCLH 1877 340M017A0102 130>5002A22023456789010 LH                     1PCN")
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
