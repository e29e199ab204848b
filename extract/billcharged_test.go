package extract_test

import (
	"testing"
	"time"
)

// TestPaidReceiptIsBill: a receipt that shows how it was paid and
// delivers nothing (an app store's, a subscription's) is a paid bill,
// numbered by its order's code and for the amount charged, in any layout:
// blocks with the total alone under the card, a price table, run-on
// sentences, a printout's charge row. A receipt for goods to ship stays
// an order; a deposit's receipt with a balance left and an autopay's
// "will be charged" stay due.
func TestPaidReceiptIsBill(t *testing.T) {
	day := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, from, subject, text string
		want                      string // kind, then number, status and amount
	}{
		{"blocks, total under the card", "Harbor Radio <no-reply@harborradio.example>", "Your receipt from Harbor Radio",
			"Harbor Radio\n\nRECEIPT\n\nNovember 14, 2026\n\nOrder ID:\n\nHR8K2P4QZX\n\nAccount:\n\nsam@example.net\n\nHarbor Radio Premium\n\nMonthly\n\nSubtotal\n\n$7.99\n\nTax\n\n$0.61\n\nMastercard •••• 2231\n\n$8.60\n",
			"bill HR8K2P4QZX paid 8.60"},
		{"German price table", "Spielwolke <konto@spielwolke.example>", "Ihre Quittung von Spielwolke",
			"Hallo,\n\nIhr Abo wurde verlängert.\n\nBestellnummer: SW-2026-11873\nDatum: 03.11.2026\n\nArtikel                    Preis\nSpielwolke Pro (1 Monat)   4,99 €\nGesamt                     4,99 €\n\nZahlungsmethode: Visa •••• 7710\n",
			"bill SW-2026-11873 paid 4.99"},
		{"French sentences", "Ondeo <facturation@ondeo-tv.example>", "Votre reçu Ondeo",
			"Bonjour,\n\nVotre abonnement a été renouvelé. Commande n° OD4T7Z2KWQ, du 20/11/2026. Montant : 12,99 € TTC. Moyen de paiement : CB •••• 3310.\n",
			"bill OD4T7Z2KWQ paid 12.99"},
		{"printout charge row", "Drivebox <receipts@drivebox.example>", "Drivebox receipt",
			"RECEIPT                          Order DB-40112-0007\nDate: 2 Nov 2026\n\nItem                             Price\nDrivebox 2 TB (monthly)          $9.99\nTax                              $0.80\nCharged to Visa •••• 6021        $10.79\n",
			"bill DB-40112-0007 paid 10.79"},
		{"renewal count after two dots", "Google Play <googleplay-noreply@google.com>", "Your Google Play Order Receipt from 19 Nov 2026",
			"Your subscription from Example Ltd on Google Play continues and you've been charged.\n\nOrder number: GPA.1234-5678-9012-34567..5\nOrder date: 19 Nov 2026\n\nTotal: £2.49/month\n\nPayment method:\n\nVisa-1234\n",
			"bill GPA.1234-5678-9012-34567..5 paid 2.49"},
		{"goods to ship: the order's", "Fern & Field <orders@fernandfield.example>", "Your receipt from Fern & Field",
			"Thanks for shopping with us!\n\nOrder #FF-88120\nPlaced on 11 November 2026\n\nLinen cushion   $38.00\nShipping        $5.00\nTotal           $43.00\n\nPaid with Visa •••• 8812\n\nShipping address:\nA. Person\n1 High St\n",
			"order FF-88120 ordered 43.00"},
		// A meal delivered, its receipt naming no order number: the
		// order reader reads none, and the card's line is no bill's
		// amount (foreign-10's food delivery receipt gave a paid bill).
		{"food delivered, no number", "Panmeal Receipts <noreply@panmeal.example>", "Your Friday evening order with Panmeal",
			"Thanks for ordering, Sam\n\nHere's your receipt for Noodle Bar (Centre).\n\nTotal $31.20\n\nPayments\nVisa ••••4471 $31.20\n\nOrder Details\n7:02 PM - Pickup 4 Mill Lane\n7:21 PM - Delivery 12 Park Road\nDelivered by Tomasz\n",
			""},
		// An airline's e-ticket receipt that no travel reader reads is
		// no paid bill.
		{"e-ticket receipt", "Aerolinhas Serra <bilhete@aerolinhasserra.example>", "Seu recibo de bilhete eletrônico",
			"Recibo de passagem\n\nLocalizador: QX7TZM\nVoo AS 4410 Brasília - Recife\n\nTotal: R$ 812,40\nForma de pagamento: Visa •••• 4471\n",
			""},
		{"deposit with a balance left", "Maple Photo <accounts@maplephoto.example>", "Receipt for your deposit - Invoice MP-2207",
			"Thank you, we've received your deposit.\n\nInvoice: MP-2207\nDeposit paid with Visa •••• 5520: $100.00\nBalance due: $300.00\nDue date: December 1, 2026\n",
			"bill MP-2207 due 300.00"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, day) {
			switch {
			case f.Bill != nil && f.Bill.Amount != nil:
				got = "bill " + f.Bill.Number + " " + f.Bill.Status + " " + f.Bill.Amount.Amount
			case f.Order != nil && f.Order.Total != nil:
				got = "order " + f.Order.Number + " " + f.Order.Status + " " + f.Order.Total.Amount
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestZeroBalancePaidFigure: a receipt whose balance's label gives zero
// under a price before tax is paid, for the amount its paid label gives
// ("Paid: $9.72" beside "Total: $9.00 per month" and "Balance Due:
// $0.00"; "Bezahlt" and "Restbetrag"; "Amount paid" and "Amount due").
func TestZeroBalancePaidFigure(t *testing.T) {
	day := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		from, subject, text, want string
	}{
		{"Boulderhaus <billing@boulderhaus.example>", "Thanks for renewing your membership",
			"Plan:     Monthly\nTotal:    $12.00 per month\n\nInvoice 88120934\nNov 1, 2026\n\nSubtotal:     $12.00\nSales tax:    $0.96\nPaid:         $12.96\nBalance Due:  $0.00\n",
			"88120934 paid 12.96"},
		{"Kurswerk <rechnung@kurswerk.example>", "Rechnung RE-2026-5580",
			"Tarif: Kursabo, monatlich\nBetrag: 29,00 € pro Monat\n\nRechnungsnummer: RE-2026-5580\n\nZwischensumme: 29,00 €\nMwSt. 19 %: 5,51 €\nBezahlt: 34,51 €\nRestbetrag: 0,00 €\n",
			"RE-2026-5580 paid 34.51"},
		{"Quillworks <billing@quillworks.example>", "Invoice QW-7731",
			"Invoice QW-7731\n\nPlan: $20.00 per month\nAmount paid: $21.60\nAmount due: $0.00\n",
			"QW-7731 paid 21.60"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, day) {
			if b := f.Bill; b != nil && b.Amount != nil {
				got = b.Number + " " + b.Status + " " + b.Amount.Amount
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}

// TestBillIssuerNamedInSubjectBrackets: a notice that names its issuer
// only in its subject's brackets ("（NTTファイナンス）"-style, "【…】")
// is that issuer's, when the name agrees with the sender's domain; a
// brand that mails from its owner's domain (brands.tsv) is named by its
// brand.
func TestBillIssuerNamedInSubjectBrackets(t *testing.T) {
	day := time.Date(2026, 11, 10, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		from, subject, text, want string
	}{
		{"seikyu@xyz-card.example", "【XYZカード】ご請求金額のお知らせ", "2026年11月ご請求分は 12,340 円です。\n", "XYZカード 12340 due"},
		{"info@kdx-mobile.example", "請求料金のご案内（KDXモバイル）", "2026年11月ご請求分は 3,300 円です。\n", "KDXモバイル 3300 due"},
		{"Xfinity <onlinecommunications@alerts.comcast.net>", "Your Xfinity bill is ready",
			"Your Xfinity bill is ready.\n\nTotal amount due: $89.00\nDue date: December 15, 2026\n", "Xfinity 89.00 due"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, day) {
			if b := f.Bill; b != nil && b.Amount != nil {
				got = b.Issuer + " " + b.Amount.Amount + " " + b.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
