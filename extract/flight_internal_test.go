package extract

import "testing"

// TestICAOFlightNoCurrency: an airline's three-letter designator and its
// number are a flight, a currency's code before its amount none
// ("Totalpris: NOK 2 418,00": NOK is also an airline's designator; a
// PDF receipt's wrapped table left the price the line's only number).
func TestICAOFlightNoCurrency(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"Outbound flight TOM2456", true},
		{"EZY8042", true},
		{"Totalpris: NOK 2 418,00 · Bagasje: 1PC", false},
		{"Total fare EUR 418 · Baggage 1PC", false},
	} {
		if got := icaoFlight(c.line, nil) != nil; got != c.want {
			t.Errorf("icaoFlight(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
