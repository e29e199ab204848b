package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// Places in a flight's lines: an airport by its code in parentheses, a
// code before its city, a name that means one airport (extract/places),
// a route line's two ends ("Katowice (KTW) -> London Luton (LTN)"), and
// a place's name cleaned of labels, weekdays and clock words.

// routeArrowRE splits a route written with an arrow or a spaced dash.
var routeArrowRE = lazyregexp.New(`\s*(?:→|->|➞|\s[–—-])\s+`)

// routeToRE splits a route written with a word for "to" ("Amsterdam to
// Barcelona"): namedRoute takes it since both sides must then be
// airports' names.
var routeToRE = lazyregexp.New(`(?i)\s(?:` + toWords() + `)\s`)

// numberFromToRE is what follows a flight's number in a route told as a
// sentence: a word for "from", a name, a word for "to", a name, each name
// capitalised.
var numberFromToRE = lazyregexp.New(`^\s+(?i:` + markerAlt("departure.marker") + `)\s+(\p{Lu}.*?)\s+(?i:` + markerAlt("arrival.marker") + `)\s+(\p{Lu}.*?)[\s.]*$`)

// namedRoute reads a route by airports' names on either side of an arrow
// ("Hinflug: FR 1234 Berlin Brandenburg → Palma de Mallorca"), each a name
// that means one airport; "" when either does not.
func namedRoute(ln string) (string, string) {
	parts := routeArrowRE.Split(ln, -1)
	if len(parts) == 1 {
		parts = routeToRE.Split(ln, -1)
	}
	if len(parts) == 1 && strings.Contains(ln, " ") {
		// "Vol V7 2210 de Bordeaux à Ajaccio", "Volo FR 4821 da Bari a
		// Torino": a word for "from" right after the flight's number,
		// then one for "to" of a letter.
		if m := flightNumRE.FindAllStringIndex(ln, -1); len(m) > 0 {
			if s := numberFromToRE.FindStringSubmatch(ln[m[len(m)-1][1]:]); s != nil {
				parts = s[1:]
			}
		} else if s := numberFromToRE.FindStringSubmatch(" " + ln); s != nil {
			// The same route as a line of its own ("Da Roma Fiumicino
			// (T1) a Londra Gatwick (Terminal Del Nord)").
			parts = s[1:]
		}
	}
	if len(parts) != 2 {
		return "", ""
	}
	var names [2]string
	for i, part := range parts {
		name := part
		if i == 0 {
			// What follows the flight number is the place.
			if m := flightNumRE.FindAllStringIndex(part, -1); len(m) > 0 {
				name = part[m[len(m)-1][1]:]
			} else if j := strings.LastIndexByte(part, ':'); j >= 0 {
				name = part[j+1:]
			}
		}
		name = strings.TrimSpace(name)
		// "London Gatwick (North Terminal)": the terminal in parentheses
		// is no part of the airport's name; a code there is
		// ("Nice (NCE)").
		if j := strings.LastIndex(name, " ("); j > 0 && strings.HasSuffix(name, ")") && !parenCode.MatchString(name[j:]) {
			name = name[:j]
		}
		name = strings.Trim(name, ",.;()")
		if strings.Count(name, " ") > 3 {
			return "", ""
		}
		names[i] = name
	}
	// A city of several large airports is the one in the other end's
	// part of the world ("Amsterdam to Barcelona").
	from, to := namedPair(names[0], names[1])
	if from == nil || to == nil {
		// "Flight FR 1234 from Manchester to Krakow": the word for
		// "from" before the first name is no part of it, unless the
		// name is read with it ("Da Nang").
		if w, rest, ok := strings.Cut(names[0], " "); ok && fromColumn.has(strings.ToLower(w)) {
			from, to = namedPair(strings.TrimSpace(rest), names[1])
		}
	}
	if from == nil || to == nil || from.Code == to.Code {
		return "", ""
	}
	return from.Code, to.Code
}

// routePair reports whether two places without times, apart lines apart,
// are a route: on one line ("London (LHR) to Athens (ATH)"), or two
// airports' codes on lines of their own, close together, as a table's
// "From" and "To" rows are.
func routePair(a, b *Place, apart int) bool {
	if apart == 0 {
		return true
	}
	return apart <= 4 && a.Code != "" && b.Code != "" && a.Code != b.Code
}

// airportCodes returns the known IATA codes of a line that stand as codes:
// in parentheses, or upper case next to a clock, an arrow or a dash.
func airportCodes(ln string) []string {
	var out []string
	for _, m := range parenCode.FindAllStringSubmatchIndex(ln, -1) {
		if w := ln[m[2]:m[3]]; places.Known(w) && !zoneAfterClock(w, ln[:m[0]]) {
			out = append(out, w)
		}
	}
	if len(out) > 0 {
		return out
	}
	if strings.IndexByte(ln, '|') >= 0 {
		if out = barCodes(ln); len(out) > 0 {
			return out
		}
	}
	if !strings.ContainsAny(ln, ":-→>–") {
		return nil
	}
	// A passenger's line names no airport by capitals ("Passenger: MR
	// BEN LEE": Benghazi and Leesburg; the fourteenth outside review,
	// HIGH-4).
	if passengerLine(ln) {
		return nil
	}
	for _, m := range codeWord.FindAllStringIndex(ln, -1) {
		w := ln[m[0]:m[1]]
		if places.Known(w) && !labelCode[w] && (!commonUpperWord[w] || wordCodeBeforeClock(w, ln[m[1]:])) && !zoneAfterClock(w, ln[:m[0]]) && !monthOfDate(ln, m[0], m[1]) && !hyphenWord(ln, m[0], m[1]) &&
			!currencyBeforeAmount(w, ln[m[1]:]) {
			out = append(out, w)
		}
	}
	return out
}

// currencyBeforeAmount reports whether w is a currency's code with an
// amount after it ("Published Fare: IDR 803,000"): Indonesia's rupiah,
// not Idar-Oberstein's airport.
func currencyBeforeAmount(w, after string) bool {
	after = strings.TrimLeft(after, " \t")
	return after != "" && isDigitByte(after[0]) && currencyCodeRE.MatchString(w)
}

// barCodeRE is a code after a bar, the words before the bar its name.
var barCodeRE = lazyregexp.New(`\|\s*([A-Z]{3})\b`)

// barCodes are the codes of a card's stops printed each after its city
// and a bar ("Cebu Pacific Air ILOILO | ILO MANILA | MNL"): a code counts
// when a name of one to three words right before its bar is its
// airport's city or name (places.Serves), so a table's bars between
// other capitals ("| PNR |") name no airport.
func barCodes(ln string) []string {
	var out []string
	for _, m := range barCodeRE.FindAllStringSubmatchIndex(ln, 4) {
		code := ln[m[2]:m[3]]
		ws := strings.Fields(ln[:m[0]])
		served := false
		for n := 1; n <= 3 && n <= len(ws) && !served; n++ {
			served = places.Serves(strings.Join(ws[len(ws)-n:], " "), code)
		}
		if served {
			out = append(out, code)
		}
	}
	return out
}

// monthCodes are months' English abbreviations that are also airports'
// codes (FEB Sanfebagar, MAR Maracaibo, JUL Juliaca, ...).
var monthCodes = map[string]bool{"JAN": true, "FEB": true, "MAR": true, "APR": true, "MAY": true, "JUN": true,
	"JUL": true, "AUG": true, "SEP": true, "OCT": true, "NOV": true, "DEC": true}

// monthOfDate reports whether ln[start:end], a month's abbreviation,
// stands beside a day's number or a year as a date's month ("MON, 24
// FEB, 2014", "05-MAR-22", "MAR 5", "JUN 2027"): an itinerary's date,
// not the airport that shares the letters. A clock after it is the
// airport's time ("Juliaca JUL 07:50").
func monthOfDate(ln string, start, end int) bool {
	if !monthCodes[ln[start:end]] {
		return false
	}
	before := strings.TrimRight(ln[:start], " -/.")
	n := len(before) - len(strings.TrimRight(before, "0123456789"))
	if n == 1 || n == 2 {
		if k := len(before) - n; k == 0 || before[k-1] != ':' && before[k-1] != '.' {
			return true
		}
	}
	after := strings.TrimLeft(ln[end:], " -/.")
	d := len(after) - len(strings.TrimLeft(after, "0123456789"))
	if d == 0 || d < len(after) && strings.ContainsRune(":.h", rune(after[d])) {
		return false
	}
	return d <= 2 || d == 4 && (after[:2] == "19" || after[:2] == "20")
}

// zoneAbbrevs are time zones' abbreviations that are also airports' codes
// (PST, EST, CET, ...): after a clock they name the zone ("8:00 AM PST",
// "arrives 12:50 (CET)"), not the airport.
var zoneAbbrevs = map[string]bool{"PST": true, "PDT": true, "EST": true, "EDT": true, "CST": true, "CDT": true,
	"MST": true, "MDT": true, "AKST": true, "HST": true, "AST": true, "ADT": true, "GMT": true, "UTC": true,
	"BST": true, "CET": true, "EET": true, "WET": true, "MSK": true, "JST": true, "KST": true, "SGT": true}

// zoneAfterRE is a zone's abbreviation in capitals right after a clock,
// in parentheses or not.
var zoneAfterRE = lazyregexp.New(`^\s?\(?([A-Z]{3,4})\)?(?:[^\pL\d]|$)`)

// zoneTail is a clock at the end of what stands before a word, an AM or
// PM and an opening parenthesis allowed between them.
var zoneTail = lazyregexp.New(`(?i)\d[:.h]\d\d\s?(?:[ap]\.?m\.?)?\s?\(?\s?$`)

// zoneAfterClock reports whether w, an airport's code, is a time zone's
// abbreviation right after a clock.
func zoneAfterClock(w, before string) bool {
	if !zoneAbbrevs[w] {
		return false
	}
	if len(before) > 16 {
		before = before[len(before)-16:]
	}
	return zoneTail.MatchString(before)
}

// wordCodeBeforeClock reports whether w, an airport's code that is also a
// word in capitals, is followed by a clock ("SEA 8:00 am – ANC 10:45
// am"): a code before its time, as no word is. A day's or a currency's
// abbreviation before a clock is still no airport ("MON 08:00").
func wordCodeBeforeClock(w, rest string) bool {
	switch w {
	case "MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN", "EUR", "USD", "GBP", "CHF", "DAY", "PER", "VIA":
		return false
	}
	if len(rest) < 5 || rest[0] != ' ' || !isDigitByte(rest[1]) {
		return false
	}
	i := 2
	if isDigitByte(rest[i]) {
		i++
	}
	return i+2 < len(rest) && rest[i] == ':' && isDigitByte(rest[i+1]) && isDigitByte(rest[i+2])
}

// commonUpperWord are three-letter words printed in capitals that happen
// to be airport codes.
var commonUpperWord = map[string]bool{"THE": true, "AND": true, "FOR": true, "YOU": true, "ARE": true, "NOT": true,
	"ALL": true, "NEW": true, "OUT": true, "DAY": true, "ONE": true, "TWO": true, "PER": true, "VIA": true,
	"BAG": true, "SEE": true, "CAN": true, "HER": true, "HIS": true, "WAS": true, "TAX": true, "VAT": true,
	"EUR": true, "USD": true, "GBP": true, "CHF": true, "PNR": true, "MRS": true, "DER": true, "DIE": true,
	"DAS": true, "UND": true, "MIT": true, "VON": true, "BEI": true, "PDF": true, "FAQ": true, "APP": true,
	"MON": true, "TUE": true, "WED": true, "THU": true, "FRI": true, "SAT": true, "SUN": true, "ECO": true,
	"SEA": true, "AIR": true, "BUS": true, "CAR": true,
	// A booking system's passenger types: adult, child, infant.
	"ADT": true, "CHD": true, "INF": true,
	// A hotel's cancellation ("CXL BY 07/07/24").
	"CXL": true,
	// Airlines named in capitals ("Issued: TAP 10Jan27", "ITA Airways").
	"TAP": true, "ITA": true, "JAL": true}

var placeCleanRE = lazyregexp.New(`(?i)\b(departure|depart|dep|abflug|abflugzeit|abflughafen|zielflughafen|arrival|arrive|arr|ankunft|ankunftszeit|from|to|von|nach|départ|arrivée|terminal\s*\w*|gate\s*\w*|flight|flug|date|time|uhr|am|pm|` + weekdays + `)\b|[:|*→>]`)

// weekdays, abbreviated and whole, as dates print them ("Fri, 03 Feb").
const weekdays = `mon|tue|wed|thu|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mo|di|mi|do|fr|sa|so|` +
	`montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lun|mar|mer|jeu|ven|sam|dim|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche`

var (
	countrySuffix = lazyregexp.New(`,\s*[A-Z]{2}\s*$`)
	airportWord   = lazyregexp.New(`(?i)\b(airport|flughafen|a[ée]roport|aeropuerto|aeroporto|luchthaven|lotnisko|letiště)\b`)
)

// placeAlone reads a line that is only an airport: a code, a known name,
// or a name that says it is an airport ("Berlin, Tegel Airport, DE").
var codeCityRE = lazyregexp.New(`^([A-Z]{3})\s+(\p{Lu}[\p{L} .'-]{1,40})$`)

func placeAlone(ln string) *Place {
	if findClocks(ln) != nil || len(ln) > 80 {
		return nil
	}
	if codes := airportCodes(ln); len(codes) == 1 {
		return &Place{Name: strings.TrimSpace(parenCode.ReplaceAllString(ln, "")), Code: codes[0]}
	}
	// "IST Istanbul": a code before its city, on a line of their own.
	if m := codeCityRE.FindStringSubmatch(strings.TrimSpace(ln)); m != nil && places.Known(m[1]) {
		return &Place{Name: m[2], Code: m[1]}
	}
	// "DENVER, CO", "Portland, ME": a city in its state, which names it
	// whole ("Birmingham, AL" is not Birmingham in England).
	if trimmed := strings.Trim(strings.TrimSpace(ln), " ,"); countrySuffix.MatchString(trimmed) && places.InRegion(trimmed) {
		if code, ok := places.AirportByName(trimmed); ok {
			return &Place{Name: trimmed, Code: code}
		}
		return nil
	}
	name := strings.Trim(countrySuffix.ReplaceAllString(strings.TrimSpace(ln), ""), " ,")
	if name == "" {
		return nil
	}
	if code, ok := places.AirportByName(name); ok {
		return &Place{Name: name, Code: code}
	}
	if airportWord.MatchString(name) {
		return &Place{Name: name}
	}
	return nil
}

// placeInLine finds the airport a line names: a code, else a name left
// when times, dates and labels are taken away.
func (c *msgContext) placeInLine(ln string, clocks []clockMatch) *Place {
	if len(ln) > maxPlaceLine {
		// A stop on a line this long (a text part made from HTML without
		// its breaks: the leg, then kilobytes of fare terms) is read from
		// the part of it around the first clock: a mail of one endless
		// line would have every flight's window read its dates and names
		// whole.
		ln, clocks = aroundClock(ln, clocks)
		if ln == "" {
			return nil
		}
	}
	if codes := airportCodes(ln); len(codes) > 0 {
		// Blanked, not cut, so that the clocks' offsets still hold.
		name := parenCode.ReplaceAllStringFunc(ln, func(s string) string { return strings.Repeat(" ", len(s)) })
		name = cleanPlaceName(name, clocks, c)
		return &Place{Name: name, Code: codes[0]}
	}
	if len(clocks) == 0 {
		return nil
	}
	name := cleanPlaceName(ln, clocks, c)
	if name == "" || len(name) > 60 || isDigitByte(name[0]) {
		// A name begins with a letter: "23 Standard 23- DEC-23" is what
		// a row of two legs leaves of its days and fares.
		return nil
	}
	p := &Place{Name: name}
	if code, ok := places.AirportByName(name); ok {
		p.Code = code
	} else {
		p.Code = c.printedCode(name)
	}
	if p.Code == "" {
		// The stop's label before the city ("DEPARTING Sydney"), the
		// city's terminal, its airline's desk or a clock no reader knows
		// after it ("Sydney Virgin Blue - T2 1615hr", "Gold Coast
		// Domestic Terminal"): the longest run of the words after the
		// label that names an airport. Only when one does: the label
		// tells a timed line with no airport ("Partenza 10:15 Roma
		// Termini", a train's) from a flight's stop.
		bare := name
		if w, rest, ok := strings.Cut(name, " "); ok && allStopMarkers.has(strings.ToLower(strings.TrimRight(w, ":"))) && startsUpper(rest) {
			bare = rest
		}
		if code, ok := places.AirportByName(bare); ok && bare != name {
			p.Name, p.Code = bare, code
		} else if pre, code := airportPrefix(bare); code != "" {
			p.Name, p.Code = pre, code
		}
	}
	return p
}

// airportPrefix is the longest run of a name's first words, up to four,
// that names an airport, and the airport's code, when the words after it
// name a terminal ("T2", "Domestic Terminal"); a word alone only of four
// letters or more and a capital first. "", "" when none does: "Roma
// Termini" is Rome's station, not its airport.
func airportPrefix(name string) (string, string) {
	ws := strings.Fields(name)
	for n := min(len(ws)-1, 4); n >= 1; n-- {
		pre := strings.Trim(strings.Join(ws[:n], " "), " ,-–")
		if n == 1 && (utf8.RuneCountInString(pre) < 4 || !startsUpper(pre)) || !terminalWordRE.MatchString(strings.Join(ws[n:], " ")) {
			continue
		}
		if code, ok := places.AirportByName(pre); ok {
			return pre, code
		}
	}
	return "", ""
}

// terminalWordRE is a word of an airport's terminal or its kind.
var terminalWordRE = lazyregexp.New(`(?i)\b(?:terminal|domestic|international|intl|airport|T\d)\b`)

// maxPlaceLine is the longest line placeInLine reads a stop from: 2 KB,
// where a stop's line of a table turned into text takes a few hundred
// bytes at most.
const maxPlaceLine = 2 << 10

// aroundClock is the part of a long line ln from 512 bytes before its
// first clock to maxPlaceLine bytes on, cut at characters' edges, with
// the clocks in it moved to their offsets there; "" when ln has no clock.
func aroundClock(ln string, clocks []clockMatch) (string, []clockMatch) {
	if len(clocks) == 0 {
		return "", nil
	}
	lo := max(0, clocks[0].start-512)
	for lo > 0 && !utf8.RuneStart(ln[lo]) {
		lo--
	}
	hi := min(len(ln), lo+maxPlaceLine)
	for hi < len(ln) && !utf8.RuneStart(ln[hi]) {
		hi--
	}
	var in []clockMatch
	for _, cm := range clocks {
		if cm.start >= lo && cm.end <= hi {
			cm.start, cm.end = cm.start-lo, cm.end-lo
			in = append(in, cm)
		}
	}
	return ln[lo:hi], in
}

// clockWords are the words for "at" a time that stand before a clock.
var clockWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range oclockWords {
		m[w] = true
	}
	return m
}()

// startsUpper reports whether w starts with a capital letter.
func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// stopMarkerWords are the words for "from" and "to" before a stop
// (departure.marker, arrival.marker) of three letters or more.
var stopMarkerWords = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range []string{"departure.marker", "arrival.marker"} {
		for _, w := range lang.Entries(k) {
			if utf8.RuneCountInString(w) >= 3 && !strings.Contains(w, " ") {
				m[w] = true
			}
		}
	}
	return m
}()

// withoutZoneAfter is what follows a clock without the time zone's
// abbreviation that starts it ("18:06(MSK)", "18:06 (МСК)", "10:15 CET"):
// a zone names no place, an airport or a station.
func withoutZoneAfter(after string) string {
	if m := zoneAfterRE.FindStringSubmatchIndex(after); m != nil && zoneAbbrevs[after[m[2]:m[3]]] {
		return after[m[1]:]
	}
	t := strings.TrimLeft(after, " ")
	for _, z := range []string{"(МСК)", "МСК"} {
		if rest, ok := strings.CutPrefix(t, z); ok {
			return rest
		}
	}
	return after
}

func cleanPlaceName(ln string, clocks []clockMatch, c *msgContext) string {
	for i := len(clocks) - 1; i >= 0; i-- {
		if clocks[i].end <= len(ln) {
			// The zone's abbreviation after the clock goes with it
			// ("08:26 am PST"): it names no place.
			ln = ln[:clocks[i].start] + " " + withoutZoneAfter(ln[clocks[i].end:])
		}
	}
	for _, d := range c.dates(ln) {
		ln = strings.Replace(ln, ln[d.start:d.end], " ", 1)
		break
	}
	ln = flightNumRE.ReplaceAllStringFunc(ln, func(s string) string {
		if isFlightDesignator(s[:2]) {
			return " "
		}
		return s
	})
	ln = placeCleanRE.ReplaceAllString(ln, " ")
	// What a date and clock leave in any language: a weekday's name ("ke"
	// of "ke 8.12.2027"), the word for o'clock ("klo", "um", "ore").
	words := strings.Fields(ln)
	// A state's abbreviation after its city ("OMAHA, NE") is no weekday
	// (Czech "ne", Sunday).
	region := ""
	if n := len(words); n >= 2 && strings.HasSuffix(words[n-2], ",") && places.InRegion(words[n-2]+" "+words[n-1]) {
		region, words = words[n-1], words[:n-1]
	}
	// "St" before a name is its saint ("St Petersburg", "St. Gallen"),
	// not Czech's Wednesday.
	for i := 0; i+1 < len(words); i++ {
		if w := strings.TrimSuffix(words[i], "."); (w == "St" || w == "Ste") && startsUpper(words[i+1]) {
			words[i+1] = words[i] + " " + words[i+1]
			words = slices.Delete(words, i, i+1)
		}
	}
	words = slices.DeleteFunc(words, func(w string) bool {
		w = strings.ToLower(strings.Trim(w, ".,"))
		return weekdayNames[w] > 0 || clockWords[w]
	})
	if region != "" {
		words = append(words, region)
	}
	// "Fra København", "Til London Heathrow", "Från Arlanda": a word for
	// "from" or "to" before the name (departure.marker, arrival.marker)
	// is none of it. Words of one or two letters are names' too ("A
	// Coruña", "Da Nang"), and a name that is the word alone stays ("Van").
	if len(words) >= 2 && stopMarkerWords[strings.ToLower(words[0])] && startsUpper(words[1]) {
		words = words[1:]
	}
	if hasCJK(ln) {
		words = cjkPlaceWords(words)
	}
	ln = strings.Trim(strings.Join(words, " "), " -–,.()")
	if strings.IndexFunc(ln, func(r rune) bool { return r >= 'A' && r <= 'z' || r > 127 }) < 0 {
		return ""
	}
	return ln
}

// clockLegPlaces reads a leg on one line whose clocks each come before
// their airport's name, as a printed table's row flattens its departure's
// and arrival's cells ("27.03.2010 4U 8013 06:40 Stuttgart 07:50
// Berlin-Schönefeld"): the two airports when the words between the clocks
// and the words after the second are each a name that means one airport,
// and they differ; else nils. A name holds no digit: "07:50 Terminal 1" is
// no airport's name.
func clockLegPlaces(ln string, clocks []clockMatch) (*Place, *Place) {
	if len(clocks) != 2 {
		return nil, nil
	}
	a := strings.TrimSpace(ln[clocks[0].end:clocks[1].start])
	b := strings.TrimSpace(ln[clocks[1].end:])
	if hasDigit(a) || hasDigit(b) {
		return nil, nil
	}
	return namedLeg(a, b)
}

// namedLeg is a leg's two airports by their names: each a name that means
// one airport, the two apart; else nils.
func namedLeg(a, b string) (*Place, *Place) {
	if a == "" || b == "" {
		return nil, nil
	}
	ca, okA := places.AirportByName(a)
	cb, okB := places.AirportByName(b)
	if !okA || !okB || ca == cb {
		return nil, nil
	}
	return &Place{Name: a, Code: ca}, &Place{Name: b, Code: cb}
}

// arrowLegPlaces reads a leg on one line whose airports are named, each
// before its clock, an arrow between them ("関西 08:15 → 那覇 10:40",
// "Lisbon 07:15 -> Porto 08:10"): the two airports when each name means
// one and they differ, else nils.
func (c *msgContext) arrowLegPlaces(ln string, clocks []clockMatch) (*Place, *Place) {
	if len(clocks) != 2 {
		return nil, nil
	}
	between := ln[clocks[0].end:clocks[1].start]
	i := strings.Index(between, "→")
	n := len("→")
	if i < 0 {
		i, n = strings.Index(between, "->"), 2
	}
	if i < 0 || strings.TrimSpace(between[:i]) != "" {
		return nil, nil // the arrow follows the first clock, the second name follows it
	}
	return namedLeg(cleanPlaceName(ln[:clocks[0].start], nil, c), cleanPlaceName(between[i+n:], nil, c))
}

// terminalMarkRE is a stop's terminal printed after its city in a
// printout's row: "DELHI / T 1", "HYDERABAD/T1", "Delhi (T1D)".
var terminalMarkRE = lazyregexp.New(`\s*(?:/\s*T\s?\d{1,2}[A-Z]?\b|\(\s*T\s?\d{1,2}[A-Z]?\s*\))`)

// hyphenWord reports whether the capitals at ln[a:b] open a word joined
// by a hyphen to one of four letters or more ("NON-STOP", "CHECK-IN" has
// no code): no airport's code, as a route's "TXL-BRU" is. A code after a
// city's name and a hyphen ("Paris-CDG") stays one.
func hyphenWord(ln string, a, b int) bool {
	if b >= len(ln) || ln[b] != '-' {
		return false
	}
	n := 0
	for _, r := range ln[b+1:] {
		if !unicode.IsLetter(r) {
			break
		}
		n++
	}
	return n >= 4
}

// runTogetherPlaces reads a printout's row whose two cities stand side
// by side between the flight's number and its two clocks, the table's
// columns flattened to single spaces ("MON, 24 FEB, 2014 SG 104 DELHI / T
// 1 KOLKATA 08:10 10:30 SPICEJET" under "TRAVEL DATE FLIGHT NO. FROM /
// TERMINAL TO / TERMINAL DEP TIME ARR TIME AIRLINE"). The words are cut
// where both halves name one airport each; a row cut so in two ways, or
// in none, gives nils.
//
// An Amadeus e-ticket receipt prints its cities before the number and a
// third clock after the two, the check-in desk's close ("SAO PAULO
// GUARULHOS INTL LISBON AIRPORT TP82 16:20 05:15 14:50" under "From To
// Flight Departure Arrival Last check-in"): read so too when no word
// stands between the number and the clocks, and the third clock, earlier
// than the departure's, ends the row.
//
// The cities before the number are read only in a mail that names its
// booking's reference (booked): a fare newsletter's timetable prints its
// rows so too ("LISBOA PORTO TP1940 K 12Mar 07:00 08:00"), under words a
// booking's mail has too ("Your flight").
func runTogetherPlaces(ln string, clocks []clockMatch, booked bool) (*Place, *Place) {
	if len(clocks) == 3 && deskCloseAfter(ln, clocks) {
		clocks = clocks[:2]
	}
	if len(clocks) != 2 || strings.Trim(ln[clocks[0].end:clocks[1].start], " \t|") != "" {
		return nil, nil
	}
	head := ln[:clocks[0].start]
	m := flightNumRE.FindAllStringSubmatchIndex(head, -1)
	if len(m) == 0 {
		return nil, nil
	}
	last := m[len(m)-1]
	if !isFlightDesignator(head[last[2]:last[3]]) {
		return nil, nil
	}
	words := strings.Fields(terminalMarkRE.ReplaceAllString(head[last[1]:], " "))
	// An older receipt's row prints the class and the day between the
	// number and the clocks ("JOAO PESSOA RIO DE JANEIRO O66137 P 20Dec
	// 03:30 07:35"): the cities are before the number there too.
	if len(words) == 2 && len(words[0]) == 1 && isUpper(words[0]) && len(findDates(words[1], false)) == 1 {
		words = nil
	}
	if len(words) == 0 && booked {
		words = strings.Fields(head[:last[0]])
	}
	if len(words) < 2 || len(words) > 8 {
		return nil, nil
	}
	return oneCut(words, namedLeg)
}

// deskCloseAfter reports whether the third of a row's three clocks is the
// check-in desk's close: right after the other two, earlier in the day
// than the first, and the row's end.
func deskCloseAfter(ln string, clocks []clockMatch) bool {
	c := clocks[2]
	return strings.TrimSpace(ln[clocks[1].end:c.start]) == "" && strings.TrimSpace(ln[c.end:]) == "" &&
		c.h*60+c.m < clocks[0].h*60+clocks[0].m
}

// terminalsRouteRE is a route of two stops, each a city with its terminal
// in parentheses, on a line of their own: "Delhi (T1D) Srinagar (T1)".
var terminalsRouteRE = lazyregexp.New(`^(\pL[\pL .'-]{1,40}?)\s*\(\s*(?:T\s?\d{1,2}[A-Z]?|[Tt]erminal\s?\w{1,3})\s*\)\s+(\pL[\pL .'-]{1,40}?)\s*\(\s*(?:T\s?\d{1,2}[A-Z]?|[Tt]erminal\s?\w{1,3})\s*\)$`)

// terminalsRoute is the two airports of such a line, each named so it
// means one airport, or "".
func terminalsRoute(ln string) (string, string) {
	m := terminalsRouteRE.FindStringSubmatch(strings.TrimSpace(ln))
	if m == nil {
		return "", ""
	}
	a, b := namedLeg(m[1], m[2])
	if a == nil {
		return "", ""
	}
	return a.Code, b.Code
}

// labelledStopRE is a line of a stop's label and its place alone:
// "From: Kochi", "To DEL", "Von: Frankfurt (FRA)".
var labelledStopRE = lazyregexp.New(`^\s*(\pL+)\s*:?\s+(\pL[\pL .'()-]{1,48}?)\s*$`)

// labelledRoute reads a route printed as two labelled lines, a
// departure's marker's ("From: Kochi") and, within four lines below, an
// arrival's ("To: Delhi"), each place a code or a name that means one
// airport: the two codes and the line of the second, else "", "", -1.
func labelledRoute(lines []string, i int) (from, to string, at int) {
	m := labelledStopRE.FindStringSubmatch(lines[i])
	if m == nil || !fromColumn.has(strings.ToLower(m[1])) {
		return "", "", -1
	}
	for j := i + 1; j < len(lines) && j <= i+4; j++ {
		n := labelledStopRE.FindStringSubmatch(lines[j])
		if n == nil || !toColumn.has(strings.ToLower(n[1])) {
			continue
		}
		a, b := cardCode(m[2]), cardCode(n[2])
		if a == "" || b == "" {
			pa, pb := namedPair(m[2], n[2])
			if pa == nil || pb == nil {
				return "", "", -1
			}
			a, b = pa.Code, pb.Code
		}
		if a == b {
			return "", "", -1
		}
		return a, b, j
	}
	return "", "", -1
}
