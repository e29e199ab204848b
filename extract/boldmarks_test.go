package extract

import "testing"

// TestUnboldLabels: a plain-text part's bold marks around a label are
// blanked, the text keeping its length; other asterisks stay.
func TestUnboldLabels(t *testing.T) {
	for in, want := range map[string]string{
		"*Sendungsnummer*\n00340434161094042557": " Sendungsnummer \n00340434161094042557",
		"*Tracking number:* 1Z999AA10123456784":  " Tracking number:  1Z999AA10123456784",
		"** *Absender*\nMusterhaus GmbH":         "**  Absender \nMusterhaus GmbH",
		"Karte ****1234 belastet":                "Karte ****1234 belastet",
		"* Bettwäsche 2 x 19,99 €":               "* Bettwäsche 2 x 19,99 €",
		"Preise inkl. MwSt.* *gilt bis Sonntag":  "Preise inkl. MwSt.* *gilt bis Sonntag",
		"a*b*c":                                  "a*b*c",
		"**Train:** ES 9024\n**From:** Paris":    "  Train:   ES 9024\n  From:   Paris",
		"**Zug**: ICE 512":                       "  Zug  : ICE 512",
		"Total **12,00 €**":                      "Total **12,00 €**",
		"**Train:* ES 9024":                      "* Train:  ES 9024",
		"*":                                      "*",
		"":                                       "",
	} {
		if got := unboldLabels(in); got != want || len(got) != len(in) {
			t.Errorf("unboldLabels(%q) = %q, want %q", in, got, want)
		}
	}
}
