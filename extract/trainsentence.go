package extract

import (
	"mailnode/extract/lazyregexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
)

// A whole trip in one sentence: the train, its stops after the words for
// "from" and "to", the day and the clock after the words for "on" and
// "at", as German, French, Italian, Spanish, Dutch and English write it
// ("ICE 123 von Köln Hbf nach Berlin Hbf am 12.03. um 08:15", "TGV 6204
// de Paris Gare de Lyon à Lyon Part-Dieu le 12/03/2027 à 08h15", "IC 1012
// van Amsterdam Centraal naar Rotterdam Centraal op 12-03-2027 om 08:15"),
// the day and clocks also on the line under the stops ("ICE 123 von Berlin
// Hbf nach München Hbf" / "am 15.07.2026 um 08:30, an 14:15"). The
// arrival's clock is read only after a word for the arrival or a dash.

// sentenceStopsRE is the part after a train's number: a word for "from"
// (departure.marker), the departure's name in capitals, a word for "to"
// (arrival.marker) and the rest of the line, which starts with the
// arrival's name.
var sentenceStopsRE = lazyregexp.New(`^[ \t]+(?i:` + markerAlt("departure.marker") + `)[ \t]+(\p{Lu}.*?)[ \t]+(?i:` +
	markerAlt("arrival.marker") + `)[ \t]+(\p{Lu}.*)$`)

// arrivalWordRE is what may stand between the departure's clock and the
// arrival's: a word for the arrival (arrival in extract/lang), a word for
// o'clock after it, or a dash.
var arrivalWordRE = lazyregexp.New(`^(?:(?i:` + strings.Join(longestFirst(lang.Entries("arrival")), "|") + `)(?:[ \t]+(?i:` +
	oclockAlt + `))?|[-–—]|bis)$`)

// markerAlt is a category's words as alternatives, quoted.
func markerAlt(category string) string {
	return strings.Join(quoteAll(longestFirst(lang.Entries(category))), "|")
}

// sentenceLeg is the leg of line i when it is a trip in one sentence,
// and the line of its day and clocks when that is the next one (-1 if the
// same).
func (c *msgContext) sentenceLeg(lines []string, i int, ref time.Time) (*Segment, int) {
	ln := lines[i]
	idx := trainNumRE.FindStringIndex(ln)
	if idx == nil {
		return nil, -1
	}
	m := sentenceStopsRE.FindStringSubmatch(ln[idx[1]:])
	if m == nil {
		return nil, -1
	}
	number := normaliseTrain(ln[idx[0]:idx[1]])
	to, rest, used := m[2], "", -1
	if ds := c.dates(to); len(ds) > 0 {
		to, rest = to[:ds[0].start], to[ds[0].start:]
	} else {
		// The day and clocks on the next line that is not blank.
		for j := i + 1; j < len(lines) && j <= i+2; j++ {
			next := strings.TrimSpace(lines[j])
			if next == "" {
				continue
			}
			if ds := c.dates(next); len(ds) > 0 && dayWordsOnly(next[:ds[0].start]) {
				rest, used = next[ds[0].start:], j
			}
			break
		}
	}
	if rest == "" {
		return nil, -1
	}
	from, to := sentenceStation(m[1], false), sentenceStation(to, true)
	if from == "" || to == "" {
		return nil, -1
	}
	ds := c.dates(rest)
	if len(ds) == 0 || ds[0].start != 0 {
		return nil, -1
	}
	day := ds[0].withYear(ref)
	after := rest[ds[0].end:]
	clocks := findClocks(after)
	if len(clocks) == 0 || !clockWordOnly(after[:clocks[0].start]) {
		return nil, -1
	}
	dep := clocks[0]
	var arr *clockMatch
	if len(clocks) > 1 && arrivalWordRE.MatchString(strings.Trim(after[dep.end:clocks[1].start], " \t,;.()")) {
		arr = &clocks[1]
	} else if len(clocks) > 1 {
		return nil, -1 // another clock whose meaning the sentence does not say
	}
	if arr == nil {
		seg := c.railLeg(number, from, to, day, day, &dep, &dep)
		seg.Arrive = nil
		return seg, used
	}
	return c.railLeg(number, from, to, day, day, &dep, arr), used
}

// sentenceStation is a stop's name in a sentence: each word in capitals or
// a name's small word ("Paris Gare de Lyon", "Frankfurt am Main"), or a
// code; the arrival's may end in a word for "on" and a weekday before its
// date ("nach Berlin am", "à Lyon Part-Dieu le", "a Roma Termini il
// giovedì"). A word in lower case else is no name ("nach Berlin fällt am
// 12.03. aus": not a trip).
func sentenceStation(s string, arrival bool) string {
	f := strings.Fields(strings.TrimRight(s, " \t,;"))
	if arrival {
		for n := 0; n < 2 && len(f) > 1; n++ {
			last := strings.ToLower(strings.TrimRight(f[len(f)-1], ","))
			if weekdayNames[last] > 0 || dayWords[last] {
				f = f[:len(f)-1]
			}
		}
	}
	if len(f) == 0 || len(f) > 6 {
		return ""
	}
	for k, w := range f {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsUpper(r) || unicode.IsDigit(r) || r == '(' {
			continue
		}
		if k > 0 && k < len(f)-1 && (nameParticle[w] || stationParticles[w]) {
			continue
		}
		return ""
	}
	return stationName(strings.TrimRight(strings.Join(f, " "), ","))
}

// dayWords are the words for "on" before a day's date in the languages
// that write a trip in one sentence (day.on in extract/lang/data: "am",
// "le", "il", "el", "op", "on").
var dayWords = wordSet("day.on")

// stationParticles are the small words inside a station's name that
// name.particle does not hold: "Frankfurt am Main", "Halle an der Saale",
// "Villeneuve-lès-Avignon".
var stationParticles = map[string]bool{"am": true, "an": true, "im": true, "in": true, "ob": true, "sur": true, "sul": true, "lès": true, "les": true}

// dayWordsOnly reports whether s, the text before a date, is empty or a
// word for "on" and a weekday ("am", "le", "Montag,").
func dayWordsOnly(s string) bool {
	for _, w := range strings.Fields(s) {
		w = strings.ToLower(strings.TrimRight(w, ","))
		if !dayWords[w] && weekdayNames[w] == 0 {
			return false
		}
	}
	return true
}

// clockWordOnly reports whether s, the text between a date and its clock,
// is empty or a word for o'clock ("um", "à", "alle", "a las", "om", "at")
// with a comma.
func clockWordOnly(s string) bool {
	t := strings.ToLower(strings.Trim(s, " \t,"))
	if t == "" {
		return true
	}
	for _, w := range oclockWords {
		if t == w {
			return true
		}
	}
	return false
}

// dayOnThenClock reports whether the slashed day and month without a year
// at s[start:end] follow a word for "on" (day.on) and come before a clock
// on the same line or a word for "from" of three letters or more right
// after it: a trip told in one sentence ("Italo 8924 on 07/09 from
// Firenze SMN (18:54) to …", "Treno 9511 il 12/03 da Roma Termini alle
// 08:15"; the reader of a leg on one line looks at the text before its
// first clock again). "12/3" alone is a fraction, a score or a page as
// often.
func dayOnThenClock(s string, start, end int, sep string) bool {
	if sep != "/" {
		return false
	}
	before := strings.Fields(s[:start])
	if len(before) == 0 || !dayWords[strings.ToLower(before[len(before)-1])] {
		return false
	}
	rest := s[end:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	if f := strings.Fields(rest); len(f) > 0 && depMarkers.has(strings.ToLower(f[0])) {
		return true
	}
	return len(findClocks(rest)) > 0
}

// firstWordMarker is where the text after s's first word starts when
// that word is a marker of m ("de Paris Gare de Lyon" after a day), or -1.
func firstWordMarker(s string, m stopMarkers) int {
	for start, end := range letterRuns(s) {
		if strings.TrimSpace(s[:start]) != "" {
			return -1 // the day's own punctuation aside, nothing before the word
		}
		if m.has(strings.ToLower(s[start:end])) {
			return end
		}
		return -1
	}
	return -1
}

// brandNumberBefore is the number of a service known by its brand that
// ends s, the text before a trip's day, a word for "on" and a weekday
// aside ("… - Italo 8924 on", "Northline 1290 on"): two to five digits
// after one capitalised word that is no label's, weekday's, month's,
// coach's or seat's word ("Booking 12345 on …" is none). "" else.
func brandNumberBefore(s string) string {
	f := strings.Fields(s)
	for len(f) > 0 {
		l := strings.ToLower(strings.TrimRight(f[len(f)-1], ","))
		if !dayWords[l] && weekdayNames[l] == 0 {
			break
		}
		f = f[:len(f)-1]
	}
	if len(f) < 2 {
		return ""
	}
	num, brand := f[len(f)-1], f[len(f)-2]
	if len(num) < 2 || len(num) > 5 || strings.Trim(num, "0123456789") != "" {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(brand)
	if !unicode.IsUpper(r) || utf8.RuneCountInString(brand) < 3 || strings.IndexFunc(brand, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return ""
	}
	l := lower(brand)
	if weekdayNames[l] > 0 || monthNames[l] > 0 || notService[l] || labelWords[l] {
		return ""
	}
	return num
}
