package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestBillSummaryBesideChart: a utility's bill as its PDF's text (issue
// 46, foreign-24's Naturgy bill) sets its summary beside a chart of
// consumption: the amount's label heads a row of the chart's headings
// ("Total a pagar Periodo 1 Periodo 1"), and the amount opens the next
// line with words, the chart's axis after it ("98,40€ 2500"). The
// amount is the first column's, never a figure of the chart.
func TestBillSummaryBesideChart(t *testing.T) {
	text := "Energía Norte, S.A.\n\nHola,\naquí tienes tu factura de\nelectricidad.\nNº factura: EN27110020384411\nFecha de emisión: 03.04.2027\nFecha de cargo: 10.04.2027\n" +
		"Electricidad: del 01.03.2027 al 31.03.2027\n\nTu factura de un vistazo Tu consumo de un vistazo\n\n\nConsumo real Consumo estimado\n\n" +
		"Total a pagar Periodo 1 Periodo 1\n\n98,40€ 2500\n2000................\n1500\n\nElectricidad 98,40€ 1000\n500\n0\n"
	b := oneBill(t, mailFacts("Energía Norte <facturas@energianorte.example>", "Tu factura de electricidad EN27110020384411", text, time.Date(2027, 4, 3, 9, 0, 0, 0, time.UTC)))
	if a, cur := billAmount(b); a != "98.40" || cur != "EUR" {
		t.Errorf("amount %s %s, want 98.40 EUR", a, cur)
	}
	if b.Number != "EN27110020384411" {
		t.Errorf("number %q, want EN27110020384411", b.Number)
	}
}

// oneBill is the one bill of facts; it fails t unless there is one.
func oneBill(t *testing.T, facts []extract.Fact) *extract.Bill {
	t.Helper()
	var bills []*extract.Bill
	for _, f := range facts {
		if f.Bill != nil {
			bills = append(bills, f.Bill)
		}
	}
	if len(bills) != 1 {
		t.Fatalf("%d bills, want 1", len(bills))
	}
	return bills[0]
}

// TestTotalHeadingOverItemRows: a table's header row that begins with an
// amount's label ("Total Artikel") over rows of an item's price and name
// ("19,99 € T-Shirt") is no summary beside a chart: the first row's
// price is an item's, and the total is the one its own label gives.
func TestTotalHeadingOverItemRows(t *testing.T) {
	text := "Deine Rechnung\n\nTotal Artikel\n\n19,99 € T-Shirt\n29,99 € Hose\n\nGesamt 49,98 €\n"
	b := oneBill(t, mailFacts("Laden <rechnung@laden.example>", "Deine Rechnung 12345", text, time.Date(2027, 4, 3, 9, 0, 0, 0, time.UTC)))
	if a, cur := billAmount(b); a != "49.98" || cur != "EUR" {
		t.Errorf("amount %s %s, want 49.98 EUR", a, cur)
	}
}

// TestAmountOfNothingIsNoBill: a low-cost airline's itinerary (issue 46,
// foreign-25's Jetstar Asia itinerary) ends in its receipt's table, the
// total's row holding the price paid and the balance ("Total Price
// 420.00 0.00 SGD"), and gave a paid bill of 0.00 SGD. An amount of
// nothing asks for nothing and pays for nothing: no bill.
func TestAmountOfNothingIsNoBill(t *testing.T) {
	text := "Your Itinerary\n\nbooking reference\nReservation Number Date Name of Passenger/s\nQK72TZ 02 Mar 2027 MS ANNA LEE\n\n" +
		"receipts and payments\n\nReceipt SGD Payments\nBase Fare 350.00 Type Visa\nTaxes & Charges 66.00 Date 02 Mar 2027\nFacilitation Fee 4.00 Amount 420.00\nTotal Price 420.00 0.00 SGD\n"
	for _, f := range mailFacts("Lion Skies <noreply@lionskies.example>", "Your Itinerary", text, time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)) {
		if f.Bill != nil {
			a, cur := billAmount(f.Bill)
			t.Errorf("bill of %s %s", a, cur)
		}
	}
}
