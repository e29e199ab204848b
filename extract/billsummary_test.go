package extract_test

import (
	"testing"
	"time"
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
	facts := mailFacts("Energía Norte <facturas@energianorte.example>", "Tu factura de electricidad EN27110020384411", text, time.Date(2027, 4, 3, 9, 0, 0, 0, time.UTC))
	bills := 0
	for _, f := range facts {
		if f.Bill == nil {
			continue
		}
		bills++
		if a, cur := billAmount(f.Bill); a != "98.40" || cur != "EUR" {
			t.Errorf("amount %s %s, want 98.40 EUR", a, cur)
		}
		if f.Bill.Number != "EN27110020384411" {
			t.Errorf("number %q, want EN27110020384411", f.Bill.Number)
		}
	}
	if bills != 1 {
		t.Errorf("%d bills, want 1", bills)
	}
}

// TestTotalHeadingOverItemRows: a table's header row that begins with an
// amount's label ("Total Artikel") over rows of an item's price and name
// ("19,99 € T-Shirt") is no summary beside a chart: the first row's
// price is an item's, and the total is the one its own label gives.
func TestTotalHeadingOverItemRows(t *testing.T) {
	text := "Deine Rechnung\n\nTotal Artikel\n\n19,99 € T-Shirt\n29,99 € Hose\n\nGesamt 49,98 €\n"
	facts := mailFacts("Laden <rechnung@laden.example>", "Deine Rechnung 12345", text, time.Date(2027, 4, 3, 9, 0, 0, 0, time.UTC))
	bills := 0
	for _, f := range facts {
		if f.Bill == nil {
			continue
		}
		bills++
		if a, cur := billAmount(f.Bill); a != "49.98" || cur != "EUR" {
			t.Errorf("amount %s %s, want 49.98 EUR", a, cur)
		}
	}
	if bills != 1 {
		t.Errorf("%d bills, want 1", bills)
	}
}
