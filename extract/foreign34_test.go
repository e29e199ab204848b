package extract_test

import (
	"testing"
	"time"

	"mailnode/extract/carriers"
)

// Classes the outside set foreign-34 found (issue 46, 2026-12-03),
// proved with other senders and words than its mails.

// TestOwnLabelledTracking: in a carrier's own notice the number under
// its tracking label is the parcel's, whatever its form, though another
// number beside it (a shipper's reference) passes another carrier's check
// by chance.
func TestOwnLabelledTracking(t *testing.T) {
	const reference = "44712090000030805834" // a USPS form by chance
	if ms := carriers.Identify(reference, ""); len(ms) == 0 || !ms[0].Checked {
		t.Fatalf("the reference %s passes no check: the test proves nothing", reference)
	}
	sent := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, text, tracking, carrier string
	}{
		{"a reference after the number",
			"Hermes <noreply@myhermes.de>", "Dein Paket kommt heute",
			"Deine Paketinfos\n\n*Sendungsnummer*\nH1004930217520 ( https://myhermes.de/t )  (Referenz: " + reference + "-112) ( https://myhermes.de/r )\n\n*Absender*\nGartenwelt GmbH\n",
			"H1004930217520", "Hermes"},
		{"a reference lines below",
			"DPD <noreply@dpd.de>", "Ihr Paket ist unterwegs",
			"Paketnummer: 70412258839\nVoraussichtliche Zustellung: heute\n\nAuftragsreferenz " + reference + "\n",
			"70412258839", "DPD"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var tracking, carrier string
			for _, f := range mailFacts(tt.from, tt.subject, tt.text, sent) {
				if f.Order != nil && len(f.Order.Shipments) > 0 {
					tracking, carrier = f.Order.Shipments[0].Tracking, f.Order.Shipments[0].Carrier
				}
			}
			if tracking != tt.tracking || carrier != tt.carrier {
				t.Errorf("tracking %q by %q, want %q by %q", tracking, carrier, tt.tracking, tt.carrier)
			}
		})
	}
}
