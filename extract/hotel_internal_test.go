package extract

import "testing"

// TestLodgingNameNotHeadingChargeOrPointer: a lodging word that heads a
// block ("Hotel Information:"), names a charge ("Resort Fee-250.00") or
// follows a common word ("This hotel", "Ihr Hotel") names no place; a
// name around it still does.
func TestLodgingNameNotHeadingChargeOrPointer(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Hotel Information:\n- Name: Serenity Resort\n", "Serenity Resort"},
		{"Resort Fee-250.00\n", ""},
		{"City fees\nHotel Tax: 12.50\n", ""},
		{"This hotel has a smoke-free policy.\n", ""},
		{"Ihr Hotel freut sich auf Ihren Besuch!\n", ""},
		{"Welcome to The Savoy Hotel, London.\n", "The Savoy Hotel"},
		{"Hotel Information:\nHotel Riviera Nice\n", "Hotel Riviera Nice"},
		{"Hotel Adlon: your stay is confirmed\n", "Hotel Adlon"},
	} {
		if got := lodgingName(tc.text); got != tc.want {
			t.Errorf("lodgingName(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestHotelLabelAfterBullet: a list's bullet may stand before a hotel's
// name label.
func TestHotelLabelAfterBullet(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"- Hotel Name: Serenity Resort\n", "Serenity Resort"},
		{"• Hotel: Alpenresidenz Gurglhof\n", "Alpenresidenz Gurglhof"},
		{"Hotel: Casa Azul\n", "Casa Azul"},
	} {
		got := hotelLabels.after(tc.text)
		if len(got) == 0 || got[0] != tc.want {
			t.Errorf("hotelLabels.after(%q) = %q, want %q first", tc.text, got, tc.want)
		}
	}
}

func TestWebName(t *testing.T) {
	for n, want := range map[string]bool{"Marriott.com": true, "Hotels.com": true, "The St. Regis Rome": false, "Hotel Adlon": false, "B&B Hotels": false} {
		if got := webName(n); got != want {
			t.Errorf("webName(%q) = %v, want %v", n, got, want)
		}
	}
}

func TestHotelCapital(t *testing.T) {
	for ln, want := range map[string]bool{"This hotel has a smoke-free policy": false, "Total for stay in hotel's currency - 2887.88 USD": false,
		"pentahotel Leipzig": true, "Grand Hotel Europa": true, "HOTEL ALFA": true} {
		if got := hotelCapital(ln); got != want {
			t.Errorf("hotelCapital(%q) = %v, want %v", ln, got, want)
		}
	}
}
