package extract

import (
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// A rail booking that names its journey by its stops' labels and its day
// by the journey's label, and prints no clock: a national operator's
// e-ticket for a train the traveller may take at any hour of the day
// ("Van : ZOTTEGEM" / "Naar : ANTWERPEN-ZUID" / "Heen: 13/02/2026 Terug:
// 13/02/2026", "Origen: …" / "Destino: …" / "Ida: …"). Each day is a leg
// whose departure is a day without a clock (Time.DateOnly), the return's
// the other way; a leg with a clock is any other reader's.

// journeyDayRE is a journey's label (journey.outward, journey.return,
// journey.date in extract/lang) and its colon, at a line's start or after
// a space, a comma or a bar; the group says which.
var journeyDayRE = lazyregexp.New(`(?i)(?:^|[\s,;|])(?:(` + markerAlt("journey.outward") + `)|(` + markerAlt("journey.return") + `)|(` +
	markerAlt("journey.date") + `))[ \t]*:[ \t]*`)

// journeyWords gate journeyDayRE: a line holds one of them.
var journeyWords = func() []string {
	var out []string
	for _, c := range []string{"journey.outward", "journey.return", "journey.date"} {
		for _, e := range lang.Entries(c) {
			out = append(out, strings.ToLower(e))
		}
	}
	return out
}()

// journeySet finds journeyWords as whole words in a text in lower case.
var journeySet = words.NewWholeSet(journeyWords)

// dateOnlyShaped reports whether a text whose lower case is l is such a
// booking (dateOnlyLegs), for a mail whose words name no train ("Uw NMBS
// e-ticket": a flight's word). The words first, in one pass; then a
// journey's label before its colon; then the lines.
// Or a departure's label of four letters or more ("Departure",
// "Abfahrt", "Odjezd"), which departureDay reads.
func (c *msgContext) dateOnlyShaped(l, text string) bool {
	return (journeySet.In(l) && journeyDayRE.MatchString(text) || departureLabelSet.In(l)) && len(c.dateOnlyLegs(text, c.ref)) > 0
}

// departureLabelSet finds the departure's labels (departure in
// extract/lang) of four letters or more as whole words in a text in
// lower case: "ab" and "dep" are too common a word to look further for.
var departureLabelSet = words.NewWholeSet(func() []string {
	var out []string
	for _, e := range lang.Entries("departure") {
		if e = strings.ToLower(strings.TrimSuffix(e, `\.?`)); utf8.RuneCountInString(e) >= 4 {
			out = append(out, e)
		}
	}
	return out
}())

// dateOnlyLegs are the legs of a text whose stops are labelled once each
// (fromStationRE, toStationRE), on lines of their own within four lines
// of each other, named with no digit, and whose days follow a journey's
// label within six lines after them; nil when a line among them holds a
// clock, or when a day is not read.
func (c *msgContext) dateOnlyLegs(text string, ref time.Time) []*Segment {
	lines := strings.Split(text, "\n")
	from, to, fromAt, toAt := "", "", -1, -1
	whole := false // the route whole after the departure's label
	for i, ln := range lines {
		if len(ln) > 200 {
			continue
		}
		if a, b := fromRoute(ln); a != "" {
			// "From: Prague to Vienna": both stops on one line.
			if fromAt >= 0 || toAt >= 0 {
				return nil
			}
			from, to, fromAt, toAt, whole = a, b, i, i, true
		} else if m := fromStationRE.FindStringSubmatch(ln); m != nil {
			if fromAt >= 0 {
				return nil // two journeys' stops: not this layout
			}
			from, fromAt = m[1], i
		} else if m := toStationRE.FindStringSubmatch(ln); m != nil {
			if toAt >= 0 {
				return nil
			}
			to, toAt = m[1], i
		}
	}
	if fromAt < 0 || toAt < 0 || toAt-fromAt < 1 && !whole || toAt-fromAt > 4 || hasDigit(from) || hasDigit(to) ||
		strings.ContainsAny(from+to, "@<>") {
		return nil
	}
	from, to = stationName(strings.TrimSpace(from)), stationName(strings.TrimSpace(to))
	// A coach's ticket is read so too (the legs' reader types it a
	// bus's): a mail that speaks of a bus, or its operator's.
	if from == "" || to == "" || strings.EqualFold(from, to) || !railEvidence(lower(text), from, to) && !c.busMail(lines) {
		return nil
	}
	var out []*Segment
	timed := false        // a departure's clock read: its leg is the only one
	var clock *clockMatch // a clock under the time's label (timeLabelClock)
	for i := fromAt; i < len(lines) && i <= toAt+6; i++ {
		ln := lines[i]
		if hasClockShape(ln, ":.h") {
			if cs := findClocks(ln); len(cs) > 0 {
				// A clock: a leg the other readers read, or none; unless
				// it is the departure's, after its label with its day,
				// and the ticket prints no arrival ("From: Baler" / "To:
				// Cubao" / "Departure: 21/05/2014 13:00": a coach's
				// ticket or a reserved train's names the hour it leaves
				// and often no other).
				d, cl, ok := c.departureDayClock(ln, cs, ref)
				if ok && !timed && len(out) == 0 && i > toAt && clock == nil {
					out, timed = append(out, c.dayClockLeg(from, to, d, cl)), true
					continue
				}
				// Or the time's own label and the clock alone, for the
				// day a journey's label gives ("Fecha de viaje:
				// 29/07/2027" / "Hora: 20:15").
				if cl, ok := timeLabelClock(ln, cs); ok && !timed && clock == nil && i > toAt {
					clock = &cl
					continue
				}
				return nil
			}
		}
		if i <= toAt {
			continue
		}
		if timed {
			if _, ok := c.departureDay(ln, ref); ok || containsAny(lower(ln), journeyWords...) && journeyDayRE.MatchString(ln) {
				return nil // another day besides: not one leg
			}
			continue
		}
		if !containsAny(lower(ln), journeyWords...) {
			// The day after the departure's own label ("Departure: 10
			// May 2026", "Abfahrt: 10.05.2026"), the outward's.
			if d, ok := c.departureDay(ln, ref); ok {
				out = append(out, c.dayOnlyLeg(from, to, d))
			}
			continue
		}
		for _, m := range journeyDayRE.FindAllStringSubmatchIndex(ln, 4) {
			ds := c.dates(ln[m[1]:])
			if len(ds) == 0 || ds[0].start != 0 {
				continue
			}
			d := ds[0].withYear(ref)
			if d.y == unknownYear {
				continue
			}
			a, b := from, to
			if m[4] >= 0 { // the return
				a, b = to, from
			}
			out = append(out, c.dayOnlyLeg(a, b, d))
		}
	}
	if clock != nil {
		// The time's clock is the one day's departure; with two days
		// (a return) nothing says whose it is.
		if len(out) != 1 || timed {
			return nil
		}
		dep := out[0].Depart
		d := dateMatch{y: dep.Year(), m: int(dep.Month()), d: dep.Day(), hasYear: true}
		out[0] = c.dayClockLeg(out[0].From.Name, out[0].To.Name, d, *clock)
	}
	return out
}

// timeLabelClock reads a line that is the time's label (time.noun:
// "Time", "Hora", "Uhrzeit"), its colon and one clock, nothing after it
// but the word it is written with.
func timeLabelClock(ln string, clocks []clockMatch) (clockMatch, bool) {
	label, v, ok := strings.Cut(ln, ":")
	if !ok || len(clocks) != 1 || len(ln) > 200 || !timeNouns[strings.ToLower(strings.Trim(label, " \t*•"))] {
		return clockMatch{}, false
	}
	cl := clocks[0]
	if strings.TrimSpace(ln[len(label)+1:cl.start]) != "" || !afterClockOnly(ln[cl.end:]) || v == "" {
		return clockMatch{}, false
	}
	return cl, true
}

// departureDay reads a line that is a departure's label, its colon and a
// day with its year ("Departure: 10 May 2026", "Odjezd: 5. 4. 2026").
func (c *msgContext) departureDay(ln string, ref time.Time) (dateMatch, bool) {
	label, v, ok := strings.Cut(ln, ":")
	if !ok {
		return dateMatch{}, false
	}
	if rest, ok := depLabelWords.starts(label); !ok || strings.TrimSpace(rest) != "" {
		return dateMatch{}, false
	}
	v = strings.TrimLeft(v, " \t")
	ds := c.dates(v)
	if len(ds) == 0 || ds[0].start != 0 || strings.TrimSpace(v[ds[0].end:]) != "" {
		return dateMatch{}, false
	}
	d := ds[0].withYear(ref)
	return d, d.y != unknownYear
}

// departureDayClock reads a line that is a departure's label, its colon,
// a day with its year (its weekday before it) and the line's one clock
// after it, nothing between them but a word for "at" and nothing after
// the clock but the word it is written with (afterClockOnly: "Departure:
// Wednesday, May 21, 2014 1:00 PM", "Abfahrt: 21.05.2014 um 13:00 Uhr").
func (c *msgContext) departureDayClock(ln string, clocks []clockMatch, ref time.Time) (dateMatch, clockMatch, bool) {
	label, _, ok := strings.Cut(ln, ":")
	if !ok || len(clocks) != 1 || len(ln) > 200 {
		return dateMatch{}, clockMatch{}, false
	}
	if rest, ok := depLabelWords.starts(label); !ok || strings.TrimSpace(rest) != "" {
		return dateMatch{}, clockMatch{}, false
	}
	v := len(label) + 1
	ds := c.dates(ln[v:])
	cl := clocks[0]
	if len(ds) != 1 || !onlyWeekday(ln[v:v+ds[0].start]) || v+ds[0].end > cl.start ||
		!clockWordOnly(ln[v+ds[0].end:cl.start]) || !afterClockOnly(ln[cl.end:]) {
		return dateMatch{}, clockMatch{}, false
	}
	d := ds[0].withYear(ref)
	return d, cl, d.y != unknownYear
}

// afterClockOnly reports whether s, after a clock, is blank or the word
// a clock is written with ("Uhr", "h", "hrs", "Hrs.").
func afterClockOnly(s string) bool {
	switch strings.ToLower(strings.Trim(s, " \t.,")) {
	case "", "uhr", "h", "hrs", "hours":
		return true
	}
	return false
}

// dayClockLeg is a train's leg from a to b leaving on day d at clock cl,
// in the stops' zone, with no arrival.
func (c *msgContext) dayClockLeg(a, b string, d dateMatch, cl clockMatch) *Segment {
	return c.departLeg(a, b, wallTime{y: d.y, mo: d.m, d: d.d, h: cl.h, mi: cl.m})
}

// departLeg is a train's leg from a to b leaving at w in the stops'
// zone, with no arrival.
func (c *msgContext) departLeg(a, b string, w wallTime) *Segment {
	fz, _ := c.legZones(a, b, w, w)
	return &Segment{Type: KindTrain, Status: StatusConfirmed, From: &Place{Name: a}, To: &Place{Name: b}, Depart: resolve(w, fz, c.dateLoc)}
}

// dayOnlyLeg is a train's leg from a to b on day d, its departure the
// day alone in the stops' zone.
func (c *msgContext) dayOnlyLeg(a, b string, d dateMatch) *Segment {
	return c.departLeg(a, b, wallTime{y: d.y, mo: d.m, d: d.d, dateOnly: true})
}

// railEvidence reports whether a text in lower case l, whose stops are a
// and b, shows a train's booking: a word of trains that neither a
// journey's label nor a coach's ticket shares ("Zugbindung", "trains",
// "tren"; "Hinfahrt" heads a car-share's day too), a station's word in a
// stop's name ("Freiburg Hbf", "Uppsala C"), or a class by its number
// ("2e klas", "2. Klasse"). Labelled ends and a travel date's label alone
// are also an insurer's policy's, a bank's standing order's, a removal
// firm's quote's or a car-share's offer's.
func railEvidence(l, a, b string) bool {
	return countTravelWords(l, beyondJourney)[1] > 0 || stationNamed(a) || stationNamed(b) || numberedClass.In(l)
}

// beyondJourney are the words of trains railEvidence does not count: the
// journey's labels and the words trains share with buses.
var beyondJourney = func() map[string]bool {
	m := maps.Clone(busSharedWords)
	for _, w := range journeyWords {
		m[w] = true
	}
	return m
}()

// numberedClass finds a class named by its number (ticket.class entries
// with a digit: "2e klas", "2nd class", "2. Klasse", "1re classe"), which
// a rail ticket prints and a flight's does not.
var numberedClass = words.NewWholeSet(slices.DeleteFunc(lang.Entries("ticket.class"), func(e string) bool { return !hasDigit(e) }))
