package extract

import "testing"

// TestSevenLetterLocator: a low-cost airline's reference of seven capital
// letters ("EXFVNVW", in the subject "easyJet booking reference:") is a
// booking's; a word in capitals after the label is none.
func TestSevenLetterLocator(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Nordjet booking reference: KWTDHZL\n", "KWTDHZL"},
		{"Booking reference: QXBRTMS\n", "QXBRTMS"},
		{"Booking reference: PENDING\n", ""},
		{"Booking reference: DETAILS\n", ""},
		{"Booking reference: PAYMENT\n", ""},
		{"Booking reference: STATION\n", ""},
	} {
		if got := findReservation(c.text); got != c.want {
			t.Errorf("findReservation(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
