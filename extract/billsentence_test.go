package extract_test

import (
	"testing"
	"time"
)

// TestBillInSentence: a notice that writes the amount owed and the day to
// pay by in running text, no label for either, is a bill due in every
// language; an amount with no word for what is owed, or owed with no day
// to pay by, is none.
func TestBillInSentence(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // amount, status and due day
	}{
		{"Lakeside Water <notices@lakesidewater.example.com>", "Your payment is overdue",
			"Hello,\n\nYour current balance of $112.35 is now overdue. Please pay it by October 14, 2026 to keep your service on.\n\nSave water this autumn: free leak-check kits.\n", "112.35 USD due 2026-10-14"},
		{"Stadtwerke Lindenau <service@sw-lindenau.example.de>", "Zahlungserinnerung",
			"Guten Tag Frau Brandt,\n\nIhr Kundenkonto weist einen Zahlungsrückstand von 64,20 € auf. Bitte zahlen Sie bis zum 15.10.2026, damit keine Mahngebühren entstehen.\n", "64.20 EUR due 2026-10-15"},
		{"Eaux du Val <relances@eauxduval.example.fr>", "Rappel de paiement",
			"Bonjour,\n\nVotre compte présente un solde impayé de 48,90 €. Merci de régler avant le 20/10/2026 pour éviter des frais.\n", "48.90 EUR due 2026-10-20"},
		{"Gas del Norte <avisos@gasdelnorte.example.es>", "Recordatorio de pago",
			"Hola, Jorge:\n\nTu cuenta tiene un saldo pendiente de 73,15 €. Por favor, paga antes del 18 de octubre de 2026.\n", "73.15 EUR due 2026-10-18"},
		{"Fjordnett <kundeservice@fjordnett.example.se>", "Betalningspåminnelse",
			"Hej!\n\nDu har ett obetalt belopp på 349,00 kr. Betala senast 2026-10-21 så slipper du påminnelseavgift.\n", "349.00 SEK due 2026-10-21"},
		{"Energia Viva <avvisi@energiaviva.example.it>", "Promemoria di pagamento",
			"Gentile cliente,\n\nrisulta un importo scaduto di 91,40 €. Ti preghiamo di pagare entro il 25/10/2026.\n", "91.40 EUR due 2026-10-25"},
		// A labelled word's amount ("beløp") and the sentence's day.
		{"Fjellkraft <kundeservice@fjellkraft.example.no>", "Purring på faktura",
			"Hei,\n\nDu har et utestående beløp på 512,00 kr. Betal innen 25.10.2026 for å unngå purregebyr.\n", "512.00 NOK due 2026-10-25"},
		{"Energie Nordhang <service@energie-nordhang.example.de>", "Zahlungserinnerung",
			"Hallo,\n\nSie haben einen offenen Betrag von 44,00 € auf Ihrem Konto. Bitte zahlen Sie bis 25.10.2026.\n", "44.00 EUR due 2026-10-25"},
		{"Vodárna Brod <fakturace@vodarnabrod.example.cz>", "Upomínka: faktura po splatnosti",
			"Dobrý den,\n\nna vašem účtu evidujeme nedoplatek ve výši 1 250 Kč. Uhraďte do 25. 10. 2026.\n", "1250.00 CZK due 2026-10-25"},
		// The day after a word of due.after in the owed amount's own
		// sentence, the verb before it or after it.
		{"Waterschap Lingeveld <debiteuren@lingeveld.example.nl>", "Betalingsherinnering",
			"Beste heer De Wit,\n\nHet bedrag van € 86,40 moet vóór 22-10-2026 betaald zijn.\n", "86.40 EUR due 2026-10-22"},
		{"Wodociągi Brzeg <bok@wodociagibrzeg.example.pl>", "Przypomnienie o płatności",
			"Dzień dobry,\n\nKwotę 86,40 zł należy zapłacić do 22.10.2026.\n", "86.40 PLN due 2026-10-22"},
		{"Vattenverket Ås <kundtjanst@vattenverketas.example.se>", "Betalningspåminnelse",
			"Hej,\n\nBeloppet 864 kr ska vara betalt senast 2026-10-22.\n", "864.00 SEK due 2026-10-22"},
		{"Lakeside Water <notices@lakesidewater.example.com>", "Payment reminder",
			"Hello,\n\nThe balance of $86.40 must be paid by October 22, 2026.\n", "86.40 USD due 2026-10-22"},
		{"Lakeside Water <notices@lakesidewater.example.com>", "Your payment is overdue",
			"Your balance of $86.40 is shown as of October 2, 2026. Thank you.\n", ""},
		// An amount that opens a sentence saying it is due; an offer's.
		{"Lakeside Water <notices@lakesidewater.example.com>", "Payment due",
			"Hello,\n\n$86.40 is due by October 22, 2026.\n", "86.40 USD due 2026-10-22"},
		{"Stadtwerke Lindenau <service@sw-lindenau.example.de>", "Zahlungserinnerung",
			"Guten Tag,\n\nIhr Kundenkonto ist im Rückstand. 64,20 € sind bis zum 22.10.2026 fällig.\n", "64.20 EUR due 2026-10-22"},
		{"Stadtwerke Lindenau <service@sw-lindenau.example.de>", "Ihre Rechnung",
			"Guten Tag,\n\n10 € Rabatt bis zum 31.10.2026 sichern.\n", ""},
		// No word for what is owed; owed with no day to pay by.
		{"Lakeside Water <offers@lakesidewater.example.com>", "Your payment options",
			"Get $20.00 off your next bill when you pay by October 14, 2026 with AutoPay.\n", ""},
		{"Lakeside Water <notices@lakesidewater.example.com>", "Your payment is overdue",
			"Your current balance of $112.35 is now overdue. Call us to talk about a payment plan.\n", ""},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 10, 2, 9, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil && b.Amount != nil {
				got = b.Amount.Amount + " " + b.Amount.Currency + " " + b.Status
				if b.Due != nil {
					got += " " + b.Due.Format("2006-01-02")
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
