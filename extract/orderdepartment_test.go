package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestOrderMerchantLessDepartment: a shop's display name with the word of
// the department or kind of mail that sends it ("Transactions",
// "Receipts", "Notifications", "Versand", "Expéditions") names the shop
// without it; a name whose last word is the brand's own stays whole.
func TestOrderMerchantLessDepartment(t *testing.T) {
	for _, tt := range []struct{ name, addr, subject, text, want string }{
		{"Makerhub Transactions", "transaction@makerhub.example", "You made a sale on Makerhub [Order #5518820193]",
			"Congratulations on your order.\nOrder Total: US$18.20\n", "Makerhub"},
		{"Tavola Receipts", "noreply@tavola.example", "Your order #88213 has been delivered",
			"Thanks for ordering.\nTotal: €23.40\n", "Tavola"},
		{"Lumenhaus Versand", "versand@lumenhaus.example", "Ihre Bestellung 771204 wurde versandt",
			"Bestellnummer: 771204\n", "Lumenhaus"},
		{"Maison Coralie Expéditions", "expeditions@maisoncoralie.example", "Votre commande n° 55120 a été expédiée",
			"Commande n° 55120\n", "Maison Coralie"},
		{"Kettle Transport", "orders@kettletransport.example", "Your order #4471 has shipped", "Order #4471\n", "Kettle Transport"},
	} {
		m := &mime.Message{From: []mime.Address{{Name: tt.name, Address: tt.addr}}, Subject: tt.subject, Text: tt.text,
			Date: time.Date(2027, 6, 1, 8, 0, 0, 0, time.UTC)}
		_, dom, _ := strings.Cut(tt.addr, "@")
		res := extract.Extract(m, msgauth.Verdict{Authenticated: true, Domain: dom})
		got := ""
		for _, f := range res.Facts {
			if f.Order != nil {
				got = f.Order.Merchant
			}
		}
		if got != tt.want {
			t.Errorf("Extract(from %q).Order.Merchant = %q, want %q", tt.name, got, tt.want)
		}
	}
}
