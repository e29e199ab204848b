package extract

import (
	"slices"
	"strconv"
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
)

// The clocks French, Canadian French, Portuguese and Spanish write with an
// "h" between the hour and the minutes and spaces around it ("14 h 30",
// "à 7 h 05"), or with the hour alone ("às 14h", "à partir de 15 h").
// clockFromHour reads the form without spaces ("14h30"). A duration is
// written the same way ("durée 2 h 15", "Duração: 1h20"): after a word for
// a duration (duration in extract/lang/data) or before minutes' word
// ("2 h 30 min") it is none.

// clockShape is the text of a clock in a reader's expression that cuts
// a stop's clock out of its line: "14:30", "14.30", "14h30", and the h
// forms hClocks reads ("14 h 30", "14h"), which findClocks then reads from
// the cut text alone.
const clockShape = `\d{1,2}(?:[:.h]\d{2}| ?h ?\d{2}| ?h)`

// hClockRE is a clock with a spaced h and its minutes (groups 1, 2) or an
// hour and its h alone (group 3); "14h30" is clockFromHour's.
var hClockRE = lazyregexp.New(`(?i)\b([01]?\d|2[0-3])(?: h ?| ?h )([0-5]\d)(?:[^\p{L}\d]|$)|\b([01]?\d|2[0-3]) ?h(?:[^\p{L}\d]|$)`)

// hourOnlyWords are the words an hour with its h and no minutes must
// follow to be a clock: the words for "at" (oclockWords) and "from"
// ("à partir de 15 h", "a partir das 14h", "dès 7 h").
var hourOnlyWords = slices.Concat(oclockWords, []string{"partir de", "partir das", "partir dos", "partir de las", "dès", "desde", "desde las", "desde as", "até", "até às", "hasta las"})

// durationWords are the words for a duration that stand right before a
// clock's shape, a colon or a "de" between (duration: "durée", "duração",
// "escala de").
var durationWords = lang.Entries("duration")

// durationJoins are what may stand between a duration's word and its
// value: "Durée : 2 h 15", "escala de 1 h 30", "Dauer ca. 2 h 15".
var durationJoins = []string{"de", "du", "da", "of", "von", "ca.", "approx.", "env."}

// hClockMay reports whether s may hold a match of hClockRE: a digit, a
// space perhaps, then an h.
func hClockMay(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i]|0x20 != 'h' {
			continue
		}
		if isDigitByte(s[i-1]) || i >= 2 && s[i-1] == ' ' && isDigitByte(s[i-2]) {
			return true
		}
	}
	return false
}

// hClocks adds to out (sorted) the spaced and the minute-less h clocks of
// s that overlap none of out's.
func hClocks(s string, out []clockMatch) []clockMatch {
	if !hClockMay(s) {
		return out
	}
	n := len(out)
	for _, m := range hClockRE.FindAllStringSubmatchIndex(s, -1) {
		var ck clockMatch
		if m[2] >= 0 {
			h, _ := strconv.Atoi(s[m[2]:m[3]])
			mi, _ := strconv.Atoi(s[m[4]:m[5]])
			ck = clockMatch{h: h, m: mi, start: m[2], end: m[5]}
		} else {
			h, _ := strconv.Atoi(s[m[6]:m[7]])
			end := m[7]
			for end < len(s) && s[end] != 'h' && s[end] != 'H' {
				end++
			}
			ck = clockMatch{h: h, start: m[6], end: end + 1}
			// The hour alone is a clock after a word for "at" or "from",
			// or when it is all of s: a reader cut it out as a clock.
			if !afterWord(s[:ck.start], hourOnlyWords) && strings.TrimSpace(s) != s[ck.start:ck.end] {
				continue
			}
		}
		if ck.start > 0 && (s[ck.start-1] == '.' || s[ck.start-1] == ',') || hDuration(s, ck.start, ck.end) {
			continue
		}
		if !slices.ContainsFunc(out[:n], func(o clockMatch) bool { return o.start < ck.end && ck.start < o.end }) {
			out = append(out, ck)
		}
	}
	if len(out) > n {
		slices.SortFunc(out, func(a, b clockMatch) int { return a.start - b.start })
	}
	return out
}

// afterWord reports whether before ends, spaces and a dot aside, with one
// of ws as a whole word.
func afterWord(before string, ws []string) bool {
	e := strings.TrimRight(before, " \t")
	e = strings.TrimSuffix(e, ".")
	for _, w := range ws {
		if endsWithFold(e, w) {
			k := len(e) - len(w)
			if k <= 0 || !isWordByte(e[k-1]) {
				return true
			}
		}
	}
	return false
}

// hDuration reports whether the h clock s[start:end] is a duration: a
// word for one before it on its line ("Durée : 2 h 15", "escala de 1 h
// 30"), or minutes' word after it ("2 h 30 min").
func hDuration(s string, start, end int) bool {
	rest := strings.TrimLeft(s[end:], " \t")
	if len(rest) >= 3 && strings.EqualFold(rest[:3], "min") {
		return true
	}
	line := s[:start]
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	for {
		t := strings.TrimRight(line, " \t:=|-–")
		for _, j := range durationJoins {
			if endsWithFold(t, j) && (len(t) == len(j) || !isWordByte(t[len(t)-len(j)-1])) {
				t = t[:len(t)-len(j)]
				break
			}
		}
		if t == line {
			break
		}
		line = t
	}
	return afterWord(line, durationWords)
}
