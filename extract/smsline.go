package extract

import (
	"strconv"
	"strings"
	"unicode"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
)

// A ticket's text message on one line, its fields apart by spaces, each
// after its label ("* SJ * BKD3723G0002 Datum: 110114 Avg: Norrköping C
// 16.24 Ank: Stockholm C 17.39 Vagn: 2 Plats: 25 …"): the readers of
// labelled stops read a label's value to its line's end, so the whole
// line was one stop's. The day is written as YYMMDD, as the Nordic
// countries write a compact date.

// compactDateLabelRE is a date's label that Swedish, Danish and Norwegian
// tickets print ("Datum:", "Dato:") and six digits after it.
var compactDateLabelRE = lazyregexp.New(`(?i)\b(?:datum|dato)[ \t]*:[ \t]*(\d{2})(\d{2})(\d{2})\b`)

// labelledCompactDates are the days of compactDateLabelRE in s, read as
// YYMMDD (20YY), when valid; the digits are the match.
func labelledCompactDates(s string) []dateMatch {
	if !strings.Contains(s, ":") || !hasDigit(s) {
		return nil
	}
	var out []dateMatch
	for _, m := range compactDateLabelRE.FindAllStringSubmatchIndex(s, 4) {
		y, _ := strconv.Atoi(s[m[2]:m[3]])
		mo, _ := strconv.Atoi(s[m[4]:m[5]])
		d, _ := strconv.Atoi(s[m[6]:m[7]])
		if validDate(2000+y, mo, d) {
			out = append(out, dateMatch{2000 + y, mo, d, m[2], m[7], true})
		}
	}
	return out
}

// rowLabelRE is a field's label inside a line: a capitalised word and a
// colon, after a space.
var rowLabelRE = lazyregexp.New(`[ \t](\p{Lu}\p{Ll}{1,15})\.?:[ \t]`)

// labelledRows is text with each line of four labelled fields or more,
// a departure's and an arrival's among them (departure, arrival in
// extract/lang: "Avg:", "Ank:"), parted into a line a field; a seat's or
// a coach's field keeps its first word only, the rest being the car's
// amenities ("Plats: 25 Internet ombord X2000/Dubbeldäckare"). Lines
// with fewer than four ": " are not looked at.
func labelledRows(text string) string {
	text = endsOnOneLine(headedStops(headedTrainNumber(text)))
	if strings.Count(text, ": ") < 4 {
		return text
	}
	lines := strings.Split(text, "\n")
	changed := false
	for i, ln := range lines {
		if len(ln) > 1000 || strings.Count(ln, ": ") < 4 {
			continue
		}
		ms := rowLabelRE.FindAllStringSubmatchIndex(ln, 20)
		if len(ms) < 4 {
			continue
		}
		dep, arr, depAt := false, false, 0
		for _, m := range ms {
			l := strings.ToLower(ln[m[2]:m[3]])
			if !dep && depLabelWords.has(l) {
				dep, depAt = true, m[0]
			}
			arr = arr || arrLabelWords.has(l)
		}
		if !dep || !arr || !ticketLineHead(ln[:depAt]) {
			continue
		}
		var b strings.Builder
		b.WriteString(strings.TrimRight(ln[:ms[0][0]], " \t"))
		for k, m := range ms {
			end := len(ln)
			if k+1 < len(ms) {
				end = ms[k+1][0]
			}
			cell := strings.TrimSpace(ln[m[2]:end])
			if l := strings.ToLower(ln[m[2]:m[3]]); seatWords()[l] || notService[l] {
				if f := strings.Fields(cell); len(f) > 2 {
					cell = f[0] + " " + f[1]
				}
			}
			b.WriteString("\n")
			b.WriteString(cell)
		}
		lines[i], changed = b.String(), true
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "\n")
}

// trainNoNameRE is a heading that names the train's number and its name
// in one column ("Train No./Name", "Train Number & Name"); numberSlashRE
// is a five-digit number glued to a name by a slash under it
// ("16581/YPR SMET EXP", "10103 / MANDOVI EXP").
var (
	trainNoNameRE = lazyregexp.New(`(?i)\btrain\s?(?:no\.?|number|#)\s?(?:/|&|and)\s?name\b`)
	numberSlashRE = lazyregexp.New(`(?:^|\s)(\d{5})\s?/\s?\p{Lu}`)
)

// headedTrainNumber is text with a rail slip's heading row that names
// the train's number and name in one column ("PNR: Train No./Name
// Class") over its row of values ("4456992546 16581/YPR SMET EXP ( 2A"),
// the number written under the row as the labelled line the readers of
// labelled lines read ("Train No: 16581"): the row's other numbers (the
// PNR first) stay where they are. Within two lines, blank lines between.
func headedTrainNumber(text string) string {
	if !strings.Contains(text, "/") {
		return text
	}
	lines := strings.Split(text, "\n")
	changed := false
	for i, ln := range lines {
		// Bytes first: the expression folds case, and most lines of a
		// travel mail hold a slash somewhere.
		if len(ln) > 120 || !strings.Contains(ln, "ame") && !strings.Contains(ln, "AME") || !trainNoNameRE.MatchString(ln) {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+3; j++ {
			if strings.TrimSpace(lines[j]) == "" {
				continue
			}
			if m := numberSlashRE.FindStringSubmatch(lines[j]); m != nil && len(lines[j]) <= 160 {
				lines[j] += "\nTrain No: " + m[1]
				changed = true
			}
			break
		}
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "\n")
}

// headedStops is text with a heading row of a from-label and a to-label
// (station.from, station.to; one word before them: "Boarding From To")
// over a row of two stops, each ending with its code in brackets ("NEW
// DELHI (NDLS) PRAYAGRAJ JN. (PRYJ)": a rail slip's table, flattened),
// written as the two labelled lines the readers of labelled lines read
// ("From: NEW DELHI (NDLS)" / "To: PRAYAGRAJ JN. (PRYJ)"). Blank lines
// may come between the two rows. The codes part the row: names alone
// could be cut anywhere.
func headedStops(text string) string {
	if strings.IndexByte(text, '(') < 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	changed := false
	// The row first, by its brackets, before any expression runs: the
	// heading's, of every language's labels, is slow.
	for j := 1; j < len(lines); j++ {
		ln := lines[j]
		if n := strings.Count(ln, "("); len(ln) > 200 || n != 2 && n != 3 || strings.Count(ln, ")") != n {
			continue
		}
		i := j - 1
		for i > 0 && i >= j-3 && strings.TrimSpace(lines[i]) == "" {
			i--
		}
		if len(lines[i]) > 80 || hasDigit(lines[i]) {
			continue
		}
		from, to := codedStopsRow(ln)
		if from == "" || !stopsHeadingRE.MatchString(lines[i]) {
			continue
		}
		lines[i], lines[j], changed = "", "From: "+from+"\nTo: "+to, true
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "\n")
}

// codedStopsRow is the from-stop and the to-stop of a slip's row of
// stops by their codes: two stops ("NEW DELHI (NDLS) PRAYAGRAJ JN.
// (PRYJ)"), or the booked station, the boarding station and the
// destination, each code after a dash and the town in brackets
// ("KALYAN JN - KYN (MUMBAI) KALYAN JN (KYN) MADGAON - MAO (GOA)"), whose
// leg runs from the boarding station. Each stop comes back as its name
// and its code in brackets; "" when the row is neither.
func codedStopsRow(ln string) (from, to string) {
	if m := codedStopsRowRE.FindStringSubmatch(ln); m != nil {
		if m[2] == m[4] {
			return "", ""
		}
		return m[1], m[3]
	}
	m := bookedStopsRowRE.FindStringSubmatch(ln)
	if m == nil {
		return "", ""
	}
	var stops [3]string
	var codes [3]string
	for k := range 3 {
		name, dashed, bracketed := strings.TrimSpace(m[1+3*k]), m[2+3*k], m[3+3*k]
		switch {
		case dashed != "":
			codes[k] = dashed
		case upperCode(bracketed):
			codes[k] = bracketed
		default:
			return "", ""
		}
		stops[k] = name + " (" + codes[k] + ")"
	}
	if codes[1] == codes[2] {
		return "", ""
	}
	return stops[1], stops[2]
}

// upperCode reports whether s is a station's code: two to five capitals.
func upperCode(s string) bool { return len(s) >= 2 && len(s) <= 5 && isUpper(s) }

var (
	// bookedStopsRowRE is a row of three stops, each a name, its code
	// after a dash or none, and a town or the code in brackets.
	bookedStopsRowRE = lazyregexp.New(`^\s*` + strings.Repeat(`(\p{L}[^()\d-]{0,40}?)(?:\s+-\s+(\p{Lu}{2,5}))?\s*\(([\p{L} .]{2,30})\)\s*`, 3) + `$`)
	// stopsHeadingRE is a heading row of a from-label and a to-label,
	// one word before them at most.
	stopsHeadingRE = lazyregexp.New(`(?i)^[\s*•]*(?:\p{L}+\s+)?(?:` + strings.Join(longestFirst(lang.Entries("station.from")), "|") +
		`)\s+(?:` + strings.Join(longestFirst(lang.Entries("station.to")), "|") + `)\s*$`)
	// codedStopsRowRE is a row of two stops, each a name and its code
	// in brackets.
	codedStopsRowRE = lazyregexp.New(`^\s*(\p{L}[^()\d]{0,40}?\((\p{Lu}{2,5})\))\s+(\p{L}[^()\d]{0,40}?\((\p{Lu}{2,5})\))\s*$`)
)

// endsOnOneLine is text with each line that starts with a departure's
// label and its time and goes on with an arrival's label and its time
// ("Departure* 22:30 16-Sep-2023 Arrival* 06:20 17-Sep-2023", a rail
// slip's row printed as one line) parted before the arrival's label: the
// readers of labelled lines read one stop's label a line. A label is
// followed by a colon, an asterisk or a space, then a digit; each part
// holds a day and a clock.
func endsOnOneLine(text string) string {
	if !hasClockShape(text, ":.h") {
		return text
	}
	lines := strings.Split(text, "\n")
	changed := false
	for i, ln := range lines {
		if len(ln) > 200 {
			continue
		}
		// "Start Date* 23-Mar-2024 Departure* 5:33 23-Mar-2024 …": the
		// journey's day after its own label, before the departure's, is a
		// line of its own.
		lead := 0
		rest, ok := depLabelWords.starts(ln)
		if !ok {
			if k := strings.IndexAny(ln[:min(len(ln), 30)], ":*"); k > 0 && lettersOnly(ln[:k]) {
				if d := findDates(ln[:min(len(ln), k+20)], false); len(d) == 1 && d[0].start > k {
					lead = d[0].end
					rest, ok = depLabelWords.starts(strings.TrimLeft(ln[lead:], " \t"))
				}
			}
		}
		if !ok || !labelThenDigit(rest) {
			continue
		}
		pre := ""
		if lead > 0 {
			if findClocks(ln[:lead]) != nil {
				continue
			}
			pre, ln = ln[:lead]+"\n", strings.TrimLeft(ln[lead:], " \t")
		}
		head := len(ln) - len(rest)
		at := arrivalLabelAt(ln[head:])
		if at < 0 {
			continue
		}
		at += head
		if len(findClocks(ln[:at])) != 1 || len(findClocks(ln[at:])) != 1 || len(findDates(ln[:at], false)) != 1 || len(findDates(ln[at:], false)) != 1 {
			continue // "Departs 07:14 · Arrives 08:16 · Direct" under its day and route is a line the stop readers read whole
		}
		lines[i], changed = pre+strings.TrimRight(ln[:at], " \t")+"\n"+ln[at:], true
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "\n")
}

// lettersOnly reports whether s is words of letters: a label.
func lettersOnly(s string) bool {
	return strings.TrimSpace(s) != "" && strings.IndexFunc(s, func(r rune) bool { return r != ' ' && !unicode.IsLetter(r) }) < 0
}

// labelThenDigit reports whether s, what follows a label, is a colon, an
// asterisk or spaces and then a digit.
func labelThenDigit(s string) bool {
	t := strings.TrimLeft(s, ":* \t")
	return len(t) < len(s) && t != "" && isDigitByte(t[0])
}

// arrivalLabelAt is the offset in s of the first arrival's label after a
// space whose value starts with a digit (labelThenDigit), else -1.
func arrivalLabelAt(s string) int {
	for i := 1; i < len(s); i++ {
		if s[i-1] != ' ' && s[i-1] != '\t' {
			continue
		}
		j := i
		for j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 0x80) {
			j++
		}
		if j > i && arrLabelWords.has(strings.ToLower(s[i:j])) && labelThenDigit(s[j:]) {
			return i
		}
	}
	return -1
}

// arrLabelWords are the arrival's labels alone, as depLabelWords are the
// departure's.
var arrLabelWords = newStopMarkers("arrival")

// ticketLineHead reports whether the part of a line before its
// departure's label is a ticket's: it holds the booking's code, capitals
// and digits mixed ("* SJ * BKD3723G0002", "Bokningsnummer: RQ8K2W4T"),
// and does not call the line an example. A timetable's tip on one line
// ("Ny tidtabell: Datum: 270114 Avg: Uppsala C 16.24 …") is no booking,
// nor is a newsletter's "Example of a ticket: …".
func ticketLineHead(head string) bool {
	if exampleWords.In(lower(head)) {
		return false
	}
	for _, f := range strings.Fields(head) {
		f = strings.Trim(f, "*:.,;()[]#")
		if len(f) >= 6 && len(f) <= 20 && mixedCapsCode(f) {
			return true
		}
	}
	return false
}

// mixedCapsCode reports whether s is capitals and digits alone, with
// both.
func mixedCapsCode(s string) bool {
	letter, digit := false, false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9':
			digit = true
		default:
			return false
		}
	}
	return letter && digit
}
