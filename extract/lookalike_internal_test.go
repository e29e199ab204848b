package extract

import "testing"

func TestLookAlike(t *testing.T) {
	for _, c := range []struct {
		org  string
		want bool
	}{
		{"amazon-orders.shop", true},
		{"myamazon.shop", true},
		{"amazon.top", true},
		{"paypal-secure-login.top", true},
		{"secure-paypal.com", true},
		{"dhl-delivery.info", true},
		{"amazon.com", false},
		{"amazon.de", false},
		{"amazon.co.uk", false},
		{"amazonaws.com", false},
		{"theupsstore.com", false},
		{"groups.io", false},
		{"pineapple-shop.de", false},
		{"paperchase.co.uk", false},
		{"kaffeewerk-shop.de", false},
		{"x-kom.pl", false},
		{"bookingkit.net", false},
		{"expediamail.com", false},
	} {
		if got := lookAlike(c.org); got != c.want {
			t.Errorf("lookAlike(%q) = %v, want %v", c.org, got, c.want)
		}
	}
}
