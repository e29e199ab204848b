package extract

import (
	"strings"
	"testing"
	"time"
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
		{"forward of a forward", "Fyi\n\n---------- Forwarded message ---------\nFrom: Mette <m@mail.example>\nDate: today\n\nKan du hente den?\n\n" +
			"________________________________\nFra: Hurtigpakke <info@hurtigpakke.example>\nSendt: 17. marts 2027 21:14\n\nPakkenummer: HP1",
			"info@hurtigpakke.example", "Pakkenummer: HP1"},
		{"a reply quoting a forward", "Thanks!\n\nOn Mon, Mar 1, 2027 at 9:00 AM Mette <m@mail.example> wrote:\n> Fyi\n>\n> ________________________________\n" +
			"> Fra: Hurtigpakke <info@hurtigpakke.example>\n> Sendt: 17. marts 2027 21:14\n>\n> Pakkenummer: HP1",
			"info@hurtigpakke.example", "Pakkenummer: HP1"},
		{"no blank line after the block", "________________________________\nFrom: Shop <s@shop.example>\nSent: today\nOrder 9",
			"s@shop.example", "From: Shop"},
	}
	for _, tc := range tests {
		from, _, body, ok := forwarded(tc.text)
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
		if from, _, _, ok := forwarded(text); ok {
			t.Errorf("%q: read as a forward from %v", text, from)
		}
	}
}

// TestAttribution: a reply's attribution line as Gmail, Apple Mail and
// Thunderbird write it in several languages, and lines that are none.
func TestAttribution(t *testing.T) {
	tests := []struct {
		line, name, addr string
	}{
		{"On Mon, Mar 1, 2027 at 9:00 AM Hotel Lumen <res@lumen.example> wrote:", "Hotel Lumen", "res@lumen.example"},
		{"On 1 Mar 2027, at 09:00, Fjord Rail <booking@fjordrail.example> wrote:", "Fjord Rail", "booking@fjordrail.example"},
		{"Am 1. März 2027 um 09:00 Uhr schrieb Alpenbahn Reisen <t@alpenbahn.example>:", "Alpenbahn Reisen", "t@alpenbahn.example"},
		{"Le 1 mars 2027 à 09:00, Hôtel du Lac <resa@lac.example> a écrit :", "Hôtel du Lac", "resa@lac.example"},
		{"El 1 marzo 2027 a las 09:00, Electra Hogar (<facturas@electra.example>) escribió:", "Electra Hogar", "facturas@electra.example"},
		{"Il giorno 1 marzo 2027 alle ore 09:00 Casa Verde <ordini@casaverde.example> ha scritto:", "Casa Verde", "ordini@casaverde.example"},
		{"Op 1 maart 2027 om 09:00 schreef Lichthuis <service@lichthuis.example>:", "Lichthuis", "service@lichthuis.example"},
		{"Den 1 mars 2027 kl. 09:00 skrev Nordavia <bokning@nordavia.example>:", "Nordavia", "bokning@nordavia.example"},
		{"On 01/03/2027 09:00, <noreply@shop.example> wrote:", "", "noreply@shop.example"},
	}
	for _, tc := range tests {
		a, ok := attribution(tc.line)
		if !ok {
			t.Errorf("%q: no attribution", tc.line)
			continue
		}
		if a.Name != tc.name || a.Address != tc.addr {
			t.Errorf("%q: %q <%s>, want %q <%s>", tc.line, a.Name, a.Address, tc.name, tc.addr)
		}
	}
	for _, line := range []string{
		"On 01/03/2027 09:00, Shop wrote:", // Thunderbird's: no address to claim
		"Write to us at <help@shop.example>:",
		"Customer service <help@shop.example> wrote back within a day.",
		"Contact: Shop <help@shop.example>",
	} {
		if a, ok := attribution(line); ok {
			t.Errorf("%q: read as an attribution of %v", line, a)
		}
	}
}

// TestRepliedTextRules: a person's reply is read as its quoted original,
// marked forwarded; a shop's answer that says something itself is the
// shop's, its quoted customer's words aside.
func TestRepliedTextRules(t *testing.T) {
	quote := "\n\nOn Mon, Mar 1, 2027 at 9:00 AM Hotel Lumen <res@lumen.example> wrote:\n> Dear guest,\n> Reservation number: 44812\n" +
		"> Check-in: 12 March 2027\n> Check-out: 14 March 2027\n> Hotel Lumen, Canal Street 4, Amsterdam\n"
	c := &msgContext{date: time.Date(2027, 3, 2, 10, 0, 0, 0, time.UTC), dateLoc: time.UTC}
	c.setSender("kari@example.org", "")
	facts := c.textRules("Re: Your stay", "Thanks, see you then."+quote)
	if len(facts) == 0 || facts[0].From != FromForwarded || c.senderDomain != "lumen.example" {
		t.Fatalf("reply: facts %+v from %q, want the quoted stay, forwarded from lumen.example", facts, c.senderDomain)
	}

	c = &msgContext{date: time.Date(2027, 3, 2, 10, 0, 0, 0, time.UTC), dateLoc: time.UTC}
	c.setSender("service@parcelco.example", "ParcelCo")
	own := "Your parcel is on its way.\nTracking number: 1Z999AA10123456784\nCarrier: UPS"
	facts = c.textRules("Re: Where is my parcel?", own+"\n\nOn Mon, Mar 1, 2027 at 9:00 AM Kari <kari@example.org> wrote:\n> Where is my parcel?\n")
	if len(facts) == 0 || facts[0].From == FromForwarded || c.senderDomain != "parcelco.example" {
		t.Fatalf("shop's answer: facts %+v from %q, want the shop's own parcel", facts, c.senderDomain)
	}
}
