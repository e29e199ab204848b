package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestHeadedTable: a table's rows under its header, cells apart by tabs
// (an empty last cell kept) or by two spaces or more, a text row's cell
// going to the column it starts under (an empty cell left empty), the
// table ending at a line that is no row.
func TestHeadedTable(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"tabs, an empty last cell", []string{"Flight\tFrom\tTo", "LH 1\tFRA\t", "", "LH 2\tMUC\tFRA", "Thank you"},
			`[Flight From To] [{1 [LH 1 FRA ]} {3 [LH 2 MUC FRA]}]`},
		{"text columns, empty cells, a name wider than its column (the next cell, one space after it, is its)", []string{"Flight    From              To        Terminal", "SK 1577   Stockholm Arlanda København", "SK 1578   Nice              Stockholm  3"},
			`[Flight From To Terminal] [{1 [SK 1577 Stockholm Arlanda København  ]} {2 [SK 1578 Nice Stockholm 3]}]`},
		{"a header with a digit is none", []string{"Flight 1    From    To", "LH 1    FRA    MUC"}, `[] []`},
		{"two cells are no table", []string{"Flight    From", "LH 1    FRA"}, `[] []`},
	} {
		head, rows := headedTable(c.lines, 0)
		if got := fmt.Sprintf("%v %v", head, rows); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestFlightColumn: what a flight table's header names, in several
// languages; the small words only as the whole header.
func TestFlightColumn(t *testing.T) {
	for h, want := range map[string]string{
		"FLIGHT": "flight", "Flugnr.": "flight", "Nr lotu": "flight", "Vol": "flight", "Date": "date", "Fecha": "date",
		"Flight date": "date", "FROM": "dep", "Abflughafen": "dep", "Heure de départ": "dep", "STD": "dep", "Skąd": "dep",
		"To": "arr", "Zielflughafen": "arr", "Arrivée": "arr", "STA": "arr", "Przylot": "arr", "Dep/Arr": "",
		"Class": "", "Terminal": "", "Seat in row": "",
	} {
		if got := flightColumn(h); got != want {
			t.Errorf("flightColumn(%q) = %q, want %q", h, got, want)
		}
	}
}

// TestSMSCells: a text message's fields apart by commas are cells, one a
// line; a sentence's commas or a line with fewer labels are none.
func TestSMSCells(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"PNR:4417203958,TRAIN:22691,DOJ:14-11-2027,TIME:20:00,3A,SBC TO NZM", "PNR:4417203958|TRAIN:22691|DOJ:14-11-2027|TIME:20:00|3A|SBC TO NZM"},
		{"Ticket:77,Bus:A 12,Date:01-02-2028", ""},
		{"Dear guest, your PNR:44, TRAIN:22691, DOJ:14-11-2027, TIME:20:00", ""},
		{"Total: 1,234,567.00 EUR", ""},
	} {
		if got := strings.Join(smsCells(c.line), "|"); got != c.want {
			t.Errorf("smsCells(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
