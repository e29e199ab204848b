package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestPaidServiceIsNoOrder: a paid service that delivers nothing (a
// domain's automatic renewal, a hosting plan's or a licence's renewal
// paid) is a paid bill whatever order number it prints, and a licence's
// order paid that prints no amount is nothing, never an order "ordered"
// (foreign-11's Namecheap and Atlassian mails). A heading that names the
// bill is no letterhead ("Porkbun Auto Renewal Summary" is Porkbun's),
// and a number whose rest is blanked out ("Order# 21210***") is none. A
// subscription's goods to ship stay an order.
func TestPaidServiceIsNoOrder(t *testing.T) {
	day := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, from, subject, body   string
		issuer, number, amount, cur string
	}{
		{"en registrar's auto renewal", "Porkbun Billing <billing@porkbun.example>", "Porkbun Order Summary (Order # 4471093)",
			"--------\nPorkbun Auto Renewal Summary\n--------\n\nThe following domains have been automatically renewed for one year, and the amount was debited from your account credit.\n\n" +
				"Order Number : 4471093\nreyes-pottery.com (1 year) .... $10.87\nreyes-pottery.net (1 year) .... $12.11\n\nTotal Cost : $22.98\n",
			"Porkbun", "4471093", "22.98", "USD"},
		{"en masked order number", "", "Order Summary (Order# 21210***)",
			"Auto Renewal Summary\n\nYour following domains have been automatically renewed and the amount was debited from your Account Balance.\n\n" +
				"Order Number : 21210***\nInitial Charge : $10.87\nFinal Cost : $10.87\n",
			"", "", "10.87", "USD"},
		{"de hosting renewed, label above value", "Hostwerk <rechnung@hostwerk.example>", "Ihr Webhosting-Tarif wurde verlängert",
			"Ihr Webhosting-Tarif \"Web M\" wurde um 12 Monate verlängert. Vielen Dank für Ihre Zahlung.\n\nBestellnummer\nHW-2026-558812\n\nZahlungsbetrag\n59,88 €\n\nDie Rechnung finden Sie im Kundenbereich.\n",
			"Hostwerk", "HW-2026-558812", "59.88", "EUR"},
		{"fr licence renewed, table", "Logiflux <ventes@logiflux.example>", "Confirmation de commande LF-88213",
			"Nous avons bien reçu votre paiement. Votre licence Logiflux Pro a été renouvelée pour un an.\n\n" +
				"Commande | Produit | Durée | Montant TTC\nLF-88213 | Licence Logiflux Pro (1 poste) | 12 mois | 119,00 €\n\nLa facture est disponible dans votre espace client.\n",
			"Logiflux", "LF-88213", "119.00", "EUR"},
	} {
		t.Run(c.name, func(t *testing.T) {
			facts := mailFacts(c.from, c.subject, c.body, day)
			if len(facts) != 1 || facts[0].Bill == nil {
				t.Fatalf("got %+v, want one bill", facts)
			}
			b := facts[0].Bill
			amount, cur := billAmount(b)
			if b.Issuer != c.issuer || b.Number != c.number || amount != c.amount || cur != c.cur || b.Status != extract.StatusPaid {
				t.Errorf("got issuer %q number %q amount %s %s status %s; want %q %q %s %s paid", b.Issuer, b.Number, amount, cur, b.Status, c.issuer, c.number, c.amount, c.cur)
			}
		})
	}
	licence := "Your order has been processed\n\nThanks for choosing Quillsoft. This email confirms that we received payment for order QS-2211408.\n" +
		"You can download your invoice as a PDF.\n\nThe use of Quillsoft software is subject to the Quillsoft licence agreement.\n"
	if facts := mailFacts("Quillsoft Sales <sales@quillsoft.example>", "Your order has been processed", licence, day); len(facts) != 0 {
		t.Errorf("a licence's order paid without an amount: got %+v, want nothing", facts)
	}
	coffee := "Thank you for your payment. We received payment for order #5512, the first box of your coffee subscription.\n\n" +
		"Order number: 5512\nEthiopia Guji, 2 x 250 g    $28.00\nShipping                    $4.50\nTotal                       $32.50\n\nYour box ships on Monday.\n"
	facts := mailFacts("Hillcrest Roasters <orders@hillcrestroasters.example>", "Order #5512 confirmed", coffee, day)
	if len(facts) != 1 || facts[0].Order == nil || facts[0].Order.Number != "5512" {
		t.Errorf("a subscription's goods to ship: got %+v, want the order", facts)
	}
}
