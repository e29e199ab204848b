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
		// The seventh outside set's shapes (xf7c): each step a block of
		// its own, flattened with blank lines and arrows between; blank
		// lines alone; a line's steps apart by bullets or arrows.
		{"Crate & Compass <orders@crateandcompass.example>", "Your order is on its way",
			"Hi Dan, your order CC-66201-7 has shipped.\n\nOrdered\n\n→\n\nShipped\n\n→\n\nOut for delivery\n\n→\n\nArriving\n\nArriving Thursday, October 22\n", "CC-66201-7 shipped"},
		{"Birch & Loom <shipping@birchandloom.example>", "An update on your order",
			"Your order BL-88213 has shipped.\n\nOrdered\n\nShipped\n\nOut for delivery\n\nDelivered\n\nEstimated delivery: October 24\n", "BL-88213 shipped"},
		{"Mercado Luna <envios@mercadoluna.example>", "Novedades de tu pedido",
			"Hola Lucía, hemos enviado tu pedido ML-300918.\n\nPedido • Enviado • En reparto • Entregado\n\nLlegada prevista: viernes\n", "ML-300918 shipped"},
		{"Wohnkontor <shop@wohnkontor.example.de>", "Neuigkeiten zu Ihrer Bestellung",
			"Ihr Paket wurde versandt.\nBestellt → Versandt → In Zustellung → Zugestellt\nBestellnummer: 4471-2291\n", "4471-2291 shipped"},
		// A mail's own blocks apart by blank lines are no bar: its
		// delivery stands.
		{"Parcelo <orders@parcelo.example.com>", "An update on your order",
			"Your order was delivered\n\nRate your delivery\n\nReturn an item\n\nOrder number: 88120-4473\n", "88120-4473 delivered"},
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
