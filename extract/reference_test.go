package extract

import "testing"

// TestOrderNumberAfterVerb: an order's number after its label and a verb
// that introduces it, with or without a colon after the verb.
func TestOrderNumberAfterVerb(t *testing.T) {
	for text, want := range map[string]string{
		"Deine Bestellnummer lautet: KW-2030-77184\n":     "KW-2030-77184",
		"Ihre Bestellnummer lautet 4021-88317.\n":         "4021-88317",
		"Your order number is: 88213-55\n":                "88213-55",
		"Bestellnummer: 10029384\n":                       "10029384",
		"Ihre Bestellung lautet: wie besprochen, bald.\n": "",
	} {
		c := &msgContext{}
		if got := c.orderNumber(text); got != want {
			t.Errorf("orderNumber(%q) = %q, want %q", text, got, want)
		}
	}
}
