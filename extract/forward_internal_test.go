package extract

import (
	"slices"
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
		{"outlook html, its rule no words", "FYI\n\nFrom: Shop <s@shop.example>\nSent: Monday, March 1, 2027 9:00 AM\nTo: a@b.example\nSubject: Order 9\n\nOrder 9 shipped",
			"s@shop.example", "Order 9 shipped"},
		{"outlook html de", "Von: Bahn <t@bahn.example>\nGesendet: Montag, 1. März 2027 09:00\nAn: a@b.example\nBetreff: Ticket\n\nAuftrag X",
			"t@bahn.example", "Auftrag X"},
		{"outlook html fr quoted", "> De : Hôtel <resa@hotel.example>\n> Envoyé : lundi 1 mars 2027 09:00\n> Objet : Réservation\n>\n> Réservation 88",
			"resa@hotel.example", "Réservation 88"},
		{"gmail attribution wrapped at the address", "Thanks\n\nOn Mon, Mar 1, 2027 at 9:00 AM Hotel Lumen Amsterdam Centraal <\nres@lumen.example> wrote:\n\n> Booking 1234",
			"res@lumen.example", "\n\nBooking 1234"},
		{"gmail attribution wrapped before its verb", "Thanks\n\nOn Mon, 3 Jun 2027 at 10:14, Fjord Rail <booking@fjordrail.example>\nwrote:\n> Train 612",
			"booking@fjordrail.example", "\nTrain 612"},
		{"gmail de wrapped", "Danke\n\nAm Mo., 1. März 2027 um 09:00 Uhr schrieb Alpenbahn Reisen <\nt@alpenbahn.example>:\n\n> Auftrag: Q4K7ZP",
			"t@alpenbahn.example", "\n\nAuftrag: Q4K7ZP"},
		{"thunderbird, a bare address", "Thanks\n\nOn 3/1/27 9:00 AM, res@lumen.example wrote:\n> Booking 1234",
			"res@lumen.example", "Booking 1234"},
		{"a display name with a comma, unquoted", "---------- Forwarded message ---------\nFrom: The Hoxton, Paris <stay@hoxton.example>\nDate: today\nSubject: Your booking\n\nBooking number 661",
			"stay@hoxton.example", "Booking number"},
		{"gmail forward of an outlook html forward", "FYI\n\n---------- Forwarded message ---------\nFrom: Jonas <j@mail.example>\nDate: today\n\nSee below\n\n" +
			"Von: Bahn <t@bahn.example>\nGesendet: Montag, 1. März 2027 09:00\nBetreff: Ticket\n\nAuftrag X",
			"t@bahn.example", "Auftrag X"},
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
		"From: Shop <s@shop.example>\nTo: a@b.example\n\nOrder 9", // no subject, no date: no header block
		"Contact: Shop <help@shop.example>\nSent: daily\nSubject: news\n\nOrder 9",
		"Write to <help@shop.example> or\nwrote: nothing",
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

	// A forwarded reply is its quoted original's, whose attribution
	// names no address: the sender is the name.
	c = &msgContext{date: time.Date(2027, 3, 2, 10, 0, 0, 0, time.UTC), dateLoc: time.UTC}
	c.setSender("sam@example.org", "Sam")
	fwd := "FYI\n\n---------- Forwarded message ---------\nFrom: Kari <kari@example.org>\nDate: today\nSubject: Re: Your stay\n\n" +
		"Thanks, see you then.\n\nOn 01.03.27 09:00, Hotel Lumen wrote:\n" + strings.ReplaceAll(quote[strings.Index(quote, ">"):], "wrote:", "")
	facts = c.textRules("Fwd: Re: Your stay", fwd)
	if len(facts) == 0 || facts[0].From != FromForwarded || c.senderName != "Hotel Lumen" || c.senderDomain != "" {
		t.Fatalf("forwarded reply: facts %+v from %q %q, want the quoted stay, forwarded from Hotel Lumen", facts, c.senderName, c.senderDomain)
	}

	c = &msgContext{date: time.Date(2027, 3, 2, 10, 0, 0, 0, time.UTC), dateLoc: time.UTC}
	c.setSender("service@parcelco.example", "ParcelCo")
	own := "Your parcel is on its way.\nTracking number: 1Z999AA10123456784\nCarrier: UPS"
	facts = c.textRules("Re: Where is my parcel?", own+"\n\nOn Mon, Mar 1, 2027 at 9:00 AM Kari <kari@example.org> wrote:\n> Where is my parcel?\n")
	if len(facts) == 0 || facts[0].From == FromForwarded || c.senderDomain != "parcelco.example" {
		t.Fatalf("shop's answer: facts %+v from %q, want the shop's own parcel", facts, c.senderDomain)
	}
}

// TestNamedAttribution: Thunderbird's attribution, which names the
// sender without an address, over a quote, in the clients' languages.
func TestNamedAttribution(t *testing.T) {
	tests := []struct{ text, name, bodyStart string }{
		{"Thanks!\n\nOn 03.06.27 10:14, Hotel Lumen wrote:\n> Booking 1234", "Hotel Lumen", "Booking 1234"},
		{"Danke\n\nAm 03.06.27 um 10:14 schrieb Alpenbahn Reisen:\n> Auftrag: Q4K7ZP", "Alpenbahn Reisen", "Auftrag"},
		{"Merci\n\nLe 03/06/2027 à 10:14, Hôtel du Lac a écrit :\n> Réservation 88", "Hôtel du Lac", "Réservation 88"},
		{"Gracias\n\nEl 3/6/27 a las 10:14, Electra Hogar escribió:\n\n> Factura 5", "Electra Hogar", "Factura 5"},
		{"Grazie\n\nIl 03/06/27 10:14, Casa Verde ha scritto:\n> Ordine CV-1", "Casa Verde", "Ordine CV-1"},
		{"Dank\n\nOp 03-06-2027 om 10:14 schreef Lichthuis:\n> Bestelling 7", "Lichthuis", "Bestelling 7"},
		{"Tack\n\nDen 2027-06-03 kl. 10:14, skrev Nordavia:\n> Bokning ZQ4M8T", "Nordavia", "Bokning"},
		{"Díky\n\nDne 03.06.27 v 10:14 České dráhy napsal(a):\n> Jízdenka 1", "České dráhy", "Jízdenka 1"},
		{"Dzięki\n\nW dniu 03.06.2027 o 10:14, Sklep Ogrodnik pisze:\n> Zamówienie 5", "Sklep Ogrodnik", "Zamówienie 5"},
		{"Kiitos\n\nMotonet kirjoitti 3.6.2027 klo 10.14:\n> Tilaus 55", "Motonet", "Tilaus 55"},
		{"Obrigado\n\nEm 03/06/2027 10:14, Loja Azul escreveu:\n> Encomenda 9", "Loja Azul", "Encomenda 9"},
	}
	for _, tc := range tests {
		from, own, body, ok := forwarded(tc.text)
		if !ok {
			t.Errorf("%q: not read as a reply", tc.text)
			continue
		}
		if from.Name != tc.name || from.Address != "" {
			t.Errorf("%q: from %q <%s>, want %q", tc.text, from.Name, from.Address, tc.name)
		}
		if !strings.HasPrefix(body, tc.bodyStart) || strings.Contains(own, ">") {
			t.Errorf("%q: own %q, body %q", tc.text, own, body)
		}
	}
	for _, text := range []string{
		"Our offer: 3 nights for 2:\n> not a quote", // no verb
		"On 03.06.27 we wrote to you about 5 things:\n\nnothing quoted",
		"He wrote 12 pages:\n> quoted",          // no clock
		"On 03.06.27 10:14 we wrote:\n> quoted", // no name before the verb's end
	} {
		if from, _, _, ok := forwarded(text); ok {
			t.Errorf("%q: read as a reply from %v", text, from)
		}
	}
}

// markerLocByRE is markerLoc with the expression run on every line its
// gate lets through, as before appleMarked.
func markerLocByRE(text string) []int {
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := text[start:end]
		if t := strings.TrimRight(strings.TrimLeft(line, "> \t"), " \t\r"); t != "" && len(t) < 200 &&
			(t[0] == '-' || t[0] == '_' || t[len(t)-1] == ':') {
			if loc := forwardMarkerRE.FindStringIndex(line); loc != nil {
				return []int{start + loc[0], start + loc[1]}
			}
		}
		start = end + 1
	}
	return nil
}

func TestMarkerLocAsExpression(t *testing.T) {
	for _, text := range []string{
		"", ":", "Begin forwarded message:", "> > Begin Forwarded Message :  \r", "\f>Anfang der weitergeleiteten Nachricht:\t",
		"Buchungsnummer:\nX7Q2LM\nBegin forwarded message:\nFrom: a@b.c", "begin forwarded message::", "Begin forwarded message: x",
		"DÉBUT DU MESSAGE RÉEXPÉDIÉ:", "Début du message réexpédié :", "---------- Forwarded message ---------\nFrom: a@b.c",
		"-- \nsignature:", "Begin foRwarded meſſage:", "Begin forwarded message\u00a0:", "välitetty viesti alkaa:\n",
	} {
		if got, want := markerLoc(text), markerLocByRE(text); !slices.Equal(got, want) {
			t.Errorf("markerLoc(%q) = %v, the expression %v", text, got, want)
		}
	}
}

func FuzzMarkerLoc(f *testing.F) {
	f.Add("> > Begin Forwarded Message :  \r\nFrom: a@b.c")
	f.Add("Début du message réexpédié :")
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := markerLoc(text), markerLocByRE(text); !slices.Equal(got, want) {
			t.Fatalf("markerLoc(%q) = %v, the expression %v", text, got, want)
		}
	})
}

func TestHasQuoteMarkup(t *testing.T) {
	for _, h := range []string{"", "<p>hi</p>", "<BLOCKQUOTE type=cite>", "<div class=\"GMAIL_QUOTE\">", "<bloc\u212aquote>", "<div class=gma\u0130l_quote>", "<div id=\"divRplyFwdMsg\">", "<Blockquote"} {
		if got, want := hasQuoteMarkup(h), quoteMarkup.Any(strings.ToLower(h)); got != want {
			t.Errorf("hasQuoteMarkup(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestOriginalDay: the day a forwarded or quoted original was sent, as
// the clients write it over it.
func TestOriginalDay(t *testing.T) {
	c := &msgContext{dateLoc: time.UTC}
	c.setSender("suivi@colis.example.fr", "")
	for _, tc := range []struct{ head, want string }{
		{"From: Shop <s@shop.example>\nDate: Mon, Dec 28, 2026 at 8:10 AM\nSubject: x\nTo: a@b.example\n\n", "2026-12-28"},
		{"Van: Winkel <w@winkel.example>\nVerzonden: maandag 28 december 2026 08:10\nAan: a@b.example\nOnderwerp: x\n", "2026-12-28"},
		{"Subject: \tx\nDate: \tMon, 28 Dec 2026 08:10:00 +0100\nFrom: \tRail <t@rail.example>\n", "2026-12-28"},
		{"Le lun. 28 déc. 2026 à 08:10, Colis <\nsuivi@colis.example.fr> a écrit :", "2026-12-28"},
		{"Am 28.12.2026 um 08:10 schrieb Pension Seeblick:", "2026-12-28"},
		{"Onderwerp: \tx\nDatum: \t28-12-26 08:10\nVan: \tGeodis <s@geodis.example.fr>\nAan: \ta@b.example\n\n", "2026-12-28"},
		{"Am 28.12.26 um 08:10 schrieb Pension Seeblick:", "2026-12-28"},
	} {
		d, ok := c.originalDay(tc.head)
		if got := d.Format("2006-01-02"); !ok || got != tc.want {
			t.Errorf("%q: %v %s, want %s", tc.head, ok, got, tc.want)
		}
	}
	if d, ok := c.originalDay("From: Shop <s@shop.example>\nSubject: Your order 2026\nTo: a@b.example\n"); ok {
		t.Errorf("no date line: read %v", d)
	}
	for _, v := range []string{"2026-12-28", "10.14", "31.02.27", "128-12-26", "28-12-260", "13/13/26", "28-12", ""} {
		if d, ok := shortDate(v, false, time.UTC); ok {
			t.Errorf("shortDate(%q) = %v", v, d)
		}
	}
}
