package extract

import "testing"

// TestDropInvisible: bidi and zero-width marks go, wherever they stand;
// every other character stays, and a text without them is not copied.
func TestDropInvisible(t *testing.T) {
	for in, want := range map[string]string{
		"Nr zamówienia \u202b403-1234567-1234567": "Nr zamówienia 403-1234567-1234567",
		"HT\u200b-40917":                  "HT-40917",
		"\ufeffTotal: \u2066$38.50\u2069": "Total: $38.50",
		"pad\u034f \u034f\u00adx":         "pad x",
		"€ – ’ plain":                     "€ – ’ plain",
		"\xe2\x80":                        "\xe2\x80",
		"":                                "",
	} {
		if got := dropInvisible(in); got != want {
			t.Errorf("dropInvisible(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSpacedBoldLabel: Gmail's "* Label: *" loses its marks; a bullet,
// or marks around words without a colon, keep theirs.
func TestSpacedBoldLabel(t *testing.T) {
	for in, want := range map[string]string{
		"* Numer zamówienia: * GPA.3379": "  Numer zamówienia:   GPA.3379",
		"* Order date: *\n":              "  Order date:  \n",
		"* item one * item two":          "* item one * item two",
		"* Zdobyte punkty Play *":        "* Zdobyte punkty Play *",
		"* 12: * x":                      "* 12: * x",
		"*":                              "*",
		"* a: *x":                        "* a: *x",
	} {
		if got := unboldLabels(in); got != want {
			t.Errorf("unboldLabels(%q) = %q, want %q", in, got, want)
		}
	}
}
