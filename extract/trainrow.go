package extract

import (
	"strings"
)

// A connection's row: one train a line, its cells apart by commas, as a
// rail operator's order confirmation printed its connection
// ("Verbindungsauskunft") and as booking tools export a journey:
//
//	Kiel Hbf-Hamburg Hbf, 21.03.08, (RE 21013), Abfahrt Kiel Hbf: 23:10 Uhr, Gleis 4, Ankunft Hamburg Hbf: 00:25 Uhr, Gleis 7
//	Hamburg Hbf-Hamburg Hbf Gl.5-8, 22.03.08, (Fußweg)
//
// The departure's and the arrival's cells each put the station between
// their label and the clock's colon; the route's cell names both stations
// again, without their platforms. A walk between two trains has no
// clock, so it is no leg; an arrival whose clock is lower than the
// departure's is the next day's (railLeg).

// rowCell is a stop's cell of a connection's row: its label's word, the
// station and the clock ("Abfahrt Kiel Hbf: 23:10 Uhr").
type rowCell struct {
	station string
	clock   clockMatch
}

// connectionRowLeg reads ln as a connection's row on day d, or gives nil.
// Only a line with two clocks and three cells apart by commas or more is
// looked at.
func (c *msgContext) connectionRowLeg(ln string, clocks []clockMatch, d dateMatch) *Segment {
	route, dep, arr := connectionRow(ln, clocks)
	// A connection a friend looked up and shares is such a row too: a
	// leg only in a mail that shows a booking's sign (the text the rules
	// read).
	if dep == nil || !c.langBooked() {
		return nil
	}
	// A platform after a name ("Hamburg Hbf Gl.5-8") is left out by the
	// route's names; a name with a digit the route does not give is none.
	from, to := routeStations(route, dep.station, arr.station)
	if hasDigit(from) || hasDigit(to) {
		return nil
	}
	number := ""
	if m := trainNumRE.FindString(ln); m != "" {
		number = normaliseTrain(m)
	}
	return c.railLeg(number, from, to, d, d, &dep.clock, &arr.clock)
}

// connectionRow is a connection's row's route cell, departure's and
// arrival's cells (nil when ln is no such row; clocks are ln's).
func connectionRow(ln string, clocks []clockMatch) (route string, dep, arr *rowCell) {
	if len(clocks) != 2 || strings.Count(ln, ", ") < 3 {
		return "", nil, nil
	}
	for i, cell := range strings.Split(ln, ", ") {
		cell = strings.TrimSpace(cell)
		if i == 0 {
			route = cell
			continue
		}
		if s, ok := stopCell(cell, depLabel); ok && dep == nil {
			dep = &s
		} else if s, ok := stopCell(cell, arrLabel); ok && dep != nil && arr == nil {
			arr = &s
		}
	}
	if dep == nil || arr == nil {
		return "", nil, nil
	}
	return route, dep, arr
}

// connectionRowShaped reports whether ln is a connection's row: such a
// row makes a journey's mail whatever its words ("Salida Madrid
// Chamartín: 23:05", "Partida Lisboa Santa Apolónia: 22:30" in a mail
// that names no train).
func connectionRowShaped(ln string) bool {
	if strings.Count(ln, ", ") < 3 {
		return false
	}
	_, dep, _ := connectionRow(ln, findClocks(ln))
	return dep != nil
}

// stopCell reads a stop's cell: a word label matches at its start, then
// the station, a colon and the cell's one clock, with at most a word for
// o'clock after it ("Abfahrt Kiel Hbf: 23:10 Uhr", "Departure Leeds:
// 07:12"). A label alone before the colon names no station.
func stopCell(cell string, label interface{ FindStringIndex(string) []int }) (rowCell, bool) {
	loc := label.FindStringIndex(cell)
	if loc == nil || loc[0] != 0 {
		return rowCell{}, false
	}
	cs := findClocks(cell)
	if len(cs) != 1 {
		return rowCell{}, false
	}
	// The station's colon is the last one before the clock.
	colon := strings.LastIndexByte(cell[:cs[0].start], ':')
	if colon < loc[1]-1 || strings.TrimSpace(cell[colon+1:cs[0].start]) != "" {
		return rowCell{}, false
	}
	if rest := strings.Fields(cell[cs[0].end:]); len(rest) > 1 || len(rest) == 1 && hasDigit(rest[0]) {
		return rowCell{}, false
	}
	name := strings.TrimSpace(cell[loc[1]-1 : colon])
	name = strings.TrimLeft(name, " \t.:")
	if name == "" || !startsWithLetter(name) {
		return rowCell{}, false
	}
	return rowCell{station: name, clock: cs[0]}, true
}

// routeStations names a row's two stations as its route's cell does
// ("Hamburg Hbf-Bremen Hbf"), where a platform follows the stop's cell's
// name ("Hamburg Hbf Gl.5-8"): the route split at the dash whose two sides
// begin the departure's and the arrival's names. A route that splits so
// at no dash leaves the stop cells' names.
func routeStations(route, from, to string) (string, string) {
	for i := 0; i < len(route); i++ {
		if route[i] != '-' {
			continue
		}
		a, b := strings.TrimSpace(route[:i]), strings.TrimSpace(route[i+1:])
		if a != "" && b != "" && strings.HasPrefix(from, a) && strings.HasPrefix(to, b) {
			return a, b
		}
	}
	return from, to
}

// startsWithLetter reports whether s starts with a letter.
func startsWithLetter(s string) bool {
	for _, r := range s {
		return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 127
	}
	return false
}
