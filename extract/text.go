package extract

import (
	"cmp"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"mailnode/extract/carriers"
	"mailnode/extract/lang"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// Rule-based reading of mails without markup. Every rule is anchored: a
// value counts only next to a label that names it ("Booking reference:",
// "Rechnungsnummer"), or when its own form proves it (an IATA code in
// parentheses next to a clock time, a tracking number whose check digit
// is right). A mail becomes a fact only when the fields that make the fact
// useful were all found; a promotion that mentions a price, or a one-time
// code mail with digits in it, stays without facts.

var (
	// Flight numbers: airline designator (two characters, not both
	// digits) and one to four digits. "LH 400", "4U8462", "U2 1234".
	flightNumRE = regexp.MustCompile(`\b([A-Z][A-Z0-9]|[0-9][A-Z])\s?(\d{1,4})\b`)
	// icaoFlightRE is a flight number under the airline's ICAO
	// designator, three letters ("TOM2456").
	icaoFlightRE = regexp.MustCompile(`\b([A-Z]{3})\s?(\d{1,4})\b`)
)

// The labels of every language (extract/lang/data), case-insensitive.
var (
	reservationLabels = labels(lang.Entries("reservation")...)
	orderLabels       = numericLabels(lang.Entries("order")...)
	trackingLabel     = numericLabels(lang.Entries("tracking")...)
	// parcelNounRE is a number right after a word for a parcel
	// (tracking.noun), a carrier's name between them or not: "Votre colis
	// 6A21458736920", "Votre colis GLS 66120447712", or a number in
	// groups apart by dots ("Ihre Sendung 99.60.112233.10203040").
	parcelNounRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("tracking.noun")), "|") + `)[ \t]+` +
		`(?:(?:` + strings.Join(quoteAll(longestFirst(carriers.Names())), "|") + `)[ \t]+)?([A-Z0-9]{8,34}|\d{2}(?:\.\d{2,8}){2,4})\b`)
	parcelNouns = func() *words.Set {
		var a []string
		for _, e := range lang.Entries("tracking.noun") {
			a = append(a, requiredText(e)) // "env[íi]o": "env"
		}
		return words.NewSet(a)
	}()
	invoiceLabels  = numericLabels(lang.Entries("invoice")...)
	amountLabels   = numericLabels(lang.Entries("amount")...)
	dueLabels      = numericLabels(lang.Entries("due")...)
	checkinLabels  = numericLabels(lang.Entries("checkin")...)
	checkoutLabels = numericLabels(lang.Entries("checkout")...)
	// A hotel's name label starts its line and is set off from the name
	// by a colon or a column gap: "a hotel single room" names nothing.
	hotelLabels = labelSet{re: regexp.MustCompile(`(?im)^[ \t*]*(?:your |ihr |votre )?(?:booked |gebuchtes? )?(?:` +
		strings.Join(longestFirst(lang.Entries("hotel")), "|") + `)(?: name)?[ \t]*(?::[ \t]*|[ \t]{2,}|$)`)}
)

// trainCategories are the train categories trainNumRE knows, standing by
// their first letters, which the regexp package folds into one branch
// each: twice as fast as in no order. A category that begins another
// ("IC", "ICE") matches only before a space, "n°" or a digit, so which of
// them is tried first changes no match.
var trainCategories = []string{"ICE", "IC", "INOUI", "IRE", "IR", "Intercity", "ECE", "EC", "EIC", "EIP", "EST", "EN", "Eurostar",
	"TLK", "TGV", "THA", "TER", "Thalys", "OUIGO", "RE", "RB", "RJX", "RJ", "RRX", "Railjet", "FR", "FA", "FB", "FLX",
	"Frecciarossa", "AVE", "ALVIA", "NJ", "X2", "SJ", "SC", "D"}

// trainNumRE is a train's category and number ("ICE 1045", "EC n° 41").
var trainNumRE = trainNumExpr{regexp.MustCompile(`\b(` + strings.Join(trainCategories, "|") +
	`)\s{0,4}(?:(?:n[°º]|nr\.|no\.)\s{0,2})?(\d{1,6})\b`)}

// trainNumExpr is the expression of trainNumRE behind mayHoldTrainNumber:
// every line of a journey's mail is searched for a train's number, and
// the expression, with no literal to start from, is tried at each place.
type trainNumExpr struct{ re *regexp.Regexp }

func (t trainNumExpr) FindString(s string) string {
	if !mayHoldTrainNumber(s) {
		return ""
	}
	return t.re.FindString(s)
}

func (t trainNumExpr) FindStringIndex(s string) []int {
	if !mayHoldTrainNumber(s) {
		return nil
	}
	return t.re.FindStringIndex(s)
}

func (t trainNumExpr) FindStringSubmatch(s string) []string {
	if !mayHoldTrainNumber(s) {
		return nil
	}
	return t.re.FindStringSubmatch(s)
}

func (t trainNumExpr) ReplaceAllString(s, repl string) string {
	if !mayHoldTrainNumber(s) {
		return s
	}
	return t.re.ReplaceAllString(s, repl)
}

// mayHoldTrainNumber reports whether s holds what every match of
// trainNumRE does: a category at the start of a word, up to six spaces,
// or up to four, "n°", "nº", "nr." or "no." and up to two, then a digit.
func mayHoldTrainNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' || i > 0 && isASCIIWordByte(s[i-1]) {
			continue
		}
		for _, c := range trainCategories {
			if !strings.HasPrefix(s[i:], c) {
				continue
			}
			j := i + len(c)
			k := spacesAt(s, j)
			if k <= 6 && j+k < len(s) && isDigitByte(s[j+k]) {
				return true
			}
			if k > 4 {
				continue
			}
			for _, no := range []string{"n°", "nº", "nr.", "no."} {
				if rest, ok := strings.CutPrefix(s[j+k:], no); ok {
					if m := spacesAt(rest, 0); m <= 2 && m < len(rest) && isDigitByte(rest[m]) {
						return true
					}
				}
			}
		}
	}
	return false
}

// spacesAt counts the regexp package's white space (\s) in s from i on.
func spacesAt(s string, i int) int {
	n := 0
	for i+n < len(s) && isREspace(s[i+n]) {
		n++
	}
	return n
}

// isASCIIWordByte is the regexp package's \w, which \b looks at.
func isASCIIWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// longestFirst orders a label's alternatives longest first: the regexp
// takes the leftmost alternative that matches, and "amount due" must be
// tried before "amount" and "bestellung nr." before "bestellung", whichever
// language file each came from.
func longestFirst(alts []string) []string {
	out := slices.Clone(alts)
	slices.SortStableFunc(out, func(a, b string) int { return literalLen(b) - literalLen(a) })
	return slices.Compact(out)
}

// optionalGroup is a group a label may leave out: "(?: nr)?".
var optionalGroup = regexp.MustCompile(`\(\?:[^()]*\)\?`)

// literalLen is about how many characters the shortest text a label
// pattern matches has: optional groups left out, a character class or an
// escape counted as one. "faktura(?: vat)?(?: nr)?" is 7, shorter than
// "fakturanummer", which must be tried first.
func literalLen(alt string) int {
	alt = optionalGroup.ReplaceAllString(alt, "")
	n := 0
	for i := 0; i < len(alt); i++ {
		switch c := alt[i]; {
		case c == '\\':
			i++
			n++
		case c == '[':
			if j := strings.IndexByte(alt[i:], ']'); j > 0 {
				i += j
			}
			n++
		case c == '(' || c == ')' || c == '|' || c == '?' || c == '*' || c == ':' && i > 0 && alt[i-1] == '?':
		case c >= 0x80 && c < 0xC0: // a UTF-8 continuation byte
		default:
			n++
		}
	}
	return n
}

// labelSet is a compiled alternation of labels followed by a separator,
// and for each label a piece of plain text every match of it contains:
// the regexp, case-folding and without a literal prefix, is slow over a
// long mail, so it runs only on the lines that hold one of the pieces.
type labelSet struct {
	re      *regexp.Regexp
	anchors []string // lower case; nil: run on the whole text
	// anchorSet finds any of the anchors in one pass.
	anchorSet *words.Set
	// numeric: every value of these labels holds a digit (a number, an
	// amount, a date), so only lines with a digit, and the lines just
	// before them (a label that ends its line), are looked at. Most of a
	// long personal mail has none, and is then passed over in one scan.
	numeric bool
}

// numericLabels is labels for values that always hold a digit.
func numericLabels(alts ...string) labelSet {
	l := labels(alts...)
	l.numeric = true
	return l
}

// copulas is the optional verb between a label and its value, in every
// language ("is", "ist", "est", "er").
var copulas = `(?:(?:` + strings.Join(longestFirst(lang.Entries("copula")), "|") + `)[ \t]+)?`

func labels(alts ...string) labelSet {
	alts = longestFirst(alts)
	// After the label: an aside in parentheses ("Numer rezerwacji (PNR):",
	// "Airline reference (Aegean):"), a colon or "No.", and a verb that
	// introduces the value ("Ihr Buchungscode lautet", "(localizador) es").
	l := labelSet{re: regexp.MustCompile(`(?im)(?:^|[^\p{L}])(?:` + strings.Join(alts, "|") +
		`)(?:[ \t]*\([^()\n]{1,40}\))?[ \t]*(?:[:#]|(?:no|nr)(?:\.|\b)|number\b)?[ \t]*[:#]?[ \t]*(?:\*\*[ \t]*)?` + copulas)}
	for _, a := range alts {
		anchor := requiredText(a)
		if len(anchor) < 3 {
			l.anchors = nil
			break
		}
		l.anchors = append(l.anchors, anchor)
	}
	if l.anchors != nil {
		l.anchorSet = words.NewSet(l.anchors)
	}
	return l
}

// requiredText is the longest run of plain letters (ASCII, or the bytes
// of UTF-8 ones) and spaces that every match of the pattern alt contains:
// outside groups and classes, and not made optional by a quantifier.
func requiredText(alt string) string {
	best, run := "", []byte{}
	flush := func() {
		if r := strings.TrimSpace(string(run)); len(r) > len(best) {
			best = r
		}
		run = run[:0]
	}
	depth := 0
	for i := 0; i < len(alt); i++ {
		ch := alt[i]
		switch {
		case ch == '\\':
			flush()
			i++
		case ch == '(' || ch == '[':
			flush()
			depth++
		case ch == ')' || ch == ']':
			depth--
		case ch == '?' || ch == '*' || ch == '{':
			if len(run) > 0 {
				run = run[:len(run)-1] // the quantified letter is optional
			}
			flush()
		case depth == 0 && (ch >= 'a' && ch <= 'z' || ch == ' ' || ch >= 0x80):
			// Bytes of UTF-8 letters count: "eräpäivä" is its own anchor.
			run = append(run, ch)
		default:
			flush()
		}
	}
	flush()
	return best
}

// after returns the text right after each occurrence of a label: up to the
// end of its line, or the next line when the label ends its line.
func (l labelSet) after(text string) []string { return l.afterLines(text, digitLines) }

// after is labelSet.after with the message's digit lines worked out once
// for the text, however many label sets read it.
func (c *msgContext) after(l labelSet, text string) []string {
	return l.afterLines(text, c.digitLinesOf)
}

// maxLabelled bounds the values one label set reads from a text: a
// printed invoice repeats its column headers on every page.
const maxLabelled = 40

// afterNext is after, each value followed by a newline and the next
// non-empty line: printed invoices put the amount under its label
// ("TOTAL AMOUNT DUE ON August 3, 2014" over "$4.11").
func (c *msgContext) afterNext(l labelSet, text string) []string {
	return l.afterLinesNext(text, c.digitLinesOf, true)
}

// afterLines is after, with lines giving the digit lines of a text.
func (l labelSet) afterLines(text string, lines func(string) []int) []string {
	return l.afterLinesNext(text, lines, false)
}

func (l labelSet) afterLinesNext(text string, lines func(string) []int, withNext bool) []string {
	var out []string
	each := func(base int, span string) {
		for _, m := range l.re.FindAllStringIndex(span, maxLabelled-len(out)) {
			end := base + m[1]
			// A label is a whole word: "HOTELS" is no "hotel" label.
			if words.In(text, end, true) && words.In(text, end, false) {
				continue
			}
			line, next, _ := strings.Cut(text[end:], "\n")
			if v, ok := columnBelow(text, base+m[0], end); ok {
				out = append(out, v)
				continue
			}
			if strings.TrimSpace(line) == "" {
				// A label that ends its line: the value is the column
				// before it on the same row, as printed invoices lay some
				// out ("993548900   Factuurnummer:"), else the next line.
				if before := columnBefore(text, base+m[0]); before != "" {
					line = before
				} else {
					// The next line, past the blank line that HTML puts
					// between a label's block and its value's.
					line, next, _ = strings.Cut(next, "\n")
					if strings.TrimSpace(line) == "" && next != "" {
						line, next, _ = strings.Cut(next, "\n")
					}
				}
			}
			v := strings.TrimSpace(line)
			if withNext {
				for strings.TrimSpace(next) != "" || next != "" {
					var n string
					n, next, _ = strings.Cut(next, "\n")
					if n = strings.TrimSpace(n); n != "" {
						v += "\n" + n
						break
					}
				}
			}
			out = append(out, v)
		}
	}
	if l.numeric {
		for _, start := range lines(text) {
			if len(out) >= maxLabelled {
				break
			}
			end := strings.IndexByte(text[start:], '\n')
			if end < 0 {
				end = len(text) - start
			}
			line := text[start : start+end]
			if l.anchorSet != nil && !l.anchorSet.Any(lowerLine(line)) {
				continue
			}
			each(start, line)
		}
		return out
	}
	if l.anchors == nil {
		each(0, text)
		return out
	}
	for _, start := range anchoredLines(text, l.anchors, l.anchorSet) {
		if len(out) >= maxLabelled {
			break
		}
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text) - start
		}
		each(start, text[start:start+end])
	}
	return out
}

// columnGap splits a row laid out by the PDF reader into its columns.
var columnGap = regexp.MustCompile(`[ \t]{3,}`)

// columnBelow reads a table's header row: a row of several columns
// that are all labels (no digit in it), whose next row has as many
// columns and a digit; the value of the label at [start, end) of text is
// the one below it ("Factuur datum   Vervaldatum" over "8-9-2022
// 22-9-2022"). The label must fill its column: nothing follows it before
// the next column gap.
func columnBelow(text string, start, end int) (string, bool) {
	rowStart := strings.LastIndexByte(text[:start], '\n') + 1
	rowEnd := strings.IndexByte(text[end:], '\n')
	if rowEnd < 0 {
		return "", false
	}
	rowEnd += end
	row := text[rowStart:rowEnd]
	if hasDigit(row) {
		return "", false
	}
	// The label's match takes the spaces after it: a column gap there,
	// or the row's end, ends its column.
	if rest := text[end:rowEnd]; strings.TrimSpace(rest) != "" && !strings.HasSuffix(text[start:end], "  ") {
		return "", false
	}
	next, _, _ := strings.Cut(text[rowEnd+1:], "\n")
	cols, below := columnGap.Split(strings.TrimSpace(row), -1), columnGap.Split(strings.TrimSpace(next), -1)
	if len(cols) < 2 || len(cols) != len(below) || !hasDigit(next) {
		return "", false
	}
	// The label's column: the column gaps before it.
	k := len(columnGap.FindAllStringIndex(strings.TrimLeft(text[rowStart:start+1], " \t"), -1))
	if k >= len(below) {
		return "", false
	}
	return below[k], true
}

// columnBefore returns the column of text's row that ends just before
// offset i, set apart from it by a column gap (three spaces, as the PDF
// reader lays rows out), when it holds a digit and is the row's only
// other column; else "".
func columnBefore(text string, i int) string {
	row := text[strings.LastIndexByte(text[:i], '\n')+1 : i]
	col := strings.TrimRight(row, " \t")
	// The label's match may begin with one of the gap's spaces.
	if len(row)-len(col) < 2 {
		return ""
	}
	col = strings.TrimSpace(col)
	if col == "" || strings.Contains(col, "   ") || len(col) > 40 || !hasDigit(col) {
		return ""
	}
	return col
}

// indexDigit returns the index of the first ASCII digit in text at or
// after from, or -1. It runs over the text of every synced message, where
// a loop of a byte at a time was a sixth of extracting generated mail:
// eight bytes are tested at once (hasbetween, from Sean Anderson's "Bit
// Twiddling Hacks"; exact per byte, since no lane borrows or carries).
func indexDigit(text string, from int) int {
	const (
		ones = 0x0101010101010101
		low7 = ones * 0x7f
		high = ones * 0x80
	)
	i := from
	for ; i+8 <= len(text); i += 8 {
		w := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
			uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
		x := w & low7
		// A lane's high bit: below '9'+1, at or above '0', and ASCII.
		if d := (ones*(127+'9'+1) - x) & ^w & (x + ones*(127-('0'-1))) & high; d != 0 {
			return i + bits.TrailingZeros64(d)/8
		}
	}
	for ; i < len(text); i++ {
		if text[i]-'0' < 10 {
			return i
		}
	}
	return -1
}

// digitLines returns the start offsets, in order, of the lines of text
// that hold an ASCII digit and of the lines just before them.
func digitLines(text string) []int {
	var starts []int
	prev := -1 // start of the last line added
	for i := 0; i < len(text); {
		j := indexDigit(text, i)
		if j < 0 {
			break
		}
		ls := strings.LastIndexByte(text[:j], '\n') + 1
		if ls > 0 {
			ps := strings.LastIndexByte(text[:ls-1], '\n') + 1
			if ps > 0 && strings.TrimSpace(text[ps:ls-1]) == "" {
				// A blank line between: the label's block above it.
				ps = strings.LastIndexByte(text[:ps-1], '\n') + 1
			}
			if ps > prev {
				starts = append(starts, ps)
			}
		}
		if ls > prev {
			starts = append(starts, ls)
			prev = ls
		}
		k := strings.IndexByte(text[j:], '\n')
		if k < 0 {
			break
		}
		i = j + k + 1
	}
	return starts
}

// anchoredLines returns the start offsets, in order, of the lines of text
// that contain one of the anchors, compared without ASCII case; set is
// words.NewSet(anchors), which finds them all in one pass (a search per
// anchor, ninety of them for the booking labels, was a tenth of a
// travel mail's extraction).
func anchoredLines(text string, anchors []string, set *words.Set) []int {
	lower := asciiLower(text)
	var starts []int
	set.EachAt(lower, func(a, end int) bool {
		ls := strings.LastIndexByte(lower[:end-len(anchors[a])], '\n') + 1
		if n := len(starts); n == 0 || starts[n-1] != ls {
			starts = append(starts, ls)
		}
		return true
	})
	slices.Sort(starts)
	return slices.Compact(starts)
}

// lowerLine lower-cases a line for the anchor test: ASCII letters only
// when it has no others (offsets kept, no copy when already lower), all
// letters when it has ("ERÄPÄIVÄ").
func lowerLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return lower(s)
		}
	}
	return asciiLower(s)
}

// asciiLower lower-cases ASCII letters only, so that byte offsets stay
// those of s.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

var shortCodeRE = regexp.MustCompile(`^[#:\s]*(?:n[°º.]\s*)?(\d{4})(?:[^\d\p{L}/.,:-]|[.,]?$)`)

// A code may be printed in groups apart by dots ("3812.447.120"), or
// with its series and year apart by slashes ("PL/2030/077").
var codeRE = regexp.MustCompile(`^[#:\s]*(\d{3,4}(?:\.\d{3}){2,3}|[A-Za-z0-9][A-Za-z0-9\-/]{3,30}[A-Za-z0-9])\b`)

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
// ("booking number: FC-2219034", then "Airline reference: M3XK7P").
func (c *msgContext) recordLocator(text string) string {
	codes := c.reservationCodesOf(text)
	for _, c := range codes {
		if len(c) == 6 && !strings.Contains(c, "-") {
			return c
		}
	}
	if len(codes) == 0 {
		return ""
	}
	return codes[0]
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
		if e := &c.resv[i]; e.done && len(e.text) == len(text) && unsafe.StringData(e.text) == unsafe.StringData(text) {
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
		m := codeRE.FindStringSubmatch(v)
		if m != nil && strings.Contains(m[1], "/") && len(findDates(m[1], false)) > 0 {
			m = nil // "12/07/2030" is a date, not a code
		}
		// A code has a digit, or is a six-letter record locator; one in
		// small letters too is mostly digits ("eIC84471022"), not a word.
		if m != nil && (hasDigit(m[1]) || len(m[1]) == 6) && (m[1] == strings.ToUpper(m[1]) || digitCount(m[1]) >= 4) {
			out = append(out, m[1])
		} else if m := shortCodeRE.FindStringSubmatch(v); m != nil && !strings.HasPrefix(m[1], "19") && !strings.HasPrefix(m[1], "20") {
			// A small house's four digits ("Buchungsnummer: 7712"), not
			// a year.
			out = append(out, m[1])
		}
	}
	return out
}

// Words that say what kind of travel a mail is about. Matched as whole
// words (a trailing '*' lets the word run on: "flug*" is "Flugnummer"; a
// leading one lets letters come before: "*tåg*" is "Krösatåg"),
// so that "Online-Ticket" is no e-ticket and "price" no ICE.
var travelWords = map[string][]string{
	KindFlight: lang.Entries("words.flight"),
	KindTrain:  lang.Entries("words.train"),
	KindHotel:  lang.Entries("words.hotel"),
}

// busWords are every language's words for a bus (extract/lang,
// words.bus).
var busWords = words.NewWholeSet(lang.Entries("words.bus"))

// classifyTravel says which kind of travel a text is about, if any: the
// kind with most distinct words present, flights before trains before
// stays on a tie. It only chooses which rules to try: each of them still
// needs its own fields before a mail yields a segment.
func classifyTravel(s string) string {
	kinds := rankTravel(s)
	if len(kinds) == 0 {
		return ""
	}
	return kinds[0]
}

// rankTravel is the kinds of travel whose words s holds, most distinct
// words first, flights before trains before stays on a tie.
func rankTravel(s string) []string { return rankLowerTravel(lower(s)) }

// rankLowerTravel is rankTravel of a text already in lower case.
func rankLowerTravel(l string) []string {
	n := lowerTravelWordCounts(l)
	order := []int{0, 1, 2} // flight, train, hotel: travelWordCounts' order
	slices.SortStableFunc(order, func(a, b int) int { return n[b] - n[a] })
	var kinds []string
	for _, k := range order {
		if n[k] > 0 {
			kinds = append(kinds, []string{KindFlight, KindTrain, KindHotel}[k])
		}
	}
	return kinds
}

// travelWordCounts counts the distinct words of flights, trains and stays
// in s.
func travelWordCounts(s string) [3]int { return lowerTravelWordCounts(lower(s)) }

// lowerTravelWordCounts is travelWordCounts of a text already in lower
// case.
func lowerTravelWordCounts(l string) [3]int {
	seen := make([]bool, len(travelVocab.words))
	var n [3]int
	travelVocab.set.EachAt(l, func(i, end int) bool {
		w := travelVocab.words[i]
		// A whole word, or the start of one for a word ending in '*', or
		// the end of one for a word starting with '*'.
		if seen[i] || !w.inside && words.In(l, end-len(w.text), true) || !w.prefix && words.In(l, end, false) {
			return true
		}
		seen[i] = true
		n[w.kind]++
		return true
	})
	return n
}

// travelVocab is travelWords as one set, found in one pass over a text:
// thirteen languages' words looked for one by one cost a tenth of all
// extraction time.
var travelVocab = func() (v struct {
	set   *words.Set
	words []travelWord
}) {
	var texts []string
	for k, kind := range []string{KindFlight, KindTrain, KindHotel} {
		for _, w := range travelWords[kind] {
			t, prefix := strings.CutSuffix(w, "*")
			t, inside := strings.CutPrefix(t, "*")
			// A word in two kinds' lists counts for the first: the set
			// reports one phrase per text.
			if slices.Contains(texts, t) {
				continue
			}
			texts = append(texts, t)
			v.words = append(v.words, travelWord{text: t, kind: k, prefix: prefix, inside: inside})
		}
	}
	v.set = words.NewSet(texts)
	return v
}()

type travelWord struct {
	text   string
	kind   int // index in flight, train, hotel
	prefix bool
	// inside: the word may end a compound ("*tåg*": "Krösatåg",
	// "Öresundståget").
	inside bool
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// travelFacts applies one kind of travel's rules.
func (c *msgContext) travelFacts(kind, subject, text, all string) []Fact {
	var out []Fact
	switch kind {
	case KindFlight:
		out = append(out, c.textFlights(all)...)
	case KindTrain:
		legs := c.textLegs(text, c.ref, nil)
		ref := ""
		if len(legs) > 0 {
			ref = c.bookingRef(all) // one booking, one search
			if ref == "" {
				// A ticket bought as an order is found by its order's
				// number ("Ordrenummer: 55120881"), else by the ticket's
				// own ("Ticket code: BDZ5512044"): never a flight's, whose
				// e-ticket number is no booking.
				ref = cmp.Or(c.orderNumber(all), c.ticketCode(all))
			}
		}
		// A leg that names no train, in a mail that speaks of a bus and
		// of trains hardly at all ("Votre billet de bus", "Bus n°
		// 1021"), is a bus's: trips hold train segments only.
		busLegs := busWords.In(lower(all)) && travelWordCounts(all)[1] <= 1
		for _, l := range legs {
			// A stop that is a bus station ("Leeds Bus Station",
			// "Autobusové nádraží") makes a leg with no train a bus's.
			if l.Number == "" && (busLegs || busWords.In(strings.ToLower(l.From.Name+" "+l.To.Name))) {
				l.Type = KindBus
			}
			l.Reservation = ref
			out = append(out, Fact{Kind: l.Type, From: FromText, Segment: l})
		}
	case KindHotel:
		if f, ok := c.textHotel(subject, all); ok {
			out = append(out, f)
		}
	}
	return out
}

// textFacts applies the text rules to a message's readable text.
func (c *msgContext) textFacts(subject, text string) []Fact {
	if len(text) > 256<<10 {
		text = text[:256<<10]
	}
	all := subject + "\n" + text
	c.langText, c.langDone = all, false
	if c.ref.IsZero() {
		c.ref = firstFullDate(text, c.usSender())
	}
	var out []Fact
	// A journey's mail gives times and dates: without a digit in its text
	// there is no leg to read, and a long personal mail full of travel
	// words is not classified word by word.
	var travel []string
	if hasDigit(text) {
		lowerAll := lower(all)
		travel = rankLowerTravel(lowerAll)
		// A flight's shape (a number beside two airports' codes) outranks
		// words that trains share with flights ("PNR", "e-ticket").
		if !slices.Contains(travel, KindFlight) && flightShaped(text) {
			travel = append([]string{KindFlight}, travel...)
		}
		// A leg's shape alone is also a fare newsletter's ("Leeds 07:45 ->
		// York 08:12 from £9"): the offer rule below drops what it reads.
		if !slices.Contains(travel, KindTrain) && (legShaped(text) || stopPairShaped(text) || c.routeShaped(text)) {
			// Also after a kind its words named first ("e-ticket" is a
			// flight's word too): the train rules read what that kind's
			// could not, in a mail with no flight in it.
			travel = append(travel, KindTrain)
		}
		// A stay's two dates by their labels make a mail a hotel's
		// whatever its words ("Data de entrada", "Data de saída").
		if len(travel) == 0 && c.stayShaped(all, lowerAll) {
			travel = []string{KindHotel}
		}
	}
	// The kind with most words first; when its rules find nothing and
	// the mail has words of stays too, the stay rules ("Arrivée" and
	// "Départ" head a hotel's dates as well as a train's stops). The
	// train rules only in a mail with no flight in it: they read any pair
	// of timed stops, a flight's that its rules could not read too.
	for i, kind := range travel {
		if i > 0 && kind != KindHotel && !(kind == KindTrain && noFlightIn(all)) || i > 1 && kind != KindTrain {
			break
		}
		out = append(out, c.travelFacts(kind, subject, text, all)...)
		if len(out) > 0 {
			break
		}
	}
	// Travel in a mail that offers prices ("from £64", "dès 69 €") is a
	// deal, not a booking, unless the mail names its booking's reference.
	// The reference first: most bookings name one, and the offer's
	// expression, with no literal to start from, costs far more on a long
	// mail.
	if len(out) > 0 && c.bookingRef(all) == "" && offerPriceRE.MatchString(all) {
		out = nil
	}
	if len(out) > 0 {
		if isCancellation(subject) {
			for _, f := range out {
				f.Segment.Status = StatusCancelled
			}
		}
		return out
	}
	if f, ok := c.textOrder(subject, all); ok {
		return []Fact{f}
	}
	if f, ok := c.textBill(subject, all); ok {
		return []Fact{f}
	}
	// A cancellation that names only the booking still cancels it.
	if isCancellation(subject) {
		if ref := c.bookingRef(all); ref != "" {
			if kind := classifyTravel(all); kind != "" {
				return []Fact{{Kind: kind, From: FromText, Segment: &Segment{Type: kind, Status: StatusCancelled, Reservation: ref}}}
			}
		}
	}
	return nil
}

func isCancellation(subject string) bool {
	return containsAny(strings.ToLower(subject), "cancel", "storniert", "stornierung", "annul", "cancelación", "cancellazione", "geannuleerd")
}

// usSender reads slashed dates month first: a US sender, or a .com
// sender writing English (a .com airline writing Spanish puts the day
// first).
func (c *msgContext) usSender() bool {
	if c.senderCountry == "US" {
		return true
	}
	if c.senderCountry != "" || !strings.HasSuffix(c.senderDomain, ".com") {
		return false
	}
	if !c.langDone {
		c.language, c.langDone = lang.Detect(c.langText), true
	}
	return c.language == "" || c.language == "en"
}

// textFlights finds flight segments: a flight number, and near it (same
// line or the next lines, up to the next flight number) two places and a
// departure time.
func (c *msgContext) textFlights(text string) []Fact {
	lines := splitFlightsOnLine(strings.Split(text, "\n"))
	type hit struct {
		line int
		num  string
	}
	ref := c.recordLocator(text)
	var out []Fact
	seen := map[string]bool{}
	// Booking systems' printouts: one flight per line, and every field
	// in its column.
	rowLine := map[int]bool{}
	for i, ln := range lines {
		seg := c.gdsRow(ln)
		if seg == nil && i+1 < len(lines) {
			// The times on the line under the row, under their airports
			// ("DEP 0715   ARR 0735").
			if times := gdsTimesLineRE.FindStringSubmatch(lines[i+1]); times != nil {
				if seg = c.gdsRow(strings.TrimRight(ln, " ") + "   " + times[1] + " " + times[2] + times[3]); seg != nil {
					rowLine[i+1] = true
				}
			}
		}
		if seg != nil {
			seg.Reservation = ref
			rowLine[i] = true
			if key := seg.Number + seg.Depart.Format("2006-01-02"); !seen[key] {
				seen[key] = true
				out = append(out, Fact{Kind: KindFlight, From: FromText, Segment: seg})
			}
		}
	}
	var hits []hit
	for i, ln := range lines {
		if rowLine[i] {
			continue
		}
		// An airline's three-letter ICAO designator ("Outbound flight
		// TOM2456", "EZY8042") where the line itself speaks of a flight
		// or names two airports, and no two-character one is on it.
		nums := flightNumRE.FindAllStringSubmatchIndex(ln, -1)
		if len(nums) == 0 {
			if m := icaoFlightRE.FindStringSubmatch(ln); m != nil && !masked(m[0]) && (travelWordCounts(ln)[0] > 0 || len(airportCodes(ln)) >= 2) {
				hits = append(hits, hit{i, m[1] + " " + strings.TrimLeft(m[2], "0")})
			}
			continue
		}
		for _, m := range nums {
			// "A3 601" is a sheet of paper and "OK 770" an answer,
			// unless the line or the next speaks of flights ("Aegean
			// Airlines A3 601"; "Let OK 770", then "Odlet: … (PRG)").
			if !isFlightDesignator(ln[m[2]:m[3]]) && !aboutFlights(lines, i) && len(airportCodes(ln)) < 2 {
				continue
			}
			// "Operated by Norra. Also sold as SK 5711": the same
			// flight under another number, not a flight of its own.
			if codeshareAt(ln, m[0]) {
				break
			}
			hits = append(hits, hit{i, ln[m[2]:m[3]] + " " + strings.TrimLeft(ln[m[4]:m[5]], "0")})
			break
		}
	}
	for hi, h := range hits {
		end := len(lines)
		if hi+1 < len(hits) {
			end = hits[hi+1].line
		}
		next := end // the next flight's line
		end = min(end, h.line+10)
		begin := h.line
		// A heading line with the date may come just before the number
		// (blank lines between: paragraphs of HTML).
		prev := h.line - 1
		for prev >= 0 && prev > h.line-3 && strings.TrimSpace(lines[prev]) == "" {
			prev--
		}
		if prev >= 0 && (hi == 0 || prev > hits[hi-1].line) && len(c.dates(lines[prev])) > 0 &&
			findClocks(lines[prev]) == nil { // a time: the last leg's arrival, not a heading
			begin = prev
		}
		win := strings.Join(lines[begin:end], "\n")
		seg := c.flightFromWindow(win, lines, begin)
		if seg == nil {
			// Some senders print the route first and the number under it.
			from := max(0, h.line-8)
			if hi > 0 {
				from = max(from, hits[hi-1].line+1)
			}
			seg = c.flightFromWindow(strings.Join(lines[from:h.line+1], "\n"), lines, from)
		}
		if seg == nil && next > end {
			// Neither ten lines below nor the route above: ten lines of
			// text, as an HTML table's flattened rows have blank lines
			// between them.
			if tail := textLinesEnd(lines, h.line, next, 10); tail > end {
				seg = c.flightFromWindow(strings.Join(lines[begin:tail], "\n"), lines, begin)
			}
		}
		if seg == nil {
			seg = c.stackedFlight(lines, begin, h.line, next)
		}
		if seg == nil {
			continue
		}
		seg.Number, seg.Reservation = h.num, ref
		key := seg.Number + seg.Depart.Format("2006-01-02")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, Fact{Kind: KindFlight, From: FromText, Segment: seg})
	}
	return out
}

// codeLines counts the lines that are three capitals alone or end in them
// in parentheses ("Nice (NCE)"), a byte test before any expression.
func codeLines(lines []string) int {
	n := 0
	for _, ln := range lines {
		ln = strings.TrimSpace(ln)
		alone := len(ln) == 3 && isUpper(ln)
		named := len(ln) > 5 && ln[len(ln)-5] == '(' && ln[len(ln)-1] == ')' && isUpper(ln[len(ln)-4:len(ln)-1])
		if alone || named {
			n++
		}
	}
	return n
}

// stackedCard reports whether lines hold two airports' codes and two
// clocks, each alone on its line (a code perhaps after its airport's
// name: cardCode).
func stackedCard(lines []string) bool {
	var codes []string
	clocks := 0
	for _, ln := range lines {
		ln = strings.TrimSpace(ln)
		if code := cardCode(ln); code != "" && !slices.Contains(codes, code) {
			codes = append(codes, code)
		} else if len(ln) <= 8 && hasDigit(ln) {
			if cs := findClocks(ln); len(cs) == 1 && cs[0].start == 0 && cs[0].end == len(ln) {
				clocks++
			}
		}
	}
	return len(codes) >= 2 && clocks >= 2
}

// cardCodeRE is an airport's block with its name: "Nice (NCE)".
var cardCodeRE = regexp.MustCompile(`^\p{L}[\p{L} .'-]{0,40}\(([A-Z]{3})\)$`)

// cardCode is the known airport code a card's block holds alone ("NCE")
// or after the airport's name ("Nice (NCE)"), or "".
func cardCode(ln string) string {
	if len(ln) == 3 && isUpper(ln) && places.Known(ln) {
		return ln
	}
	if m := cardCodeRE.FindStringSubmatch(ln); m != nil && places.Known(m[1]) {
		return m[1]
	}
	return ""
}

// stackedFlight reads a flight laid out as a card of stacked blocks, each
// clock and each airport's code on a line of its own, under the number
// (line num) and before the next flight's (next): "SN 3583", "07:10",
// "Brussels", "BRU", "08:45", "Rome Fiumicino", "FCO" (or "Nice (NCE)").
// The first two clocks are the departure's and the arrival's, the first
// two codes their airports'; the day is the first date from begin.
func (c *msgContext) stackedFlight(lines []string, begin, num, next int) *Segment {
	var clocks []clockMatch
	var codes []string
	var day *dateMatch
	for i := begin; i < next && i < num+24; i++ {
		ln := strings.TrimSpace(lines[i])
		if ln == "" {
			continue
		}
		if day == nil {
			if ds := c.dates(ln); len(ds) > 0 {
				d := ds[0].withYear(c.ref)
				day = &d
			}
		}
		if i <= num {
			continue
		}
		if cs := findClocks(ln); len(cs) == 1 && cs[0].start == 0 && cs[0].end == len(ln) {
			clocks = append(clocks, cs[0])
		} else if code := cardCode(ln); code != "" {
			codes = append(codes, code)
		}
		if len(clocks) == 2 && len(codes) == 2 {
			break
		}
	}
	if len(clocks) != 2 || len(codes) != 2 || codes[0] == codes[1] || day == nil {
		return nil
	}
	from, to := &Place{Code: codes[0]}, &Place{Code: codes[1]}
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: from, To: to}
	seg.Depart = resolve(at(*day, &clocks[0]), c.airportZone(from), c.dateLoc)
	seg.Arrive = resolve(at(*day, &clocks[1]), c.airportZone(to), c.dateLoc)
	if seg.Depart == nil || seg.Arrive == nil {
		return nil
	}
	if seg.Arrive.Before(seg.Depart.Time) {
		seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
	}
	return seg
}

// splitFlightsOnLine gives each flight of a line that lists several,
// apart by semicolons ("Flight 1: LH 1234 FRA-MUC 07:00-08:05; Flight 2:
// LH 410 MUC-JFK 10:20-13:45"), a line of its own.
func splitFlightsOnLine(lines []string) []string {
	var out []string
	for _, ln := range lines {
		if !strings.Contains(ln, ";") {
			out = append(out, ln)
			continue
		}
		parts := strings.Split(ln, ";")
		n := 0
		for _, p := range parts {
			if m := flightNumRE.FindStringSubmatch(p); m != nil && isFlightDesignator(m[1]) && len(findClocks(p)) > 0 {
				n++
			}
		}
		if n < 2 {
			out = append(out, ln)
			continue
		}
		for _, p := range parts {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}

// gdsTimesLineRE is a booking system's line of a flight's two times
// alone, under its row's airports: "DEP 0715   ARR 0735", "0715 0735+1".
var gdsTimesLineRE = regexp.MustCompile(`(?i)^\s*(?:dep\.?\s+)?([0-2]\d[0-5]\d)\s+(?:arr\.?\s+)?([0-2]\d[0-5]\d)(\+\d)?\s*$`)

// timeRange reports whether two clocks of a line are a span: a dash or an
// arrow between them ("20:35 – 06:50", "20:35 – 13.07.2027 06:50").
func timeRange(ln string, a, b clockMatch) bool {
	between := ln[a.end:b.start]
	return len(between) <= 16 && strings.ContainsAny(between, "-–—→>")
}

// flightShaped reports whether a text whose words name no kind of travel
// ("Departing", "on board") is an itinerary all the same: two airports'
// codes in parentheses and a flight number on a line with one of them, or
// a flight number and two airports' codes on one line ("AY 1071 Helsinki
// HEL – Oslo OSL").
func flightShaped(text string) bool {
	if !mayHoldFlightNumber(text) {
		return false
	}
	// A route of two airports' codes and a flight number on its line or
	// on the line next to it ("Paris (CDG) - Nice (NCE)", then "AF 7700 |
	// mardi 15 février 2028 | …"); blank lines do not count.
	var filled []string
	for ln := range strings.Lines(text) {
		if strings.TrimSpace(ln) != "" {
			filled = append(filled, ln)
		}
	}
	hasNumber := func(ln string) bool {
		for _, m := range flightNumRE.FindAllStringSubmatch(ln, -1) {
			if isFlightDesignator(m[1]) {
				return true
			}
		}
		return false
	}
	for i, ln := range filled {
		// A number on a line of its own with an airport on each of the
		// two lines under it ("PD 2411", "Depart: Ottawa (YOW), …",
		// "Arrive: Halifax (YHZ), …").
		if i+2 < len(filled) && strings.IndexByte(filled[i+1], '(') >= 0 && mayHoldFlightNumber(ln) &&
			parenCode.MatchString(filled[i+1]) && hasNumber(ln) {
			a, b := airportCodes(filled[i+1]), airportCodes(filled[i+2])
			if len(a) == 1 && len(b) == 1 && a[0] != b[0] {
				return true
			}
		}
		// A card of stacked blocks under the number: two codes and two
		// clocks each on a line of their own.
		if card := filled[i+1 : min(len(filled), i+12)]; codeLines(card) >= 2 && mayHoldFlightNumber(ln) && hasNumber(ln) && stackedCard(card) {
			return true
		}
		if !strings.ContainsAny(ln, "-–—→>") {
			continue
		}
		var codes []string
		if hasCapitals(ln, 3) { // the expressions only where a code can be
			codes = airportCodes(ln)
		}
		if len(codes) < 2 || codes[0] == codes[1] {
			// Or airports by names that each mean one ("LX 1071 Zürich
			// – Berlin Brandenburg").
			if hasNumber(ln) {
				if from, _ := namedRoute(ln); from != "" {
					return true
				}
			}
			continue
		}
		if hasNumber(ln) || i > 0 && hasNumber(filled[i-1]) || i+1 < len(filled) && hasNumber(filled[i+1]) {
			return true
		}
		// An ICAO designator beside the two codes ("EZY 8211 Bristol
		// (BRS) dep 07:05 - Faro (FAO) arr 09:55").
		if m := icaoFlightRE.FindStringSubmatch(ln); m != nil && !places.Known(m[1]) {
			return true
		}
	}
	var codes []string // distinct: "(LHR)" twice is one airport
	for _, m := range parenCode.FindAllStringSubmatch(text, 8) {
		if places.Known(m[1]) && !slices.Contains(codes, m[1]) {
			codes = append(codes, m[1])
		}
	}
	if len(codes) < 2 {
		return false
	}
	for ln := range strings.Lines(text) {
		codes := airportCodes(ln)
		if len(codes) == 0 {
			continue
		}
		// "A3 602" is a sheet of paper unless the line names two airports.
		for _, m := range flightNumRE.FindAllStringSubmatch(ln, -1) {
			if isFlightDesignator(m[1]) || len(codes) >= 2 {
				return true
			}
		}
	}
	return false
}

// noFlightIn reports whether a text holds neither an airport's code in
// parentheses nor a flight number on a line with a word of flights.
func noFlightIn(text string) bool {
	if parenCode.MatchString(text) {
		return false
	}
	for ln := range strings.Lines(text) {
		for _, m := range flightNumRE.FindAllStringSubmatch(ln, -1) {
			if isFlightDesignator(m[1]) && travelWordCounts(ln)[0] > 0 {
				return false
			}
		}
	}
	return true
}

// hasCapitals reports whether s holds n capital letters (ASCII) in a
// row: an airport's code, a flight's designator.
func hasCapitals(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// mayHoldFlightNumber reports whether s has a capital letter followed by
// a capital letter or a digit, a space or none, then a digit: the shape
// of a flight number ("LH 1234", "U2 8042"), found by a byte scan before
// any expression runs over a mail that has none.
func mayHoldFlightNumber(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			continue
		}
		b := s[i+1]
		if !(b >= 'A' && b <= 'Z' || isDigitByte(b)) {
			continue
		}
		j := i + 2
		if s[j] == ' ' && j+1 < len(s) {
			j++
		}
		if isDigitByte(s[j]) {
			return true
		}
	}
	return false
}

// offerPriceRE is a price offered rather than paid: "from £9", "desde
// 19,90 €", "ab 29 €", "fra kr 1 290,-" (offer.from in extract/lang/data).
var offerPriceRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("offer.from")), "|") +
	`)\s+(?:(?:[£€$]|(?:kr|eur|sek|nok|dkk|chf|pln|czk|gbp|usd)\b\.?)\s?\d|\d[\d.,]*\s?(?:€|eur\b|kr\b|zł|kč|chf\b|sek\b|nok\b|dkk\b|pln\b|czk\b|gbp\b|usd\b))`)

// legShaped reports whether a text whose words name no kind of travel
// holds a leg on one line all the same ("Leeds 07:45 -> York 08:12"), and
// no airport: a train's, named only by its operator. A bus's is made a
// bus leg by its words (travelFacts).
func legShaped(text string) bool {
	if parenCode.MatchString(text) {
		return false
	}
	for ln := range strings.Lines(text) {
		// Most mails have digits and no leg: the expression only on a line
		// with an arrow or dash and two clocks' worth of separators.
		if colonClocks(ln) < 2 && (!strings.ContainsAny(ln, "-–—→>") || strings.Count(ln, ":")+strings.Count(ln, ".")+strings.Count(ln, "h") < 2) {
			continue
		}
		if m := oneLineLegRE.FindStringSubmatch(strings.TrimSpace(ln)); m != nil && stationName(m[1]) != "" && stationName(m[3]) != "" {
			return true
		}
		if m := clockFirstLegRE.FindStringSubmatch(strings.TrimSpace(ln)); m != nil && !meridiemFirst(m[2]) && !meridiemFirst(m[4]) &&
			stationName(m[2]) != "" && stationName(m[4]) != "" {
			return true
		}
		if m := routeLine(strings.TrimSpace(ln)); m != nil && stationName(m[1]) != "" && stationName(m[2]) != "" {
			return true // "Glasgow Central to London Euston, dep 12:40, arr 17:12"
		}
	}
	return stackedShaped(text)
}

// routeShaped reports whether a text is a journey by a route of two
// stations over its clocks, in a mail that names a booking and no
// airport's code: "Graz → Klagenfurt" over "Departure 09:10 · Arrival
// 11:55", whatever its words.
func (c *msgContext) routeShaped(text string) bool {
	return routeOverClocks(text) && !parenCode.MatchString(text) && c.bookingRef(text) != "" &&
		c.labelledLeg(strings.Split(text, "\n"), c.ref) != nil
}

// routeOverClocks reports whether a line that is a pair of stations
// apart by an arrow or a dash ("Graz → Klagenfurt") has two clocks on the
// next line that is not blank: a byte test, then the expression.
func routeOverClocks(text string) bool {
	lines := strings.Split(text, "\n")
	for i, ln := range lines {
		if !strings.ContainsAny(ln, "-–—→") || hasDigit(ln) {
			continue
		}
		j := i + 1
		for j < len(lines) && j <= i+2 && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && colonClocks(lines[j]) == 2 && stationPairRE.MatchString(strings.TrimSpace(ln)) {
			return true
		}
	}
	return false
}

// stackedShaped reports whether a text that names a booking holds two
// stops that make a leg by stackedPair, laid out as a card's stacked
// blocks (stackedStops) or each on a line of its own ("07:30 Birmingham
// New Street" over "09:14 Bristol Temple Meads").
func stackedShaped(text string) bool {
	lines := strings.Split(text, "\n")
	bs := cardBlocks(lines)
	stacked := stackedStops(bs)
	var spans [][2]int
	var names []string
	for _, b := range bs {
		switch at, ok := stacked[b.line]; {
		case b.kind == 'P':
			spans, names = append(spans, [2]int{b.line, b.line}), append(names, b.name)
		case ok:
			spans, names = append(spans, [2]int{min(b.line, at.line), max(b.line, at.line)}), append(names, at.station)
		}
	}
	for i := 0; i+1 < len(spans); i++ {
		if stackedPair(lines, spans, i, names[i], names[i+1]) {
			return findReservation(text) != ""
		}
	}
	return false
}

// stayShaped reports whether a text gives a check-in and a check-out
// date by their labels, at least a night and at most two months apart (a
// journey's "Departure" comes before its "Arrival"), as a range under a
// stay's label, or after "Check in" spelt apart.
func (c *msgContext) stayShaped(text, lower string) bool {
	// A range of dates under a stay's label ("Dates: 18 Jun 2029 – 20
	// Jun 2029", stay.range's labelled forms), the labels' words first.
	if stayDashWords.Any(lower) && stayDashLine(firstLines(text, 60)) {
		if in, out := c.rangeDates(text, c.countryZone("")); in != nil && out != nil {
			return true
		}
	}
	if in, _ := c.spacedCheckDates(text); in != nil {
		return true
	}
	// Both labels' words, in one pass each, before any expression.
	if checkinLabels.anchorSet != nil && checkoutLabels.anchorSet != nil &&
		(!checkinLabels.anchorSet.Any(lower) || !checkoutLabels.anchorSet.Any(lower)) {
		return false
	}
	in := c.labelledDate(checkinLabels, text, c.countryZone(""))
	if in == nil {
		return false
	}
	out := c.labelledDate(checkoutLabels, text, c.countryZone(""))
	return out != nil && out.After(in.Time) && out.Sub(in.Time) <= 60*24*time.Hour
}

// stopPairShaped reports whether a text holds a departure's stop line and
// the arrival's on the next line, each a station, its marker and a clock
// ("Reading dep 08:12", "Oxford arr 08:38"), or a row of two clocks under
// a header of departure and arrival, and no airport.
func stopPairShaped(text string) bool {
	// Most mails hold no two clocks at all: a byte scan says so, before
	// any expression runs.
	if colonClocks(text) < 2 || parenCode.MatchString(text) {
		return false
	}
	prevDep, prev := false, ""
	fromLabel, toLabel := false, false
	for ln := range strings.Lines(text) {
		if strings.TrimSpace(ln) == "" {
			continue
		}
		last := prev
		prev = ln
		clocks := colonClocks(ln)
		if clocks == 0 {
			prevDep = false
			// Stations by their labels ("Origen:", "Destino:"), the
			// clocks on lines of their own.
			if strings.IndexByte(ln, ':') > 0 {
				if a, _ := routeLabelPair(ln); a != "" {
					fromLabel, toLabel = true, true // "Strecke: A – B"
				}
				fromLabel = fromLabel || labelledStation(fromStationRE, ln)
				toLabel = toLabel || labelledStation(toStationRE, ln)
				if fromLabel && toLabel {
					return true
				}
			} else if a, _ := townPair(ln); a != "" {
				return true // "Edinburgh Waverley to Glasgow Queen Street"
			}
			continue
		}
		// A table's row under a header that names the departure and
		// the arrival ("Date From Dep To Arr").
		if clocks == 2 && !hasDigit(last) && depLabel.MatchString(last) && arrLabel.MatchString(last) {
			return true
		}
		// A row of each station with its marker before its clock ("Sofia
		// dep. 07:00  Plovdiv arr. 09:41").
		if clocks == 2 && markedRow(ln) {
			return true
		}
		dep, arr := stopLine(ln)
		if arr && prevDep {
			return true
		}
		prevDep = dep
	}
	return false
}

// colonClocks counts, up to 2, the places in s that look like a clock
// with a colon ("8:12", "10:32").
func colonClocks(s string) int {
	n := 0
	for i := 1; i+2 < len(s); i++ {
		if s[i] == ':' && isDigitByte(s[i-1]) && isDigitByte(s[i+1]) && isDigitByte(s[i+2]) {
			if n++; n == 2 {
				break
			}
			i += 2
		}
	}
	return n
}

// markedRow reports whether ln holds two stops, each a station and its
// marker before the clock ("IR 1581  Bucuresti Nord  dep. 06:15  Brasov
// arr. 08:52").
func markedRow(ln string) bool {
	cks := findClocks(ln)
	if len(cks) != 2 {
		return false
	}
	a, ok1 := depMarkers.ends(clockWord.ReplaceAllString(ln[:cks[0].start], ""))
	b, ok2 := arrMarkers.ends(clockWord.ReplaceAllString(ln[cks[0].end:cks[1].start], ""))
	return ok1 && ok2 && stationName(a) != "" && stationName(b) != ""
}

// labelledStation reports whether ln is a station after its label
// ("Origen: Madrid-Puerta de Atocha"); a quoted header's "From: Anna
// <anna@…>" is none.
func labelledStation(re *regexp.Regexp, ln string) bool {
	m := re.FindStringSubmatch(strings.TrimRight(ln, "\r\n"))
	return m != nil && stationName(m[1]) != ""
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }

// stopLine reports whether a line is one stop with its one clock, and
// whether its marker is a departure's or an arrival's.
func stopLine(ln string) (dep, arr bool) {
	if !hasDigit(ln) {
		return false, false
	}
	clocks := findClocks(ln)
	if len(clocks) != 1 {
		return false, false
	}
	before, after := ln[:clocks[0].start], ln[clocks[0].end:]
	if stationName(before) == "" && stationName(after) == "" {
		return false, false
	}
	return stopMarks(before)
}

// aboutFlights reports whether line i or the line after it holds a word
// of flights.
func aboutFlights(lines []string, i int) bool {
	if travelWordCounts(lines[i])[0] > 0 {
		return true
	}
	return i+1 < len(lines) && travelWordCounts(lines[i+1])[0] > 0
}

// isFlightDesignator rules out the two-character prefixes that are not
// airlines in practice but look like one in mail text.
func isFlightDesignator(s string) bool {
	switch s {
	case "DE", "EU", "US", "UK", "NO", "NR", "ID", "OK", "PO", "TO", "AT", "IN", "ON", "OR", "IS", "IT", "AM", "PM", "CW", "KW", "MO", "DI", "MI", "DO", "FR", "SA", "SO", "TV", "ST", "RE", "RB", "IC", "EC", "HD", "4K", "5G", "4G", "3G", "A4", "A3", "A5":
		return false
	}
	return true
}

var (
	// A flight's departure or arrival line, by its label anywhere on the
	// line ("Wylot: Warszawa (WAW) 14:05"); of the short words that mark
	// one only next to a clock, those of three letters and more ("from",
	// "nach"): "de" and "a" are in every Spanish line.
	depLabel = travelLabel("departure")
	arrLabel = travelLabel("arrival")
	codeWord = regexp.MustCompile(`\b[A-Z]{3}\b`)
)

func travelLabel(category string) *regexp.Regexp {
	words := lang.Entries(category)
	for _, w := range lang.Entries(category + ".marker") {
		if utf8.RuneCountInString(w) >= 3 {
			words = append(words, w)
		}
	}
	return regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(words), "|") + `)(?:[^\p{L}]|$)`)
}

func (c *msgContext) flightFromWindow(win string, lines []string, begin int) *Segment {
	type stop struct {
		place *Place
		clock *clockMatch
		line  string
		at    int // the line's index in the window
	}
	var stops []stop
	wl := strings.Split(win, "\n")
	for i, ln := range wl {
		clocks := findClocks(ln)
		if len(clocks) == 2 && len(airportCodes(ln)) < 2 {
			// A sentence that names both airports by their markers:
			// "départ de Paris-CDG à 08h35, arrivée à Athènes à 12h50".
			if a, b, _, ok := c.markedStops(ln, clocks); ok && a != "" && b != "" {
				if pa, pb := namedPair(a, b); pa != nil && pb != nil && pa.Code != pb.Code {
					stops = append(stops, stop{pa, &clocks[0], ln, i}, stop{pb, &clocks[1], ln, i})
					continue
				}
			}
		}
		p := c.placeInLine(ln, clocks)
		// "Departs 06:15   Arrives 09:50", "12.07.2027 20:35 –
		// 13.07.2027 06:50": both of a leg's times on one line, its
		// airports on the route line.
		if p != nil && p.Code == "" && (depLabel.MatchString(p.Name) || arrLabel.MatchString(p.Name)) {
			p = nil // the labels' words, not a place
		}
		if (p == nil || p.Code == "") && len(clocks) >= 2 && (depLabel.MatchString(ln) && arrLabel.MatchString(ln) ||
			timeRange(ln, clocks[0], clocks[1]) || markedClocks(ln, clocks)) {
			stops = append(stops, stop{nil, &clocks[0], ln, i}, stop{nil, &clocks[1], ln, i})
			continue
		}
		if p == nil && len(clocks) > 0 && i > 0 {
			// The airport on its own line above its date and time
			// (blank lines between: paragraphs of HTML).
			j := i - 1
			for j > 0 && j > i-3 && strings.TrimSpace(wl[j]) == "" {
				j--
			}
			p = placeAlone(wl[j])
		}
		if (p == nil || len(airportCodes(ln)) < 2) && len(clocks) == 0 {
			// "FR 1234 Berlin Brandenburg → Palma de Mallorca": a route
			// by names that each mean one airport (the first read as a
			// place alone: "KL1673 Amsterdam to Barcelona").
			if from, to := namedRoute(ln); from != "" {
				stops = append(stops, stop{&Place{Code: from}, nil, ln, i}, stop{&Place{Code: to}, nil, ln, i})
				continue
			}
		}
		if p == nil {
			// "Departure: 14/05/2027 06:10": a time whose airport the
			// route line names ("Katowice (KTW) -> London Luton (LTN)").
			if len(clocks) > 0 && (depLabel.MatchString(ln) || arrLabel.MatchString(ln)) {
				stops = append(stops, stop{nil, &clocks[0], ln, i})
			}
			continue
		}
		var ck *clockMatch
		if len(clocks) > 0 {
			ck = &clocks[0]
		}
		// Two airports on one line ("FRA 10:05 → LIS 12:15", "TXL-BRU").
		codes := airportCodes(ln)
		if len(codes) >= 2 {
			var c2 *clockMatch
			if len(clocks) > 1 {
				c2 = &clocks[1]
			}
			stops = append(stops, stop{&Place{Code: codes[0]}, ck, ln, i}, stop{&Place{Code: codes[1]}, c2, ln, i})
			continue
		}
		stops = append(stops, stop{p, ck, ln, i})
	}
	// A place without a time ("IDA - jueves, 8 de abril": a heading, and
	// the code of Idaho Falls) is no stop when two others have times.
	timed := 0
	var route []*Place // "London (LHR) to Athens (ATH)", times on other lines
	routeAt := 0
	for i, s := range stops {
		if s.clock != nil {
			timed++
		} else if route == nil && i+1 < len(stops) && stops[i+1].clock == nil && routePair(s.place, stops[i+1].place, stops[i+1].at-s.at) {
			route, routeAt = []*Place{s.place, stops[i+1].place}, s.at
		}
	}
	if timed >= 2 {
		stops = slices.DeleteFunc(stops, func(s stop) bool { return s.clock == nil })
	}
	if len(stops) < 2 {
		return nil
	}
	dep, arr := stops[0], stops[1]
	// Labelled lines win over order of appearance.
	for _, s := range stops {
		if depLabel.MatchString(s.line) && !arrLabel.MatchString(s.line) {
			dep = s
			break
		}
	}
	for _, s := range stops {
		if s.line != dep.line && arrLabel.MatchString(s.line) {
			arr = s
			break
		}
	}
	if dep.clock == nil {
		return nil
	}
	// Times labelled on lines that name a terminal, not an airport
	// ("Depart 11:40 - Heathrow Terminal 2"): the airports are the route's.
	depPlace, arrPlace := dep.place, arr.place
	if depPlace == nil || arrPlace == nil || depPlace.Code == "" || arrPlace.Code == "" {
		if route == nil || routeAt > dep.at && !onlyNumberAfter(wl, routeAt) {
			// A route further down is the next leg's; this one's may
			// head the leg, above its number.
			route = nil
			for i := begin - 1; i >= 0 && i >= begin-3; i-- {
				if codes := airportCodes(lines[i]); len(codes) >= 2 && findClocks(lines[i]) == nil {
					route = []*Place{{Code: codes[0]}, {Code: codes[1]}}
					break
				}
			}
		}
		if route != nil {
			depPlace, arrPlace = route[0], route[1]
		}
	}
	if depPlace == nil || arrPlace == nil {
		return nil
	}
	dates := c.dates(win)
	// The arrival's own date is on the arrival's line, or is the
	// second date of a line that gives both; a date further down the
	// window is the next leg's.
	var arrDate *dateMatch
	if ds := c.dates(arr.line); arr.line != dep.line && len(ds) > 0 {
		arrDate = &ds[0]
	} else if len(ds) > 1 {
		arrDate = &ds[1]
	}
	// The departure's date: on its line, else the nearest above it (in
	// the window, then above the window: a leg's heading), else the first
	// below it. A date further down is more often the next leg's heading
	// ("Retour — samedi 17 avril") than this leg's.
	var d dateMatch
	found := false
	if ds := c.dates(dep.line); len(ds) > 0 {
		d, found = ds[0], true
	}
	for i := dep.at - 1; !found && i >= 0; i-- {
		if ds := c.dates(wl[i]); len(ds) > 0 {
			d, found = ds[len(ds)-1], true
		}
	}
	for i := begin - 1; !found && i >= 0 && i >= begin-15; i-- {
		if ds := c.dates(lines[i]); len(ds) > 0 {
			d, found = ds[len(ds)-1], true
		}
	}
	if !found && len(dates) > 0 {
		d, found = dates[0], true
	}
	if !found {
		return nil
	}
	d = d.withYear(c.ref)
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: depPlace, To: arrPlace}
	seg.Depart = resolve(at(d, dep.clock), c.airportZone(depPlace), c.dateLoc)
	if arr.clock != nil {
		ad := d
		if arrDate != nil {
			ad = arrDate.withYear(c.ref)
		}
		w := at(ad, arr.clock)
		seg.Arrive = resolve(w, c.airportZone(arrPlace), c.dateLoc)
		if arrDate == nil && seg.Arrive.Before(seg.Depart.Time) {
			w2 := at(ad, arr.clock)
			t := resolve(w2, c.airportZone(arrPlace), c.dateLoc)
			t.Time = t.AddDate(0, 0, 1)
			seg.Arrive = t
		}
	}
	return seg
}

// onlyNumberAfter reports whether what follows line i of a window is
// blank lines and a flight's number: the window read above the number,
// whose route under the clocks is the flight's ("08:35 – 10:50",
// "Amsterdam (AMS) → Barcelona (BCN)", "KL 1673"), not the next leg's.
func onlyNumberAfter(wl []string, i int) bool {
	rest := slices.DeleteFunc(slices.Clone(wl[i+1:]), func(ln string) bool { return strings.TrimSpace(ln) == "" })
	return len(rest) == 1 && flightNumRE.MatchString(rest[0]) && findClocks(rest[0]) == nil
}

// markedClocks reports whether a line's first two clocks each follow a
// stop's marker: "Mi., 12.01.2028, ab 06:05, an 08:40".
func markedClocks(ln string, clocks []clockMatch) bool {
	_, dep := depMarkers.ends(ln[:clocks[0].start])
	_, arr := arrMarkers.ends(ln[clocks[0].end:clocks[1].start])
	return dep && arr
}

// routeArrowRE splits a route written with an arrow or a spaced dash.
var routeArrowRE = regexp.MustCompile(`\s*(?:→|->|➞|\s[–—-])\s+`)

// routeToRE splits a route written with a word for "to" ("Amsterdam to
// Barcelona"): namedRoute takes it since both sides must then be
// airports' names.
var routeToRE = regexp.MustCompile(`(?i)\s(?:` + toWords() + `)\s`)

// namedRoute reads a route by airports' names on either side of an arrow
// ("Hinflug: FR 1234 Berlin Brandenburg → Palma de Mallorca"), each a name
// that means one airport; "" when either does not.
func namedRoute(ln string) (string, string) {
	parts := routeArrowRE.Split(ln, -1)
	if len(parts) == 1 {
		parts = routeToRE.Split(ln, -1)
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
		name = strings.Trim(strings.TrimSpace(name), ",.;()")
		if strings.Count(name, " ") > 3 {
			return "", ""
		}
		names[i] = name
	}
	// A city of several large airports is the one in the other end's
	// part of the world ("Amsterdam to Barcelona").
	from, to := namedPair(names[0], names[1])
	if from == nil || to == nil || from.Code == to.Code {
		return "", ""
	}
	return from.Code, to.Code
}

// textLinesEnd is where n non-blank lines from line i end, at most at limit.
func textLinesEnd(lines []string, i, limit, n int) int {
	for ; i < limit; i++ {
		if strings.TrimSpace(lines[i]) != "" {
			if n--; n < 0 {
				return i
			}
		}
	}
	return limit
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
	for _, m := range parenCode.FindAllStringSubmatch(ln, -1) {
		if places.Known(m[1]) {
			out = append(out, m[1])
		}
	}
	if len(out) > 0 {
		return out
	}
	if !strings.ContainsAny(ln, ":-→>–") {
		return nil
	}
	for _, w := range codeWord.FindAllString(ln, -1) {
		if places.Known(w) && !commonUpperWord[w] {
			out = append(out, w)
		}
	}
	return out
}

// commonUpperWord are three-letter words printed in capitals that happen
// to be airport codes.
var commonUpperWord = map[string]bool{"THE": true, "AND": true, "FOR": true, "YOU": true, "ARE": true, "NOT": true,
	"ALL": true, "NEW": true, "OUT": true, "DAY": true, "ONE": true, "TWO": true, "PER": true, "VIA": true,
	"BAG": true, "SEE": true, "CAN": true, "HER": true, "HIS": true, "WAS": true, "TAX": true, "VAT": true,
	"EUR": true, "USD": true, "GBP": true, "CHF": true, "PNR": true, "MRS": true, "DER": true, "DIE": true,
	"DAS": true, "UND": true, "MIT": true, "VON": true, "BEI": true, "PDF": true, "FAQ": true, "APP": true,
	"MON": true, "TUE": true, "WED": true, "THU": true, "FRI": true, "SAT": true, "SUN": true, "ECO": true,
	"SEA": true, "AIR": true, "BUS": true, "CAR": true}

var placeCleanRE = regexp.MustCompile(`(?i)\b(departure|depart|dep|abflug|abflugzeit|abflughafen|zielflughafen|arrival|arrive|arr|ankunft|ankunftszeit|from|to|von|nach|départ|arrivée|terminal\s*\w*|gate\s*\w*|flight|flug|date|time|uhr|am|pm|` + weekdays + `)\b|[:|*→>]`)

// weekdays, abbreviated and whole, as dates print them ("Fri, 03 Feb").
const weekdays = `mon|tue|wed|thu|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mo|di|mi|do|fr|sa|so|` +
	`montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lun|mar|mer|jeu|ven|sam|dim|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche`

var (
	countrySuffix = regexp.MustCompile(`,\s*[A-Z]{2}\s*$`)
	airportWord   = regexp.MustCompile(`(?i)\b(airport|flughafen|a[ée]roport|aeropuerto|aeroporto|luchthaven|lotnisko|letiště)\b`)
)

// placeAlone reads a line that is only an airport: a code, a known name,
// or a name that says it is an airport ("Berlin, Tegel Airport, DE").
var codeCityRE = regexp.MustCompile(`^([A-Z]{3})\s+(\p{Lu}[\p{L} .'-]{1,40})$`)

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
	if name == "" || len(name) > 60 {
		return nil
	}
	p := &Place{Name: name}
	if code, ok := places.AirportByName(name); ok {
		p.Code = code
	}
	return p
}

// clockWords are the words for "at" a time that stand before a clock.
var clockWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range oclockWords {
		m[w] = true
	}
	return m
}()

func cleanPlaceName(ln string, clocks []clockMatch, c *msgContext) string {
	for i := len(clocks) - 1; i >= 0; i-- {
		if clocks[i].end <= len(ln) {
			ln = ln[:clocks[i].start] + " " + ln[clocks[i].end:]
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
	words = slices.DeleteFunc(words, func(w string) bool {
		w = strings.ToLower(strings.Trim(w, ".,"))
		return weekdayNames[w] > 0 || clockWords[w]
	})
	ln = strings.Trim(strings.Join(words, " "), " -–,.()")
	if strings.IndexFunc(ln, func(r rune) bool { return r >= 'A' && r <= 'z' || r > 127 }) < 0 {
		return ""
	}
	return ln
}

// firstFullDate is the first date with a year in text, or zero.
func firstFullDate(text string, usFirst bool) time.Time {
	for ln := range strings.Lines(text) {
		for _, d := range findDates(ln, usFirst) {
			if d.hasYear {
				return time.Date(d.y, time.Month(d.m), d.d, 0, 0, 0, 0, time.UTC)
			}
		}
	}
	return time.Time{}
}

// digitCount is how many ASCII digits s holds.
func digitCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}
