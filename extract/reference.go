package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// References after their labels: a booking's, a ticket's, any code
// after a label set (codeAfter).

// codeAfter is the first code of orderNumRE's form after one of labels,
// or "".
func (c *msgContext) codeAfter(labels labelSet, text string) string {
	for _, v := range c.after(labels, text) {
		if id := uuidAfter(v); id != "" {
			return id
		}
		if m := orderNumRE.FindStringSubmatchIndex(v); m != nil && !masked(v[m[2]:m[3]]) && !maskedTail(v[m[3]:]) {
			return v[m[2]:m[3]]
		}
	}
	return ""
}

// ticketLabels head a ticket's own code (ticket.code in extract/lang/data).
var ticketLabels = numericLabels(lang.Entries("ticket.code")...)

// ticketCode is the code after a ticket's label, or "": a number, or six
// capital letters as a record locator is drawn ("Ticket Code BFSUKE -
// Italo 8924 on 07/09 …"; a heading in capitals is none).
func (c *msgContext) ticketCode(text string) string {
	if code := c.codeAfter(ticketLabels, text); code != "" {
		return code
	}
	for _, v := range c.after(ticketLabels, text) {
		if m := codeRE.FindStringSubmatch(v); m != nil && len(m[1]) == 6 && strings.Trim(m[1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" && !headingInCapitals(v) {
			return m[1]
		}
	}
	return ""
}

// mixedOrderCode is a ticket's order code after an order's label whose
// last character is a letter, which orderNumber's numbers do not take
// ("Bestelnummer: UPL1IGGK" on a rail e-ticket): six to twelve capitals
// and digits, a letter and a digit among them, alone on the rest of the
// line. Read for a journey's legs only, after the labels that name one.
func (c *msgContext) mixedOrderCode(text string) string {
	for _, v := range c.after(orderLabels, text) {
		line, _, _ := strings.Cut(v, "\n")
		w := strings.TrimSpace(strings.TrimLeft(line, "#: \t"))
		if len(w) < 6 || len(w) > 12 || strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" ||
			!hasDigit(w) || strings.Trim(w, "0123456789") == "" {
			continue
		}
		return w
	}
	return ""
}

var shortCodeRE = lazyregexp.New(`^[#:\s]*(?:n[°º.]\s*)?(\d{4})(?:[^\d\p{L}/.,:-]|[.,]?$)`)

// A code may be printed in groups apart by dots ("3812.447.120") or by
// spaces, three or four groups of digits ("1234 5678 9012", "3012 4478
// 20"), or
// with its series and year apart by slashes ("PL/2030/077").
var codeRE = lazyregexp.New(`^(?:[#:\s]|[-–]\s)*(\d{3,4}(?:\.\d{3}){2,3}|\d{3,4}(?: \d{2,4}){2,3}|[A-Za-z0-9][A-Za-z0-9\-/]{3,30}[A-Za-z0-9])\b`)

// shortStayRE is a small house's short booking number after its label,
// alone on the rest of its line (a bracket's note may follow): three
// digits ("Prenotazione n. 558", "Buchungsnummer: 312"), a letter or
// three and two or three digits apart by a dash ("Booking ref: K-42"),
// or up to four letters and four digits or more apart by a space
// ("Boekingsnummer: BV 88213"). A count, an amount or a word after it
// ("2 adults", "150 EUR") makes it none.
var shortStayRE = lazyregexp.New(`^[#:\s]*(?:(?:n[°º.]|no\.?|nr\.?|č\.)[ \t]*)?(\d{3}|[A-Z]{1,3}-\d{2,3}|[A-Z]{2,4} \d{4,10})[ \t]*[.,;]?[ \t]*(?:\(|$)`)

// shortStayRef is a stay's short booking number (shortStayRE) after a
// booking's label, or "": read for stays only, whose small houses number
// their bookings so, where a three-digit number in a ticket's mail is
// more often a seat's, a coach's or a fare's.
func shortStayRef(text string) string {
	for _, v := range reservationLabels.after(text) {
		if m := shortStayRE.FindStringSubmatch(v); m != nil {
			return m[1]
		}
	}
	return ""
}

// findReservation finds a booking reference next to its label: five or
// more letters and digits, upper case as systems print them, and not a
// word.
func findReservation(text string) string {
	codes := reservationCodes(text)
	if len(codes) == 0 {
		return ""
	}
	return codes[0]
}

// recordLocator is findReservation for a flight: an airline's record
// locator (six letters and digits) before a travel agency's own number
// ("booking number: FC-2219034", then "Airline reference: M3XK7P"); of
// several, the one labelled as the airline's (airlineLocator).
func (c *msgContext) recordLocator(text string) string {
	codes := c.reservationCodesOf(text)
	if len(codes) > 0 {
		if code := c.airlineLocator(text); code != "" {
			return code
		}
	}
	for _, c := range codes {
		if len(c) == 6 && !strings.Contains(c, "-") {
			return c
		}
	}
	if len(codes) == 0 {
		if code := airlineNamedCode(text); code != "" {
			return code
		}
		return subjectLoneCode(text)
	}
	return codes[0]
}

// subjectLoneCode is a record locator that the subject (text's first
// line) names and the text prints alone on a line or as its row's first
// cell, with no label beside it ("Travel Plan - KP7ILE" over a printout
// whose "KP7ILE" heads its page; "Your IndiGo Itinerary - M6THHV" over a
// row "M6THHV 253004151508 CONFIRMED Approved" whose headings a PDF set
// lines above it): six
// capitals and digits, a digit among them or a vowel at most, as drawn
// codes have ("FTPQYP"). "" when none.
func subjectLoneCode(text string) string {
	subject, body, ok := strings.Cut(text, "\n")
	if !ok || len(subject) > 256 {
		return ""
	}
	for _, w := range strings.FieldsFunc(subject, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !locatorShaped(w) || !hasDigit(w) && !fewVowels(w) || strings.Trim(w, "0123456789") == "" {
			continue
		}
		for ln := range strings.Lines(body) {
			if t := strings.Trim(ln, " \t\r\n.#"); t == w || firstCell(t) == w {
				return w
			}
		}
	}
	return ""
}

// airlineNamedCode is a record locator printed alone under its airline's
// name, as an agency's mail lists the confirmation codes of a trip
// ("Japan Airlines" over "BURUJL", then the agency's name over its own
// code), with no label: the code under a name airlines.tsv knows. ""
// when none.
func airlineNamedCode(text string) string {
	prev := ""
	for ln := range strings.Lines(text) {
		t := strings.TrimSpace(ln)
		if t == "" {
			continue
		}
		if prev != "" && locatorShaped(t) && strings.Trim(t, "0123456789") != "" && airlineCodes[strings.ToUpper(prev)] != "" {
			return t
		}
		prev = t
	}
	return ""
}

// bookingRef is findReservation, remembered for the texts of the
// message: its rules ask of the same text up to four times, and the
// labels' search over a long mail is the dearest part of reading one.
func (c *msgContext) bookingRef(text string) string {
	if codes := c.reservationCodesOf(text); len(codes) > 0 {
		return codes[0]
	}
	return ""
}

// reservationCodesOf is reservationCodes of a text, each of the message's
// last two texts (its body, and the body under its subject) worked out
// once. A text is known by where it lies, as digitLinesOf knows it.
func (c *msgContext) reservationCodesOf(text string) []string {
	for i := range c.resv {
		if e := &c.resv[i]; e.done && sameString(e.text, text) {
			return e.codes
		}
	}
	c.resv[1] = c.resv[0]
	c.resv[0] = reservationMemo{text: text, codes: reservationCodes(text), done: true}
	return c.resv[0].codes
}

// reservationMemo is one text's reservationCodes.
type reservationMemo struct {
	text  string
	codes []string
	done  bool
}

func reservationCodes(text string) []string {
	var out []string
	for _, v := range reservationLabels.after(text) {
		if code := reservationCode(v); code != "" {
			out = append(out, code)
		}
	}
	return out
}

// reservationCode is the booking's code a reservation label's value v
// starts with, or "".
func reservationCode(v string) string {
	v = afterAirlineName(v)
	if code := codeAfterLabelRow(v); code != "" {
		return code
	}
	m := codeRE.FindStringSubmatch(v)
	if m != nil && strings.Contains(m[1], "/") && len(findDates(m[1], false)) > 0 {
		m = nil // "12/07/2030" is a date, not a code
	}
	// A code has a digit, or is a six-letter record locator; one in
	// small letters too is mostly digits ("eIC84471022"), not a word.
	if m != nil && !hasDigit(m[1]) && headingInCapitals(v) {
		m = nil // "Itinerary Confirmation" over "FLIGHT DETAILS": a heading, not a code
	}
	if m != nil && !hasDigit(m[1]) && (labelWords[lower(m[1])] || labelWords[places.Fold(lower(m[1]))]) {
		// "CONFIRMATION DE RESERVATION" over "NUMERO DE RESERVATION
		// 88359553": a label's word heads the next label, no code.
		m = nil
	}
	if m != nil && (hasDigit(m[1]) || len(m[1]) == 6 || sevenLetterLocator(m[1]) || longLetterCode(m[1], v)) && (m[1] == strings.ToUpper(m[1]) || digitCount(m[1]) >= 4) {
		return m[1]
	}
	if m := shortCodeRE.FindStringSubmatch(v); m != nil && !strings.HasPrefix(m[1], "19") && !strings.HasPrefix(m[1], "20") {
		// A small house's four digits ("Buchungsnummer: 7712"), not
		// a year.
		return m[1]
	}
	return ""
}

// codeAfterLabelRow reads a row of labels run together on one line
// with the row of their values, in the same order ("CÓDIGO DE RESERVA
// NÚMERO TICKET HKCYTO 6052212950404", "Booking code Ticket number
// Status QX7RTA 0571234567890 Confirmed": a card's two rows flattened):
// the label v follows opens the row, so its value is the first cell
// after the other labels' words (headingWord, and the short words
// between two of them: "de", "do", "of"). Only when such a word heads
// the value and a second value with a digit follows the first, as a row
// of values does; the first a code with a digit, or six capitals as a
// record locator. "" else.
func codeAfterLabelRow(v string) string {
	line, _, _ := strings.Cut(strings.TrimLeft(v, " \t:#"), "\n")
	fields := strings.Fields(line)
	if len(fields) < 3 || !headingWord(fields[0]) {
		return "" // the cheap gate: most values open with their code
	}
	i := 1
	for i < len(fields) && i < 8 {
		if headingWord(fields[i]) {
			i++
		} else if i+1 < len(fields) && utf8.RuneCountInString(fields[i]) <= 3 && strings.IndexFunc(fields[i], func(r rune) bool { return !unicode.IsLetter(r) }) < 0 && headingWord(fields[i+1]) {
			i += 2
		} else {
			break
		}
	}
	if i+1 >= len(fields) || !hasDigit(fields[i+1]) {
		return ""
	}
	if code := fields[i]; locatorShaped(code) || bookingCodeShape(code) && code == strings.ToUpper(code) {
		return code
	}
	return ""
}

// headingWord reports whether w, a colon or a dot after it dropped, is a
// word of a booking's, an order's or a ticket's label (labelWords) or a
// flight table's column heading of one word ("Flight", "Date", "Status",
// "Estado"), its accents as printed or dropped.
func headingWord(w string) bool {
	w = lower(strings.TrimRight(w, ".:"))
	if labelWords[w] || flightColumnWords[w] || dateColumnWords[w] || otherColumnWords[w] {
		return true
	}
	f := places.Fold(w)
	return labelWords[f] || otherColumnWords[f]
}

// airlineRefLabels head a booking code that names the airline as its
// holder ("Airline PNR", "Buchungscode der Fluggesellschaft",
// "Référence compagnie"; reservation.airline).
var airlineRefLabels = labels(lang.Entries("reservation.airline")...)

// airlineLocator is the record locator (six capitals and digits) after a
// label that names the airline as its holder, or "": an agency's or a
// booking system's mail prints its own locator of the same form first
// ("Provider PNR: …", then "Airlines PNR: …"), and the airline's is the
// one its check-in and its own mail know.
func (c *msgContext) airlineLocator(text string) string {
	for _, v := range c.after(airlineRefLabels, text) {
		if code := reservationCode(v); len(code) == 6 && code == strings.ToUpper(code) && !strings.Contains(code, "-") {
			return code
		}
	}
	return ""
}

// subjectLocator is a booking's code that a subject names after an
// order's or a booking's label, with nothing after it but a closing
// parenthesis: six capitals and digits, a letter among them and not
// digits alone, and letters alone only with a vowel at most, as drawn
// codes have ("Current information on your connection (order HFRXDK)",
// "Ihre Reise (Auftrag 7QX2KD)"; "(order UPDATE)" is a word). "" else.
func subjectLocator(subject string) string {
	if len(subject) > 256 {
		subject = subject[:256]
	}
	for _, l := range []labelSet{reservationLabels, orderLabels} {
		for _, m := range l.re.FindAllStringIndex(subject, 4) {
			rest := strings.TrimLeft(subject[m[1]:], " \t#:")
			if len(rest) < 6 || strings.Trim(rest[6:], " \t)].") != "" {
				continue
			}
			w := rest[:6]
			if strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" || strings.Trim(w, "0123456789") == "" {
				continue
			}
			if !hasDigit(w) && !fewVowels(w) {
				continue
			}
			return w
		}
	}
	return ""
}

// fewVowels reports whether a code of capitals has a vowel at most (Y
// counted), as a drawn code's letters have more often than a word's.
func fewVowels(c string) bool {
	return strings.Count(c, "A")+strings.Count(c, "E")+strings.Count(c, "I")+strings.Count(c, "O")+strings.Count(c, "U")+strings.Count(c, "Y") <= 1
}

// sevenLetterLocator reports whether a code of seven capital letters is
// a booking's reference as low-cost airlines print it ("EXFVNVW"), not a
// word in capitals ("PENDING", "DETAILS", "BOOKING"): a drawn code has a
// vowel or none, a word of seven letters two or more.
func sevenLetterLocator(c string) bool {
	if len(c) != 7 {
		return false
	}
	vowels := 0
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case 'A', 'E', 'I', 'O', 'U', 'Y':
			vowels++
		case 'B', 'C', 'D', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P', 'Q', 'R', 'S', 'T', 'V', 'W', 'X', 'Z':
		default:
			return false
		}
	}
	return vowels <= 1
}

// longLetterCode reports whether a code of eight to twelve capital
// letters is a booking's code as rental platforms draw them
// ("HMQTYNHWQD" under "CONFIRMATION CODE"): alone on its line after its
// label (v, the label's value), with vowels (Y counted) fewer than a
// quarter of its letters, or one letter alone; a word in capitals has
// more ("CONFIRMED", "RESERVATION", "STANDARD").
func longLetterCode(c, v string) bool {
	if len(c) < 8 || len(c) > 12 {
		return false
	}
	line, _, _ := strings.Cut(strings.TrimLeft(v, " \t\n:#"), "\n")
	if strings.TrimSpace(line) != c {
		return false
	}
	vowels := 0
	for i := 0; i < len(c); i++ {
		switch {
		case strings.IndexByte("AEIOUY", c[i]) >= 0:
			vowels++
		case c[i] < 'A' || c[i] > 'Z':
			return false
		}
	}
	// One letter over and over ("AAAAAAAA", a code masked as its sender
	// prints a test booking's) is no word of any language.
	return vowels*4 < len(c) || strings.Count(c, c[:1]) == len(c)
}

// headingInCapitals reports whether a label's value is a heading in
// capitals, two words or more of capital letters alone ("FLIGHT DETAILS",
// "VOYAGE ALLER" under a title that ends in a reference's label): a
// record locator of letters stands alone or before other words' case.
func headingInCapitals(v string) bool {
	line, _, _ := strings.Cut(v, "\n")
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return false
	}
	for _, f := range fields {
		if utf8.RuneCountInString(f) < 2 || strings.IndexFunc(f, func(r rune) bool { return !unicode.IsUpper(r) }) >= 0 {
			return false
		}
	}
	return true
}

// afterAirlineName is a booking label's value past the airline's name
// that qualifies the label before its colon ("LOCALIZADOR GOL: EXDYMG",
// "Código de reserva Iberia: …", "PNR LATAM: …"), a name of
// airlines.tsv, or past a word in brackets: the code is after the colon.
// Any other value is v.
func afterAirlineName(v string) string {
	t := strings.TrimLeft(v, " \t")
	k := strings.IndexByte(t[:min(len(t), 32)], ':')
	if k < 2 {
		return v
	}
	// Or a word of its own in brackets: "Código de reserva
	// (localizador): …".
	if q := strings.TrimSpace(t[:k]); q == "" || airlineCodes[strings.ToUpper(q)] == "" &&
		!(q[0] == '(' && q[len(q)-1] == ')' && !hasDigit(q) && !strings.Contains(q, " ")) {
		return v
	}
	return t[k+1:]
}

// uuidRE is a UUID as a label's value (RFC 9562's 8-4-4-4-12 hex digits),
// perhaps after the label's own last word ("Invoice ID: 7F36…", or glued
// to it where an HTML table's cells lost their gap: "Invoice ID7F36…",
// "…25FFAmount Due", the next cell's word after it).
var uuidRE = lazyregexp.New(`^[#:\s]*(?:(?:ID|Id|id|No|Nr)\.?\s*:?\s*)?([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})(?:$|[^0-9A-Fa-f-]|[A-Z][a-z])`)

// uuidAfter is the UUID a label's value v starts with, whole, or "": the
// number expressions take thirty-odd characters ending in a digit, and
// would cut one at its fourth group.
func uuidAfter(v string) string {
	if len(v) < 36 || strings.IndexByte(v[:min(len(v), 48)], '-') < 0 {
		return ""
	}
	if m := uuidRE.FindStringSubmatch(v); m != nil {
		return m[1]
	}
	return ""
}

// firstCell is the first word of a row, when words follow it: "" for a
// line of one word.
func firstCell(row string) string {
	w, rest, ok := strings.Cut(row, " ")
	if !ok || strings.TrimSpace(rest) == "" {
		return ""
	}
	return w
}
