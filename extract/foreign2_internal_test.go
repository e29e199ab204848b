package extract

import "testing"

// TestCurrencyWord: an amount whose currency is its name written out,
// after it or before it ("78,50 euro", "45 euros", "Euro 1.234,00"), in
// any case; "euro" inside a longer word is no currency.
func TestCurrencyWord(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Totale da pagare: 78,50 euro", "78.50 EUR"},
		{"Importe total: 45 euros", "45.00 EUR"},
		{"Gesamtbetrag: 19,99 Euro inkl. MwSt.", "19.99 EUR"},
		{"Totale: Euro 1.234,00", "1234.00 EUR"},
		{"Totaal: 12,50 EURO", "12.50 EUR"},
		{"Totale: 3 europei", ""},
		{"Total: 12,00 €", "12.00 EUR"},
	} {
		c := &msgContext{}
		got := ""
		if m := c.labelledAmount(tc.text); m != nil {
			got = m.Amount + " " + m.Currency
		}
		if got != tc.want {
			t.Errorf("labelledAmount(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestNumberLetterSuffix: an order's number that ends in capitals after a
// dash is read whole, or where longer capitals follow, without them; a
// dash and a word apart by spaces end it.
func TestNumberLetterSuffix(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{" 84-2912-A is vanochtend verzonden", "84-2912-A"},
		{": 2027-0418-BC.", "2027-0418-BC"},
		{": 4471-20931", "4471-20931"},
		{": 55120931-VERSANDT", "55120931"},
		{": 55120931 - Versand", "55120931"},
		{": 302-1234567-1234567", "302-1234567-1234567"},
	} {
		got := ""
		if m := orderNumRE.FindStringSubmatch(tc.text); m != nil {
			got = m[1]
		}
		if got != tc.want {
			t.Errorf("orderNumRE(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct{ subject, want string }{
		{"Ihre Bestellung Nr. 8812-40-B wurde versandt", "8812-40-B"},
		{"Order #12345-for you", "12345"},
	} {
		got := ""
		if m := subjectOrderRE.FindStringSubmatch(tc.subject); m != nil {
			got = m[1]
		}
		if got != tc.want {
			t.Errorf("subjectOrderRE(%q) = %q, want %q", tc.subject, got, tc.want)
		}
	}
}

// TestPaidStatusWords: the word for paid as the last sentence of a line
// or after a status label in the bill's language is the bill's status;
// the word inside a sentence, after "not", or a due status is not.
func TestPaidStatusWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		paid bool
	}{
		{"Bolletta gas agosto. Importo: 28,40 euro. Scadenza 25 settembre 2030. Pagata.", true},
		{"Stato: pagata", true},
		{"Estado: Pagada", true},
		{"Statut : réglée", true},
		{"Stato: da pagare", false},
		{"La fattura non è stata pagata.", false},
		{"Uw factuur is nog niet voldaan.", false},
		{"Rechnungsbetrag: 39,95 €. Bezahlt: 0,00 €", false},
		{"Pagata.", true},
	} {
		c := &msgContext{}
		_, paid := c.paidStatus("", tc.text)
		if paid != tc.paid {
			t.Errorf("paidStatus(%q) = %v, want %v", tc.text, paid, tc.paid)
		}
	}
}

// TestReservacionLabel: Latin American Spanish's "número de reservación"
// heads a booking's number as "número de reserva" does.
func TestReservacionLabel(t *testing.T) {
	for text, want := range map[string]string{
		"Número de reservación: 58213\n":   "58213",
		"Numero de Reservación #HX44120\n": "HX44120",
	} {
		if got := findReservation(text); got != want {
			t.Errorf("findReservation(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestConfirmedAtName: a booking platform's subject names the place
// after the words that confirm the booking ("Ihre Buchung ist bestätigt:
// Alpenrose Berchtesgaden", "Your booking is confirmed at The Whitmore
// Kensington"); a desk's own name there is none.
func TestConfirmedAtName(t *testing.T) {
	for s, want := range map[string]string{
		"Danke! Ihre Buchung ist bestätigt: Alpenrose Berchtesgaden":    "Alpenrose Berchtesgaden",
		"Thanks! Your booking is confirmed at The Whitmore Kensington":  "The Whitmore Kensington",
		"Your booking is confirmed at Booking.com":                      "",
		"Ihre Buchung ist bestätigt: vielen Dank für Ihre Reservierung": "",
	} {
		if got := stayAtName(s); got != want {
			t.Errorf("stayAtName(%q) = %q, want %q", s, got, want)
		}
	}
}
