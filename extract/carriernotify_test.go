package extract_test

import (
	"testing"
	"time"
)

// TestCarrierNotificationDomain: a national post's notice from its
// notification domain (notif-<carrier>.info, not its main domain) names
// that carrier, and the domain is no shop: the seventh outside set's
// notice was read with the domain as the shop and no carrier.
func TestCarrierNotificationDomain(t *testing.T) {
	for _, c := range []struct {
		from, subject, text, want string // want: merchant | carrier | tracking
	}{
		{"Suivi de colis <noreply@notif-chronopost.example>", "Votre colis arrive demain",
			"Bonjour,\n\nVotre colis 6A01234567890 sera livré demain entre 9h et 13h.\n\nSuivre mon colis\n", " | Chronopost | 6A01234567890"},
		{"Mijn Pakket <noreply@notificaties-postnl.example>", "Je pakket komt morgen",
			"Hallo Femke,\n\nJe pakket van Bloemkwartier komt morgen tussen 10:30 en 13:00.\n\nBarcode: 3SBLKW5520148831\n", "Bloemkwartier | PostNL | 3SBLKW5520148831"},
		{"Seguimiento <avisos@notificaciones-correos.example>", "Tu envío está en reparto",
			"Hola Javier:\n\nTu envío está en reparto y lo recibirás hoy.\n\nCódigo de envío: PQ4F6P0712345670128001\n", " | Correos | PQ4F6P0712345670128001"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 10, 19, 18, 0, 0, 0, time.UTC)) {
			if o := f.Order; o != nil && len(o.Shipments) > 0 {
				got = o.Merchant + " | " + o.Shipments[0].Carrier + " | " + o.Shipments[0].Tracking
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.from, got, c.want)
		}
	}
}
