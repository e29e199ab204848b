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

// TestNameOverAddress: a hotel's name is read from the line over its
// street address or before the address on its own line, when the name is
// a lodging's or the sender's; footers, dates and greetings name nothing.
func TestNameOverAddress(t *testing.T) {
	for _, c := range []struct {
		sender, subject, text, want string
	}{
		{"Hilton Reservations", "Your reservation", "Hilton Amsterdam\n\nApollolaan 138, 1077 BG Amsterdam\n", "Hilton Amsterdam"},
		{"Booking.com", "Booking confirmed", "Lisboa Plaza Hotel\nTravessa do Salitre 7, 1269-066 Lisbon\n", "Lisboa Plaza Hotel"},
		{"Cabinn Hotels", "Booking 918273", "Venlig hilsen\nCabinn Copenhagen, Kongens Nytorv 30\n", "Cabinn Copenhagen"},
		{"Best Western", "Reservierung", "Ihr Team vom Best Western Hotel Bremen City\nBahnhofsplatz 8, 28195 Bremen\n", "Best Western Hotel Bremen City"},
		{"Hotels", "Stay", "12 Main Street\nThe Grand Hotel\n1 King Street, London\n", "The Grand Hotel"},
		// A company's footer, a date after a comma, a name nobody else uses.
		{"Booking.com", "Booking confirmed", "Booking.com B.V.\nHerengracht 597, 1017 CE Amsterdam\n", ""},
		{"Booking.com", "Booking confirmed", "Check-in Friday, October 15, 2027\n", ""},
		{"Example Travel", "Your trip", "Reception Desk\nVia Roma 12, Rapallo\n", ""},
	} {
		m := &msgContext{senderName: c.sender}
		if got := m.nameOverAddress(c.subject, c.text); got != c.want {
			t.Errorf("nameOverAddress(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
