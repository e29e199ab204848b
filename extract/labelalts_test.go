package extract

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cutSets are the label sets read with cuts of their alternation.
var cutSets = map[string]labelSet{
	"reservation": reservationLabels, "order": orderLabels, "tracking": trackingLabel,
	"invoice": invoiceLabels, "amount": amountLabels, "due": dueLabels,
	"checkin": checkinLabels, "checkout": checkoutLabels, "bill.booking": bookingLabels,
	"bill.issuer": issuerLabels, "carrier": carrierLabel, "ticket": ticketLabels,
}

// checkCut fails when a line's cut of a label set finds other matches than
// the whole alternation.
func checkCut(t *testing.T, name string, l labelSet, line string) {
	t.Helper()
	want := l.re.FindAllStringIndex(line, -1)
	var got [][]int
	if re := l.lineRE(line); re != nil {
		got = re.FindAllStringIndex(line, -1)
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("%s on %q: the cut finds %v, the whole alternation %v", name, line, got, want)
	}
}

func TestLabelCuts(t *testing.T) {
	for name, l := range cutSets {
		if l.cut == nil {
			t.Fatalf("%s: no anchors, read whole", name)
		}
	}
	lines := []string{
		"",
		"Buchungsnummer: X7Q2LM",
		"Einfach unter https://www.bahn.de/buchung/jetzt-einchecken einchecken",
		"Buchung: 4471 Auftrag: 99120 Reservation: ABC123",
		"RÉSERVATION : K7P2QX, référence dossier 7781",
		"Ihre Buchung ist bestätigt; Referenz folgt",
		"Booking reference ABC123 / confirmation # 88123 / PNR: XK9Q2L",
		"Booking: Hotel Adler, reference 4471",
		"Reſervation number: 7781", // a long s: the whole alternation
		"BEKRÆFTELSESNUMMER: 77120",
		"Číslo dokladu: 4471 ČÍSLO REZERVACE: 881",
		"Invoice no. 2031-17 Amount due: 12,30 € Due date: 3 May",
		"Sendungsnummer 00340434161234567890 Tracking: 1Z999AA10123456784",
		"xbooking: 123 booking:123 bookingreference: 5",
	}
	for name, l := range cutSets {
		for _, line := range lines {
			checkCut(t, name, l, line)
		}
	}
	// Every line of the hand-written mails that holds an anchor.
	files, _ := filepath.Glob("eval/testdata/handwritten/*.eml")
	if len(files) == 0 {
		t.Fatal("no hand-written mails")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(string(raw), "\n") {
			for name, l := range cutSets {
				if l.anchorSet.Any(lower(line)) {
					checkCut(t, name, l, line)
				}
			}
		}
	}
}

func FuzzLabelCuts(f *testing.F) {
	f.Add("Buchung: 4471 Auftrag: 99120 Reservation: ABC123")
	f.Add("Reſervation number: 7781")
	f.Add("Booking reference ABC123 / confirmation # 88123")
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 300 || strings.Contains(line, "\n") {
			return
		}
		for name, l := range cutSets {
			checkCut(t, name, l, line)
		}
	})
}
