package extract

import "testing"

// TestLabelWords: label words found missing by the outside measurement
// (issue 46, xforeignc): German's "Bestellsumme" over an order's total and
// Italian's "Codice tracciamento" without its "di".
func TestLabelWords(t *testing.T) {
	c := &msgContext{}
	if m := c.labelledAmount("Bestellsumme\n17,50 €\n"); m == nil || m.Amount != "17.50" || m.Currency != "EUR" {
		t.Errorf("Bestellsumme: amount %+v, want 17.50 EUR", m)
	}
	if got, _ := c.trackingNumber("Codice tracciamento: 6YB0419923357\n"); got != "6YB0419923357" {
		t.Errorf("Codice tracciamento: tracking %q, want 6YB0419923357", got)
	}
}

// TestTrackingAfterQualifier: a tracking number after its label, a short
// qualifier and the verb ("for these items is"); a word that is no number
// after the verb gives none.
func TestTrackingAfterQualifier(t *testing.T) {
	c := &msgContext{}
	for text, want := range map[string]string{
		"The tracking number for your parcel is QX77120448GB2.\n":     "QX77120448GB2",
		"Your tracking number for this shipment is TR-55120937.\n":    "TR-55120937",
		"The tracking number for your parcel is not available yet.\n": "",
	} {
		if got, _ := c.trackingNumber(text); got != want {
			t.Errorf("trackingNumber(%q) = %q, want %q", text, got, want)
		}
	}
}
