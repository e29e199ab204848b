package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestLocaleBills: bills in each locale's way of writing amounts and
// dates, "kr" read by the sender's country, and a failed payment that is
// no bill.
func TestLocaleBills(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // "amount currency due number", "" for no bill
	}{
		{"faktura@energi.no", "Faktura fra Energi", "Fakturanummer: 55120\nÅ betale: kr 1 234,50\nForfallsdato: 20.04.2027\n", "1234.50 NOK 2027-04-20 55120"},
		{"faktura@el.se", "Din faktura", "Fakturanummer: 9911\nAtt betala: 1 234,50 kr\nFörfallodatum: 2027-04-30\n", "1234.50 SEK 2027-04-30 9911"},
		{"faktura@varme.dk", "Din faktura", "Fakturanr.: 2027-00418\nBeløb at betale: 1.234,50 kr.\nBetalingsfrist: 15.03.2027\n", "1234.50 DKK 2027-03-15 2027-00418"},
		{"e-faktura@tel.pl", "Twoja e-faktura", "Numer faktury: FV/2027/05/1182\nKwota do zapłaty: 149,99 zł\nTermin płatności: 25.05.2027\n", "149.99 PLN 2027-05-25 FV/2027/05/1182"},
		{"fakturace@plyn.cz", "Faktura za plyn", "Číslo faktury: 230441\nČástka k úhradě: 1.290,- Kč\nDatum splatnosti: 14. 4. 2027\n", "1290.00 CZK 2027-04-14 230441"},
		{"facture@edf.example.fr", "Votre facture", "Numéro de facture : 10042\nMontant à payer : 86,40 €\nDate limite de paiement : 5 mars 2027\n", "86.40 EUR 2027-03-05 10042"},
		{"laskutus@tele.fi", "Lasku", "Laskun numero: 884120\nEräpäivä: 30.3.2027\nSumma: 56,90 €\n", "56.90 EUR 2027-03-30 884120"},
		{"billing@hotels.example.in", "Invoice", "Invoice No: IBZ2087\nGrand Total   Rs 1939\nDue date: 05.04.2027\n", "1939.00 INR 2027-04-05 IBZ2087"},
		{"billing@host.example.de", "Rechnung", "Rechnungsnummer: 4411\nGesamtbetrag: EUR 1234\nFällig am 02.04.2027\n", "1234.00 EUR 2027-04-02 4411"},
		// Direct debits: the day in the sentence that takes the amount, before or after its verb.
		{"billing@tel.example.co.uk", "Your bill is ready", "Bill number: BT441\nAmount due: £52.80\nWe'll collect this by Direct Debit on or just after\n21 June 2027.\n", "52.80 GBP 2027-06-21 BT441"},
		{"nota@energie.example.nl", "Je nota", "Notanummer: 6601277415\nTe betalen: € 112,40\nWe incasseren dit bedrag rond 15-06-2027 van je rekening.\n", "112.40 EUR 2027-06-15 6601277415"},
		{"rechnung@strom.example.de", "Ihre Rechnung", "Rechnungsnummer: 7781\nRechnungsbetrag: 39,99 €\nDer Betrag wird am 06.04.2027 von Ihrem Konto abgebucht.\n", "39.99 EUR 2027-04-06 7781"},
		// The due date after the amount on its line, after a word that says so.
		{"bills@energy.example.co.uk", "Your bill", "Bill number: 6612044771\nAmount to pay: £61.30 by 21 June 2027.\n", "61.30 GBP 2027-06-21 6612044771"},
		{"faktury@tel.example.pl", "Twoja faktura", "Faktura nr F/66120/06/2027\nDo zapłaty: 89,99 zł do 20.06.2027\n", "89.99 PLN 2027-06-20 F/66120/06/2027"},
		{"faktura@tel.example.se", "Din faktura", "Fakturanummer: 6612044771\nBelopp att betala: 450 kr senast 2027-06-28.\n", "450.00 SEK 2027-06-28 6612044771"},
		{"bollette@luce.example.it", "La tua bolletta", "la bolletta n. 7712044558 è disponibile.\nTotale da pagare: 63,20 €\nDa pagare entro il 15/06/2027\n", "63.20 EUR 2027-06-15 7712044558"},
		{"klant@stroom.example.nl", "Je maandbedrag", "Factuurnummer: 661204477\nJe maandbedrag van € 95,00 wordt op 28 juni 2027 afgeschreven.\n", "95.00 EUR 2027-06-28 661204477"},
		{"facturas@luz.example.es", "Tu factura", "Factura n.º HL-6612044\nImporte: 45,20 € — se cargará en tu cuenta el 20/06/2027.\n", "45.20 EUR 2027-06-20 HL-6612044"},
		// The amount in the bill's own sentence, without a label.
		{"faktura@tel.example.se", "Din faktura", "Din faktura 55120931 på 349 kr förfaller den 28 juni 2027.\n", "349.00 SEK 2027-06-28 55120931"},
		{"abrechnung@strom.example.de", "Ihre Jahresabrechnung 2026", "anbei Ihre Jahresabrechnung Nr. 7712-2026. Es ergibt sich eine Nachzahlung von 84,20 €, die wir am 15.02.2027 von Ihrem Konto abbuchen.\n", "84.20 EUR 2027-02-15 7712-2026"},
		{"hello@offers.example.co.uk", "Lower your bill", "Save £50 on your next bill when you switch before 31 January 2027.\n", ""},
		// Each label over its value, a blank line between (HTML blocks).
		{"billing@energy.example.co.uk", "Your bill", "Bill number\n\nOB-7712044\n\nAmount due\n\n£45.00\n\nDue date\n\n19 June 2027\n", "45.00 GBP 2027-06-19 OB-7712044"},
		// The Portuguese series before the number; "n.º" after the label.
		{"faturas@gas.example.pt", "A sua fatura", "Fatura n.º: FAC 2027/220918\nValor a pagar: 38,15 €\nData limite de pagamento: 18/06/2027\n", "38.15 EUR 2027-06-18 FAC 2027/220918"},
		{"no-reply@stream.com", "Your payment didn’t go through", "We couldn’t process your payment of $11.99 for your plan.\nPlease update your payment details by March 12, 2027.\nInvoice number: 77120\n", ""},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: c.from}}, Subject: c.subject, Text: c.text,
			Date: time.Date(2027, 3, 1, 8, 0, 0, 0, time.UTC)}
		got := ""
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if b := f.Bill; b != nil {
				got = "?"
				if b.Amount != nil && b.Due != nil {
					got = b.Amount.Amount + " " + b.Amount.Currency + " " + b.Due.Format("2006-01-02") + " " + b.Number
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.from, got, c.want)
		}
	}
}

func TestValidIBAN(t *testing.T) {
	for s, want := range map[string]bool{"NL50INGB0683251309": true, "DE89370400440532013000": true, "GB82WEST12345698765432": true,
		"NL50INGB0683251308": false, "993548900": false, "VF1005193039": false, "FV/2027/05/1182": false} {
		if got := extract.ValidIBAN(s); got != want {
			t.Errorf("ValidIBAN(%q) = %v", s, got)
		}
	}
}

// TestPrintedLayouts: rows as the PDF reader lays them out: a value in the
// column before its label, a header row over a row of values, an amount
// under its label; an IBAN is never the invoice's number.
func TestPrintedLayouts(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"FACTUUR\n993548900   Factuurnummer:\nNL50INGB0683251309   IBAN\n19 april 2014   Factuurdatum:\nTotaal   € 717,97\n", "993548900 717.97 EUR -"},
		{"Kopie factuur\nKlant   Order   Factuur   Factuur datum   Vervaldatum\n8-9-2022   SCONL44   VF1005193039   SCONL03   22-9-2022\nFactuur totaal EUR   49,99\n", "VF1005193039 49.99 EUR 2022-09-22"},
		{"Invoice\nInvoice Number:\n   42183017\nTOTAL AMOUNT DUE ON August 3 , 2014\n   $4.11\n", "42183017 4.11 USD 2014-08-03"},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: "billing@vendor.example"}}, Subject: "Invoice", Text: c.text,
			Date: time.Date(2014, 5, 1, 8, 0, 0, 0, time.UTC)}
		got := ""
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if b := f.Bill; b != nil && b.Amount != nil {
				due := "-"
				if b.Due != nil {
					due = b.Due.Format("2006-01-02")
				}
				got = b.Number + " " + b.Amount.Amount + " " + b.Amount.Currency + " " + due
			}
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}
