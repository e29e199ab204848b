package extract_test

import (
	"testing"
	"time"
)

// TestShopBeforeParcelNoun: a carrier's notice names the shop as the
// adjective before its word for the parcel ("Ihre Amazon Sendung", "je
// bol.com pakket", "ditt Zalando-paket"); a carrier's name there, or a
// word for the parcel's kind, names no shop.
func TestShopBeforeParcelNoun(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // merchant, tracking, carrier, status
	}{
		{"GLS <noreply@gls.example.de>", "Ihre Thalia Sendung ist unterwegs", "Hallo,\nIhre Thalia Sendung ist unterwegs und wird morgen zugestellt.\nPaketnummer: 51207719384\n",
			"Thalia 51207719384 GLS shipped"},
		{"DHL Paket <noreply@dhl.de>", "Dein Otto-Paket kommt heute", "Dein Otto-Paket wird heute zugestellt.\nSendungsnummer: 00340434161234567890\n",
			"Otto 00340434161234567890 DHL out_for_delivery"},
		{"PostNL <noreply@postnl.nl>", "Je bol.com pakket is onderweg", "Je bol.com pakket is onderweg en wordt morgen bezorgd.\nTrack & Trace: 3SBOL5512044781\n",
			"bol.com 3SBOL5512044781 PostNL shipped"},
		{"PostNord <noreply@postnord.se>", "Ditt Zalando-paket är på väg", "Ditt Zalando-paket är på väg.\nKollinummer: 00370722130012345678\n",
			"Zalando 00370722130012345678 PostNord shipped"},
		// The carrier's own name, and a word for the parcel's kind.
		{"DHL Paket <noreply@dhl.de>", "Ihre DHL Sendung ist unterwegs", "Ihre DHL Sendung ist unterwegs.\nSendungsnummer: 00340434161234567890\n",
			" 00340434161234567890 DHL shipped"},
		{"Hermes <noreply@hermesworld.example.de>", "Ihre Teil-Lieferung ist unterwegs", "Ihre Teil-Lieferung ist unterwegs.\nSendungsnummer: H1002345678901234567\n",
			" H1002345678901234567 Hermes shipped"},
		{"GLS <noreply@gls.example.de>", "Ihre Express Sendung ist unterwegs", "Ihre Express Sendung ist unterwegs.\nPaketnummer: 51207719384\n",
			" 51207719384 GLS shipped"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2027, 6, 8, 7, 0, 0, 0, time.UTC)) {
			if o := f.Order; o != nil && len(o.Shipments) == 1 {
				s := o.Shipments[0]
				got = o.Merchant + " " + s.Tracking + " " + s.Carrier + " " + s.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
