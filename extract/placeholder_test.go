package extract_test

import (
	"strings"
	"testing"
)

// TestPlaceholderSenderNamesNoCompany: a bill's or a parcel notice's input
// carried under a placeholder's address ("Reservations
// <reservations@example.com>", "Customer Service <no-reply@example.org>")
// gives neither that role as its issuer, carrier or merchant nor the
// placeholder's domain; the shop its text names stays the merchant.
func TestPlaceholderSenderNamesNoCompany(t *testing.T) {
	for _, from := range []string{"Reservations <reservations@example.com>", "Customer Service <no-reply@example.org>", "Info <info@example.net>"} {
		for _, c := range []struct{ subject, body, merchant string }{
			{"Ihre Rechnung", "Sehr geehrte Kundin,\n\nRechnungsnummer: 2026-55120\nRechnungsbetrag: 49,90 EUR\nFällig am: 20.12.2026\n", ""},
			{"Your invoice", "Hello,\n\nInvoice number: INV-88213\nAmount due: $35.99\nDue date: December 20, 2026\n", ""},
			{"Пратката Ви ще бъде доставена днес", "Здравейте,\n\nПратка от онлайн магазин «Мебели Дом» с товарителница № 1051234567 е предадена на куриер и ще бъде доставена днес.\n", "Мебели Дом"},
		} {
			res := review4Mail(from, c.subject, c.body)
			if len(res.Facts) == 0 {
				t.Errorf("%s, %s: no fact", from, c.subject)
			}
			role := strings.ToLower(strings.Fields(from)[0])
			for _, f := range res.Facts {
				var names []string
				if b := f.Bill; b != nil {
					names = append(names, b.Issuer, b.Domain)
				}
				if o := f.Order; o != nil {
					names = append(names, o.Domain)
					if o.Merchant != c.merchant {
						t.Errorf("%s, %s: merchant %q, want %q", from, c.subject, o.Merchant, c.merchant)
					}
					for _, s := range o.Shipments {
						names = append(names, s.Carrier)
					}
				}
				for _, n := range names {
					if l := strings.ToLower(n); strings.Contains(l, "example.") || strings.Contains(l, role) {
						t.Errorf("%s, %s: a placeholder named the company: %q", from, c.subject, n)
					}
				}
			}
		}
	}
}

// TestRoleNameNamesNoShop: a display name of a role's words alone names no
// shop under a real domain either, in any language ("Customer Service",
// "Kundenservice", "Service client", "Obsługa Klienta", "Orders"): the
// order's fact names none, and Merge shows the domain; a shop's own name
// stays. A mail that prints the shop's name where it spells the domain
// ("Gartenwelt" signing for gartenwelt.de) is the shop's by that name, as
// a mail with no display name is (printedDomainName).
func TestRoleNameNamesNoShop(t *testing.T) {
	body := "Hello,\n\nyour order has shipped.\n\nOrder number: 44120\nTotal: 59.90 EUR\n"
	for from, want := range map[string]string{
		"Customer Service <help@gartenwelt.de>":         "",
		"Kundenservice <service@gartenwelt.de>":         "",
		"Service client <service-client@gartenwelt.de>": "",
		"No Reply <noreply@gartenwelt.de>":              "",
		"Orders <orders@gartenwelt.de>":                 "",
		"Obsługa Klienta <bok@gartenwelt.de>":           "",
		"Gartenwelt Shop <orders@gartenwelt.de>":        "Gartenwelt Shop",
		"AO <orders@ao.com>":                            "AO",
	} {
		if got := orderMerchant(from, "Your order 44120 has shipped", body); got != want {
			t.Errorf("%s: merchant %q, want %q", from, got, want)
		}
	}
	for _, from := range []string{"Customer Service <help@gartenwelt.de>", "Confirmation de commande <auto-confirm@gartenwelt.de>", "Orders <orders@gartenwelt.de>"} {
		if got := orderMerchant(from, "Your order 44120 has shipped", body+"\nYour GartenWelt team\n"); got != "GartenWelt" {
			t.Errorf("%s, signed GartenWelt: merchant %q, want GartenWelt", from, got)
		}
	}
}

// orderMerchant is the merchant of the order a mail's facts hold, "(no
// order)" without one.
func orderMerchant(from, subject, body string) string {
	got := "(no order)"
	for _, f := range review4Mail(from, subject, body).Facts {
		if f.Order != nil {
			got = f.Order.Merchant
		}
	}
	return got
}
