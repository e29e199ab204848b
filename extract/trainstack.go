package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// Train stops stacked as a card's blocks: a clock alone on its line and
// its station alone on the line after it (or before), a marker perhaps
// alone above, a service code between the stops.

// stackedStop is a stop of a card laid out as stacked blocks: its
// station's name and line.
type stackedStop struct {
	station string
	line    int
}

// A line of text as a block of a card: a clock alone ('K'), a station
// alone ('S'), one stop on one line ('P': "07:30 Birmingham New Street"),
// or anything else ('O').
type cardBlock struct {
	line int
	kind byte
	name string
}

// cardBlocks classifies the lines of text that are not blank. Most
// mails have few clocks and many lines: the clocks' blocks are found
// first, by a byte scan before any expression, and a station's block is
// looked for only within two blocks of one.
func cardBlocks(lines []string) []cardBlock {
	var bs []cardBlock
	var clocked []int // indexes in bs of the clocks' blocks
	for i, ln := range lines {
		t := strings.TrimSpace(ln)
		if t == "" {
			continue
		}
		b := cardBlock{line: i, kind: 'O'}
		// Sixty characters, not bytes: "São Paulo, … Rodoviário Tietê" is
		// no longer for its accents.
		if len(t) <= 120 && utf8.RuneCountInString(t) <= 60 && clockLike(t) {
			cks := findClocks(t)
			if len(cks) == 1 && dayAndClockAlone(t, cks[0]) {
				// A clock with its day and nothing else ("18/12/2027
				// 07:45"): a clock's block all the same.
				b.kind = 'K'
				clocked = append(clocked, len(bs))
			} else if len(cks) == 1 && len(findDates(t, false)) == 0 {
				rest, _ := withoutDayPlus(t[cks[0].end:]) // "06:10 (+1)  Amsterdam Sloterdijk"
				before, after := stationName(t[:cks[0].start]), stationName(rest)
				switch {
				case before == "" && after == "" && len(t) <= 24:
					b.kind = 'K'
				case before == "" && after != "" && after == aloneStation(strings.TrimSpace(rest)):
					b.kind, b.name = 'P', after
				case after == "" && before != "" && before == aloneStation(strings.TrimSpace(t[:cks[0].start])):
					b.kind, b.name = 'P', before
				}
				if b.kind == 'K' {
					clocked = append(clocked, len(bs))
				}
			}
		}
		bs = append(bs, b)
	}
	for _, k := range clocked {
		for j := max(0, k-2); j < min(len(bs), k+3); j++ {
			if b := &bs[j]; b.kind == 'O' && b.name == "" {
				t := strings.TrimSpace(lines[b.line])
				if b.name = aloneStation(t); b.name != "" {
					b.kind = 'S'
				}
			}
		}
	}
	return bs
}

// dayAndClockAlone reports whether t is a date and the clock ck and
// nothing more (a weekday's name aside): "18/12/2027 07:45", "Sa
// 18.12.2027, 07:45".
func dayAndClockAlone(t string, ck clockMatch) bool {
	ds := findDates(t, false)
	if len(ds) != 1 || len(t) > 40 {
		return false
	}
	d := ds[0]
	var rest string
	switch {
	case d.end <= ck.start:
		rest = t[:d.start] + " " + t[d.end:ck.start] + " " + t[ck.end:]
	case ck.end <= d.start:
		rest = t[:ck.start] + " " + t[ck.end:d.start] + " " + t[d.end:]
	default:
		return false // one within the other
	}
	rest = strings.Trim(rest, " ,.-–")
	// A departure's or an arrival's word before them ("Depart: Tue, Mar
	// 9, 2027 8:15 AM"): the stop's name is the line under them.
	if r, ok := depMarkers.starts(rest); ok {
		rest = strings.Trim(r, " :,.-–")
	} else if r, ok := arrMarkers.starts(rest); ok {
		rest = strings.Trim(r, " :,.-–")
	}
	return onlyWeekday(rest)
}

// clockLike reports whether s holds what may be a clock: one or two
// digits, a colon, an "h" or a dot, two digits ("07:30", "7h30").
func clockLike(s string) bool {
	for i := 1; i+2 < len(s); i++ {
		if c := s[i]; (c == ':' || c == 'h' || c == '.') && isDigitByte(s[i-1]) && isDigitByte(s[i+1]) && isDigitByte(s[i+2]) {
			return true
		}
	}
	return false
}

// aloneStation is a line that is a station's name and nothing else, or "":
// no digit, no label's colon, no sentence's mark, and no words of a
// ticket's class or fare, which a card puts under a clock too ("Standard
// Class", "Sparpreis": ticket.class in extract/lang/data).
func aloneStation(t string) string {
	if hasDigit(t) && mayHoldFolded(t, platformAnchors) {
		// Its bay or platform after it ("New York, NY (Port Authority Bus
		// Terminal) - Gate 72").
		t = platformRE.ReplaceAllString(t, "")
	}
	if hasDigit(t) || strings.ContainsAny(t, ":@/!?") || !closingParenthesis(t) {
		return ""
	}
	if l := strings.ToLower(t); ticketClass.In(l) && !stationWordLast(l) {
		return "" // "Standard Class", "Coach"; not "London Victoria Coach Station"
	}
	if s := stationName(t); s != "" && s == strings.TrimRight(t, " .,") {
		return s
	}
	return ""
}

var ticketClass = words.NewWholeSet(lang.Entries("ticket.class"))

// stationWordLast reports whether a lower-cased name ends in a word for
// a station or a terminal, as a stop's does whatever words of a fare it
// holds ("Victoria Coach Station").
func stationWordLast(l string) bool {
	f := strings.Fields(l)
	if len(f) < 2 {
		return false
	}
	switch f[len(f)-1] {
	case "station", "terminal", "stop", "stand":
		return true
	}
	return false
}

// closingParenthesis reports whether t has no parenthesis but one pair
// that ends it, a stop's name's part ("Boston, MA (South Station Bus
// Terminal)").
func closingParenthesis(t string) bool {
	open := strings.Count(t, "(")
	if open == 0 && !strings.Contains(t, ")") {
		return true
	}
	t = strings.TrimRight(t, " .,")
	return open == 1 && strings.Count(t, ")") == 1 && strings.HasSuffix(t, ")") && strings.Index(t, "(") > 0
}

// stackedStops reads a card's stacked blocks, as flattened HTML lays out
// a ticket: each clock alone on its line (perhaps after a marker), its
// station alone on a line next to it. A run of blocks alternates, a clock
// and a station, with at most one other line between two of them (a
// duration, "direct", a marker, a train's code). The station is the
// one after its clock ("07:30", "Birmingham New Street"), unless the run
// starts with a station and ends with a clock ("Köln Hbf", "08:34",
// "München Hbf", "12:58"): then the one before. It maps each clock's line
// to its stop.
func stackedStops(bs []cardBlock) map[int]stackedStop {
	out := map[int]stackedStop{}
	for k := 0; k < len(bs); {
		var run []cardBlock
		skipped, lastSkipped := false, false
		j := k
		for ; j < len(bs); j++ {
			b := bs[j]
			// One other line between two blocks that alternate.
			if b.kind == 'O' && len(run) > 0 && j+1 < len(bs) && !skipped &&
				(bs[j+1].kind == 'K' || bs[j+1].kind == 'S') && bs[j+1].kind != run[len(run)-1].kind {
				skipped = true
				continue
			}
			if b.kind != 'K' && b.kind != 'S' || len(run) > 0 && run[len(run)-1].kind == b.kind {
				break
			}
			run, lastSkipped = append(run, b), skipped
			skipped = false
		}
		// A station after the last clock, past another line ("Köln Hbf",
		// "08:34", "München Hbf", "12:58", "2. Klasse", "Gute Reise …"), is
		// no stop of a run that starts with a station.
		if n := len(run); n > 2 && run[0].kind == 'S' && run[n-1].kind == 'S' && lastSkipped {
			run = run[:n-1]
		}
		stationFirst := len(run) > 0 && run[0].kind == 'S' && run[len(run)-1].kind == 'K'
		for x, b := range run {
			y := x + 1
			if stationFirst {
				y = x - 1
			}
			if b.kind == 'K' && y >= 0 && y < len(run) {
				out[b.line] = stackedStop{run[y].name, run[y].line}
			}
		}
		k = max(j, k+1)
	}
	return out
}

// markerAbove reads a stop's marker alone on the line above its first
// block ("Partenza" over "08:05"), as a card's label block.
func markerAbove(lines []string, i int) (dep, arr bool) {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		ln := strings.TrimSpace(lines[j])
		if ln == "" {
			continue
		}
		if hasDigit(ln) || stationName(ln) != "" {
			return false, false
		}
		return stopMarks(ln)
	}
	return false, false
}

// adjacent reports whether a stop whose first line is bStart follows one
// whose last is aEnd straight away, or after one line between (a
// duration, "direct"; not a date, which makes it another day's, but for
// day, the day both stops are on, alone on its line: a card that prints
// each stop's day under its clock).
func adjacent(lines []string, aEnd, bStart int, day *dateMatch) bool {
	if aEnd < 0 || bStart <= aEnd {
		return false
	}
	between := 0
	for _, ln := range lines[aEnd+1 : bStart] {
		if strings.TrimSpace(ln) == "" {
			continue
		}
		if between++; between > 1 {
			return false
		}
		if ds := findDates(ln, false); len(ds) > 0 && !dayAlone(ln, ds, day) {
			return false
		}
	}
	return true
}

// dayAlone reports whether ln, whose dates are ds, is day and nothing
// else but a weekday's name ("lørdag 13. marts 2027").
func dayAlone(ln string, ds []dateMatch, day *dateMatch) bool {
	if day == nil || len(ds) != 1 || ds[0].m != day.m || ds[0].d != day.d || ds[0].hasYear && ds[0].y != day.y {
		return false
	}
	return onlyWeekday(strings.Trim(ln[:ds[0].start]+" "+ln[ds[0].end:], " ,.-–"))
}

// stackedPair reports whether two adjacent stops, with no marker and no
// train to say so, are a leg (day: the day both are on, if the caller
// knows it): both stations are in towns the places data
// knows ("07:30 Birmingham New Street" over "09:14 Bristol Temple Meads",
// or the same as stacked blocks), not a programme's "Doors open" and
// "Main act", and no other stop is adjacent to them: a list of three and
// more is a train's calling points, not its leg.
func stackedPair(lines []string, stops [][2]int, i int, a, b string, day *dateMatch) bool {
	if !adjacent(lines, stops[i][1], stops[i+1][0], day) ||
		i > 0 && adjacent(lines, stops[i-1][1], stops[i][0], day) ||
		i+2 < len(stops) && adjacent(lines, stops[i+1][1], stops[i+2][0], day) {
		return false
	}
	ka, kb := knownTown(a) || stationNamed(a), knownTown(b) || stationNamed(b)
	if ka && kb {
		return true
	}
	// A station the places data does not know ("Hull", "Stansted
	// Airport": a town of many countries' or none's) beside one it knows,
	// or two beside the journey's duration between them ("2h 58m"), each
	// a name as a place is written, every word capitalised.
	if !properName(a) || !properName(b) {
		return false
	}
	return ka || kb || durationBetween(lines, stops[i][1], stops[i+1][0])
}

// properName reports whether every word of s that is no connector
// ("upon", "de", "am") starts with a capital: a place's name, not a
// programme's "Doors open".
func properName(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	for _, w := range f {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) && !placeConnectors[w] {
			return false
		}
	}
	return true
}

// placeConnectors are the small words a place's name holds in lower case
// ("Newcastle upon Tyne", "Frankfurt am Main", "Gare de Lyon").
var placeConnectors = map[string]bool{"upon": true, "on": true, "under": true, "de": true, "du": true, "des": true, "la": true, "le": true,
	"am": true, "an": true, "im": true, "der": true, "di": true, "del": true, "della": true, "da": true, "do": true, "dos": true, "y": true, "i": true, "en": true, "aan": true, "op": true, "nad": true, "pod": true}

// durationBetween reports whether a line between two stops' blocks is a
// journey's duration alone ("2h 58m", "1 h 5 min").
func durationBetween(lines []string, aEnd, bStart int) bool {
	for _, ln := range lines[aEnd+1 : bStart] {
		if t := strings.TrimSpace(ln); t != "" && hasDigit(t) && strings.TrimSpace(durationRE.ReplaceAllString(t, "")) == "" {
			return true
		}
	}
	return false
}
