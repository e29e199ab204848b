package extract

import (
	"regexp"
	"strings"
	"time"
)

// A train leg as a table's row: a row under a header that names each
// column (From / To / Depart / Arrive, Von / Nach / Ab / An, a train's
// column), or a row of a table whose cells flattening has joined.

// tableRowLeg reads a leg that is one row of a table under a header row
// that names the departure and the arrival ("Train From Departs To
// Arrives" over "1S09 London Kings Cross 16/07/2027 09:00 Edinburgh
// 16/07/2027 13:20"): flattened HTML keeps a table's cells on one line
// with nothing between them, so the header is what says which clock is
// which. Each station is the text before its clock, less its date (else
// the date above the table, day); a leading token with a digit is the
// train.
func (c *msgContext) tableRowLeg(lines []string, i int, clocks []clockMatch, ref time.Time, day dateMatch) *Segment {
	h := i - 1
	for h >= 0 && h > i-4 && strings.TrimSpace(lines[h]) == "" {
		h--
	}
	if h < 0 || findClocks(lines[h]) != nil || !depLabel.MatchString(lines[h]) || !arrLabel.MatchString(lines[h]) {
		return nil
	}
	ln := lines[i]
	us := c.usSender()
	cell := func(s string) (name string, d *dateMatch) {
		if ds := findDates(s, us); len(ds) > 0 {
			d = &ds[0]
			s = s[:ds[0].start] + " " + s[ds[0].end:]
		}
		return s, d
	}
	first, depDay := cell(ln[:clocks[0].start])
	second, arrDay := cell(ln[clocks[0].end:clocks[1].start])
	number := ""
	if t := trainNumRE.FindStringIndex(first); t != nil {
		number = normaliseTrain(first[t[0]:t[1]])
		first = first[:t[0]] + " " + first[t[1]:]
	} else if f := strings.Fields(first); len(f) > 1 && hasDigit(f[0]) && len(f[0]) <= 8 {
		number, first = f[0], strings.Join(f[1:], " ")
	} else if f := strings.Fields(ln[clocks[1].end:]); len(f) == 1 && allDigits(f[0]) && len(f[0]) <= 6 {
		number = f[0] // the train's column after the arrival's ("… Göteborg C 10:27 527")
	}
	from, to := stationName(first), stationName(second)
	if depDay == nil {
		depDay = &day // the row's date above the table ("Data: 10/03/2028")
	}
	if from == "" || to == "" || isBus(number) {
		return nil
	}
	if arrDay == nil {
		arrDay = depDay
	}
	return c.railLeg(number, from, to, depDay.withYear(ref), arrDay.withYear(ref), &clocks[0], &clocks[1])
}

// Words that head a table's columns: its stations' (station.from and the
// departure's marker, "From", "Von", "Origine"; the same for the
// arrival) and its clocks' ("Depart", "Ab", "Départ").
var (
	fromColumn                       = newStopMarkers("departure.marker")
	toColumn                         = newStopMarkers("arrival.marker")
	depColumn                        = newStopMarkers("departure")
	arrColumn                        = newStopMarkers("arrival")
	stationFromWords, stationToWords = wordSet("station.from"), wordSet("station.to")
)

// trainColumnRE heads the column of a train's number.
var trainColumnRE = regexp.MustCompile(`^(?:train|zug|treno|tren|vlak|trein|tåg|tog|juna|pociąg|comboio|trem)$`)

// trainColumn is what a train table's column holds by its header's
// word: a station ("from", "to"), a clock ("dep", "arr"), the train.
func trainColumn(w string) string {
	switch {
	case stationFromWords[w] || fromColumn.has(w) && !depColumn.has(w):
		return "from"
	case stationToWords[w] || toColumn.has(w) && !arrColumn.has(w):
		return "to"
	case depColumn.has(w):
		return "dep"
	case arrColumn.has(w):
		return "arr"
	case trainColumnRE.MatchString(w):
		return "train"
	}
	return ""
}

// headerRowLeg reads a row of a table whose header names each column
// (the mime package keeps cells apart by tabs): "From To Depart Arrive",
// then "London King's Cross, Hull, 10:48, 13:35". A column's header
// says what its cell holds; the stations' columns hold no clock.
func (c *msgContext) headerRowLeg(lines []string, i int, ref time.Time, day dateMatch) *Segment {
	head, cells, ok := tabRow(lines, i, 4)
	if !ok {
		return nil
	}
	row := lines[i]
	col := columns(head, trainColumn)
	_, hasTrain := col["train"]
	if len(col) != 4 && !(len(col) == 5 && hasTrain) {
		return nil
	}
	dep, arr := findClocks(cells[col["dep"]]), findClocks(cells[col["arr"]])
	from, to := stationName(cells[col["from"]]), stationName(cells[col["to"]])
	if len(dep) != 1 || len(arr) != 1 || from == "" || to == "" || hasDigit(from) || hasDigit(to) {
		return nil
	}
	d := day
	if ds := c.dates(row); len(ds) > 0 {
		d = ds[0]
	}
	number := ""
	if hasTrain {
		number = strings.Join(strings.Fields(cells[col["train"]]), " ")
	} else if t := trainNumRE.FindString(row); t != "" {
		number = normaliseTrain(t)
	}
	if isBus(number) {
		return nil
	}
	return c.railLeg(number, from, to, d.withYear(ref), d.withYear(ref), &dep[0], &arr[0])
}
