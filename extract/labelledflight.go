package extract

import (
	"regexp"
	"strings"
)

// A flight whose fields each follow their own label on a line of their
// own, as a travel desk's or an agency's invoice lists them ("Departure
// Airport: JFK - John F. Kennedy International Airport", "Departure Date:
// May 25, 2024", "Departure Time: 10:00 AM", "Flight Number: XYZ123";
// "**Flight Number (1st Segment):** 3434", "Destination Airport: Bengaluru
// Intl Arpt", "Departure Time (1st Segment): 2024-01-21T14:00"). The
// flight readers read a stop's day, clock and airport on a line, a table's
// row or a card; such a list gave nothing. It is read when they read no
// flight.

// fieldLineRE is a labelled line: a bullet, the label (an aside in
// parentheses allowed), a colon and the value.
var fieldLineRE = regexp.MustCompile(`^[ \t]*(?:[-*•][ \t]+)?([\p{L}][\p{L} ./'’]{1,40}?)[ \t]*(?:\(([^()\n]{1,30})\))?[ \t]*:[ \t]*(\S.{0,120}?)[ \t]*$`)

// A label of a flight's number holds a flight's word (flightWords,
// column.flight) and a number's (flightNumberWords), or is the flight's
// word alone.
var (
	flightWords       = wordSet("column.flight")
	flightNumberWords = map[string]bool{"number": true, "no": true, "no.": true, "nr": true, "nr.": true, "#": true, "nummer": true, "numéro": true, "número": true, "numero": true, "numer": true}
)

// fieldRole is what a label names: "flight", "dep", "arr", or "".
func fieldRole(label string) string {
	// "Aéroport d'arrivée": the elided article is no word of its own.
	ws := strings.FieldsFunc(strings.ToLower(label), func(r rune) bool { return r == ' ' || r == '\'' || r == '’' })
	var flight, number, dep, arr bool
	for _, w := range ws {
		switch {
		case flightWords[w]:
			flight = true
		case flightNumberWords[w]:
			number = true
		case depLabelWords.has(w) || len(w) >= 4 && stationFromWords[w]:
			dep = true
		case arrLabelWords.has(w) || len(w) >= 4 && stationToWords[w]:
			arr = true
		}
	}
	switch {
	case flight && !dep && !arr && (number || len(ws) == 1):
		return "flight"
	case dep && !arr && !flight:
		return "dep"
	case arr && !dep && !flight:
		return "arr"
	}
	return ""
}

// labelledFlights are the flights of such a list: a flight's fields from
// its number's label to the next one's (or an aside that names another
// segment), each side's day, clock and airport read as a table's cell is
// (tableSide), the airports by code or by name (abbreviations spelled out:
// "Intl", "Arpt"). A flight needs its number, both airports and the
// departure's day and clock.
func (c *msgContext) labelledFlights(text string) []*Segment {
	if strings.Count(text, ":") < 4 {
		return nil
	}
	type group struct {
		num   string
		side  [2]tableSide
		aside string
	}
	var groups []*group
	var g *group
	for ln := range strings.Lines(text) {
		ln = strings.TrimRight(ln, "\r\n")
		if len(ln) > 200 || !strings.Contains(ln, ":") {
			continue
		}
		m := fieldLineRE.FindStringSubmatch(ln)
		if m == nil {
			continue
		}
		role := fieldRole(m[1])
		if role == "" {
			continue
		}
		value := m[3]
		if g == nil || role == "flight" && g.num != "" || m[2] != "" && g.aside != "" && m[2] != g.aside {
			g = &group{}
			groups = append(groups, g)
		}
		if m[2] != "" {
			g.aside = m[2]
		}
		switch role {
		case "flight":
			g.num = flightNumberValue(value)
		case "dep", "arr":
			k := 0
			if role == "arr" {
				k = 1
			}
			// "JFK - John F. Kennedy International Airport": the code,
			// a dash, the name.
			value = strings.Replace(value, " - ", " ", 1)
			g.side[k].read(c, value, c.dates)
		}
	}
	var out []*Segment
	for _, g := range groups {
		dep, arr := &g.side[0], &g.side[1]
		if g.num == "" || dep.clock == nil || dep.day == nil {
			continue
		}
		if dep.place == nil || arr.place == nil {
			// Looked up spelled out, named as the mail names it.
			from, to := namedPair(spelledOut(cmp0(dep.place, dep.name)), spelledOut(cmp0(arr.place, arr.name)))
			if dep.place == nil && from != nil {
				dep.place = &Place{Name: dep.name, Code: from.Code}
			}
			if arr.place == nil && to != nil {
				arr.place = &Place{Name: arr.name, Code: to.Code}
			}
		}
		if dep.place == nil || arr.place == nil || dep.place.Code == "" || arr.place.Code == "" || dep.place.Code == arr.place.Code {
			continue
		}
		out = append(out, c.sidesSegment(dep.day, dep, arr, g.num))
	}
	return out
}

// spelledOut is an airport's name with the words booking systems shorten
// spelled out ("Bengaluru Intl Arpt": "Bengaluru International Airport").
func spelledOut(name string) string {
	f := strings.Fields(name)
	for i, w := range f {
		switch strings.TrimSuffix(w, ".") {
		case "Intl":
			f[i] = "International"
		case "Arpt", "Apt":
			f[i] = "Airport"
		}
	}
	return strings.Join(f, " ")
}

// cmp0 is a side's place's name, or the name it read.
func cmp0(p *Place, name string) string {
	if p != nil {
		return p.Name
	}
	return name
}

// flightNumberValue is a labelled flight's number: an airline's code and
// its digits ("LH 1234", "XYZ123"), or the digits alone when the label
// says it is the flight's number ("3434": an agency's invoice that names
// the airline apart).
func flightNumberValue(v string) string {
	v = strings.TrimSpace(v)
	if m := flightNumRE.FindStringSubmatch(v); m != nil && strings.HasPrefix(v, m[0]) {
		return m[1] + " " + strings.TrimLeft(m[2], "0")
	}
	if m := icaoFlightRE.FindStringSubmatch(v); m != nil && strings.HasPrefix(v, m[0]) {
		return m[1] + " " + strings.TrimLeft(m[2], "0")
	}
	if f := strings.Fields(v); len(f) == 1 && len(f[0]) <= 4 && strings.Trim(f[0], "0123456789") == "" {
		return f[0]
	}
	return ""
}
