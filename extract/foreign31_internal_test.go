package extract

import (
	"slices"
	"testing"
	"time"
)

// TestSameDayStay: a stay that ends the day it begins, both by dates
// alone, is no night's (an airline's "Departure" and "Arrival" on one
// day, read as a stay's labels: foreign-31t's Batavia Air ticket); a
// night's stay, or a day's with its hours, is one.
func TestSameDayStay(t *testing.T) {
	day := func(d int, dateOnly bool, h int) *Time {
		return &Time{Time: time.Date(2027, 3, d, h, 0, 0, 0, time.UTC), DateOnly: dateOnly}
	}
	for _, tt := range []struct {
		name    string
		in, out *Time
		want    bool
	}{
		{"one day by dates alone", day(9, true, 0), day(9, true, 0), true},
		{"one night", day(9, true, 0), day(10, true, 0), false},
		{"a day's use by its hours", day(9, false, 9), day(9, false, 17), false},
		{"no check-out", day(9, true, 0), nil, false},
	} {
		f := Fact{Kind: KindHotel, Segment: &Segment{Type: KindHotel, CheckIn: tt.in, CheckOut: tt.out}}
		if got := sameDayStay(f); got != tt.want {
			t.Errorf("%s: sameDayStay = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestCurrencyIsNoAirport: a currency's code before an amount is no
// airport's ("Published Fare: IDR 803,000" gave a flight to Idar-Oberstein
// from a Lion Air receipt whose legs no reader read); an airport's code
// beside a clock or a route's dash stays one.
func TestCurrencyIsNoAirport(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"Published Fare: IDR 803,000", nil},
		{"Total taxes: THB 1,250.00 - paid", nil},
		{"Departure: DPS 12:50 - ENE 15:10", []string{"DPS", "ENE"}},
		{"Jakarta (CGK) - Padang (PDG)", []string{"CGK", "PDG"}},
	} {
		if got := airportCodes(tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("airportCodes(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
