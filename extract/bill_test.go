package extract_test

import (
	"strings"
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
		{"billing@net.example.ru", "Счёт за декабрь", "Выставлен счёт № 2027-118842 за услуги связи.\nСумма к оплате: 1 750,00 ₽\nОплатить до: 20 декабря 2027\nЛицевой счёт: 40012345\n", "1750.00 RUB 2027-12-20 2027-118842"},
		{"fakturace@plyn.cz", "Faktura za plyn", "Číslo faktury: 230441\nČástka k úhradě: 1.290,- Kč\nDatum splatnosti: 14. 4. 2027\n", "1290.00 CZK 2027-04-14 230441"},
		{"facture@edf.example.fr", "Votre facture", "Numéro de facture : 10042\nMontant à payer : 86,40 €\nDate limite de paiement : 5 mars 2027\n", "86.40 EUR 2027-03-05 10042"},
		{"laskutus@tele.fi", "Lasku", "Laskun numero: 884120\nEräpäivä: 30.3.2027\nSumma: 56,90 €\n", "56.90 EUR 2027-03-30 884120"},
		{"billing@hotels.example.in", "Invoice", "Invoice No: IBZ2087\nGrand Total   Rs 1939\nDue date: 05.04.2027\n", "1939.00 INR 2027-04-05 IBZ2087"},
		{"billing@host.example.de", "Rechnung", "Rechnungsnummer: 4411\nGesamtbetrag: EUR 1234\nFällig am 02.04.2027\n", "1234.00 EUR 2027-04-02 4411"},
		// Direct debits: the day in the sentence that takes the amount, before or after its verb.
		{"billing@tel.example.co.uk", "Your bill is ready", "Bill number: BT441\nAmount due: £52.80\nWe'll collect this by Direct Debit on or just after\n21 June 2027.\n", "52.80 GBP 2027-06-21 BT441"},
		{"nota@energie.example.nl", "Je nota", "Notanummer: 6601277415\nTe betalen: € 112,40\nWe incasseren dit bedrag rond 15-06-2027 van je rekening.\n", "112.40 EUR 2027-06-15 6601277415"},
		{"rechnung@strom.example.de", "Ihre Rechnung", "Rechnungsnummer: 7781\nRechnungsbetrag: 39,99 €\nDer Betrag wird am 06.04.2027 von Ihrem Konto abgebucht.\n", "39.99 EUR 2027-04-06 7781"},
		// A US biller's automatic payment: the day AutoPay charges the card.
		{"statements@cable.example.com", "Your statement is ready", "Total due $89.99\nAuto Pay will process on 04/05/2027\nStatement date March 21, 2027\nBecause you are enrolled in Auto Pay, no action is needed. Your payment method will be used on the date shown above.\n", "89.99 USD 2027-04-05 "},
		{"billing@wireless.example.com", "Your bill is ready", "Account ending 7731\nAmount due: $64.20\nYour card ending 4242 will be charged on April 12, 2027.\n", "64.20 USD 2027-04-12 "},
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
		// The day before the word that ends the sentence (German puts it last).
		{"rechnung@strom.example.at", "Ihre Rechnung", "Ihre Rechnung Nr. 5512078 über 156,80 € ist am 20.04.2027 fällig.\n", "156.80 EUR 2027-04-20 5512078"},
		{"rechnung@wasser.example.de", "Ihre Rechnung", "Ihre Rechnung 7712 vom 01.03.2027 über 156,80 € ist bis 20.04.2027 zu bezahlen.\n", "156.80 EUR 2027-04-20 7712"},
		{"rechnung@wasser.example.de", "Ihre Rechnung", "Ihre Rechnung 7712 vom 01.03.2027 über 156,80 €.\nDie Fälligkeit richtet sich nach Ihrem Vertrag.\n", "?"},
		// The amount a verb asks to pay by a day; a verb without a day asks
		// for nothing.
		{"accounts@lawn.example.com", "Invoice #BL-88120", "Please pay $70.00 by March 25, 2027 to avoid a $5 late fee.\nInvoice #BL-88120\n", "70.00 USD 2027-03-25 BL-88120"},
		{"hello@stream.example.com", "Your invoice", "Invoice number: 77120\nPay $10 less a month with AutoPay.\nDue date: March 25, 2027\n", ""},
		{"regning@vand.example.dk", "Din regning", "Regning nr. 2027-4410\nAt betale: 70,00 kr.\nBetalingsdato: 25.03.2027\n", "70.00 DKK 2027-03-25 2027-4410"},
		{"facturen@warmte.example.nl", "Uw factuur", "Factuurnummer: SWN-4410\nTe betalen: € 70,00\nWij schrijven dit bedrag op of rond 25 maart 2027 af van uw rekening.\n", "70.00 EUR 2027-03-25 SWN-4410"},
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
		// A total printed bare takes the currency the document's other
		// amounts are in; two currencies, and it is not taken.
		{"Invoice No :    # BLR_WFLD20151000982590\nPrice is inclusive of a discount of Rs -40.00\nGrand Total    319.00\n", "BLR_WFLD20151000982590 319.00 INR -"},
		{"Rechnung Nr. 2014-118\nVersand   5,00 €\nGebühr   CHF 2.00\nGesamtbetrag    319,00\n", ""},
		{"Invoice Number: 77120\nGrand Total    319.00\n", ""},
		// The number under the invoice's heading, after "#".
		{"billing@acme.example   INVOICE\n# inv_2014_7\nBalance Due:   $127.50\n", "inv_2014_7 127.50 USD -"},
		{"Rechnung\n# 2014-0117\nGesamtbetrag:   84,20 €\n", "2014-0117 84.20 EUR -"},
		// A bill's fields in a table under its header row: cells apart
		// by tabs (an HTML table) or bars; the header's labels are not the
		// first value's.
		{"Votre facture\nN° de facture\tDate d'émission\tMontant TTC\tDate limite de paiement\n\nFM-30031207\t12/03/2014\t70,00 €\t27/03/2014\n", "FM-30031207 70.00 EUR 2014-03-27"},
		{"Din faktura\nFakturanummer | Förfallodag | Att betala\n7701-220381   | 2014-03-29  | 399,00 €\nTips! 9,90 € extra i månaden.\n", "7701-220381 399.00 EUR 2014-03-29"},
		// No amount written with its currency: the one code a header or
		// the label's aside names; two codes tell nothing.
		{"Rechnung\nRechnungsnr.:   2030-0147\nPos.   Beschreibung   Gesamt (EUR)\n1   Wände streichen   777,00\nGesamtbetrag   1.234,56\nZahlbar bis 18.03.2014 ohne Abzug.\n", "2030-0147 1234.56 EUR 2014-03-18"},
		{"INVOICE\nInvoice #   NWS-3391\nAmount Due (USD)   70.00\n", "NWS-3391 70.00 USD -"},
		// An items table's "Amount" header labels no one value: the
		// total below it is the bill's.
		{"Invoice number: INV-0042\n\nItem\tQty\tAmount\nWidget\t1\t$20.00\nGadget\t1\t$50.00\n\nTotal due: $70.00\n", "INV-0042 70.00 USD -"},
		{"Rechnungsnummer: FW-0311\nPosition | Menge | Betrag\nInspektion | 1 | 45,00 €\nKette | 1 | 25,00 €\nGesamtbetrag: 70,00 €\n", "FW-0311 70.00 EUR -"},
		// The total on a table's last row, not the first item under a
		// "Total (EUR)" header.
		{"FACTURA\nNº factura:   TR-2030/0219\nVencimiento:   10/04/2014\nConcepto   Uds.   Base (EUR)   IVA (EUR)   Total (EUR)\nCambio de aceite   1   48,00   10,08   58,08\nPastillas   1   112,00   23,52   135,52\nTOTAL   2   160,00   33,60   193,60\n", "TR-2030/0219 193.60 EUR 2014-04-10"},
		{"INVOICE\nInvoice #   NWS-3391\nShipping (EUR)   5.00\nAmount Due (USD)   70.00\n", ""},
		// A paid receipt numbered by its booking; a booking's number
		// alone makes no bill.
		{"PAYMENT RECEIPT\nBooking ID   Payment Mode\nIBZY2087   Cash at Hotel\nGrand Total   Rs 1939\nPayment received by the hotel   Rs 1939\n", "IBZY2087 1939.00 INR -"},
		{"Booking ID: HD-88120\nTotal: £35.00\nAn invoice will follow.\n", ""},
		// A number whose groups are apart by dots; an amount's or a date's
		// digits are none.
		{"Aanslag gemeentelijke belastingen\nAanslagnummer: 2014.44.10871\nTotaal te betalen: € 1.234,56\n", "2014.44.10871 1234.56 EUR -"},
		{"Rechnung\nRechnungsnummer: 12.03.2014\nGesamtbetrag: 84,20 €\n", ""},
		{"Your order\n# 2014-0117\nTotal:   84,20 €\n", ""},
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

// billOf reads one mail's bill as Merge shows it: from, display name,
// subject and text; authenticated says the sender's domain passed.
// billSummary is b's status, amount, currency and due day ("-" for
// none), or "no bill", as the bill tables want them.
func billSummary(b *extract.BillState) string {
	if b == nil {
		return "no bill"
	}
	due := "-"
	if b.Due != nil {
		due = b.Due.Format("2006-01-02")
	}
	return b.Status + " " + b.Amount.Amount + " " + b.Amount.Currency + " " + due
}

func billOf(t *testing.T, from, name, subject, text string, authenticated bool) *extract.BillState {
	t.Helper()
	msg := &mime.Message{From: []mime.Address{{Name: name, Address: from}}, Subject: subject, Text: text,
		Date: time.Date(2030, 1, 20, 8, 0, 0, 0, time.UTC)}
	_, domain, _ := strings.Cut(from, "@")
	auth := msgauth.Verdict{Authenticated: authenticated, Domain: domain}
	var recs []extract.Record
	for _, f := range extract.Extract(msg, auth).Facts {
		recs = append(recs, extract.Record{Fact: f, Message: 1, Date: msg.Date, Authenticated: authenticated})
	}
	if bs := extract.Merge(recs).Bills; len(bs) == 1 {
		return &bs[0]
	}
	return nil
}

// TestBillIssuer: the issuer a bill prints (a labelled issuer in any
// language, "Invoice from", the letterhead) or marks up, when it agrees
// with the authenticated sender's domain; else the display name's; else
// the domain. A name the mail gives that is not the domain's, or any
// name from an unauthenticated sender, shows the domain.
func TestBillIssuer(t *testing.T) {
	const bill = "\nInvoice number: 2030-0412\nAmount due: £340.00\nDue date: 15 February 2030\n"
	for _, c := range []struct {
		name, from, display, subject, text string
		auth                               bool
		want                               string
	}{
		{"invoice from", "no-reply@larkspurstudio.co.uk", "Accounts", "Your invoice", "Invoice from Larkspur Studio\n" + bill, true, "Larkspur Studio"},
		{"German label", "rechnung@stadtwerke-talheim.de", "Kundenservice", "Ihre Rechnung", "Rechnungssteller: Stadtwerke Talheim GmbH\nRechnungsnummer: 2030-118420\nRechnungsbetrag: 87,40 €\nFällig am: 14.02.2030\n", true, "Stadtwerke Talheim GmbH"},
		{"French label, capital accent", "factures@eauxdevalmont.fr", "Service Clients", "Votre facture d'eau", "Émetteur : Eaux de Valmont\nFacture n° F-30-22871\nMontant à payer : 42,15 €\nDate d'échéance : 20/02/2030\n", true, "Eaux de Valmont"},
		{"letterhead under a person's name", "maria@quillandpress.com", "Maria Lopez", "Invoice 2030-017", "QUILL & PRESS LTD\n14 Harbour Row, Bristol\n" + bill, true, "QUILL & PRESS LTD"},
		{"letterhead beside the title", "dana@northgatewebstudio.com", "Dana Park", "Invoice NWS-3391", "Northgate Web Studio   INVOICE\n" + bill, true, "Northgate Web Studio"},
		{"display name less its department", "billing@harborgym.com", "Harbor Gym Billing", "Your invoice", bill, true, "Harbor Gym"},
		{"a headline is no letterhead", "factures@eauxdevalmont.fr", "Service Clients", "Votre facture", "Votre facture d'eau\nFacture n° F-30-22871\nMontant à payer : 42,15 €\nDate d'échéance : 20/02/2030\n", true, "eauxdevalmont.fr"},
		{"a name not the domain's", "billing@invoices-online.example", "Billing", "Invoice", "Invoice from PayPal\n" + bill, true, "invoices-online.example"},
		{"not authenticated", "billing@larkspurstudio.co.uk", "Larkspur Studio", "Invoice", "Invoice from Larkspur Studio\n" + bill, false, "larkspurstudio.co.uk"},
		{"a person and no letterhead", "maria@quillandpress.com", "Maria Lopez", "Invoice", "Hi Sam,\n" + bill, true, "quillandpress.com"},
	} {
		b := billOf(t, c.from, c.display, c.subject, c.text, c.auth)
		if b == nil || b.Issuer != c.want {
			t.Errorf("%s: bill %+v, want issuer %q", c.name, b, c.want)
		}
	}
}

// TestBillStatus: paid by the strongest evidence, whatever "due" wording
// is beside it; the word for paid inside a sentence or as a table's
// column is none; the day after "Paid on" is no due date.
func TestBillStatus(t *testing.T) {
	for _, c := range []struct {
		name, subject, text string
		want                string // status amount due
	}{
		{"zero due, paid on", "Your receipt", "Receipt #HG-55012\nTotal: $70.00\nAmount due: $0.00 — Paid on January 30, 2030\n", "paid 70.00 USD -"},
		{"payment received, was due", "We got your payment", "Payment received. We applied $58.20 to invoice 88120, which was due on February 2, 2030.\nInvoice number: 88120\nAmount: $58.20\nDue date: February 2, 2030\n", "paid 58.20 USD 2030-02-02"},
		{"status line", "Invoice RL-4471", "Invoice RL-4471\nStatus: PAID\nDue date: February 5, 2030\nAmount: $480.00\n", "paid 480.00 USD 2030-02-05"},
		{"stamp at the subject's end", "Invoice RL-4471 – PAID", "Invoice number: RL-4471\nDue date: February 5, 2030\nAmount: $480.00\n", "paid 480.00 USD 2030-02-05"},
		{"German word and date", "Ihre Rechnung", "Rechnungsnummer: 2030-118420\nRechnungsbetrag: 87,40 €\nBezahlt am 02.02.2030\n", "paid 87.40 EUR -"},
		{"a sentence's paid", "Payment reminder", "Your bill must be paid by February 20, 2030.\nInvoice number: WS-30-1187\nAmount due: $145.00\nDue date: February 20, 2030\nIf you have already paid, please ignore this reminder.\n", "due 145.00 USD 2030-02-20"},
		{"a table's column", "Your bill", "Invoice number: WS-30-1187\nDate | Description | Paid\nAmount due: $145.00\nDue date: February 20, 2030\n", "due 145.00 USD 2030-02-20"},
		// A statement's row for the last payment is no word on this bill;
		// the phrase beside this bill's amount is.
		{"last payment's row", "Your bill is ready", "Previous balance   $64.12\nPayment received Feb 20 - thank you   -$64.12\nAmount due:   $70.00\nDue date:   03/25/2030\n", "due 70.00 USD 2030-03-25"},
		// A receipt's labels: the amount paid (the bill's) or the day it
		// was paid; a balance left to pay keeps the bill due.
		{"amount and date paid", "Your receipt #2041-7730", "Receipt #2041-7730\nAmount paid\t$70.00\nDate paid\tMarch 5, 2030\n", "paid 70.00 USD -"},
		{"part payment", "Your receipt #2041-7730", "Receipt #2041-7730\nInvoice total\t$70.00\nAmount paid\t$30.00\nDate paid\tMarch 5, 2030\nBalance due\t$40.00\n", "due 40.00 USD -"},
		// A bill's amount is what is due: a part payment's balance, a
		// statement's new balance and never its minimum payment.
		{"part payment received", "Partial payment received", "Invoice number: RB-4471\nAmount paid: $30.00\nInvoice total: $100.00\nBalance due: $70.00\n", "due 70.00 USD -"},
		{"statement balance", "Your statement is ready", "Account ending in 4417\nNew balance: $1,234.56\nMinimum payment due: $35.00\nPayment due date: March 28, 2030\n", "due 1234.56 USD 2030-03-28"},
		{"minimum first", "Tu extracto de marzo", "Pago mínimo: $25.00\nNuevo saldo: $812.40\nFecha límite de pago: 25/03/2030\n", "due 812.40 USD 2030-03-25"},
		{"statement without due day", "Tu extracto de marzo", "Pago mínimo: $25.00\nNuevo saldo: $812.40\n", "no bill"},
		// A charges list prints its figures bare: the payment's row is of
		// the last bill ("Payment received 07/22/2030   -61.44").
		{"charges list's payment row", "Your gas bill is ready to view", "Charges\n  Previous balance        0.00\n  Payment received 07/22/2030   -61.44\n  Customer charge        16.40\nAmount due by September 11, 2030: $44.05\n", "due 44.05 USD 2030-09-11"},
		{"charges list's payment of this bill", "Your gas bill", "Invoice number: WS-30-1187\n  Payment received 09/02/2030   -44.05\nAmount due: $44.05\n", "paid 44.05 USD -"},
		// A subscription's renewal charged; one to come is due.
		{"renewal receipt", "Your subscription has been renewed", "Plan: Premium Security, 1 year\nAmount: $59.99\nTransaction ID: PS-2030-1188\nYour invoice is available in your account.\n", "paid 59.99 USD -"},
		{"renewal to come", "Your subscription will be renewed", "Your plan will be renewed on March 3, 2030.\nInvoice number: PS-2030-1189\nAmount due: $59.99\nDue date: March 3, 2030\n", "due 59.99 USD 2030-03-03"},
		{"this payment's row", "Your bill", "Invoice number: WS-30-1187\nPayment received - thank you   $70.00\nAmount due:   $70.00\n", "paid 70.00 USD -"},
	} {
		b := billOf(t, "billing@westshorewater.com", "Westshore Water", c.subject, c.text, true)
		got := billSummary(b)
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestDollar: "$" is the dollar its prefix, the text's one dollar code or
// the sender's country names, else USD; in markup without a currency, by
// its prefix and the sender's country.
func TestDollar(t *testing.T) {
	const text = "Invoice number: 4471\nDue date: February 5, 2030\n"
	for _, c := range []struct{ from, amount, want string }{
		{"billing@northernhydro.ca", "Amount due: $112.45", "112.45 CAD"},
		{"billing@coastlineenergy.com.au", "Amount due: $89.00", "89.00 AUD"},
		{"billing@kiwipower.co.nz", "Amount due: $89.00", "89.00 NZD"},
		{"billing@example.com", "Amount due: $70.00", "70.00 USD"},
		{"billing@example.com", "Amount due: CA$70.00", "70.00 CAD"},
		{"billing@example.com", "Amount due: A$ 70.00", "70.00 AUD"},
		{"billing@example.com", "Amount due: US$70.00", "70.00 USD"},
		{"billing@northernhydro.ca", "Amount due: US$70.00", "70.00 USD"},
		{"billing@northernhydro.ca", "Amount due: $70.00 (all amounts in USD)", "70.00 USD"},
		{"billing@example.com", "Amount due: $70.00 (CAD)", "70.00 CAD"},
		{"billing@example.com", "Amount due: $70.00 (USD or CAD)", "70.00 USD"},
		{"billing@northernhydro.ca", "Amount due: $70.00 (USD or CAD)", "70.00 CAD"},
		{"billing@example.de", "Amount due: $70.00", "70.00 USD"},
		{"billing@example.co.uk", "Amount due: £70.00", "70.00 GBP"},
	} {
		b := billOf(t, c.from, "Billing", "Your invoice", c.amount+"\n"+text, false)
		if b == nil || b.Amount == nil || b.Amount.Amount+" "+b.Amount.Currency != c.want {
			t.Errorf("%s %q: bill %+v, want %s", c.from, c.amount, b, c.want)
		}
	}
	for _, c := range []struct{ from, price, want string }{
		{"billing@brightlinewater.com", "$70.00", "70.00 USD"},
		{"billing@northernhydro.ca", "$70.00", "70.00 CAD"},
		{"billing@example.com", "C$70.00", "70.00 CAD"},
		{"billing@example.com", "€70,00", "70.00 EUR"},
		{"billing@example.com", "70.00", "70.00 "},
	} {
		html := `<script type="application/ld+json">{"@context":"http://schema.org","@type":"Invoice","confirmationNumber":"BW-88213",` +
			`"totalPaymentDue":{"@type":"PriceSpecification","price":"` + c.price + `"},"paymentDueDate":"2030-02-03"}</script>`
		msg := &mime.Message{From: []mime.Address{{Address: c.from}}, Subject: "Your bill", HTML: []string{html},
			Date: time.Date(2030, 1, 20, 8, 0, 0, 0, time.UTC)}
		got := ""
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if f.Bill != nil && f.Bill.Amount != nil {
				got = f.Bill.Amount.Amount + " " + f.Bill.Amount.Currency
			}
		}
		if got != c.want {
			t.Errorf("markup %s %q: got %q, want %q", c.from, c.price, got, c.want)
		}
	}
}

// TestPaymentReminderBills: a payment reminder is a bill in any of its
// languages' words (bill.topic), and an instalment's amount is labelled
// by its place in the plan ("Instalment 3 of 4: £18.75", "Payment 2 of
// 4"); a shop's offer to pay in instalments is none.
func TestPaymentReminderBills(t *testing.T) {
	for _, c := range []struct{ name, subject, text, want string }{
		{"instalment of a plan", "Payment reminder", "Instalment 3 of 4: £18.75\nDue: 14 February 2030\n", "due 18.75 GBP 2030-02-14"},
		{"payment of a plan", "Your upcoming payment", "Payment 2 of 4: $45.00\nDue date: February 6, 2030\n", "due 45.00 USD 2030-02-06"},
		{"French reminder", "Rappel de paiement", "Montant : 15,99 €\nDate limite de paiement : 12/02/2030\n", "due 15.99 EUR 2030-02-12"},
		{"Dutch reminder", "Betalingsherinnering", "Te betalen: € 58,45\nUiterste betaaldatum: 19-02-2030\n", "due 58.45 EUR 2030-02-19"},
		{"a shop's offer of instalments", "Your order is confirmed", "Order total: $50.00\nPay in 4 interest-free instalments of $12.50.\nEstimated delivery: February 3, 2030\n", "no bill"},
	} {
		if got := billSummary(billOf(t, "billing@westshorewater.com", "Westshore Water", c.subject, c.text, true)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestBillDateOrder: a slashed due date of a sender whose domain names
// no country is read day first, unless that puts it months before the
// mail and month first near it (a US biller on a .org domain); a day-first
// date elsewhere in the mail, or a sender's country, keeps it day first.
func TestBillDateOrder(t *testing.T) {
	for _, c := range []struct{ name, from, text, want string }{
		{"month first near", "billing@lakesidewater.org", "Amount due: $58.10\nPayment is due on or before 09/02/2030.\n", "2030-09-02"},
		{"both near", "billing@lakesidewater.org", "Amount due: $58.10\nDue date: 08/09/2030\n", "2030-09-08"},
		{"a day-first date beside it", "billing@lakesidewater.org", "Meter read 25/07/2030\nAmount due: $58.10\nPayment is due on or before 09/02/2030.\n", "2030-02-09"},
		{"a month-first date beside it", "billing@lakesidewater.org", "Meter read 07/31/2030\nAmount due: $58.10\nDue date: 08/09/2030\n", "2030-08-09"},
		{"a country's sender", "rechnung@stadtwerke-lahr.de", "Rechnungsbetrag: 58,10 €\nFällig am 09/02/2030\n", "2030-02-09"},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: c.from}}, Subject: "Your bill", Text: c.text,
			Date: time.Date(2030, 8, 3, 8, 0, 0, 0, time.UTC)}
		got := "no bill"
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if f.Bill != nil && f.Bill.Due != nil {
				got = f.Bill.Due.Format("2006-01-02")
			}
		}
		if got != c.want {
			t.Errorf("%s: due %s, want %s", c.name, got, c.want)
		}
	}
}
