package extract

import "testing"

// TestCarrierKindWord: a carrier's name of a brand and a word that names
// carriers (carrier.word: Turkish "Kargo") is read whole; another word
// after a one-word name is none of it.
func TestCarrierKindWord(t *testing.T) {
	for line, want := range map[string]string{
		"Kargo firması: Yurtiçi Kargo": "Yurtiçi Kargo",
		"Kargo firması: ARAS KARGO":    "ARAS KARGO",
		"Carrier: DHL Express":         "DHL",
	} {
		if m := carrierColonRE.FindStringSubmatch(line); m == nil || m[1] != want {
			t.Errorf("carrierColonRE(%q) = %q, want %q", line, m, want)
		}
	}
}

// TestNamedCarrierNotHours: a courier's hours after its label name no
// carrier; its name after the label does.
func TestNamedCarrierNotHours(t *testing.T) {
	c := &msgContext{}
	for text, want := range map[string]string{
		"AWB: 2300154876321\nProgram curier: 09:00 - 18:00\n":     "",
		"Număr comandă: 7710452\nCurier: Sameday\n":               "Sameday",
		"Broj narudžbe: 55120\nDostavna služba: Hrvatska pošta\n": "Hrvatska pošta",
		"Prepravca: Slovenská pošta\n":                            "Slovenská pošta",
		"Kurjers: Latvijas Pasts\n":                               "Latvijas Pasts",
		// One word after a label on a line of its own: a carrier, unless
		// it is a shipping method's word.
		"Bestellnummer: 88210\nSpediteur: Hellmann\n": "Hellmann",
		"Spediteur: GLS\n":                            "GLS",
		"Przewoźnik: Raben\n":                         "Raben",
		"Carrier: Bring\n":                            "Bring",
		"Carrier: Standard\n":                         "",
		"Przewoźnik: Standardowa\n":                   "",
		"Transporteur : Gratuit\n":                    "",
		"Carrier: Express\n":                          "",
	} {
		if got := c.namedCarrier(text); got != want {
			t.Errorf("namedCarrier(%q) = %q, want %q", text, got, want)
		}
	}
}
