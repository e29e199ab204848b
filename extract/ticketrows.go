package extract

import "strings"

// Rows of an airline's e-ticket receipt that give a flight on one line by
// its number, its day, the two airports by their cities' names and the
// departure's clock, a status after it (Lufthansa's receipt under "Flight
// Date from to Departure Status Class"):
//
//	LH 1089* 17.July Marseille Francfort 18:50 Confirmed L
//
// The names stand apart by single spaces, as a PDF's text gives them: the
// row is read where one split of the words between the day and the clock
// makes two airports' names (namedPair), no other.

// receiptNameRows reads such rows among lines, skipping used ones, and
// marks the lines it read.
func (c *msgContext) receiptNameRows(lines []string, used map[int]bool) []*Segment {
	var out []*Segment
	for i, ln := range lines {
		if used[i] || len(ln) > 160 {
			continue
		}
		// A cheap gate before the expressions: the row opens with a
		// designator's two capitals or digits and the number's digit
		// ("LH 1089", "U21234").
		t := strings.TrimSpace(ln)
		if len(t) < 4 || !isUpperOrDigit(t[0]) || !isUpperOrDigit(t[1]) || !isDigitByte(t[2]) && !(t[2] == ' ' && isDigitByte(t[3])) {
			continue
		}
		if seg := c.receiptNameRow(t); seg != nil {
			used[i] = true
			out = append(out, seg)
		}
	}
	return out
}

// receiptNameRow reads one row, or nil.
func (c *msgContext) receiptNameRow(ln string) *Segment {
	m := flightNumRE.FindStringSubmatchIndex(ln)
	if m == nil || m[0] != 0 || !isFlightDesignator(ln[m[2]:m[3]]) {
		return nil
	}
	num := ln[m[2]:m[3]] + " " + strings.TrimLeft(ln[m[4]:m[5]], "0")
	rest := strings.TrimLeft(strings.TrimPrefix(ln[m[1]:], "*"), " \t")
	ds := c.dates(rest)
	if len(ds) == 0 || ds[0].start != 0 {
		return nil
	}
	afterDate := rest[ds[0].end:]
	clocks := findClocks(afterDate)
	if len(clocks) == 0 {
		return nil
	}
	names := strings.Fields(afterDate[:clocks[0].start])
	if len(names) < 2 || len(names) > 8 {
		return nil
	}
	var from, to *Place
	for k := 1; k < len(names); k++ {
		a, b := namedPair(strings.Join(names[:k], " "), strings.Join(names[k:], " "))
		if a == nil || b == nil || a.Code == b.Code {
			continue
		}
		if from != nil {
			return nil // two readings: none
		}
		from, to = a, b
	}
	if from == nil {
		return nil
	}
	d := ds[0].withYear(c.ref)
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, Number: num, From: from, To: to}
	seg.Depart = resolve(at(d, &clocks[0]), c.airportZone(from), c.dateLoc)
	if seg.Depart == nil {
		return nil
	}
	// The arrival's clock right after the departure's ("18:50 20:05").
	if len(clocks) > 1 && strings.TrimSpace(afterDate[clocks[0].end:clocks[1].start]) == "" {
		seg.Arrive = resolve(at(d, &clocks[1]), c.airportZone(to), c.dateLoc)
		if seg.Arrive != nil && seg.Arrive.Before(seg.Depart.Time) {
			seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
		}
	}
	return seg
}

func isUpperOrDigit(b byte) bool { return b >= 'A' && b <= 'Z' || isDigitByte(b) }
