package extract

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// Stations' names: a stop line's name without its platform, clock word
// or duration; labelled stations; whether a name is a station's (a
// station word, a town the places data knows); the zone of a station's
// clock.

// knownTown reports whether a station's name starts with a town the
// places data knows ("Birmingham New Street").
func knownTown(station string) bool {
	_, loc := places.CityZone(station)
	return loc != nil
}

// stationWords are every language's words that make a name a station's
// ("Ulm Hbf", "Gare de Lyon", "Kraków Główny": station.word), lower case.
var stationWords = wordSet("station.word")

// stationNamed reports whether a name holds a word of stationWords, a
// letter alone only at its end ("Oslo S", "Stockholm C"): a station in a
// town the places data does not know.
func stationNamed(name string) bool {
	f := strings.Fields(strings.ToLower(name))
	for i, w := range f {
		if stationWords[w] && (len(w) > 1 || i == len(f)-1 && i > 0) {
			return true
		}
	}
	// Entries of two words ("hl. n.", "gare routière").
	for i := 0; i+1 < len(f); i++ {
		if stationWords[f[i]+" "+f[i+1]] {
			return true
		}
	}
	return false
}

// platformWords are the words for a platform, as alternatives.
const platformWords = `gleis|bahnsteig|platform|track|voie|spor|vía|via|binario|kolej|perron|peron|quai`

// bayWords are the words for a bus's bay or gate, a platform only before
// its number ("Steig 5", "Stance 52", "(dársena 12)": "Herne Bay" is a
// town), in the languages of extract/lang: "quai 4" (a platform's word
// too), "stallo 18", "stanowisko 7", "stání 5", "cais 12", "stade 3",
// "plattform 9", "laituri 12", "läge 4", "stand 6", "stanoviště 9", a
// stop's number ("(Stop 3)").
const bayWords = `steig|bay|stance|stand|stop|gate|dársena|darsena|andén|anden|quai|stallo|stanowisko|stanoviště|stanoviste|stání|stani|cais|plataforma|sala|stade|plattform|laituri|läge`

// Stations named by labels of their own (station.from and station.to in
// extract/lang/data): "Origen: Madrid-Puerta de Atocha", after a bullet
// as Japanese mail sets one before each line ("■乗車駅：東京 10:20発").
var (
	fromStationRE = stationLabelRE("station.from")
	toStationRE   = stationLabelRE("station.to")
)

func stationLabelRE(category string) *lazyregexp.Regexp {
	return lazyregexp.New(`(?i)^[\s*•■□◆◇●○・]*(?:` + strings.Join(longestFirst(lang.Entries(category)), "|") + `)\s*:\s*(\S.*)$`)
}

// stationZone is placeZoneHint for a station at the wall time w. A train
// does not cross an ocean either way: a town whose name is also one on
// another continent ("York", whose airport is in the United States) is in
// the sender's country's zone when that is four hours away or more (New
// York is four from London in the weeks their summer times differ:
// "Salisbury" on 23 March).
func (c *msgContext) stationZone(name string, w wallTime) zoneHint {
	z := c.placeZoneHint(name, "")
	home := c.countryZone("")
	if z.loc == nil || home.loc == nil || z.loc == home.loc {
		return z
	}
	t := time.Date(w.y, time.Month(w.mo), w.d, 12, 0, 0, 0, time.UTC)
	_, a := t.In(z.loc).Zone()
	_, b := t.In(home.loc).Zone()
	if d := a - b; d >= 4*3600 || d <= -4*3600 {
		return home
	}
	return z
}

// legZones are the zones of a ground leg's two stops, departing on the
// wall time dw and arriving on aw. A train or a bus crosses no ocean, so a
// stop that no data places is in the zone of the other stop that one
// places, before anything the sender says ("Leer (Ostfriesl) ZOB" to
// "Groningen": Groningen's zone, not the zone of a sender's server).
func (c *msgContext) legZones(from, to string, dw, aw wallTime) (zoneHint, zoneHint) {
	fz, tz := c.stationZone(from, dw), c.stationZone(to, aw)
	fp, tp := c.placedZone(from), c.placedZone(to)
	switch {
	case fp.loc == nil && tp.loc != nil:
		fz = tz
	case tp.loc == nil && fp.loc != nil:
		tz = fz
	}
	return fz, tz
}

// placedZone is the zone of a place by its own name (a city's, an IATA
// code in it), never by a country: zero when no data places it.
func (c *msgContext) placedZone(name string) zoneHint {
	if name == "" {
		return zoneHint{}
	}
	// A town with its US state or Canadian province ("Emeryville,
	// California", "Toronto Union, ON"): the town in that region, never
	// the world's towns of its name nor an airport of its station's code
	// ("Hudson, NY (HUD)"); none when the region keeps several zones and
	// nothing places the town in one.
	if z, loc, in := places.RegionZone(name); in {
		return zoneHint{z, loc}
	}
	if z, loc := places.CityZone(name); loc != nil {
		return zoneHint{z, loc}
	}
	// An airport's code in brackets, when the name before it is that
	// airport's or its city's: a station's own code is often an
	// airport's of another country ("KANDY (KDT)": Kamphaeng Saen's).
	if m := parenCode.FindStringSubmatchIndex(name); m != nil && places.Serves(strings.TrimSpace(name[:m[0]]), name[m[2]:m[3]]) {
		if z, loc := places.Zone(name[m[2]:m[3]]); loc != nil {
			return zoneHint{z, loc}
		}
	}
	// A station in a town without an airport ("Bielefeld Hbf"), after the
	// airports' cities, which know the world's namesakes ("Boston" is
	// Logan's before it is Lincolnshire's).
	if z, loc := places.StationZone(name); loc != nil {
		return zoneHint{z, loc}
	}
	return zoneHint{}
}

var (
	platformRE = lazyregexp.New(`(?i)\s[-–▷]?\s*(?:(?:` + platformWords + `)\b|gl\.|\(?(?:` + bayWords + `)\s*\d).*$`)
	// The word before a clock: "Milano Centrale ore 10:15", "godz. 06:15".
	clockWord = lazyregexp.New(`(?i)(?:^|[\s,])(?:` + alternatives(clockWordList) + `)\s*$`)
)

// endsInClockWord reports whether s may end in a word of clockWord:
// whether, white space and a dot taken off its end, it ends in one of
// the words in any case. A station's name mostly does not, and the
// expression, which ends at the text's end, is tried from every place in
// it. Where the end is not ASCII, case folding may change the length of
// a letter ("K" and the Kelvin sign), so the expression decides.
func endsInClockWord(s string) bool {
	t := strings.TrimRight(s, " \t\n\f\r") // \s
	t = strings.TrimSuffix(t, ".")
	for i := max(0, len(t)-8); i < len(t); i++ {
		if t[i] >= utf8.RuneSelf {
			return true
		}
	}
	for _, w := range clockWordList {
		if len(t) >= len(w) && strings.EqualFold(t[len(t)-len(w):], w) {
			return true
		}
	}
	return false
}

// platformAnchors are what every match of platformRE holds: one of its
// words, or "gl.".
var platformAnchors = slices.Concat(strings.Split(platformWords, "|"), []string{"gl."}, strings.Split(bayWords, "|"))

// busHeadRE is a bus's word, and perhaps its line's number, heading a
// stop's text: "Buss 832 Göteborg Nils Ericson Terminalen", "Autobus Praha
// ÚAN Florenc", "Autocarro Lisboa (Sete Rios)", "Автобус София — Варна",
// "Λεωφορείο Αθήνα - Πάτρα". "Bus" and "Coach" alone
// head names ("Bus Station") and go only with a number.
// Groups 1 and 2 are the number, group 3 the stop's first letter.
var busHeadRE = lazyregexp.New(`^\s*(?:(?i:autobus|autobús|autocarro|autocar|pullman|bussi|buss|ônibus|fernbus|автобус|аутобус|λεωφορείο|λεωφορειο)(?:\s+(\d{1,5}))?|(?i:bus|coach)\s+(\d{1,5}))\s+(\p{Lu})`)

// busHead is busHeadRE's match in s, nil when there is none.
func busHead(s string) []int {
	if len(s) < 6 || strings.IndexByte("ABCFPabcfp \t\xc3\xd0\xce", s[0]) < 0 { // a cheap gate: the words' first bytes ("Ô" is C3 94, "А" D0 90, "λ" CE BB)
		return nil
	}
	return busHeadRE.FindStringSubmatchIndex(s)
}

// withoutBusWord is s less busHeadRE's bus word and number.
func withoutBusWord(s string) string {
	if m := busHead(s); m != nil {
		return s[m[6]:]
	}
	return s
}

// busHeadNumbers are the line numbers after a bus's word heading a leg's
// line with its clock ("Buss 832 Göteborg … 07:45 - Oslo … 11:20"), once
// each, in order; a seat's or a platform's word after the number ("Coach 5
// Seat 12") makes it none.
func busHeadNumbers(text string) []string {
	var out []string
	for ln := range strings.Lines(text) {
		m := busHead(ln)
		if m == nil || m[2] < 0 && m[4] < 0 || !hasClockShape(ln, ":") {
			continue // no number, or no leg's clock
		}
		n := ln[max(m[2], m[4]):max(m[3], m[5])]
		if f := strings.Fields(ln[m[6]:]); notService[strings.ToLower(strings.Trim(f[0], ".:"))] {
			continue
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// afterClockWords are the words for o'clock written after the clock,
// which a station after it does not start with ("Vertrek: 07:45 uur,
// Utrecht Centraal", "ab 07:45 Uhr Köln Hbf"), and which are no place's
// name ("Anreise: … ab 15:00 Uhr" over the next line; trailingName).
var afterClockWords = map[string]bool{"uur": true, "uhr": true, "hrs": true, "hr": true, "hours": true, "hod": true, "horas": true,
	"h": true, "heure": true, "heures": true, "ore": true, "óra": true}

// clockWordList is clockWord's words.
var clockWordList = slices.Concat(shortOclockWords, oclockWords)

// durationRE is a journey's duration between a station and the next
// stop's clock ("Amsterdam Centraal — 6h 18m — 14:52 Berlin Hbf").
var durationRE = lazyregexp.New(`(?i)\s*[-–—(]*\s*\d{1,2}\s?h(?:rs?)?\s?\d{1,2}\s?m(?:in)?\b\)?`)

// classSuffixRE is a ticket's class at a stop's text's end, by its
// number or its word, in the languages that print one on a row: "1e
// classe", "2. Klasse", "2nd Class", "First class", "1ª clase". Looked
// for only in a text that holds "las" or "říd", as every one of these
// words does in small letters or capitals.
var classSuffixRE = lazyregexp.New(`(?i)\s+(?:[12]\.?|[12](?:st|nd|e|re|nde|ère|ème|a|ª|º)|first|second|premi[eè]re|seconde|erste|zweite|primera|segunda|prima|seconda)\s*(?:class|classe|klasse|clase|klass|klasa|třída)\s*$`)

func stationName(s string) string {
	if mayHoldFolded(s, platformAnchors) {
		s = platformRE.ReplaceAllString(s, "")
	}
	if strings.IndexByte(s, 'm') >= 0 && hasDigit(s) {
		s = durationRE.ReplaceAllString(s, "")
	}
	if hasDigit(s) { // a train's number has digits
		s = trainNumRE.ReplaceAllLiteralString(s, "")
	}
	s = strings.ReplaceAll(s, "()", "") // what is left of "(ICE 16)"
	if strings.Contains(s, "las") || strings.Contains(s, "LAS") || strings.Contains(s, "říd") || strings.Contains(s, "ŘÍD") {
		// The row's class cell after the train's ("PARIS GARE DE LYON
		// TGV 6687 1e classe", "Köln Hbf ICE 512 2. Klasse").
		s = classSuffixRE.ReplaceAllString(s, "")
	}
	s = withoutBusWord(s)
	if endsInClockWord(s) {
		s = clockWord.ReplaceAllString(s, "") // "Partenza ore": the clock's word, then the marker
	}
	s, _ = allStopMarkers.ends(strings.TrimSpace(s))
	notLetter := func(r rune) bool { return !unicode.IsLetter(r) }
	s = strings.TrimLeftFunc(s, notLetter)
	// A direction's heading before the name ("Aller Paris Gare de Lyon
	// 07h04 - …", "Retour : 18h30 Lyon Part-Dieu"): no station's word.
	s = withoutDirection(s)
	// Up to two markers before the name: "aan in Leeuwarden"; a word for
	// "at" is one ("arrives at Leeds").
	for range 2 {
		if w, rest, ok := strings.Cut(s, " "); ok && (clockWords[strings.ToLower(w)] || afterClockWords[strings.ToLower(strings.TrimRight(w, ".,"))]) {
			s = strings.TrimLeftFunc(rest, notLetter)
			continue
		}
		if rest, ok := allStopMarkers.starts(s); ok && rest != "" {
			s = strings.TrimLeftFunc(rest, notLetter)
		}
	}
	s = strings.Trim(strings.Join(strings.Fields(s), " "), " -–,.:;|▷●○")
	// A stop's label with its qualifier is no station ("Scheduled
	// Departure : 04-Aug-2026 19:15", "Départ prévu").
	if t, ok := allStopMarkers.ends(s); ok && scheduleWords[strings.ToLower(strings.TrimSpace(t))] {
		return ""
	}
	if t, ok := allStopMarkers.starts(s); ok && scheduleWords[strings.ToLower(strings.Trim(t, " ."))] {
		return ""
	}
	// A parenthesis its clock's marker was in ("Szeged (dep. 06:48)").
	if t, ok := strings.CutSuffix(s, "("); ok {
		s = strings.TrimRight(t, " ")
	}
	// Only a name: letters, not a sentence, and not a day's or a month's
	// name ("Départ : mercredi 8 décembre" is a hotel's check-out).
	// Not an address either: a quoted header's "From: Anna <anna@…>".
	if len(s) < 2 || len(s) > 50 || nameWords(s) > 6 || strings.IndexFunc(s, unicode.IsLetter) < 0 || strings.Contains(s, "@") {
		return ""
	}
	if l := strings.ToLower(s); weekdayNames[l] > 0 || monthNames[l] > 0 || timeNouns[l] || directionWords[l] {
		return ""
	}
	// A word for "and" as a sentence writes it is no stop: a delivery's
	// window ("tussen 10:00 en 14:00", "between 10:00 and 14:00") is no
	// leg. A town of that name is written capitalised ("Ed").
	if andWords[s] {
		return ""
	}
	// A seat, a coach or a car and its number ("Coach 5", "Seat 12A",
	// "Sitzplatz 14C") are a ticket's, not a stop's.
	if w, rest, ok := strings.Cut(s, " "); ok && notService[strings.ToLower(strings.TrimRight(w, ":.,"))] && hasDigit(rest) {
		return ""
	}
	// A label and a weekday are a date's start, not a station
	// ("Outbound: Tue 15 Jan 2030").
	if i := strings.LastIndexByte(s, ' '); i >= 0 && strings.Contains(s[:i], ":") && weekdayNames[strings.ToLower(strings.TrimRight(s[i+1:], "."))] > 0 {
		return ""
	}
	return s
}

// nameWords counts the words of a name; a dash between its parts is none
// ("New York, NY - Penn Station (NYP)" has six), and a part of up to
// four words in parentheses that ends it is not counted: it names the
// stop within its town ("New York, NY (Port Authority Bus Terminal)").
func nameWords(s string) int {
	if t := strings.TrimRight(s, " .,"); strings.HasSuffix(t, ")") {
		if i := strings.LastIndexByte(t, '('); i > 0 && nameWords(t[i+1:len(t)-1]) <= 4 {
			s = t[:i]
		}
	}
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n
}

// timeNouns are the words for "time" (time.noun) that a label leaves
// where a station would be ("Departure time: 21/06/2029 07:13").
var timeNouns = wordSet("time.noun")

// directionWords are the headings of a journey's direction in every
// language (journey.outward, journey.return: "Aller", "Retour",
// "Outbound", "Hinfahrt", "Ida", "Vuelta", "Andata", "Heenreis"), lower
// case: a heading over or before a leg's stops, never a station
// (issue 46, foreign-7: SNCF's "Aller" read as the origin; xf7r).
var directionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range []string{"journey.outward", "journey.return"} {
		for _, w := range lang.Entries(c) {
			m[strings.ToLower(w)] = true
		}
	}
	return m
}()

// withoutDirection is s without a direction's heading that starts it
// before a capitalised name, a colon or a dash between or not ("Aller
// Paris Gare de Lyon", "Retour : Lyon Part-Dieu"); s when none does.
func withoutDirection(s string) string {
	w, rest, ok := strings.Cut(s, " ")
	if !ok || !directionWords[strings.ToLower(strings.TrimRight(w, ":"))] {
		return s
	}
	rest = strings.TrimLeft(rest, " :-–—")
	if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsUpper(r) {
		return s
	}
	return rest
}

// scheduleWords qualify a stop's label as the timetable's or the
// forecast's ("Scheduled Departure", "voraussichtliche Ankunft", "Départ
// prévu"), in lower case.
var scheduleWords = map[string]bool{"scheduled": true, "expected": true, "estimated": true, "actual": true, "planned": true,
	"sched": true, "est": true, "exp": true, "geplante": true, "voraussichtliche": true, "planmäßige": true, "tatsächliche": true,
	"prévu": true, "prévue": true, "prevista": true, "previsto": true, "programada": true, "programado": true}
