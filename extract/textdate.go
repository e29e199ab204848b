package extract

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
)

// Dates and clock times as mails write them, in the languages the node's
// users receive mail in most (English, German, French, Spanish, Italian,
// Dutch, Czech, Danish). A date without a year gets the year that puts it
// nearest after the mail's Date (a booking announces what comes later).

// monthNames maps month names and abbreviations, in every language of
// extract/lang, to 1-12.
var monthNames = lang.Months()

var weekdayNames = lang.Weekdays()

// ownMonths are, by language, the month names it reads as another month
// than monthNames does: Croatian "listopad(a)" is October, Czech's and
// Polish's November.
var ownMonths = lang.OwnMonths()

// sharedMonths are the months monthNames gives the names of ownMonths.
var sharedMonths = func() map[int]bool {
	m := map[int]bool{}
	for _, names := range ownMonths {
		for n := range names {
			m[monthNames[n]] = true
		}
	}
	return m
}()

var (
	monthAlt = func() string {
		names := slices.Collect(maps.Keys(monthNames))
		slices.SortFunc(names, prefixFirstOrder)
		for i, n := range names {
			names[i] = regexp.QuoteMeta(n)
		}
		return strings.Join(names, "|")
	}()
	// 2026-12-01, and the date of an ISO 8601 timestamp
	// ("2026-12-18T07:45:00+01:00"), whose T no word boundary parts from
	// the day: group 4 is the T and the clock's first digit.
	isoDateRE = lazyregexp.New(`\b(\d{4})-(\d{2})-(\d{2})(\b|T\d)`)
	// The clock of an ISO 8601 timestamp, after its date's T: seconds and
	// their fraction perhaps, then perhaps Z or an offset.
	isoClockRE = lazyregexp.New(`\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d(?:[.,]\d+)?)?(Z|[+-](?:[01]\d|1[0-4]):?[0-5]\d)?\b`)
	// 01.12.2026, 1.12.26, 01/12/2026, 28.12. (no year)
	numDateRE = lazyregexp.New(`\b(\d{1,2})([./])(\d{1,2})(?:[./](\d{4}|\d{2}))?(?:\.|\b)`)
	// 14. 4. 2027: Czech, Slovak and some German and Polish mail space
	// the parts; only with its year is it a date.
	spacedDateRE = lazyregexp.New(`\b(\d{1,2})\. (\d{1,2})\. ?(\d{4})\b`)
	// 22-9-2022: Dutch and some printed invoices; with its year only.
	yearFirstRE = lazyregexp.New(`\b(\d{4})([/.])(\d{1,2})([/.])(\d{1,2})\b`)
	dashDateRE  = lazyregexp.New(`\b(\d{1,2})-(\d{1,2})-(\d{4})\b`)
	// 02FEB27: two digits of the day, the month's English abbreviation
	// in capitals (or only its first letter: an e-ticket receipt's
	// "16Aug16"), two digits of the year, or four (an Amadeus e-ticket
	// receipt's "24Jan2024").
	compactDateRE = lazyregexp.New(`\b(\d{2})(` + gdsMonths + `|` + gdsMonthsTitle + `)(\d{4}|\d{2})\b`)
	// " à 17h50", " 09:15": a clock right after a day and month, or
	// after a departure's or an arrival's short marker, as a ticket's
	// table prints a stop's day and clock ("05.03   odj. 06:12").
	clockNext = lazyregexp.New(`^,?\s{1,3}(?:à |a |at |um |om |alle |(?i:ab|an|dep|dép|arr|odj|prz|příj|sal|lleg|afg|ank|avg|part)\.? )?\d{1,2}[:h]\d{2}`)
	// 1 Dec 2026, 1. Dezember 2026, 01 DEC, 1er décembre, 02-Feb-2024,
	// 25/Mar/2030 (slashes only with the year: findDates checks)
	// The end: a word boundary, or for a month name ending in a letter
	// beyond ASCII ("18 декабря, 23:55"), which \b does not see, the
	// character after it, which findDates leaves out of the date.
	dayMonthRE = lazyregexp.New(`(?i)\b(\d{1,2})(?:\.|er|st|nd|rd|th|-|/)?\s*(?:(?:de|of)\s+)?(` + monthAlt + `)\.?(?:,?(?:\s+|-|/)(?:de\s+)?(\d{4}))?(?:\b|[^\p{L}\d_]|$)`)
	// 2026. december 18.: Hungarian, the year first with its dot;
	// 2026 m. gruodžio 18 d.: Lithuanian, the year's "m." and the day's "d.".
	yearMonthDayRE = lazyregexp.New(`(?i)\b(\d{4})(?:\.|\s?m\.)\s?(` + monthAlt + `)\.?\s(\d{1,2})(?:\s?d\.|\b)`)
	// 2026. gada 18. decembrī: Latvian, the year's "gada" ("g.") and then
	// the day and the month; the end as dayMonthRE's.
	yearDayMonthRE = lazyregexp.New(`(?i)\b(\d{4})\.\s?g(?:ada|\.)\s(\d{1,2})\.\s?(` + monthAlt + `)(?:\b|[^\p{L}\d_]|$)`)
	// December 1, 2026; Dec 1 2026
	monthDayRE = lazyregexp.New(`(?i)\b(` + monthAlt + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:\s?,)?(?:\s+(\d{4}))?\b`)
	// monthSlashDayRE is the month's name first with the day and year
	// after slashes or dashes, as a billing system prints a day
	// ("May/13/2014", "Apr-28-2014"); always with its year.
	monthSlashDayRE = lazyregexp.New(`(?i)\b(` + monthAlt + `)[/-](\d{1,2})[/-](\d{4})\b`)
	// 15:52, 3:05 pm, 12h55
	clockRE = lazyregexp.New(`(?i)\b` + clockFromHour)
	// clockAtRE is clockRE from the hour's first digit on (clockMatches).
	clockAtRE = lazyregexp.New(`(?i)^` + clockFromHour)
	// 0845 hrs, 1520hrs: the military form English itineraries print;
	// "1615hr", "0130 H" (Tigerair's, before "(1:30AM)").
	hrsClockRE = lazyregexp.New(`\b([01]\d|2[0-3])([0-5]\d) ?(?:hrs|hours|hr|H)\b`)
	// A clock with a dot, as the Nordic languages and Polish write it
	// ("klo 8.00", "kl. 07.05", "godz. 7.05"), and a range after the
	// word ("klo 08.35–09.25"): only after a word for o'clock, or before
	// "Uhr", "LT" (local time) or an Indonesian zone ("13.05 LT", "08.15
	// WIB": Indonesian airlines' tickets), since "8.12" alone is a date or
	// an amount.
	dottedClockRE = lazyregexp.New(`(?i)(?:(?:^|[^\p{L}])(?:` + oclockAlt + `)\s*(([01]?\d|2[0-3])\.([0-5]\d))(?:\s*[–-]\s*(([01]?\d|2[0-3])\.([0-5]\d)))?|\b(([01]?\d|2[0-3])\.([0-5]\d))\s*(?:Uhr|LT|WITA|WIB|WIT))(?:[^.\d]|\.\D|\.?$)`)
)

// oclockWords are the words for "at" a time that stand before a clock in
// the languages read ("um 10:30", "klo 8.00", "kl. 07.05", "a las 9:30");
// a dot after one is optional. oclockAlt is them as alternatives.
var oclockWords = []string{"a las", "alle", "at", "à", "às", "godz", "hod", "kello", "kl", "klo", "om", "ore", "um"}

var oclockAlt = alternatives(oclockWords)

// shortOclockWords are Polish and Czech words for "at" a time ("o 07:02",
// "v 08:02"): one letter or two, too short to make "8.12" after them a
// clock, but not part of a station's name before a clock.
var shortOclockWords = []string{"o", "v", "ve"}

// prefixFirstOrder orders words as a dictionary does, except that a word
// comes after every word it begins ("june" before "jun"). Of the words an
// alternation of them can match at one place, each begins the others, so
// the longest is tried first, as with longest first; and words that share
// a beginning stand together, which the regexp package folds into one
// branch: the month names' expressions went from 1,450 instructions to
// 915, and a calendar mail whose lines name months took 40% less time.
func prefixFirstOrder(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return len(b) - len(a)
}

// alternatives is words as a regular expression's alternatives, longest
// first, each with an optional dot.
func alternatives(words []string) string {
	var alts []string
	for _, w := range words {
		alts = append(alts, regexp.QuoteMeta(w)+`\.?`)
	}
	return strings.Join(longestFirst(alts), "|")
}

type dateMatch struct {
	y, m, d    int
	start, end int // byte offsets in the text searched
	hasYear    bool
}

// monthSlashed reports whether s has a letter right before a slash or a
// dash and a digit right after, where monthSlashDayRE may match: the
// months' expression is slow, and most lines with a month's name and a
// dash have none.
func monthSlashed(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if (s[i] == '/' || s[i] == '-') && isDigitByte(s[i+1]) {
			if c := s[i-1] | 0x20; c >= 'a' && c <= 'z' || s[i-1] >= 0x80 {
				return true
			}
		}
	}
	return false
}

// findDates returns the dates in s, in order of appearance. usFirst reads
// a slashed date as month first (a US sender).
// dates is findDates of a line read as the sender writes dates, each
// line worked out once a message: the rules for legs, flights and stays
// read the same lines again and again, and the month names' expressions
// are slow. The slices are clipped, so that a caller's append copies.
func (c *msgContext) dates(s string) []dateMatch {
	k := dateKey{s, c.usSender()}
	if ds, ok := c.dateMemo[k]; ok {
		return ds
	}
	if c.dateMemo == nil {
		c.dateMemo = map[dateKey][]dateMatch{}
	}
	ds := slices.Clip(c.findDates(s, k.usFirst))
	c.dateMemo[k] = ds
	return ds
}

// findDates is findDates read in the mail's language: a month's name that
// language reads as another month (ownMonths) is that month. Only a date
// of a month some language's name shares is looked at twice.
func (c *msgContext) findDates(s string, usFirst bool) []dateMatch {
	ds := findDates(s, usFirst)
	var own map[string]int
	for i, d := range ds {
		if !sharedMonths[d.m] {
			continue
		}
		if own == nil {
			ml := c.monthLanguage()
			if ml == unsureMonths {
				// Either reading may be wrong by a month: none.
				return slices.DeleteFunc(ds, func(d dateMatch) bool {
					return sharedMonths[d.m] && len(ownMonthsIn(s[d.start:d.end])) > 0
				})
			}
			if own = ownMonths[ml]; own == nil {
				return ds
			}
		}
		written := strings.ToLower(s[d.start:d.end])
		for name, mo := range own {
			if strings.Contains(written, name) {
				ds[i].m = mo
			}
		}
	}
	return ds
}

// ownMonthsIn is the months a date's text is in the languages that read
// its month's name as another month (ownMonths).
func ownMonthsIn(written string) []int {
	written = strings.ToLower(written)
	var out []int
	for _, names := range ownMonths {
		for name, mo := range names {
			if strings.Contains(written, name) && !slices.Contains(out, mo) {
				out = append(out, mo)
			}
		}
	}
	return out
}

// monthLanguage is the language a mail's month names are read in: its
// words' (lang.Detect), else its letters' or its sender's country's.
// Croatian's common words are most of Serbian's Latin ones (and its short
// ones Czech's), and Serbian writes "oktobar", "novembar": a text Detect
// finds Serbian that writes a Croatian month is Croatian, as one that
// writes ć or đ and no letter only Polish, Czech or Slovak writes (ł, ś,
// ę, ř, ů, á …; Slovenian writes neither ć nor đ), or one from Croatia
// or Bosnia whose letters say no other language.
// unsureMonths is monthLanguage's answer when a month's name may be read
// in two languages that disagree.
const unsureMonths = "?"

func (c *msgContext) monthLanguage() string {
	if !c.langDone {
		c.language, c.langDone = lang.Detect(c.langText), true
	}
	if c.language == "hr" || c.language == "sr" {
		return "hr"
	}
	switch croatianLetters(c.langText) {
	case 1:
		return "hr"
	case 0:
		// A Croatian sender's mail without a letter of either side may
		// be Croatian typed without diacritics, or a Croatian host's
		// Polish or Czech (the sixth outside review): "listopada" is
		// October in one, November in the other, and their common
		// words do not tell them apart. Such a month is read in
		// neither.
		if c.language == "" && (c.senderCountry == "HR" || c.senderCountry == "BA") {
			return unsureMonths
		}
	}
	return c.language
}

// croatianLetters is 1 when the first 4 KB of text write ć or đ and no
// letter only the other Latin Slavic languages write, -1 when they write
// such a letter, else 0.
func croatianLetters(text string) int {
	if len(text) > 4096 {
		text = text[:4096]
	}
	hr := 0
	for _, r := range text {
		switch r {
		case 'ć', 'Ć', 'đ', 'Đ':
			hr = 1
		case 'ł', 'Ł', 'ą', 'Ą', 'ę', 'Ę', 'ś', 'Ś', 'ź', 'Ź', 'ż', 'Ż', 'ń', 'Ń', 'ó', 'Ó',
			'ě', 'Ě', 'ř', 'Ř', 'ů', 'Ů', 'ý', 'Ý', 'á', 'Á', 'é', 'É', 'í', 'Í', 'ú', 'Ú', 'ä', 'ô', 'ľ', 'Ľ', 'ĺ':
			return -1
		}
	}
	return hr
}

// dateKey is a line and how its slashed dates are read.
type dateKey struct {
	s       string
	usFirst bool
}

func findDates(s string, usFirst bool) []dateMatch {
	var out []dateMatch
	taken := func(a, b int) bool {
		for _, d := range out {
			if a < d.end && b > d.start {
				return true
			}
		}
		return false
	}
	dashed := digitsAround(s, "-")
	for _, m := range matchesIf(dashed, isoDateRE, s) {
		y, _ := strconv.Atoi(s[m[2]:m[3]])
		mo, _ := strconv.Atoi(s[m[4]:m[5]])
		d, _ := strconv.Atoi(s[m[6]:m[7]])
		if validDate(y, mo, d) {
			out = append(out, dateMatch{y, mo, d, m[0], m[7], true})
		}
	}
	// "Datum: 110114": a Nordic ticket's day as YYMMDD after its label
	// (smsline.go).
	for _, d := range labelledCompactDates(s) {
		if !taken(d.start, d.end) {
			out = append(out, d)
		}
	}
	for _, d := range cjkDates(s) {
		if !taken(d.start, d.end) {
			out = append(out, d)
		}
	}
	// Named months: "1 Dec 2026" has the day in group 1, "Dec 1, 2026"
	// in group 2; the year, if any, is group 3 of both.
	forms := []struct {
		re       *lazyregexp.Regexp
		dayGroup int
	}{{dayMonthRE, 1}, {monthDayRE, 2}}
	if !hasMonthName(s) {
		forms = nil // the month-name rules are slow; most lines have none
	} else if monthSlashed(s) {
		forms = append(forms, struct {
			re       *lazyregexp.Regexp
			dayGroup int
		}{monthSlashDayRE, 2})
	}
	// The year first, before the forms that would read its month and
	// day without it ("2026. december 18.").
	if forms != nil && yearDot(s) {
		for _, m := range yearMonthDayRE.FindAllStringSubmatchIndex(s, -1) {
			y, _ := strconv.Atoi(s[m[2]:m[3]])
			mo := monthNames[strings.ToLower(s[m[4]:m[5]])]
			d, _ := strconv.Atoi(s[m[6]:m[7]])
			if validDate(y, mo, d) && !taken(m[0], m[1]) {
				out = append(out, dateMatch{y, mo, d, m[0], m[1], true})
			}
		}
		for _, m := range yearDayMonthRE.FindAllStringSubmatchIndex(s, -1) {
			y, _ := strconv.Atoi(s[m[2]:m[3]])
			d, _ := strconv.Atoi(s[m[4]:m[5]])
			mo := monthNames[strings.ToLower(s[m[6]:m[7]])]
			if validDate(y, mo, d) && !taken(m[0], m[7]) {
				out = append(out, dateMatch{y, mo, d, m[0], m[7], true})
			}
		}
	}
	for _, form := range forms {
		for _, m := range form.re.FindAllStringSubmatchIndex(s, -1) {
			if taken(m[0], m[1]) {
				continue
			}
			dg, mg := 2*form.dayGroup, 2*(3-form.dayGroup)
			// "LIS 11:35" is Lisbon's airport and a clock, not the 11th of
			// listopad: a day is never followed by a clock's colon.
			if rest := s[m[dg+1]:]; m[6] < 0 && len(rest) > 1 && rest[0] == ':' && isDigitByte(rest[1]) {
				continue
			}
			// A slash parts a day from its month's name only when another
			// parts the month from the year ("25/Mar/2030"); "12 Mar/2030"
			// is the 12th of March without its year, as before slashes.
			end, year := m[1], m[6] >= 0
			if form.dayGroup == 1 {
				slashDay, slashYear := s[m[3]] == '/', year && s[m[6]-1] == '/'
				if slashDay && !slashYear {
					continue
				}
				if slashYear && !slashDay {
					end, year = m[5], false
				}
			}
			if !year && form.dayGroup == 1 {
				end = m[mg+1] // not the character after the month
				if s[m[3]] != '/' {
					// "10 Jun 26, from PAT to BLR", "05-Nov-24 11:35": a
					// year of two digits after the month's name.
					if y := shortYearAfter(s[end:]); y > 0 {
						end += y
						year = true
					}
				}
			}
			d, _ := strconv.Atoi(s[m[dg]:m[dg+1]])
			mo := monthNames[strings.ToLower(s[m[mg]:m[mg+1]])]
			dm := dateMatch{m: mo, d: d, start: m[0], end: end}
			if year && m[6] >= 0 && end >= m[7] {
				dm.y, _ = strconv.Atoi(s[m[6]:m[7]])
				dm.hasYear = true
			} else if year {
				dm.y, _ = strconv.Atoi(s[end-2 : end])
				dm.y += 2000
				dm.hasYear = true
			}
			if validDate(max(dm.y, 2000), mo, d) {
				out = append(out, dm)
			}
		}
	}
	// A booking system's day, month and year run together ("02FEB27"),
	// as an itinerary receipt's table prints them.
	if forms != nil {
		for _, m := range compactDateRE.FindAllStringSubmatchIndex(s, -1) {
			d, _ := strconv.Atoi(s[m[2]:m[3]])
			y, _ := strconv.Atoi(s[m[6]:m[7]])
			if y < 100 {
				y += 2000
			}
			mo := gdsMonthNum[strings.ToUpper(s[m[4]:m[5]])]
			if validDate(y, mo, d) && !taken(m[0], m[1]) {
				out = append(out, dateMatch{y, mo, d, m[0], m[1], true})
			}
		}
	}
	for _, m := range matchesIf(dashed, dashDateRE, s) {
		d, _ := strconv.Atoi(s[m[2]:m[3]])
		mo, _ := strconv.Atoi(s[m[4]:m[5]])
		y, _ := strconv.Atoi(s[m[6]:m[7]])
		if validDate(y, mo, d) && !taken(m[0], m[1]) {
			out = append(out, dateMatch{y, mo, d, m[0], m[1], true})
		}
	}
	for _, m := range matchesIf(strings.Contains(s, ". "), spacedDateRE, s) {
		d, _ := strconv.Atoi(s[m[2]:m[3]])
		mo, _ := strconv.Atoi(s[m[4]:m[5]])
		y, _ := strconv.Atoi(s[m[6]:m[7]])
		if validDate(y, mo, d) && !taken(m[0], m[1]) {
			out = append(out, dateMatch{y, mo, d, m[0], m[1], true})
		}
	}
	// Year first with slashes or dots ("2030/03/25", "2030.03.25"), as
	// East Asian and some billing systems print dates.
	for _, m := range matchesIf(yearFirstSep(s), yearFirstRE, s) {
		if s[m[4]] != s[m[8]] || taken(m[0], m[1]) {
			continue
		}
		y, _ := strconv.Atoi(s[m[2]:m[3]])
		mo, _ := strconv.Atoi(s[m[6]:m[7]])
		d, _ := strconv.Atoi(s[m[10]:m[11]])
		if validDate(y, mo, d) {
			out = append(out, dateMatch{y, mo, d, m[0], m[1], true})
		}
	}
	for _, m := range matchesIf(digitsAround(s, "./"), numDateRE, s) {
		if taken(m[0], m[1]) {
			continue
		}
		a, _ := strconv.Atoi(s[m[2]:m[3]])
		b, _ := strconv.Atoi(s[m[6]:m[7]])
		sep := s[m[4]:m[5]]
		dm := dateMatch{d: a, m: b, start: m[0], end: m[1]}
		if m[8] >= 0 {
			dm.y, _ = strconv.Atoi(s[m[8]:m[9]])
			if dm.y < 100 {
				dm.y += 2000
			}
			dm.hasYear = true
		} else if sep == "/" && cjkWeekdayNext(s[m[1]:]) {
			dm.d, dm.m = b, a // "12/18(金)": month first, before its weekday
		} else if (sep != "." || !strings.HasSuffix(s[m[0]:m[1]], ".")) && !clockNext.MatchString(s[m[1]:]) && !dayOnThenClock(s, m[0], m[1], sep) {
			continue // "12/3" or "3.5" without a year is no date, unless a clock follows
		}
		if sep == "/" && (usFirst && a <= 12 || b > 12) {
			dm.d, dm.m = b, a
		}
		// A weekday before a date of two readings says which it is: "Sat
		// 12/05/2026" is 5 December (a Saturday), not 12 May (a Tuesday),
		// whoever sends it.
		if dm.hasYear && a <= 12 && b <= 12 && a != b {
			if wd, ok := weekdayBefore(s[:m[0]]); ok {
				other := dm
				other.d, other.m = dm.m, dm.d
				if weekdayOf(dm) != wd && weekdayOf(other) == wd {
					dm = other
				}
			}
		}
		// A clock time like 15.52 is not a date; a date has a plausible month.
		if validDate(max(dm.y, 2000), dm.m, dm.d) {
			out = append(out, dm)
		}
	}
	// In order of appearance.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].start < out[j-1].start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// shortYearRE is a year of two digits after a month's name (what follows
// the name, its dot perhaps), as text messages and booking systems print
// a day ("10 Jun 26, from PAT", "05-Nov-24 11:35"): the line's end, a
// punctuation mark, a range's dash, or a clock after it, a short word
// between perhaps ("26 at 22:40", "26 dep 06:05", "26 um 06:35"), so that a day and month before a clock ("12 Dec 18:00"), a count or a
// weight ("3 Jun 20 kg") are not read as one.
var shortYearRE = lazyregexp.New(`^\.?(?:[ \t]+|-)(1\d|[2-4]\d)(?:[ \t]*(?:$|[\r\n,;|)\]])|[ \t]+(?:[-–—][ \t]|(?:\pL{1,5}\.?[ \t]+)?\d{1,2}[:h]\d{2}\b))`)

// shortYearAfter is the length of a two-digit year (shortYearRE) that
// rest, the text after a month's name, starts with, up to the year's
// last digit, or 0: the year is rest[n-2:n].
func shortYearAfter(rest string) int {
	if m := shortYearRE.FindStringSubmatchIndex(rest); m != nil {
		return m[3]
	}
	return 0
}

// yearFirstSep reports whether s holds four digits and a slash or a dot
// before a digit: yearFirstRE's quick test.
func yearFirstSep(s string) bool {
	run := 0
	for i := 0; i+1 < len(s); i++ {
		switch c := s[i]; {
		case isDigitByte(c):
			run++
		case (c == '/' || c == '.') && run == 4 && isDigitByte(s[i+1]):
			return true
		default:
			run = 0
		}
	}
	return false
}

// yearDot reports whether s holds four digits and a dot before a space
// or a letter, or four digits and " m." (Lithuanian): the quick test of
// yearMonthDayRE and yearDayMonthRE.
func yearDot(s string) bool {
	run := 0
	for i := 0; i+1 < len(s); i++ {
		switch c := s[i]; {
		case isDigitByte(c):
			run++
		case c == '.' && run == 4 && !isDigitByte(s[i+1]):
			return true
		case c == ' ' && run == 4 && strings.HasPrefix(s[i+1:], "m."):
			return true
		default:
			run = 0
		}
	}
	return false
}

// hasMonthName reports whether a run of letters in s is a month name:
// three to twelve letters ("października", "Σεπτεμβρίου"), counted as
// letters, since a Greek or Cyrillic one takes two bytes each.
func hasMonthName(s string) bool {
	start, n := -1, 0
	for i, r := range s + " " {
		if unicode.IsLetter(r) {
			if start < 0 {
				start, n = i, 0
			}
			n++
			continue
		}
		if start >= 0 && n >= 3 && n <= 12 {
			if _, ok := monthNames[strings.ToLower(s[start:i])]; ok {
				return true
			}
		}
		start = -1
	}
	return false
}

func validDate(y, m, d int) bool {
	if y < 1990 || y > 2200 || m < 1 || m > 12 || d < 1 {
		return false
	}
	return d <= time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// unknownYear is the year given to a date written without one in a mail
// that gives nothing to read it by (no Date header, no line with a
// year): the year it is read in is not the year it was written in, and
// KItinerary's inputs carried without their mail's header show what a
// guess costs (a 2018 booking read as this year's). withoutUnknownYears
// drops what such a date went into.
const unknownYear = 1

// withYear completes a date without a year from the mail's date: the
// first such day from 30 days before the mail onwards; without a date to
// read it by, the year is unknownYear.
func (d dateMatch) withYear(ref time.Time) dateMatch {
	if d.hasYear || ref.IsZero() {
		if !d.hasYear {
			d.y = unknownYear
		}
		return d
	}
	y := ref.Year()
	cand := time.Date(y, time.Month(d.m), d.d, 0, 0, 0, 0, time.UTC)
	if cand.Before(ref.AddDate(0, 0, -30)) {
		y++
	}
	d.y = y
	return d
}

type clockMatch struct {
	h, m       int
	start, end int
	// offset is the UTC offset written with the clock (an ISO 8601
	// timestamp's "+01:00" or "Z"), in seconds east, when hasOffset.
	hasOffset bool
	offset    int
}

// hasClockShape reports whether s holds a digit, one of seps and two
// digits, the first of them 0 to 5 ("8:05", "12h30"): every clock of
// clockRE (seps ":hH") or dottedClockRE (".") does. The expressions have
// no literal to look for first and cost a hundred times this scan, on
// lines that mostly hold no clock.
func hasClockShape(s, seps string) bool {
	for i := 0; i+3 < len(s); i++ {
		if isDigitByte(s[i]) && strings.IndexByte(seps, s[i+1]) >= 0 && '0' <= s[i+2] && s[i+2] <= '5' && isDigitByte(s[i+3]) {
			return true
		}
	}
	return false
}

// digitsAround reports whether s holds a digit, one of seps and a digit
// in a row ("2027-05", "12.05", "3/4"): every date of the numeric date
// expressions does, and a line without it needs none of them run.
func digitsAround(s, seps string) bool {
	for i := 1; i+1 < len(s); i++ {
		if strings.IndexByte(seps, s[i]) >= 0 && isDigitByte(s[i-1]) && isDigitByte(s[i+1]) {
			return true
		}
	}
	return false
}

// matchesIf is re's submatches in s when ok, the shape every match of re
// needs, says there may be any.
func matchesIf(ok bool, re *lazyregexp.Regexp, s string) [][]int {
	if !ok {
		return nil
	}
	return re.FindAllStringSubmatchIndex(s, -1)
}

// clockFromHour is a clock from its hour on: "08:15", "8h15", "7:45 pm".
// The half of the day may be its letter alone, against the minutes ("7:45a",
// "12:10p"), as US airlines' mail prints it, or spelt with a space after
// its first dot as Spanish writes it ("1:20 p. m.").
const clockFromHour = `([01]?\d|2[0-3])(?::|h)([0-5]\d)(?:\s*(a\.?m\.?|p\.?m\.?|a\.\sm\.?|p\.\sm\.?)|([ap]))?(?:\b|$)`

// clockMatches is clockRE's matches in s. A clock's hour is the one or
// two digits before a colon or an h that two digits of minutes follow,
// so the expression is tried only there (clockAtRE), leftmost first and
// each after the last one's end, as FindAll would: run from every byte of
// a mail it was a fifteenth of a travel mail's extraction.
func clockMatches(s string) [][]int {
	var out [][]int
	last := 0
	try := func(p int) bool {
		// \b before the hour: the byte before it is no word's.
		if p < last || p > 0 && isWordByte(s[p-1]) || !isDigitByte(s[p]) {
			return false
		}
		m := matchAt(clockAtRE, s, p)
		if m == nil {
			return false
		}
		out = append(out, m)
		last = m[1]
		return true
	}
	for i := 1; i+2 < len(s); i++ {
		if c := s[i]; c != ':' && c|0x20 != 'h' || !isDigitByte(s[i-1]) || s[i+1] < '0' || s[i+1] > '5' || !isDigitByte(s[i+2]) {
			continue
		}
		if i >= 2 && try(i-2) {
			continue
		}
		try(i - 1)
	}
	return out
}

// isWordByte reports whether b is a byte of \w, ASCII letters, digits and
// the underscore: what the expressions' \b tells words by.
func isWordByte(b byte) bool {
	return b == '_' || isDigitByte(b) || 'a' <= b|0x20 && b|0x20 <= 'z'
}

func findClocks(s string) []clockMatch {
	var out []clockMatch
	for _, m := range clockMatches(s) {
		if m[6] < 0 && m[8] >= 0 {
			m[6], m[7] = m[8], m[9] // "7:45a"
		}
		h, _ := strconv.Atoi(s[m[2]:m[3]])
		mi, _ := strconv.Atoi(s[m[4]:m[5]])
		if m[6] >= 0 && h > 12 && s[m[6]:m[7]] == "am" {
			// German's "am" before a day ("Abfahrt 18:10 am 19. April")
			// is no half of the day that a clock past noon cannot have:
			// the clock ends at its minutes.
			m[1], m[6] = m[5], -1
		}
		if m[6] >= 0 {
			pm := strings.HasPrefix(strings.ToLower(s[m[6]:m[7]]), "p")
			if h > 12 {
				continue
			}
			if pm && h < 12 {
				h += 12
			} else if !pm && h == 12 {
				h = 0
			}
		}
		// "오후 7:45", "下午 7:45": the word before it says which half of
		// the day.
		if m[6] < 0 && h <= 12 && m[0] > 0 && s[m[0]-1] >= 0x80 || m[0] > 1 && s[m[0]-1] == ' ' && s[m[0]-2] >= 0x80 {
			if pm, ok := cjkMeridiem(s[:m[0]]); ok {
				if pm && h < 12 {
					h += 12
				} else if !pm && h == 12 {
					h = 0
				}
			}
		}
		// "2:30h" durations and "1:1000" scales are rare enough; a clock
		// directly after a digit or dot is part of something else. After
		// a label's colon it is the label's ("Departure:08:15").
		if m[0] > 0 && (s[m[0]-1] == '.' || s[m[0]-1] == ':' && (m[0] < 2 || !isASCIILetter(s[m[0]-2])) || s[m[0]-1] == ',') {
			continue
		}
		// "Duração: 1h20": a duration, not a clock (hourclock.go).
		if s[m[3]]|0x20 == 'h' && hDuration(s, m[0], m[1]) {
			continue
		}
		out = append(out, clockMatch{h: h, m: mi, start: m[0], end: m[1]})
	}
	out = isoClocks(s, out)
	out = hClocks(s, out)
	if strings.Contains(s, "hr") || strings.Contains(s, "hour") || fourDigitsH(s) {
		// "0845 hrs": four digits, only with the word that says so.
		for _, m := range hrsClockRE.FindAllStringSubmatchIndex(s, -1) {
			h, _ := strconv.Atoi(s[m[2]:m[3]])
			mi, _ := strconv.Atoi(s[m[4]:m[5]])
			out = append(out, clockMatch{h: h, m: mi, start: m[0], end: m[1]})
		}
		slices.SortFunc(out, func(a, b clockMatch) int { return a.start - b.start })
	}
	if ck, ok := markedStopDottedClock(s); ok && !slices.ContainsFunc(out, func(o clockMatch) bool { return o.start < ck.end && ck.start < o.end }) {
		out = append(out, ck)
		slices.SortFunc(out, func(a, b clockMatch) int { return a.start - b.start })
	}
	out = repeatedClocks(s, out)
	if !dottedClockMay(s) {
		return out
	}
	for _, m := range dottedClockRE.FindAllStringSubmatchIndex(s, -1) {
		// Groups: the clock after a word and its hour and minute, the
		// range's second clock, then a clock before "Uhr".
		for _, g := range [][3]int{{2, 4, 6}, {8, 10, 12}, {14, 16, 18}} {
			if m[g[0]] < 0 {
				continue
			}
			h, _ := strconv.Atoi(s[m[g[1]]:m[g[1]+1]])
			mi, _ := strconv.Atoi(s[m[g[2]]:m[g[2]+1]])
			ck := clockMatch{h: h, m: mi, start: m[g[0]], end: m[g[0]+1]}
			// Clocks do not overlap ("10h30.15 Uhr"): callers slice
			// between them.
			if !slices.ContainsFunc(out, func(o clockMatch) bool { return o.start < ck.end && ck.start < o.end }) {
				out = append(out, ck)
			}
		}
	}
	slices.SortFunc(out, func(a, b clockMatch) int { return a.start - b.start })
	return out
}

// repeatedClocks folds a clock that the next repeats in parentheses, in
// the other way of writing it, into one clock over both ("2215 hrs (
// 10:15PM)", "14:05 (2:05 PM)"): one time of the day, not a departure's
// and an arrival's. out is sorted by start.
func repeatedClocks(s string, out []clockMatch) []clockMatch {
	for k := 1; k < len(out); k++ {
		a, b := out[k-1], out[k]
		if a.h != b.h || a.m != b.m || strings.TrimSpace(s[a.end:b.start]) != "(" {
			continue
		}
		rest := strings.TrimLeft(s[b.end:], " ")
		if !strings.HasPrefix(rest, ")") {
			continue
		}
		out[k-1].end = len(s) - len(rest) + 1
		out = slices.Delete(out, k, k+1)
	}
	return out
}

// dottedClockMay reports whether s may hold a match of dottedClockRE:
// a dotted clock ("8.00") with "Uhr" after it, or with a word for o'clock
// before it, its dot and the white space between. A mail's prices and
// dates are dotted clocks' shape too; the expression, run from every
// byte of such a mail, was a fifteenth of a travel mail's extraction.
// Letters compare as the expression's (?i) does (FuzzDottedClockMay).
func dottedClockMay(s string) bool {
	for i := 1; i+2 < len(s); i++ {
		if s[i] != '.' || !isDigitByte(s[i-1]) || s[i+1] < '0' || s[i+1] > '5' || !isDigitByte(s[i+2]) {
			continue
		}
		j := i + 3
		for j < len(s) && isRESpace(s[j]) {
			j++
		}
		if len(s)-j >= 3 && (strings.EqualFold(s[j:j+3], "uhr") || strings.EqualFold(s[j:j+3], "wib") || strings.EqualFold(s[j:j+3], "wit")) ||
			len(s)-j >= 2 && strings.EqualFold(s[j:j+2], "lt") {
			return true
		}
		for h := i - 1; h >= 0 && h >= i-2 && isDigitByte(s[h]); h-- {
			e := h
			for e > 0 && isRESpace(s[e-1]) {
				e--
			}
			for _, w := range oclockWords {
				if endsWithFold(s[:e], w) || e > 0 && s[e-1] == '.' && endsWithFold(s[:e-1], w) {
					return true
				}
			}
		}
	}
	return false
}

// isRESpace reports whether b is a byte of the expressions' \s.
func isRESpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// endsWithFold reports whether s ends with w, letters compared by Unicode
// simple folding, as (?i) compares them (the Kelvin sign is a k).
func endsWithFold(s, w string) bool {
	for w != "" {
		if s == "" {
			return false
		}
		r, n := utf8.DecodeLastRuneInString(s)
		q, k := utf8.DecodeLastRuneInString(w)
		if r != q {
			f := unicode.SimpleFold(r)
			for f != r && f != q {
				f = unicode.SimpleFold(f)
			}
			if f != q {
				return false
			}
		}
		s, w = s[:len(s)-n], w[:len(w)-k]
	}
	return true
}

// stopDottedClockRE is a dotted clock that ends a line.
var stopDottedClockRE = lazyregexp.New(`[ \t]([01]?\d|2[0-3])\.([0-5]\d)[ \t]*$`)

// markedStopDottedClock is the dotted clock that closes a stop's line a
// departure's or an arrival's marker opens, as Nordic tickets print it
// ("Avg. Linköping C 12.00", "Ank. Södertälje Syd 13.33"): no word for
// o'clock before it, but the station's name between the marker and it
// says it is no date or amount ("Abreise 12.05" is none).
func markedStopDottedClock(s string) (clockMatch, bool) {
	t := strings.TrimRight(s, " \t\r\n")
	// The line must end in a digit, a dot and two digits before any
	// expression runs: most dotted lines are dates.
	if n := len(t); n < 5 || t[n-3] != '.' || !isDigitByte(t[n-4]) || !isDigitByte(t[n-2]) || !isDigitByte(t[n-1]) {
		return clockMatch{}, false
	}
	m := stopDottedClockRE.FindStringSubmatchIndex(t)
	if m == nil {
		return clockMatch{}, false
	}
	rest, ok := allStopMarkers.starts(t[:m[0]])
	if !ok {
		return clockMatch{}, false
	}
	name := strings.Trim(rest, " \t:.-–")
	if name == "" || stationName(name) != name {
		return clockMatch{}, false
	}
	h, _ := strconv.Atoi(t[m[2]:m[3]])
	mi, _ := strconv.Atoi(t[m[4]:m[5]])
	return clockMatch{h: h, m: mi, start: m[2], end: m[5]}, true
}

// isoClocks adds to out the clocks of the ISO 8601 timestamps in s
// ("2026-12-18T07:45:00+01:00", machine-made text writes them): the clock
// after the T, with the offset written after it. clockRE finds none of
// them, since no word boundary parts the T from the hour, and finds the
// offset's "01:00" instead, which is dropped.
func isoClocks(s string, out []clockMatch) []clockMatch {
	if !strings.Contains(s, "T") || !digitsAround(s, "-") {
		return out
	}
	for _, m := range isoClockRE.FindAllStringSubmatchIndex(s, -1) {
		h, _ := strconv.Atoi(s[m[2]:m[3]])
		mi, _ := strconv.Atoi(s[m[4]:m[5]])
		// The T goes with the clock: what is left when a reader cuts the
		// clock out is the date as it is written alone.
		ck := clockMatch{h: h, m: mi, start: m[2] - 1, end: m[1]}
		// The offset's "01:00" is no clock of its own.
		out = slices.DeleteFunc(out, func(o clockMatch) bool { return o.start < m[1] && m[0] < o.end })
		if m[6] >= 0 {
			if w, ok := parseDateTime("2000-01-01T00:00" + s[m[6]:m[7]]); ok && w.hasOffset {
				ck.hasOffset, ck.offset = true, w.offset
			}
		}
		out = append(out, ck)
	}
	slices.SortFunc(out, func(a, b clockMatch) int { return a.start - b.start })
	return out
}

// at combines a date and a clock into a wall time, with the offset the
// clock was written with.
func at(d dateMatch, c *clockMatch) wallTime {
	w := wallTime{y: d.y, mo: d.m, d: d.d, dateOnly: c == nil}
	if c != nil {
		w.h, w.mi = c.h, c.m
		w.hasOffset, w.offset = c.hasOffset, c.offset
	}
	return w
}

// timeRange reports whether two clocks of a line are a span: a dash or an
// arrow between them ("20:35 – 06:50", "20:35 – 13.07.2027 06:50").
func timeRange(ln string, a, b clockMatch) bool {
	between := ln[a.end:b.start]
	return len(between) <= 16 && strings.ContainsAny(between, "-–—→>")
}

// firstFullDate is the first date with a year in text, or zero; dates
// reads a line's.
func firstFullDate(text string, dates func(string) []dateMatch) time.Time {
	for ln := range strings.Lines(text) {
		for _, d := range dates(ln) {
			// A printout's "02JUL 1215" is a day and a clock, not the
			// year 1215.
			if d.hasYear && validDate(d.y, d.m, d.d) {
				return time.Date(d.y, time.Month(d.m), d.d, 0, 0, 0, 0, time.UTC)
			}
		}
	}
	return time.Time{}
}

// isASCIILetter reports whether b is an ASCII letter.
func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// weekdayBefore is the weekday a text ends with, its name or its
// abbreviation in any language extract/lang knows ("Sat ", "samedi ",
// "Sa., "), and whether it ends with one.
func weekdayBefore(before string) (time.Weekday, bool) {
	before = strings.TrimRight(before, " ,.\t")
	i := strings.LastIndexFunc(before, func(r rune) bool { return !unicode.IsLetter(r) })
	w := strings.ToLower(before[i+1:])
	if w == "" {
		return 0, false
	}
	d, ok := weekdayNames[w] // 1 Monday … 7 Sunday
	return time.Weekday(d % 7), ok
}

// weekdayOf is the weekday of a date with its year.
func weekdayOf(d dateMatch) time.Weekday {
	return time.Date(d.y, time.Month(d.m), d.d, 12, 0, 0, 0, time.UTC).Weekday()
}

// fourDigitsH reports whether s has four digits, a space or none, then a
// capital H: a clock's hours and minutes as some itineraries print them
// ("0130 H"). A byte scan before hrsClockRE runs.
func fourDigitsH(s string) bool {
	for i := 4; i < len(s); i++ {
		if s[i] != 'H' {
			continue
		}
		j := i
		if s[j-1] == ' ' {
			j--
		}
		if j >= 4 && isDigitByte(s[j-1]) && isDigitByte(s[j-2]) && isDigitByte(s[j-3]) && isDigitByte(s[j-4]) {
			return true
		}
	}
	return false
}
