package extract

import (
	"strings"
	"testing"
)

// TestForwarded: the header blocks the mail clients write, in several
// languages; the body starts after the block, so that its "Sent" or
// "Verzonden" is no shipment's word.
func TestForwarded(t *testing.T) {
	tests := []struct {
		name, text, from, bodyStart string
	}{
		{"gmail en", "FYI\n\n---------- Forwarded message ---------\nFrom: Shop <orders@shop.example>\nDate: Mon, Mar 1, 2027 at 9:00 AM\nSubject: Order 1\nTo: <a@b.example>\n\n\nYour order 1 has shipped.",
			"orders@shop.example", "\nYour order 1"},
		{"gmail de", "---------- Weitergeleitete Nachricht ---------\nVon: Bahn <t@bahn.example>\nDate: Mo., 1. März 2027 um 09:00 Uhr\nSubject: Ticket\nTo: <a@b.example>\n\nAuftrag X",
			"t@bahn.example", "Auftrag X"},
		{"outlook en rule", "See below\n\n________________________________\nFrom: Hotel Lumen <res@lumen.example>\nSent: Monday, March 1, 2027 9:00 AM\nTo: a@b.example\nSubject: Booking\n\nBooking 1234",
			"res@lumen.example", "Booking 1234"},
		{"outlook nl", "________________________________\nVan: Winkel <info@winkel.example>\nVerzonden: maandag 1 maart 2027 09:00\nAan: a@b.example\nOnderwerp: Bestelling\n\nBedankt voor je bestelling.",
			"info@winkel.example", "Bedankt"},
		{"outlook fr", "________________________________\nDe : Hôtel <resa@hotel.example>\nEnvoyé : lundi 1 mars 2027 09:00\nÀ : a@b.example\nObjet : Réservation\n\nRéservation 88",
			"resa@hotel.example", "Réservation 88"},
		{"outlook sv", "________________________________\nFrån: Flyg <bokning@flyg.example>\nSkickat: den 8 mars 2027 11:58\nTill: a@b.example\nÄmne: Bokning\n\nBokningsnummer: ZQ4M8T",
			"bokning@flyg.example", "Bokningsnummer"},
		{"outlook original message", "-----Original Message-----\nFrom: Energy <bills@energy.example>\nSent: 1 March 2027\n\nInvoice 5",
			"bills@energy.example", "Invoice 5"},
		{"apple en quoted", "FYI\n\n> Begin forwarded message:\n>\n> From: \"Amazon.com\" <auto-confirm@amazon.com>\n> Subject: Your order\n>\n> Order #123",
			"auto-confirm@amazon.com", "Order #123"},
		{"apple de", "Anfang der weitergeleiteten Nachricht:\n\nVon: Alpenbahn <t@alpenbahn.example>\nBetreff: Fahrkarte\nDatum: 10. März 2027 um 20:58:12 MEZ\nAn: a@b.example\n\nAuftrag: Q4K7ZP",
			"t@alpenbahn.example", "Auftrag: Q4K7ZP"},
		{"apple it", "Inizio messaggio inoltrato:\n\nDa: Casa Verde <ordini@casaverde.example>\nOggetto: Spedito\nData: 13 marzo 2027\nA: a@b.example\n\nOrdine CV-1",
			"ordini@casaverde.example", "Ordine CV-1"},
		{"thunderbird", "-------- Forwarded Message --------\nSubject: \tTicket\nDate: \tMon, 1 Mar 2027 09:00:00 +0100\nFrom: \tRail <t@rail.example>\nTo: \ta@b.example\n\nTrain 612",
			"t@rail.example", "Train 612"},
		{"no blank line after the block", "________________________________\nFrom: Shop <s@shop.example>\nSent: today\nOrder 9",
			"s@shop.example", "From: Shop"},
	}
	for _, tc := range tests {
		from, body, ok := forwarded(tc.text)
		if !ok {
			t.Errorf("%s: not read as a forward", tc.name)
			continue
		}
		if from.Address != tc.from {
			t.Errorf("%s: from %q, want %q", tc.name, from.Address, tc.from)
		}
		if !strings.HasPrefix(body, tc.bodyStart) {
			t.Errorf("%s: body starts %q, want %q", tc.name, body[:min(len(body), 30)], tc.bodyStart)
		}
	}
}

// TestNotForwarded: rules, dashes and sender words that open no forward.
func TestNotForwarded(t *testing.T) {
	for _, text := range []string{
		"Your order has shipped.\n\n________________________________\nUnsubscribe | Privacy\nFrom: our team with love",
		"Thanks!\n___________________\nFrom: Customer Service\nSent from my phone",
		"---------- Forwarded message ---------\nno header here\n\n\n\n\n\n\n\n\nFrom: x@y.example",
		"Anfang der weitergeleiteten Nachricht\nVon: a@b.example",
		"Invoice 12\n-----\nFrom: 1 March to 31 March",
	} {
		if from, _, ok := forwarded(text); ok {
			t.Errorf("%q: read as a forward from %v", text, from)
		}
	}
}
