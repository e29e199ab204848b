package extract

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-ical"

	"mailnode/extract/injection"
	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// decodeCalendar decodes an iCalendar source. go-ical panics on some
// malformed content lines (a parameter cut short: "0;0="); a hostile
// attachment yields an error, not a crash of whoever reads the mail.
func decodeCalendar(src string) (cal *ical.Calendar, err error) {
	defer func() {
		if v := recover(); v != nil {
			cal, err = nil, fmt.Errorf("malformed calendar: %v", v)
		}
	}()
	return ical.NewDecoder(strings.NewReader(src)).Decode()
}

// pastedCalendar is the iCalendar source a plain-text body is, as a
// travel tool's calendar entry pasted or sent as text/plain: a body that
// opens with BEGIN:VCALENDAR, less the blank lines a client's line ends
// doubled (RFC 5545 has no empty content line; a folded line's
// continuation must follow it directly), its open components closed when
// the text is cut short, so that the events it holds so far are read.
func pastedCalendar(text string) (string, bool) {
	t := strings.TrimLeft(text, " \t\r\n")
	if len(t) < len("BEGIN:VCALENDAR") || !strings.EqualFold(t[:len("BEGIN:VCALENDAR")], "BEGIN:VCALENDAR") {
		return "", false
	}
	var b strings.Builder
	var open []string
	for ln := range strings.Lines(t) {
		ln = strings.TrimRight(ln, "\r\n")
		if strings.TrimSpace(ln) == "" {
			continue
		}
		if name, ok := cutFold(ln, "BEGIN:"); ok {
			open = append(open, strings.TrimSpace(name))
		} else if _, ok := cutFold(ln, "END:"); ok && len(open) > 0 {
			open = open[:len(open)-1]
		}
		b.WriteString(ln)
		b.WriteString("\r\n")
	}
	for i := len(open) - 1; i >= 0; i-- {
		b.WriteString("END:" + open[i] + "\r\n")
	}
	return b.String(), true
}

// cutFold is strings.CutPrefix with the prefix in any case.
func cutFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// calendarFacts reads travel from an iCalendar attachment (RFC 5545):
// each VEVENT that looks like a flight, train or hotel stay becomes a
// segment, its start and end from DTSTART and DTEND (with their TZID), its
// places and numbers from SUMMARY, LOCATION and DESCRIPTION. Events that
// list several legs in their description (rail operators do) are read leg
// by leg with the text rules.
func (c *msgContext) calendarFacts(src string) []Fact {
	cal, err := decodeCalendar(src)
	if err != nil {
		return nil
	}
	c.icalZones = icalZones(cal)
	defer func() { c.icalZones = nil }()
	var out []Fact
	for _, ev := range cal.Events() {
		if len(out) >= maxFacts {
			break
		}
		text := func(name string) string {
			p := ev.Props.Get(name)
			if p == nil {
				return ""
			}
			return icalText(p.Value)
		}
		summary, desc, location := text(ical.PropSummary), text(ical.PropDescription), text(ical.PropLocation)
		status := StatusConfirmed
		if s := strings.ToUpper(text(ical.PropStatus)); s == "CANCELLED" {
			status = StatusCancelled
		}
		all := summary + "\n" + location + "\n" + desc
		if injection.Addressed(all) {
			continue // written for a machine reader: no facts from it
		}
		// The reservation the event was made from, as markup: read as a
		// mail's JSON-LD is, the event's own STATUS over the markup's.
		if items := embeddedItems(ev.Component); len(items) > 0 {
			if fs := c.schemaFacts(items, FromCalendar); len(fs) > 0 {
				for _, f := range fs {
					if status == StatusCancelled && f.Segment != nil {
						f.Segment.Status = StatusCancelled
					}
				}
				out = append(out, fs...)
				continue
			}
		}

		start := c.icalTime(ev.Props.Get(ical.PropDateTimeStart))
		end := c.icalTime(ev.Props.Get(ical.PropDateTimeEnd))

		// Several legs in the description: read them as text.
		var day *dateMatch
		if start != nil {
			day = &dateMatch{y: start.Year(), m: int(start.Month()), d: start.Day(), hasYear: true}
		}
		// Or one leg that starts the event's journey and ends before it
		// does: the description's first leg, the rest unread (cut short,
		// as a pasted calendar is), which names its train and stations
		// where the event's summary names only the journey's ends.
		if legs := c.textLegs(desc, c.ref, day); len(legs) > 1 || len(legs) == 1 && firstLegOf(legs[0], start, end) {
			overnight(legs, end)
			// A journey whose legs name their trains, but one: that one
			// is a walk or a transfer between stations ("Bochum -
			// Musterweg 1 ➞ Bochum Hbf", the address to the station, in
			// DB's calendar), no train.
			if slices.ContainsFunc(legs, func(l *Segment) bool { return l.Number != "" }) {
				legs = slices.DeleteFunc(legs, func(l *Segment) bool { return l.Number == "" })
			}
			ref := c.bookingRef(all)
			for _, l := range legs {
				l.Reservation, l.Status = ref, status
				out = append(out, Fact{Kind: l.Type, From: FromCalendar, Segment: l})
			}
			continue
		}

		kind := classifyTravel(all)
		if kind == "" || !c.booking(kind, all) {
			continue
		}
		seg := &Segment{Type: kind, Status: status, Reservation: c.bookingRef(all)}
		switch kind {
		case KindHotel:
			// An event about hotels is not a stay ("Hotel & Hospitality
			// Expo", three days, "visitor check-in"): a stay names its
			// booking.
			if seg.Reservation == "" {
				continue
			}
			seg.Hotel = strings.TrimSpace(strings.TrimPrefix(summary, "Hotel:"))
			seg.Address = location
			seg.CheckIn, seg.CheckOut = start, end
		default:
			seg.From, seg.To = routeOf(kind, summary, desc)
			if kind == KindFlight {
				if m := flightNumRE.FindStringSubmatch(all); m != nil {
					seg.Number = m[1] + " " + strings.TrimLeft(m[2], "0")
				}
			} else if m := trainNumRE.FindStringSubmatch(all); m != nil {
				seg.Number = normaliseTrain(m[0])
			} else if m := trainLabel(summary); m != nil {
				seg.Number = m[1] // "Train 5186 from Nîmes Gare to Lyon Part-Dieu"
			} else if m := trainLabel(desc); m != nil {
				seg.Number = m[1] // a description's label: "Train:  LH 1234" (an airline's rail leg)
			}
			seg.Depart, seg.Arrive = c.placeZone(start, seg.From), c.placeZone(end, seg.To)
		}
		if seg.Start() == nil {
			continue
		}
		out = append(out, Fact{Kind: kind, From: FromCalendar, Segment: seg})
	}
	return out
}

// firstLegOf reports whether leg, read from an event's description,
// departs when the event starts and arrives before it ends, with its
// train's number.
func firstLegOf(leg *Segment, start, end *Time) bool {
	if start == nil || end == nil || leg.Depart == nil || leg.Arrive == nil || leg.Number == "" {
		return false
	}
	return leg.Depart.Equal(start.Time) && leg.Arrive.Before(end.Time)
}

// overnight dates the legs of an event's description that pass midnight.
// The description gives one day ("Data: 26.07.22") and then the legs'
// clocks, which run on past it ("prz. 22:56 Nürnberg Hbf", "odj. 01:41
// Nürnberg Hbf (NJ 40490)"), and textLegs reads every clock on that day.
// A clock earlier than the one before it is on the next day, when the
// event's end agrees: DTEND is the last arrival (or departure) so dated
// (DB's calendar: 2022-07-27 08:31). Without an end, or with one the rolled
// legs do not reach exactly, the legs stay as read: a backward clock may
// also be a misread row, and a wrong day is worse than the stated one.
func overnight(legs []*Segment, end *Time) {
	if end == nil {
		return
	}
	var times []**Time
	for _, l := range legs {
		if l.Depart == nil {
			return
		}
		times = append(times, &l.Depart)
		if l.Arrive != nil {
			times = append(times, &l.Arrive)
		}
	}
	rolled := make([]*Time, len(times))
	days := 0
	var prev time.Time
	for i, t := range times {
		at := (*t).AddDate(0, 0, days)
		if i > 0 && at.Before(prev) {
			days++
			at = (*t).AddDate(0, 0, days)
			if at.Before(prev) || days > 2 {
				return // not a clock past midnight: the legs are not in order
			}
		}
		r := **t
		r.Time, prev = at, at
		rolled[i] = &r
	}
	if days == 0 || !prev.Equal(end.Time) {
		return
	}
	for i, t := range times {
		*t = rolled[i]
	}
}

// embeddedItems are the schema.org items an event carries in a property
// of its own (KDE Itinerary writes X-KDE-KITINERARY-RESERVATION): any X-
// property whose text is JSON with a type, read as a mail's JSON-LD.
func embeddedItems(comp *ical.Component) []node {
	var out []node
	for name, props := range comp.Props {
		if !strings.HasPrefix(name, "X-") {
			continue
		}
		for i := range props {
			v := props[i].Value
			if len(v) > maxScriptBytes || !strings.Contains(v, "@type") {
				continue
			}
			if t := strings.TrimSpace(icalText(v)); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
				out = append(out, parseJSONLD([]byte(t))...)
			}
		}
	}
	if len(out) > maxItems {
		out = out[:maxItems]
	}
	return out
}

// icalText undoes iCalendar's escapes of a text value (RFC 5545 3.3.11)
// without splitting it at its commas: writers leave commas unescaped in
// descriptions ("Flight LH 400, Frankfurt to New York") and escape some of
// a JSON value's commas and not others (KDE Itinerary), and go-ical's Text
// reads a text as a list and keeps the part before the first. An escape
// iCalendar does not define is kept as written (JSON's own \").
func icalText(v string) string {
	if !strings.Contains(v, "\\") {
		return v
	}
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 == len(v) {
			b.WriteByte(c)
			continue
		}
		switch n := v[i+1]; n {
		case ',', ';', '\\':
			b.WriteByte(n)
			i++
		case 'n', 'N':
			b.WriteByte('\n')
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// bookingWords are the words that make a calendar event a booking of its
// kind, where travelWords only make it look like one: a meeting "in Room
// Main" has a room, not a hotel stay.
var bookingWords = map[string][]string{
	KindFlight: {"flight*", "flug*", "vol", "vuelo*", "volo", "airline*", "boarding*", "airport*", "flughafen", "aéroport", "aeropuerto", "aeroporto", "e-ticket"},
	KindTrain:  {"train*", "zug", "bahn*", "railway*", "rail", "sncf", "tgv", "ice", "intercity", "eurostar", "thalys", "trenitalia", "renfe", "öbb", "sbb", "treno", "tren", "vlak*", "hbf", "hauptbahnhof", "gleis", "platform"},
	KindHotel:  {"hotel*", "hostel*", "check-in", "check-out", "checkout", "accommodation", "unterkunft", "hébergement", "lodging", "booking.com", "guesthouse", "b&b", "airbnb", "apartment*"},
}

// booking reports whether an event that reads like kind is a travel
// booking: it names a reservation, or a word of its kind's own (an
// airline's, a railway's, a hotel's), not only words any invitation has.
func (c *msgContext) booking(kind, text string) bool {
	if c.bookingRef(text) != "" {
		return true
	}
	l := strings.ToLower(text)
	for _, w := range bookingWords[kind] {
		if words.Has(l, w) {
			return true
		}
	}
	return false
}

func (c *msgContext) icalTime(p *ical.Prop) *Time {
	if p == nil {
		return nil
	}
	if p.ValueType() == ical.ValueDate {
		t, err := p.DateTime(time.UTC)
		if err != nil {
			return nil
		}
		return &Time{Time: time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, c.dateLoc), DateOnly: true}
	}
	t, err := icalDateTime(p)
	if tz := c.icalZones[p.Params.Get(ical.ParamTimezoneID)]; err != nil && tz != nil {
		// A zone the calendar defines itself (icalzone.go).
		local, perr := time.Parse("20060102T150405", p.Value)
		if off, ok := zoneOffset(tz, local); perr == nil && ok {
			return &Time{Time: time.Date(local.Year(), local.Month(), local.Day(), local.Hour(), local.Minute(), local.Second(), 0, time.FixedZone(p.Params.Get(ical.ParamTimezoneID), off))}
		}
	}
	if err != nil {
		// A floating time (no Z, no TZID) is local to wherever it happens.
		t, err = p.DateTime(time.UTC)
		if err != nil {
			return nil
		}
		return &Time{Time: time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, c.dateLoc)}
	}
	zone := p.Params.Get(ical.ParamTimezoneID)
	if zone != "" {
		if places.Location(zone) == nil {
			zone = ""
		}
	}
	return &Time{Time: t, Zone: zone}
}

// icalDateTime is p.DateTime(nil), a local time in its TZID's zone taken
// from places.Location, which loads each zone once: go-ical loads it
// anew for every time, reading the zone database's file each time, a
// tenth of a calendar mail's extraction.
func icalDateTime(p *ical.Prop) (time.Time, error) {
	const local = "20060102T150405" // go-ical's local date and time
	tzid := p.Params.Get(ical.ParamTimezoneID)
	vt := p.ValueType()
	if tzid == "" || len(p.Value) != len(local) || vt != ical.ValueDefault && vt != ical.ValueDateTime {
		return p.DateTime(nil)
	}
	loc := places.Location(tzid)
	if loc == nil {
		return p.DateTime(nil) // go-ical's error for a zone nobody knows
	}
	return time.ParseInLocation(local, p.Value, loc)
}

// placeZone shows t in the zone of an airport code when the calendar gave
// an instant (UTC) rather than a zone.
func (c *msgContext) placeZone(t *Time, p *Place) *Time {
	if t == nil || t.Zone != "" || p == nil || p.Code == "" {
		return t
	}
	if name, loc := places.Zone(p.Code); loc != nil {
		return &Time{Time: t.In(loc), Zone: name, DateOnly: t.DateOnly}
	}
	return t
}

var (
	arrowRE   = lazyregexp.New(`^(.+?)\s*(?:->|→|–>|=>| - | – | to | nach | naar | til | till | do | a | à )\s*(.+)$`)
	parenCode = lazyregexp.New(`\(([A-Z]{3})\)`)
	// Labelled lines of a description: "Von: MUNICH DE MUNICH
	// INTERNATIONAL", "At: Newark Intl Apt (EWR)".
	fromLineRE   = lazyregexp.New(`(?im)^[ \t]*(?:from|von|de|départ|depart|departure|abflug|odjezd|wylot)[ \t]*:[ \t]*(.+)$`)
	toLineRE     = lazyregexp.New(`(?im)^[ \t]*(?:to|at|nach|à|a|arrival|arrivée|ankunft|příjezd|przylot)[ \t]*:[ \t]*(.+)$`)
	tripNounRE   = lazyregexp.New(`(?i)^` + tripNoun + `$`)
	tripPrefixRE = lazyregexp.New(`(?i)^` + tripNoun + `\s+`)
	// A reservation system's "CITY CC AIRPORT" form: the city before the
	// ISO country code.
	cityCountryRE = lazyregexp.New(`^(.+?)\s+[A-Z]{2}(?:\s|$)`)
)

// tripNoun is a summary's name for the trip itself: "Your flight", "Flug".
const tripNoun = `(?:(?:your|my|ihr|ihre|mein|meine|votre|tu|su)\s+)?(?:flight|flug|vol|vuelo|volo|lot|let|vlucht|train|zug|bahnfahrt|fahrt|trip|reise|journey|ride|voyage|viaje|viaggio|cesta|podróż)`

// routeOf finds where a trip goes from a calendar summary ("Frankfurt ->
// Paris", "Your train from ZMB to FRA"), else from the description's
// labelled lines or "(ZMB)" codes. A summary that names only the
// destination ("Flug nach TOULOUSE FR") gives no origin: its first half is
// the kind of trip, not a place.
func routeOf(kind, summary, desc string) (from, to *Place) {
	s := strings.TrimSpace(summary)
	if i, n := summaryFrom(s); i >= 0 {
		s = s[i+n:] // "Ihr Zug von Linz Hbf nach …": the route after its word
	}
	if m := arrowRE.FindStringSubmatch(s); m != nil {
		// "Flight Berlin -> Paris" starts with the kind of trip.
		head := tripPrefixRE.ReplaceAllString(strings.TrimSpace(m[1]), "")
		if !tripNounRE.MatchString(head) {
			from = placeFromText(kind, head)
		}
		to = placeFromText(kind, m[2])
	}
	from = betterPlace(from, kind, fromLineRE.FindStringSubmatch(desc))
	to = betterPlace(to, kind, toLineRE.FindStringSubmatch(desc))
	codes := routeCodes(desc)
	if len(codes) >= 2 {
		if from == nil || from.Code == "" {
			from = mergePlace(from, codes[0][1])
		}
		if to == nil || to.Code == "" {
			to = mergePlace(to, codes[len(codes)-1][1])
		}
	}
	return from, to
}

// summaryFromWords are the words for "from" (departure.marker) of three
// letters or more: "de", "da" and "z" are also parts of stations' names
// ("Paris Gare de Lyon").
var summaryFromWords = func() []string {
	var out []string
	for _, w := range lang.Entries("departure.marker") {
		if utf8.RuneCountInString(w) >= 3 {
			out = append(out, " "+w+" ")
		}
	}
	return out
}()

// summaryFrom is where the first word of summaryFromWords stands in s,
// and its length; -1 without one.
func summaryFrom(s string) (int, int) {
	l := strings.ToLower(s)
	if len(l) != len(s) {
		return -1, 0 // a letter whose lower case is of another length: no offsets to share
	}
	at, n := -1, 0
	for _, w := range summaryFromWords {
		if i := strings.Index(l, w); i >= 0 && (at < 0 || i < at) {
			at, n = i, len(w)
		}
	}
	return at, n
}

// routeCodes are the airports' codes in parentheses a description
// gives: the codes of its first line that has two (the route line,
// "da Roma Fiumicino (FCO) a Catania (CTA)"), else all of them but a
// label's aside ("Codice prenotazione (PNR): QF3R8T").
func routeCodes(desc string) [][]string {
	var all [][]string
	for ln := range strings.Lines(desc) {
		var codes [][]string
		for _, m := range parenCode.FindAllStringSubmatchIndex(ln, -1) {
			if rest := strings.TrimLeft(ln[m[1]:], " \t"); strings.HasPrefix(rest, ":") {
				continue
			}
			codes = append(codes, []string{ln[m[0]:m[1]], ln[m[2]:m[3]]})
		}
		if len(codes) >= 2 {
			return codes
		}
		all = append(all, codes...)
	}
	return all
}

// betterPlace takes a description's labelled place over the summary's
// when it adds a code, or a name to the same code ("ZMB" in the summary,
// "Hamburg Hbf (ZMB)" below).
func betterPlace(p *Place, kind string, line []string) *Place {
	if line == nil {
		return p
	}
	q := placeFromText(kind, line[1])
	switch {
	case q == nil:
		return p
	case p == nil, p.Code == "" && q.Code != "", p.Name == "" && q.Code == p.Code:
		return q
	}
	return p
}

func mergePlace(p *Place, code string) *Place {
	if p == nil {
		return &Place{Code: code}
	}
	return &Place{Name: p.Name, Code: code}
}

// placeFromText makes a place from a name that may be or contain an IATA
// code; a flight's "TOULOUSE FR" or "MUNICH DE MUNICH INTERNATIONAL" is
// looked up by its city.
func placeFromText(kind, s string) *Place {
	s = strings.TrimSpace(strings.Trim(s, ".,;:"))
	if s == "" {
		return nil
	}
	if m := parenCode.FindStringSubmatch(s); m != nil {
		return &Place{Name: strings.TrimSpace(strings.Replace(s, m[0], "", 1)), Code: m[1]}
	}
	if len(s) == 3 && strings.ToUpper(s) == s && places.Known(s) {
		return &Place{Code: s}
	}
	if kind == KindFlight {
		name := s
		if m := cityCountryRE.FindStringSubmatch(s); m != nil {
			name = m[1]
		}
		if code, ok := places.AirportByName(name); ok {
			return &Place{Name: name, Code: code}
		}
	}
	return &Place{Name: s}
}
