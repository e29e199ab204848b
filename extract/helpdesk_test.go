package extract_test

import (
	"strings"
	"testing"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestHelpdeskEchoStatesNothing: a help desk's or a contact form's
// acknowledgement echoes whatever someone wrote to the shop, with the
// person's address; none of its state is the shop's (the tenth outside
// review, HIGH-4). A shop's own cancellation that answers the customer's
// request, under a subject that names no ticket, is still read.
func TestHelpdeskEchoStatesNothing(t *testing.T) {
	mail := func(from, subject, body string) *mime.Message {
		return mime.Parse([]byte("From: " + from + "\r\nTo: Alex <alex@example.net>\r\nSubject: " + subject +
			"\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body))
	}
	for _, tt := range []struct {
		name string
		m    *mime.Message
		want string // "" for no fact, else the status of the one order
	}{
		{"zendesk en", mail("Brightleaf Tea Support <help@brightleaf-tea.example>", "[Request #51877] Order 55120",
			"##- Please type your reply above this line -##\r\n\r\nYour request (51877) has been received and is being reviewed by our support staff.\r\n\r\n"+
				"Alex\r\n\r\nYour order 55120 has been cancelled and refunded.\r\n"), ""},
		{"kontaktformular de", mail("Gartenwelt Kundenservice <service@gartenwelt-shop.example>", "Ihre Nachricht an Gartenwelt",
			"Vielen Dank für Ihre Nachricht. Hier ist eine Kopie Ihrer Nachricht:\r\n\r\n"+
				"Ihre Bestellung 88213 wurde storniert. Der Betrag wird erstattet.\r\nBestellnummer: 88213\r\n"), ""},
		{"demande fr", mail("Maison Lavande <contact@maison-lavande.example>", "[Demande #48213] Commande 77120",
			"Bonjour,\r\n\r\nNous avons bien reçu votre demande et nous vous répondrons sous 48 heures.\r\n\r\n"+
				"Votre message :\r\nVotre commande 77120 a été annulée.\r\n"), ""},
		{"own cancellation", mail("Brightleaf Tea <orders@brightleaf-tea.example>", "Your order 55120 has been cancelled",
			"Hi Alex,\r\n\r\nWe have received your request to cancel your order.\r\nYour order 55120 has been cancelled and refunded.\r\nOrder number: 55120\r\n"), "cancelled"},
	} {
		res := extract.Extract(tt.m, msgauth.Verdict{})
		var got []string
		for _, f := range res.Facts {
			if f.Order != nil {
				got = append(got, f.Order.Status)
			} else {
				got = append(got, f.Kind)
			}
		}
		if tt.want == "" && len(got) > 0 || tt.want != "" && (len(got) != 1 || got[0] != tt.want) {
			t.Errorf("%s: facts %s, want %q", tt.name, strings.Join(got, ","), tt.want)
		}
	}
}
