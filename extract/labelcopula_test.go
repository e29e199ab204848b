package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestLabelVerbOverValue: a label that ends its line with its verb ("is",
// "lautet", "es") labels the value on the line below, as one that ends
// with a colon does: numbers of forms only a label finds ("D70412398",
// "HB-44120778"). A label whose next line is no number ("to follow …")
// gives none, and a number so in a shop's mail that says no state makes
// no parcel (TestTrackedByLink).
func TestLabelVerbOverValue(t *testing.T) {
	for _, tt := range []struct{ addr, text, tracking, carrier string }{
		{"noreply@quillworks.example", "Your order has been dispatched.\nYour DTDC tracking number is\nD70412398\n", "D70412398", "DTDC"},
		{"versand@buchbinderei-falk.example", "Ihre Bestellung wurde versandt und ist mit Hermes unterwegs.\n\nIhre Sendungsnummer lautet\nHB-44120778\n", "HB-44120778", "Hermes"},
		{"pedidos@libreriaalba.example", "Tu pedido ha sido enviado con MRW.\n\nTu número de seguimiento es\n\nMRW-55120394\n", "MRW-55120394", "MRW"},
		{"noreply@quillworks.example", "Your USPS tracking number is\nto follow in a separate e-mail.\n\nCustomer number: 400112233445\n", "", ""},
		{"noreply@quillworks.example", "Your items go out by Royal Mail on or before 03/12/2026.\nYour Royal Mail tracking number is\nQG123456785GB\n", "", ""},
	} {
		m := &mime.Message{From: []mime.Address{{Name: "Shop", Address: tt.addr}}, Subject: "About your items", Text: tt.text,
			Date: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
		_, dom, _ := strings.Cut(tt.addr, "@")
		res := extract.Extract(m, msgauth.Verdict{Authenticated: true, Domain: dom})
		tracking, carrier, status := "", "", ""
		for _, f := range res.Facts {
			if f.Order != nil && len(f.Order.Shipments) > 0 {
				tracking, carrier, status = f.Order.Shipments[0].Tracking, f.Order.Shipments[0].Carrier, f.Order.Status
			}
		}
		if tracking != tt.tracking || carrier != tt.carrier {
			t.Errorf("Extract(%q) shipment = %q by %q, want %q by %q", tt.text, tracking, carrier, tt.tracking, tt.carrier)
		}
		if tt.tracking != "" && status != extract.StatusShipped {
			t.Errorf("Extract(%q) status = %q, want %q", tt.text, status, extract.StatusShipped)
		}
	}
}
