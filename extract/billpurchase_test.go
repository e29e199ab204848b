package extract_test

import (
	"testing"
	"time"
)

// TestPurchaseReceiptNoBill: a purchase's receipt (an airline's extras
// bought, a shop's purchase summary) printing its total, a fee's reference
// and "Date of purchase" is no bill due; a receipt of a payment, a
// purchase whose bill is due by a day and a mail whose subject names its
// invoice stay bills.
func TestPurchaseReceiptNoBill(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // amount and status of the bill, if any
	}{
		{"Aeroflux Airways <receipts@aeroflux.example.com>", "Your extras receipt, confirmation K4M2QZ",
			"Thank you for flying with Aeroflux.\nA receipt of your purchase is shown below.\n\nExtra checked bag 23 kg (Reference Number: 7701234567890):\t60.00\nPriority boarding (Reference Number: 7701234567891):\t12.00\n\nPurchase Summary\nMethod of payment:\tMastercard ending in 4410\nDate of purchase:\tMon, Feb 2, 2026\nTotal:\t72.00 USD\n\nJoin FluxMiles today and earn 500 bonus miles!\n", ""},
		{"Ventamar <recibos@ventamar.example.es>", "Recibo de tu compra",
			"Hola Lucía:\n\nGracias por tu compra. Este es tu recibo.\n\nResumen de la compra\nFecha de compra: 02/02/2026\nNúmero de recibo: VM-558120\nForma de pago: Visa terminada en 2291\nTotal: 48,50 €\n\n¡Hasta un 20 % de descuento en tu próxima compra!\n", ""},
		// A payment's receipt is a bill paid; a purchase billed by a day
		// is a bill due; a subject that names the invoice keeps it.
		{"Linea Cloud <billing@lineacloud.example.com>", "Your receipt from Linea Cloud #4410-0921",
			"Receipt from Linea Cloud\nAmount paid $19.00\nDate paid Feb 2, 2026\nPayment method Visa - 2291\n", "19.00 USD paid"},
		{"Harbor Tools <accounts@harbortools.example.com>", "Receipt and payment terms",
			"Purchase Summary\nDate of purchase: 02/02/2026\nReceipt number: HT-22019\nTotal: $310.00\nPayment due by: 03/04/2026\n", "310.00 USD due"},
		{"Harbor Tools <accounts@harbortools.example.com>", "Your invoice HT-22020",
			"Invoice number: HT-22020\nDate of purchase: 02/02/2026\nTotal: $95.00\nAmount paid: $95.00\n", "95.00 USD paid"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 2, 2, 15, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil && b.Amount != nil {
				got = b.Amount.Amount + " " + b.Amount.Currency + " " + b.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
