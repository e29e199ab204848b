package extract_test

import (
	"testing"
	"time"
)

// TestProgressBarNoState: a tracker's progress bar (its steps as short
// lines, or cells apart by tabs or dots) tells no state: the mail's own
// sentence does, in every language, and a mail with only the bar has
// no state of its bar (an order's number alone reads as one placed, as
// before); a state as a heading over its sentence stays.
func TestProgressBarNoState(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // number and status
	}{
		{"Parcelo <orders@parcelo.example.com>", "An update on your order",
			"Hi Lee,\nYour parcel has been dispatched.\nOrdered\nDispatched\nOut for delivery\nDelivered\nOrder number: 88120-4471\nArriving Friday\n", "88120-4471 shipped"},
		{"Wohnkontor <shop@wohnkontor.example.de>", "Neuigkeiten zu Ihrer Bestellung",
			"Hallo Frau Adler,\nIhr Paket wurde versandt.\nBestellt · Versandt · In Zustellung · Zugestellt\nBestellnummer: 4471-2290\n", "4471-2290 shipped"},
		{"Maison Sorel <commandes@maisonsorel.example.fr>", "Du nouveau pour votre commande",
			"Bonjour,\nVotre colis a été expédié.\nCommandée\tExpédiée\tEn cours de livraison\tLivrée\nNuméro de commande : MS-55120\n", "MS-55120 shipped"},
		{"Targowisko <sklep@targowisko.example.pl>", "Aktualizacja zamówienia",
			"Cześć,\nTwoja paczka została wysłana.\nZamówione | Wysłane | W doręczeniu | Doręczone\nNumer zamówienia: TG-55120\n", "TG-55120 shipped"},
		// Only the bar and the order's number; a state's heading over its
		// sentence.
		{"Parcelo <orders@parcelo.example.com>", "Order 77120-5512",
			"Ordered\nShipped\nOut for delivery\nDelivered\nOrder number: 77120-5512\n", "77120-5512 ordered"},
		{"Parcelo <orders@parcelo.example.com>", "An update on your order",
			"Delivered\nYour package was delivered today at 14:02.\nOrder number: 88120-4472\n", "88120-4472 delivered"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 10, 13, 10, 0, 0, 0, time.UTC)) {
			if o := f.Order; o != nil {
				got = o.Number + " " + o.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
