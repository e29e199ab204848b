package extract

import "testing"

// TestHotelName: a hotel label's value loses the address that follows the
// name on its line, and keeps a comma that only names a city.
func TestHotelName(t *testing.T) {
	for v, want := range map[string]string{
		"Premier Inn London County Hall":               "Premier Inn London County Hall",
		"Hotel Bristol, Strandkaien 2, 5013 Bergen":    "Hotel Bristol",
		"Adlon Kempinski, Berlin":                      "Adlon Kempinski, Berlin",
		"Adlon Kempinski, Berlin, Unter den Linden 77": "Adlon Kempinski, Berlin",
		"Hotel 1898, Barcelona":                        "Hotel 1898, Barcelona",
		", 12 Main Street":                             ", 12 Main Street",
	} {
		if got := hotelName(v); got != want {
			t.Errorf("hotelName(%q) = %q, want %q", v, got, want)
		}
	}
}
