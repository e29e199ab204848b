package extract

import (
	"mailnode/extract/lazyregexp"
	"strings"
	"unicode"
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
var fieldLineRE = lazyregexp.New(`^[ \t]*(?:[-*•][ \t]+)?([\p{L}][\p{L} ./'’]{1,40}?)[ \t]*(?:\(([^()\n]{1,30})\))?[ \t]*:[ \t]*(\S.{0,120}?)[ \t]*$`)

// Booking systems' e-tickets as agencies mail them (Galileo's "E-TICKET",
// Worldspan's, Amadeus' in the agency's language) are such lists too, with
// the day on a line of its own, each stop's city and its airport's line
// under it, and the departure's and arrival's clocks apart from them
// (issue 46, class 1):
//
//	FLIGHT: Berlin to Stuttgart (4U2015)
//	   Date:      April 08, 2013 (Mon)
//	   Departs:   08:20 hrs
//	   Arrives:   09:35 hrs
//	   Flight:    4U2015 (operated by Germanwings)
//	   From:      Berlin,  Germany
//	   Airport:   TXL - Tegel Airport, Terminal info not found
//	   To:        Stuttgart,  Germany
//	   Airport:   STR - Stuttgart Arpt, Terminal 3
//
// The labels are every language's words (column.date, field.airport,
// the stops' words and their short "from" and "to" alone: "Von:",
// "Nach:", "De :", "À :"). A date's line gives both stops' day unless a
// stop gives its own; an airport's line belongs to the stop labelled last;
// a label met again, or another flight's number, starts the next flight.

// A label of a flight's number holds a flight's word (flightWords,
// column.flight) and a number's (flightNumberWords), or is the flight's
// word alone.
var (
	flightWords       = wordSet("column.flight")
	airportLabelWords = wordSet("field.airport")
	flightNumberWords = map[string]bool{"number": true, "no": true, "no.": true, "nr": true, "nr.": true, "#": true, "nummer": true, "numéro": true, "número": true, "numero": true, "numer": true}
)

// fieldRole is what a label names: "flight", "dep", "arr", "date",
// "airport", or "".
func fieldRole(label string) string {
	// "Aéroport d'arrivée": the elided article is no word of its own.
	ws := strings.FieldsFunc(strings.ToLower(label), func(r rune) bool { return r == ' ' || r == '\'' || r == '’' })
	var flight, number, dep, arr, date, airport bool
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
		case dateColumnWords[w]:
			date = true
		case airportLabelWords[w]:
			airport = true
		}
	}
	// A stop's short word alone is its label ("From:", "Nach:", "À :").
	if len(ws) == 1 && !dep && !arr {
		dep, arr = depMarkers.has(ws[0]), arrMarkers.has(ws[0])
	}
	switch {
	case date && !flight && !dep && !arr && len(ws) <= 2:
		return "date"
	case airport && !flight && !dep && !arr:
		return "airport"

	case flight && !dep && !arr && (number || len(ws) == 1):
		return "flight"
	case dep && !arr && !flight:
		return "dep"
	case arr && !dep && !flight:
		return "arr"
	}
	return ""
}

// mayLabel reports whether the part of a line before its colon holds one of
// the words fieldRole gives a role by: the labelled line's expression runs
// only on those lines, now that every flight mail is read for such a list.
func mayLabel(head string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(head), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if flightWords[w] || depLabelWords.has(w) || arrLabelWords.has(w) || stationFromWords[w] || stationToWords[w] ||
			dateColumnWords[w] || airportLabelWords[w] || depMarkers.has(w) || arrMarkers.has(w) {
			return true
		}
	}
	return false
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
		num    string
		side   [2]tableSide
		aside  string
		day    *dateMatch      // a date's own line: both stops' day
		last   int             // the stop labelled last, whose airport's line comes next
		labels map[string]bool // the labels read, each once a flight
	}
	var groups []*group
	var g *group
	airline := "?" // the mail's airline's designator, once asked
	for ln := range strings.Lines(text) {
		ln = strings.TrimRight(ln, "\r\n")
		if len(ln) > 200 {
			continue
		}
		if i := strings.IndexByte(ln, ':'); i < 0 || i > 100 || !mayLabel(ln[:i]) {
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
		var num string
		if role == "flight" {
			num = flightNumberValue(value)
			// The digits alone in the airline's own mail ("Voo:1890"
			// from GOL) are its designator's.
			if num != "" && strings.Trim(num, "0123456789") == "" {
				if airline == "?" {
					airline = c.airlineDesignator(strings.Split(text, "\n"))
				}
				if airline != "" {
					num = airline + " " + strings.TrimLeft(num, "0")
				}
			}
		}
		label := strings.ToLower(strings.TrimSpace(m[1]))
		if g == nil || role == "flight" && g.num != "" && num != g.num || role != "flight" && role != "airport" && g.labels[label] ||
			m[2] != "" && g.aside != "" && m[2] != g.aside {
			g = &group{labels: map[string]bool{}}
			groups = append(groups, g)
		}
		g.labels[label] = true
		if m[2] != "" {
			g.aside = m[2]
		}
		switch role {
		case "flight":
			if g.num == "" {
				g.num = num
			}
		case "date":
			if d, ok := c.gdsLineDate(value); ok && g.day == nil {
				g.day = &d
			}
		case "dep", "arr", "airport":
			k := g.last
			switch role {
			case "dep":
				k = 0
			case "arr":
				k = 1
			}
			g.last = k
			// "JFK - John F. Kennedy International Airport": the code,
			// a dash, the name; "(SEA - Seattle-Tacoma Intl)" the same
			// in brackets.
			value = parenCodeDashRE.ReplaceAllString(strings.Replace(value, " - ", " ", 1), "($1) (")
			g.side[k].read(c, value, c.dates)
		}
	}
	var out []*Segment
	for _, g := range groups {
		dep, arr := &g.side[0], &g.side[1]
		if dep.day == nil {
			dep.day = g.day
		}
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
	// A booking system's head gives it in brackets after the route:
	// "Berlin to Stuttgart (4U2015)".
	if m := parenFlightRE.FindStringSubmatch(v); m != nil {
		return m[1] + " " + strings.TrimLeft(m[2], "0")
	}
	if m := flightNumRE.FindStringSubmatch(v); m != nil && strings.HasPrefix(v, m[0]) {
		return m[1] + " " + strings.TrimLeft(m[2], "0")
	}
	if m := icaoFlightRE.FindStringSubmatch(v); m != nil && strings.HasPrefix(v, m[0]) {
		return m[1] + " " + strings.TrimLeft(m[2], "0")
	}
	if f := strings.Fields(v); len(f) == 1 && len(f[0]) <= 4 && strings.Trim(f[0], "0123456789") == "" {
		return f[0]
	}
	// The airline by its name: "Alaska Airlines 0750".
	return gdsFlightOn(v)
}

var (
	// parenFlightRE is a flight's number in brackets.
	parenFlightRE = lazyregexp.New(`\(([A-Z][A-Z0-9]|[0-9][A-Z])\s?(\d{1,4})\)`)
	// parenCodeDashRE is an airport's code in brackets before its name.
	parenCodeDashRE = lazyregexp.New(`\(([A-Z]{3})\s+[-–]\s+`)
)
