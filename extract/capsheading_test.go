package extract_test

import (
	"testing"
	"time"
)

// TestCarrierNoticeHeading: a carrier's notice whose state is its
// heading in capitals with an exclamation ("DOSTARCZONO!",
// "ΠΑΡΑΔΟΘΗΚΕ!": Greek capitals drop their accents), its number after
// the carrier's name and service ("Twoja przesyłka DHL Express
// 1092134455") or after a label in another case ("o numerze listu
// przewozowego", "με αριθμό αποστολής"): foreign-5's DHL Express
// notice gave nothing.
func TestCarrierNoticeHeading(t *testing.T) {
	for _, c := range []struct{ from, text, want string }{
		{"DHL Express <noreply@dhl.com>", "DOSTARCZONO!\nTwoja przesyłka DHL Express 5512044716.\n", "5512044716 DHL delivered"},
		{"DHL Express <noreply@dhl.com>", "DORĘCZONO!\nPrzesyłka o numerze listu przewozowego 4882017733.\n", "4882017733 DHL delivered"},
		{"DHL Express <noreply@dhl.com>", "ΠΑΡΑΔΟΘΗΚΕ!\nΗ αποστολή με αριθμό αποστολής 7310441250.\n", "7310441250 DHL delivered"},
		// A UPS number printed in its groups after a word for a parcel.
		{"Harbor Knits <orders@harborknits.example>", "Good news!\nYour parcel 1Z 4X8 E73 68 1772 0452 arrives today.\n", "1Z4X8E736817720452 UPS out_for_delivery"},
		{"Harbor Knits <orders@harborknits.example>", "Good news!\nYour parcel 1Z 4X8 E73 68 1772 0453 arrives today.\n", ""},
		{"GLS <noreply@gls-slovakia.sk>", "DORUČENÉ!\nVaša zásielka GLS BusinessParcel 66120447712 od odosielateľa Kaviareň Zrnko.\n", "66120447712 GLS delivered"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, "Powiadomienie", c.text, time.Date(2027, 11, 17, 12, 0, 0, 0, time.UTC)) {
			if o := f.Order; o != nil && len(o.Shipments) == 1 {
				s := o.Shipments[0]
				got = s.Tracking + " " + s.Carrier + " " + s.Status
			}
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}
