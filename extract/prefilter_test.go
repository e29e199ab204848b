package extract

import (
	"slices"
	"strings"
	"testing"
)

// anchoredLinesBySearch is anchoredLines as a search of the text for each
// anchor, what the one pass must agree with.
func anchoredLinesBySearch(text string, anchors []string) []int {
	lower := widthLower(text)
	var starts []int
	for _, a := range anchors {
		for i := 0; ; {
			j := strings.Index(lower[i:], a)
			if j < 0 {
				break
			}
			starts = append(starts, strings.LastIndexByte(lower[:i+j], '\n')+1)
			i += j + 1
		}
	}
	slices.Sort(starts)
	return slices.Compact(starts)
}

func checkAnchoredLines(t *testing.T, text string) {
	t.Helper()
	for _, l := range []labelSet{reservationLabels, hotelLabels} {
		if l.anchorSet == nil {
			continue
		}
		if got, want := anchoredLines(widthLower(text), l.anchors, l.anchorSet), anchoredLinesBySearch(text, l.anchors); !slices.Equal(got, want) {
			t.Fatalf("anchoredLines(%q) = %v, by search %v", text, got, want)
		}
	}
}

func TestAnchoredLines(t *testing.T) {
	for _, text := range []string{
		"",
		"Booking reference: ABC123",
		"Hello\nYour BOOKING code\n\nbooking booking\nReservierungsnummer: 7\nnothing",
		"Bekræftelsesnummer 1\nprenotazione\nPrenotazione 2",
		"x\n\n\nconfirmation",
	} {
		checkAnchoredLines(t, text)
	}
}

func FuzzAnchoredLines(f *testing.F) {
	f.Add("Booking reference: ABC123\nReservierungsnummer: 7")
	f.Add("bekræftelsesnummer\n\nitinerary order")
	f.Fuzz(func(t *testing.T, text string) { checkAnchoredLines(t, text) })
}

// prefilters are the byte scans that spare an expression a text, each
// beside the expression it spares: where the scan says no, the
// expression must find nothing.
var prefilters = []struct {
	name string
	may  func(string) bool
	re   interface{ MatchString(string) bool }
}{
	{"train number", mayHoldTrainNumber, trainNumRE.re},
	{"clock", func(s string) bool { return hasClockShape(s, ":hH") }, clockRE},
	{"dotted clock", func(s string) bool { return hasClockShape(s, ".") }, dottedClockRE},
	{"ISO date", func(s string) bool { return digitsAround(s, "-") }, isoDateRE},
	{"dashed date", func(s string) bool { return digitsAround(s, "-") }, dashDateRE},
	{"numeric date", func(s string) bool { return digitsAround(s, "./") }, numDateRE},
	{"spaced date", func(s string) bool { return strings.Contains(s, ". ") }, spacedDateRE},
	{"route line", func(s string) bool { return digitsAround(s, ":") && routeSeparated(s) }, routeLineRE},
	{"clock word", endsInClockWord, clockWord},
	{"platform", func(s string) bool { return mayHoldFolded(s, platformAnchors) }, platformRE},
	{"train label", func(s string) bool { return mayHoldFolded(s, trainLabelAnchors) }, trainLabelRE},
}

func checkPrefilters(t *testing.T, s string) {
	t.Helper()
	for _, p := range prefilters {
		if !p.may(s) && p.re.MatchString(s) {
			t.Fatalf("%s: the scan passes over %q, which the expression matches", p.name, s)
		}
	}
}

func TestPrefilters(t *testing.T) {
	for _, s := range []string{
		"ICE 1045", "EC n° 41", "IC      2", "RJX 63", "X2 5", "Frecciarossa  nr. 9", "zug ICE 7", "_ICE 7",
		"10:15", "7h05", "kl. 8.05", "8.05 Uhr", "2027-05-01", "1-2-2027", "12.05.", "3/4/27", "14. 4. 2027",
		"Glasgow Central to London Euston, dep 12:40, arr 17:12", "Wien → Graz ab 10:00 an 12:30",
		"Milano Centrale ore", "Partenza ORE. ", "Berlin Gleis 5", "Paris VOIE 3", "Madrid vía 2", "Oslo gl. 4",
		"Hamburg Hbf", "", "Zug 123", "TÅG 421", "Snabbtåget 4", "Pociąg 5012", "VLAK 123", "Regionale 24", "Ju Juna 12",
		"Spår 4 ſpor", "ſpor 3", "TRAİN 12", "QUAİ 3",
	} {
		checkPrefilters(t, s)
	}
}

func FuzzPrefilters(f *testing.F) {
	f.Add("ICE 1045 Frankfurt 10:15 Gleis 7")
	f.Add("Glasgow Central to London Euston, dep 12:40, arr 17:12")
	f.Add("kl. 8.05, 14. 4. 2027, 2027-05-01, EC n° 41 ore")
	f.Add("VLAK 12 Voie 3 TÅG 4 ſpor pociąg 7")
	f.Fuzz(checkPrefilters)
}
