package extract

import (
	"strings"
	"testing"
	"time"
)

// TestGdsFlightOnAirlineName: a printout's row may give the flight as its
// airline's printed name and the number ("Delta 5115*", "United 1452",
// "Lufthansa 2045"); a name that a number does not follow gives none.
func TestGdsFlightOnAirlineName(t *testing.T) {
	for ln, want := range map[string]string{
		"Wed 26SEP Delta 5115*          ":   "DL 5115",
		"Fri 05NOV United 1452         ":    "UA 1452",
		"Do  09DEC Lufthansa 2045      ":    "LH 2045",
		"Thu 27SEP                      ":   "",
		"Lufthansa Miles & More 2 ":         "",
		"Delta Sky Club access included   ": "",
	} {
		if got := gdsFlightOn(ln); got != want {
			t.Errorf("gdsFlightOn(%q) = %q, want %q", ln, got, want)
		}
	}
}

// FuzzGdsMarkWords: no text without one of gdsMarkWords holds a match of
// gdsMarkRE, so the words may gate it.
func FuzzGdsMarkWords(f *testing.F) {
	for _, s := range []string{"13JUN", "13 JUN", "  DEPART 10:25A", "LV FRA", "1 DEC.", "13jun", "LEAVE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if gdsMarkRE.MatchString(s) && !gdsMarkWords.Any(s) {
			t.Fatalf("%q: gdsMarkRE finds %q, gdsMarkWords nothing", s, gdsMarkRE.FindString(s))
		}
	})
}

// TestReceiptRowFullColumn: an e-ticket receipt's departure airport cut
// to its column's fifteen characters fills the column, one space before
// the flight's designator ("STOCKHOLM ARLAN TP 783"); the row is read as
// one with a wider gap is. So is a receipt whose columns' spaces were
// collapsed to one (pasted into a page: "MUSCAT WY 0101 Y 04MAR 0840 …"
// over "LONDON LHR ARRIVAL TIME: 1325"), the airport being the words
// before the first designator and number; never a row without its
// arrival's line. The arrival's line may give the seat before its time.
func TestReceiptRowFullColumn(t *testing.T) {
	for _, tc := range []struct {
		rows string
		want string
	}{
		{"HELSINKI VANTAA AY 1411 O  14DEC 0715     OL1ZFI      1PC OK\nTERMINAL:2\nMUNICH                  ARRIVAL TIME: 0855     ARRIVAL DATE: 14DEC\n", "AY 1411 HEL-MUC"},
		{"COPENHAGEN KAST SK 1415 M  19MAR 0705  MLOWDK\nOSLO OSL                ARRIVAL TIME: 0815  ARRIVAL DATE: 19MAR\n", "SK 1415 CPH-OSL"},
		{"AMSTERDAM SCHIP KL 1129 K  03MAR 0655\nCOPENHAGEN KAST         ARRIVAL TIME: 0820     ARRIVAL DATE: 03MAR\n", "KL 1129 AMS-CPH"},
		{"OSLO OSL SK 1470 M  23MAR 1830  MLOWDK\nCOPENHAGEN CPH          ARRIVAL TIME: 1940  ARRIVAL DATE: 23MAR\n", "SK 1470 OSL-CPH"},
		{"MUSCAT WY 0101 Y 04MAR 0840 YOWOM 04MAR 04MAR 30K OK\nTERMINAL:1\nLONDON LHR ARRIVAL TIME: 1325\nTERMINAL:4\nLONDON LHR WY 0102 Y 11MAR 2130 YOWOM 11MAR 11MAR 30K OK\nTERMINAL:4\nMUSCAT ARRIVAL TIME: 0850\n", "WY 101 MCT-LHR, WY 102 LHR-MCT"},
		{"SALALAH WY 0904 Y 05MAR 1010 YOWOM\nSee you on board\n", ""},
		// The seat before the arrival's time, the airport's name on a
		// line of its own under each city.
		{" VIENNA          OS 087  Y  12MAY  0930     YLOWAT                    1PC  OK\n SCHWECHAT\n NEW YORK JFK       SEAT: 21C     ARRIVAL TIME: 1305   ARRIVAL DATE: 12MAY\n", "OS 87 VIE-JFK"},
	} {
		c := &msgContext{ref: time.Date(2026, 10, 13, 15, 0, 0, 0, time.UTC)}
		var got []string
		for _, s := range c.gdsReceiptRows(strings.Split(tc.rows, "\n"), map[int]bool{}) {
			got = append(got, s.Number+" "+s.From.Code+"-"+s.To.Code)
		}
		if strings.Join(got, ", ") != tc.want {
			t.Errorf("gdsReceiptRows(%q) = %q, want %q", tc.rows, got, tc.want)
		}
	}
}
