package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestPartialStates: a payment of part of a bill, told in a sentence, with
// the rest under a label, leaves the bill due for the rest; a part of an
// order cancelled is not the order's cancellation (the tenth outside
// review's MEDIUM-6 and MEDIUM-7), in several languages. The whole bill
// paid and the whole order cancelled stay so.
func TestPartialStates(t *testing.T) {
	extractText := func(subject, text string) []extract.Fact {
		m := &mime.Message{From: []mime.Address{{Name: "Shop", Address: "service@shop.example"}}, Subject: subject,
			Text: text, Date: time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)}
		return extract.Extract(m, msgauth.Verdict{}).Facts
	}
	for _, c := range []struct{ name, subject, text, status, amount string }{
		{"en part", "Payment received", "Hi Alex,\n\nThank you for your payment of $50.00.\nInvoice number: 88120344\nRemaining balance: $44.20\nDue date: December 9, 2026\n", "due", "44.20 USD"},
		{"de part", "Zahlung erhalten", "Hallo Alex,\n\nvielen Dank für Ihre Zahlung von 50,00 EUR.\nRechnungsnummer: 88120344\nOffener Betrag: 44,20 EUR\nFällig am: 09.12.2026\n", "due", "44.20 EUR"},
		{"fr part", "Paiement reçu", "Bonjour Alex,\n\nNous avons bien reçu votre paiement de 50,00 €.\nFacture n° 88120344\nReste à payer : 44,20 €\nÉchéance : 09/12/2026\n", "due", "44.20 EUR"},
		{"en whole", "Payment received", "Hi Alex,\n\nThank you for your payment of $94.20.\nInvoice number: 88120344\nRemaining balance: $0.00\n", "paid", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range extractText(c.subject, c.text) {
				if f.Bill == nil {
					continue
				}
				if f.Bill.Status != c.status {
					t.Errorf("status %q, want %q", f.Bill.Status, c.status)
				}
				if c.amount != "" && (f.Bill.Amount == nil || f.Bill.Amount.Amount+" "+f.Bill.Amount.Currency != c.amount) {
					t.Errorf("amount %+v, want %s", f.Bill.Amount, c.amount)
				}
				return
			}
			t.Errorf("no bill")
		})
	}
	for _, c := range []struct{ name, subject, text, status string }{
		{"en one item", "An item in your order 448812 has been cancelled", "Hi Alex,\n\nOne item in your order 448812 has been cancelled because it is out of stock: Blue mug.\nThe rest of your order will ship as planned.\n", "cancelled"},
		{"en list", "Update to order 448812", "Hi Alex,\n\nOrder number: 448812\n\nCancelled items:\nBlue mug 1x $8.00\n", "cancelled"},
		{"de", "Änderung Ihrer Bestellung 448812", "Hallo Alex,\n\nein Artikel Ihrer Bestellung 448812 wurde storniert: Blaue Tasse.\nDer Rest Ihrer Bestellung wird wie geplant versandt.\n", "cancelled"},
		{"fr", "Modification de votre commande 448812", "Bonjour Alex,\n\nUn article de votre commande 448812 a été annulé : Tasse bleue.\n", "cancelled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range extractText(c.subject, c.text) {
				if f.Order != nil && f.Order.Status == c.status {
					t.Errorf("a part's cancellation is the order's: %+v", f.Order)
				}
			}
		})
	}
	for _, f := range extractText("Order 448812 cancelled", "Hi Alex,\n\nYour order 448812 has been cancelled and refunded.\n") {
		if f.Order != nil && f.Order.Status != "cancelled" {
			t.Errorf("the whole order's cancellation read as %q", f.Order.Status)
		}
	}
}
