package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"mailnode/extract/carriers"
	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// The labelled-text reader: a value after a label that names it, on its
// line or the next, or under it in a column; label sets are built from
// extract/lang/data's entries.

// labelledDate finds the first date (and clock, if on the same line)
// after one of the labels.
func (c *msgContext) labelledDate(l labelSet, text string, z zoneHint) *Time {
	return c.labelledDateBut(l, text, z, nil)
}

// labelledDateBut is labelledDate less the values whose line skip
// refuses (nil: none).
func (c *msgContext) labelledDateBut(l labelSet, text string, z zoneHint, skip func(line string) bool) *Time {
	for _, v := range c.after(l, text) {
		if skip != nil {
			if line, _, _ := strings.Cut(v, "\n"); skip(line) {
				continue
			}
		}
		ds := c.dates(v)
		if len(ds) == 0 || ds[0].start > 40 {
			continue
		}
		d := ds[0].withYear(c.ref)
		var ck *clockMatch
		if cs := findClocks(v); len(cs) > 0 {
			ck = &cs[0]
		}
		return resolve(at(d, ck), z, c.dateLoc)
	}
	return nil
}

// labelledDateUnder is the date alone on the line under a label whose
// own line holds another column's cells and no date ("Dată scadenţă: 3
// TVA 19% lei 6,34", then "31.01.2018": a printed bill's two columns
// run together by its PDF's text), or nil.
func (c *msgContext) labelledDateUnder(l labelSet, text string, z zoneHint) *Time {
	for _, v := range c.afterNext(l, text) {
		line, next, ok := strings.Cut(v, "\n")
		if !ok || strings.TrimSpace(line) == "" || len(c.dates(line)) > 0 || !c.dateAlone(next) {
			continue
		}
		d := c.dates(next)[0].withYear(c.ref)
		return resolve(at(d, nil), z, c.dateLoc)
	}
	return nil
}

// digitLinesOf is digitLines(text), worked out once per text.
func (c *msgContext) digitLinesOf(text string) []int {
	if !sameString(text, c.digitText) {
		c.digitText, c.digitLines = text, digitLines(text)
	}
	return c.digitLines
}

// The labels of every language (extract/lang/data), case-insensitive.
var (
	reservationLabels = labels(lang.Entries("reservation")...)
	orderLabels       = numericLabels(lang.Entries("order")...)
	trackingLabel     = numericLabels(lang.Entries("tracking")...)
	// parcelNounRE is a number right after a word for a parcel
	// (tracking.noun), a carrier's name between them or not: "Votre colis
	// 6A21458736920", "Votre colis GLS 66120447712", or a number in
	// groups apart by dots ("Ihre Sendung 99.60.112233.10203040"); the
	// carrier's name with its service's ("Twoja przesyłka DHL Express
	// 1092134455", "Ihre Sendung DHL Paket …"); the shop's name and a
	// sign for "number" between them ("Votre colis
	// Cdiscount n° 8X55120771FR", "shipment No. 20450771203344"), a number
	// in groups apart by spaces ("Your parcel BX 551 2079 913", "Your
	// parcel 1Z 4X8 E73 68 1772 0452" as UPS prints its numbers, read
	// without them: the carrier's check then asks for the whole).
	parcelNounRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("tracking.noun")), "|") + `)[ \t]+` +
		`(?:(?:` + strings.Join(quoteAll(longestFirst(carriers.Names())), "|") + `)(?:[ \t]+(?-i:\p{Lu}\p{L}{2,15}))?[ \t]+)?` +
		`(?:(?:(?P<shop>(?-i:\p{Lu}[\p{L}\d.&'-]{1,24}))[ \t]+)?(?:n[°º]|no\.|nr\.?|n\.[°º]|č\.)[ \t]*)?` +
		`(?P<num>[A-Z0-9]{8,34}|\d{2}(?:\.\d{2,8}){2,4}|[A-Z0-9]{2,4}(?:[ \t]\d{3,5}){2,4}|(?-i:1Z(?:[ \t][A-Z0-9]{2,4}){4,7}))\b`)
	parcelNounShop, parcelNounNum = parcelNounRE.SubexpIndex("shop"), parcelNounRE.SubexpIndex("num")
	parcelNouns                   = func() *words.Set {
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
	// "Check in" and "Check out" spelt apart (spacedLabels) are a label
	// only where they start their line and a colon, a column gap, a tab or
	// the line's end sets them off from the value ("Check in:\t11 Oct
	// 2024 at 3pm", "Check in" over "Thu 20 Mar 2025 from 3pm"): inside
	// a sentence they are a verb ("you can check in online from 2pm").
	spacedCheckinLabels, spacedCheckoutLabels = lineLabels(spacedLabels("checkin")), lineLabels(spacedLabels("checkout"))
	// A hotel's name label starts its line (after a list's bullet: "-
	// Hotel Name: Serenity Resort") and is set off from the name by a
	// colon, a column gap or a table's cell: "a hotel single room" names
	// nothing.
	hotelLabels = labelSet{re: lazyregexp.New(`(?im)^[ \t*•-]*(?:your |ihr |votre )?(?:booked |gebuchtes? )?(?:` +
		strings.Join(longestFirst(lang.Entries("hotel")), "|") + `)(?: name)?[ \t]*(?::[ \t]*|[ \t]{2,}|\t|$)`)}
)

// lineLabels is a label set of alternatives (a regexp's, joined) that
// start their line, after a list's bullet perhaps, and end at a colon, a
// column gap, a tab or the line's end, as hotelLabels are read. Their
// values hold a digit.
func lineLabels(alts string) labelSet {
	return labelSet{re: lazyregexp.New(`(?im)^[ \t*•-]*(?:` + alts + `)[ \t]*(?::[ \t]*|[ \t]{2,}|\t|$)`), numeric: true}
}

// longestFirst orders a label's alternatives longest first: the regexp
// takes the leftmost alternative that matches, and "amount due" must be
// tried before "amount" and "bestellung nr." before "bestellung", whichever
// language file each came from.
func longestFirst(alts []string) []string {
	// Each length is measured once, not at every comparison: this runs
	// for a hundred lists when the program starts.
	type alt struct {
		s string
		n int
	}
	keyed := make([]alt, len(alts))
	for i, a := range alts {
		keyed[i] = alt{a, literalLen(a)}
	}
	slices.SortStableFunc(keyed, func(a, b alt) int { return b.n - a.n })
	out := make([]string, len(keyed))
	for i, a := range keyed {
		out[i] = a.s
	}
	return slices.Compact(out)
}

// optionalGroup is a group a label may leave out: "(?: nr)?".
var optionalGroup = lazyregexp.New(`\(\?:[^()]*\)\?`)

// literalLen is about how many characters the shortest text a label
// pattern matches has: optional groups left out, a character class or an
// escape counted as one. "faktura(?: vat)?(?: nr)?" is 7, shorter than
// "fakturanummer", which must be tried first.
func literalLen(alt string) int {
	if strings.Contains(alt, "(?:") {
		alt = optionalGroup.ReplaceAllString(alt, "")
	}
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
	re      *lazyregexp.Regexp
	anchors []string // lower case; nil: run on the whole text
	// anchorSet finds any of the anchors in one pass.
	anchorSet *words.Set
	// numeric: every value of these labels holds a digit (a number, an
	// amount, a date), so only lines with a digit, and the lines just
	// before them (a label that ends its line), are looked at. Most of a
	// long personal mail has none, and is then passed over in one scan.
	numeric bool
	// cut reads a line with the labels its anchors allow (labelalts.go);
	// nil: with re.
	cut *labelAlts
}

// numericLabels is labels for values that always hold a digit.
func numericLabels(alts ...string) labelSet {
	l := labels(alts...)
	l.numeric = true
	return l
}

// copulas is the optional verb between a label and its value, in every
// language ("is", "ist", "est", "er"), perhaps with a colon after it
// ("Ihre Bestellnummer lautet: 4021-88317"), or ending its line over the
// value below ("The package's USPS Tracking ID is" over the number).
//
// Japanese and Chinese write the verb or particle against the value with
// no space ("お問い合わせ伝票番号は999999999999です", "订单号是…"): theirs
// need none after it.
var copulas = func() string {
	var spaced, unspaced []string
	for _, e := range longestFirst(lang.Entries("copula")) {
		if unspacedScript(e) {
			unspaced = append(unspaced, e)
		} else {
			spaced = append(spaced, e)
		}
	}
	alts := `(?:` + strings.Join(spaced, "|") + `)(?:[ \t]*:[ \t]*|[ \t]+|[ \t]*$)`
	if len(unspaced) > 0 {
		alts += `|(?:` + strings.Join(unspaced, "|") + `)[ \t]*(?::[ \t]*)?`
	}
	return `(?:` + alts + `)?`
}()

// netAside is the aside in parentheses a label's match passed over
// ("Total (excl. VAT):"), from its opening parenthesis, when it says the
// amount is before tax; else "".
func netAside(matched string) string {
	i := strings.IndexByte(matched, '(')
	if i < 0 || !netAmount(matched[i:]) {
		return ""
	}
	return matched[i:]
}

// unspacedScript reports whether the word w ends in a Han or kana letter:
// a word of Japanese or Chinese, which write no space between words.
func unspacedScript(w string) bool {
	r, _ := utf8.DecodeLastRuneInString(w)
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// purposes is what a label's value is for, between the label and its
// colon ("Dein Buchungscode für den Check-in: ABC123", "Booking reference
// for online check-in: …"; label.purpose), read only with its colon.
var purposes = `(?:[ \t]+(?:` + strings.Join(longestFirst(lang.Entries("label.purpose")), "|") + `)[ \t]*:)?`

func labels(alts ...string) labelSet {
	// "Numero de suivi", "Numer przesylki": labels written without
	// their accents (lang.WithFolded).
	alts = longestFirst(lang.WithFolded(alts))
	// After the label: an aside in parentheses ("Numer rezerwacji (PNR):",
	// "Airline reference (Aegean):"), a colon or "No.", and a verb that
	// introduces the value ("Ihr Buchungscode lautet", "(localizador) es").
	// Before the label: a line's start, anything but a letter, or a
	// character of Chinese or Japanese, which write no space between
	// words ("请持…订单号码E757718715到车站").
	head := `(?im)(?:^|[^\p{L}]|[\p{Han}\p{Hiragana}\p{Katakana}])(?:`
	// A label may stand in brackets, as Japanese shops print theirs
	// ("[注文番号] 25-0101-0001", "【配送伝票】…"), and a table's cell may
	// hold the label and its colon, the next cell its value ("| No.
	// Pesanan: | #26090000TEST01 |"): a colon before the cell's edge, so
	// that a header row's "Total |" over its column reads nothing below.
	tail := `)(?:[\]】］][ \t]*)?(?:[ \t]*\([^()\n]{1,40}\))?` + purposes + `[ \t]*(?::[ \t]*\||[:#]|(?:no|nr)(?:\.|\b)|number\b)?[ \t]*(?::[ \t]*\||[:#])?[ \t]*(?:\*\*[ \t]*)?` + copulas
	l := labelSet{re: lazyregexp.New(head + strings.Join(alts, "|") + tail)}
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
		l.cut = newLabelAlts(head, tail, alts, l.anchors)
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
				// The quantified letter is optional, all its bytes ("】?").
				_, n := utf8.DecodeLastRune(run)
				run = run[:len(run)-n]
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
func (l labelSet) after(text string) []string { return l.afterLines(text, plainIndex{}) }

// firstCellUnder reads a label that opens a heading row flattened with
// its column gaps lost ("PNR: Train No./Name Class" over "2201893135
// 12276/PRYJ HUMSFAR EX AC 3 Tier (3A)", a printed slip's text): the
// label's value is the first cell of the next row that is not blank
// (within three lines), when it is a code (6 to 20 letters and digits, a
// digit among them) and more cells follow it. before is the line before
// the label, line the rest of its line after it and next the text after
// that line. The rest of the label's line must be headings alone: two to
// six words of no digit, the first starting with a capital ("No./Name"
// too), after the label's other name's slash ("PNR/Booking Ref. Payment
// status").
func firstCellUnder(before, line, next string) (string, bool) {
	if len(line) > 120 || strings.TrimLeft(before, " \t*•") != "" {
		return "", false
	}
	// "PNR/Booking Ref. Payment status": the label's other name after
	// a slash, and headings in sentence case, are headings too.
	heads := strings.Fields(strings.TrimLeft(line, ": \t/"))
	if len(heads) < 2 || len(heads) > 6 {
		return "", false
	}
	for i, h := range heads {
		r, _ := utf8.DecodeRuneInString(h)
		if i == 0 && !unicode.IsUpper(r) || !unicode.IsLetter(r) || hasDigit(h) {
			return "", false
		}
	}
	_, cells := nextRow(next, 3)
	if len(cells) < 2 || !bookingCodeShape(cells[0]) {
		return "", false
	}
	return cells[0], true
}

// glossOpens reports whether a label's match (whatever its expression
// took before the label's first letter, a space or a bracket) follows an
// opening parenthesis on its row: "LOC (Localizador da reserva)".
func glossOpens(rowBefore, match string) bool {
	lead := ""
	if i := strings.IndexFunc(match, unicode.IsLetter); i > 0 {
		lead = match[:i]
	}
	return strings.HasSuffix(strings.TrimRight(rowBefore+lead, " \t"), "(")
}

// nextRow is the first line of next that is not blank, within n lines,
// and its cells apart by spaces; "", nil when there is none.
func nextRow(next string, n int) (string, []string) {
	for k := 0; k < n && next != ""; k++ {
		var row string
		row, next, _ = strings.Cut(next, "\n")
		if cells := strings.Fields(row); len(cells) > 0 {
			return row, cells
		}
	}
	return "", nil
}

// lastCellUnder reads a label that ends a row of labels, each closed by
// its colon, flattened over the row of their values ("Status: Booking
// Date: Reference Number:" over "ON HOLD Wed. 26 Dec. 2018
// 011403032605", a printed itinerary's text): the label's value is the
// last cell of the next row that is not blank (within two lines), when
// it is a code (6 to 20 letters and digits, a digit among them). before
// is the row before the label, line the rest of its line after it and
// next the text after that line.
func lastCellUnder(before, line, next string) (string, bool) {
	if strings.Trim(line, " \t:") != "" || len(before) > 120 || !strings.HasSuffix(strings.TrimRight(before, " \t"), ":") {
		return "", false
	}
	row, cells := nextRow(next, 2)
	if len(cells) < 2 || strings.HasSuffix(row, ":") || !bookingCodeShape(cells[len(cells)-1]) {
		return "", false
	}
	return cells[len(cells)-1], true
}

// plainIndex is a textIndex that keeps nothing, for a text read once.
type plainIndex struct{}

func (plainIndex) digitLinesOf(text string) []int { return digitLines(text) }
func (plainIndex) lowerOf(text string) string     { return widthLower(text) }

// after is labelSet.after with the message's digit lines worked out once
// for the text, however many label sets read it.
func (c *msgContext) after(l labelSet, text string) []string {
	return l.afterLines(text, c)
}

// textIndex is what the label sets read a text by: its lines with a
// digit, and its widthLower form, which msgContext works out once for
// the text the label sets last read (thirty-odd label sets read one
// mail's text).
type textIndex interface {
	digitLinesOf(text string) []int
	lowerOf(text string) string
}

// lowerOf is widthLower(text), worked out once for the text last asked.
func (c *msgContext) lowerOf(text string) string {
	if !sameString(text, c.lowerText) {
		c.lowerText, c.lowered = text, widthLower(text)
	}
	return c.lowered
}

// sameString reports whether a and b are the same string in memory: the
// text a msgContext cache was worked out for (lowerOf, digitLinesOf,
// receiptNamed, the reservation cache), not a copy of it.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// maxLabelled bounds the values one label set reads from a text: a
// printed invoice repeats its column headers on every page.
const maxLabelled = 40

// maxValue bounds a label's value: the rest of a line can be the rest of
// a one-line mail, and every reader that dates or prices 40 values would
// search 40 copies of it (a 1 MB line of "Check-in: 18 Dec 2026" took
// 40 s). No field's value runs this far from its label.
const maxValue = 300

// boundValue is v cut to maxValue bytes at a character's start.
func boundValue(v string) string {
	if len(v) <= maxValue {
		return v
	}
	i := maxValue
	for i > 0 && !utf8.RuneStart(v[i]) {
		i--
	}
	return v[:i]
}

// afterNext is after, each value followed by a newline and the next
// non-empty line: printed invoices put the amount under its label
// ("TOTAL AMOUNT DUE ON August 3, 2014" over "$4.11").
func (c *msgContext) afterNext(l labelSet, text string) []string {
	return l.afterLinesNext(text, c, true)
}

// afterLines is after, with ix giving the digit lines and the lower
// case of a text.
func (l labelSet) afterLines(text string, ix textIndex) []string {
	return l.afterLinesNext(text, ix, false)
}

func (l labelSet) afterLinesNext(text string, ix textIndex, withNext bool) []string {
	var out []string
	each := func(base int, span string) {
		re := l.lineRE(span)
		if re == nil {
			return // no label's anchor on the line
		}
		for _, m := range re.FindAllStringIndex(span, maxLabelled-len(out)) {
			end := base + m[1]
			// A label is a whole word: "HOTELS" is no "hotel" label. A
			// label in Chinese or Japanese characters ends where the
			// value's Latin letters or digits start ("订单号码E567891234").
			if words.In(text, end, true) && words.In(text, end, false) && !scriptBreak(text, end) {
				continue
			}
			// A label closed by a bracket is a label only when the
			// bracket opens before it ("[注文番号]", "【配送伝票】"): in
			// "【お買上金額】" the amount's label "金額" ends a heading's
			// word, and the line under the heading is no value of it.
			// A bracket before the label closes what came before it
			// ("【スムーズドライ】注文番号…": a product's name).
			if mt := strings.TrimLeft(span[m[0]:m[1]], " \t]】］"); strings.ContainsAny(mt, "]】］") && !strings.ContainsAny(mt, "[【［") {
				continue
			}
			line, next, _ := strings.Cut(text[end:], "\n")
			// The label's own line before it: the row of headings it may
			// end or open.
			rowStart := strings.LastIndexByte(text[:base+m[0]], '\n') + 1
			rowBefore := text[rowStart : base+m[0]]
			// "Buchungscode / Rechnungsnummer: XBCMFA", "Booking
			// reference / PNR: …": a second label after a slash names
			// the same value.
			line = pastSlashLabel(line)
			// "Total (excl. VAT): 100.00", "合計(税抜き): ￥ 3,130": an
			// aside the label passed over that says its amount is before
			// tax stays with the value, for the amount readers to refuse
			// (netAmount).
			if aside := netAside(span[m[0]:m[1]]); aside != "" {
				line = aside + line
			}
			// "LOC (Localizador da reserva) ZSUULP": a label in
			// parentheses, the abbreviation's gloss, before its value.
			if rest, ok := strings.CutPrefix(line, ")"); ok && glossOpens(rowBefore, span[m[0]:m[1]]) {
				line = rest
			}
			// "Je bestelling (90276634) is gelukt!", "your invoice
			// (INV12430225), for account …": the aside the label passed
			// over is the value, when it is a code and words follow.
			if v, ok := codeAside(span[m[0]:m[1]], line); ok {
				out = append(out, v)
				continue
			}
			if v, ok := columnBelow(text, base+m[0], end); ok {
				out = append(out, boundValue(v))
				continue
			}
			if len(line) <= 120 {
				if v, ok := firstCellUnder(rowBefore, line, next); ok {
					out = append(out, v)
					continue
				}
			}
			if v, ok := lastCellUnder(rowBefore, line, next); ok {
				out = append(out, v)
				continue
			}
			if strings.TrimSpace(line) == "" {
				// A label that ends a data table's header row after other
				// cells ("Item\tQty\tAmount"): its value is the cell under
				// it in the next row, never that row's first cell.
				sep := "\t"
				if strings.IndexByte(text[rowStart:end], '\t') < 0 {
					sep = "|" // a text table's cells apart by bars
				}
				if k := strings.Count(text[rowStart:end], sep); k > 0 {
					if v, ok := cellUnder(text[end:], k, sep); ok {
						out = append(out, boundValue(v))
					}
					continue
				}
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
					// A label in a printout's right-hand column ("Account
					// number :" then, far right, "Invoice Summary / Résumé
					// de la facture"): its value is the next line's cell
					// in its column, not the left column's number; a line
					// with no cell there (a flattened page's value wrapped
					// to the next line's start) is read whole.
					if col := rightColumn(rowBefore); col > 0 && rightColumn(line) > 0 {
						if cell := cellAt(line, col); cell != "" {
							line = cell
						}
					}
					// A line that ends with a colon is a label of its own
					// ("Accommodation" over "Reservation made in the
					// name of :"): the label above has no value here.
					if strings.HasSuffix(strings.TrimSpace(line), ":") {
						continue
					}
				}
			}
			v := strings.TrimSpace(boundValue(line))
			if withNext {
				for strings.TrimSpace(next) != "" || next != "" {
					var n string
					n, next, _ = strings.Cut(next, "\n")
					if n = strings.TrimSpace(n); n != "" {
						v += "\n" + boundValue(n)
						break
					}
				}
			}
			out = append(out, v)
		}
	}
	if l.numeric {
		for _, start := range ix.digitLinesOf(text) {
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
	for _, start := range anchoredLines(ix.lowerOf(text), l.anchors, l.anchorSet) {
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

// cellUnder is cell k of the first line with text after rest's line, a
// data table's one row, when that row has more than k cells apart by
// sep (tabs, or bars). A second row like it makes the table a list
// (items, each with its amount), whose header labels no one value.
func cellUnder(rest string, k int, sep string) (string, bool) {
	_, rest, _ = strings.Cut(rest, "\n")
	for i := 0; i < 3 && rest != ""; i++ {
		var ln string
		ln, rest, _ = strings.Cut(rest, "\n")
		if strings.TrimSpace(ln) == "" {
			continue
		}
		cells := strings.Split(ln, sep)
		if k >= len(cells) {
			return "", false
		}
		after, _, _ := strings.Cut(strings.TrimLeft(rest, "\n"), "\n")
		if hasDigit(after) && strings.Count(after, sep) == len(cells)-1 {
			return "", false
		}
		return strings.TrimSpace(cells[k]), true
	}
	return "", false
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

// anchoredLines returns the start offsets, in order, of the lines of a
// text that contain one of the anchors, found in lower, the text's
// widthLower form (same offsets); set is words.NewSet(anchors), which
// finds them all in one pass (a search per anchor, ninety of them for the
// booking labels, was a tenth of a travel mail's extraction).
func anchoredLines(lower string, anchors []string, set *words.Set) []int {
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

// hashParenRE is a line that opens with a label of one to three words and
// gives its number in parentheses after "#" ("BOOKING (#B16389402)",
// "RESERVA (#CS-5520931)"), as rentals' booking tools print it.
var hashParenRE = lazyregexp.New(`(?m)^([ \t]*\p{L}[\p{L}'’.-]*(?:[ \t]+\p{L}[\p{L}'’.-]*){0,2})[ \t]*\(#[ \t]*([A-Za-z0-9][A-Za-z0-9-]{2,30})\)[ \t]*$`)

// hashParenLabels writes hashParenRE's lines as the label, a colon and the
// number ("BOOKING: #B16389402"), so that the label rules read the number
// as any labelled one; an aside in parentheses after a label is passed
// over, and this one is the value.
func hashParenLabels(text string) string {
	if !strings.Contains(text, "(#") {
		return text
	}
	return hashParenRE.ReplaceAllString(text, "$1: #$2")
}

// codeAsideRE is a code of capitals or digits, three digits at least among
// them by the caller's count, as an aside in parentheses holds it.
var codeAsideRE = lazyregexp.New(`\(#?[ \t]*([A-Z0-9][A-Za-z0-9-]{4,30})[ \t]*\)`)

// codeAside is the code in the parentheses a label's match passed over as
// an aside (matched), when what follows on the line is words or nothing,
// not a value of its own ("Numer rezerwacji (PNR): K7QX2M" keeps
// K7QX2M): three digits and a letter, or five digits and nothing else, so
// that "(PDF)", "(2027)" or a phone "(1-800-555-0199)" is none.
func codeAside(matched, rest string) (string, bool) {
	if strings.IndexByte(matched, '(') < 0 {
		return "", false
	}
	m := codeAsideRE.FindStringSubmatch(matched)
	if m == nil {
		return "", false
	}
	d := digitCount(m[1])
	letters := strings.IndexFunc(m[1], unicode.IsLetter) >= 0
	if d < 3 || !letters && (d != len(m[1]) || d < 5) {
		return "", false // "(2027)", "(1-800-555-0199)": a year, a phone
	}
	r := strings.TrimLeft(rest, " \t:")
	if r != "" && !(r[0] >= 'a' && r[0] <= 'z' || strings.IndexByte(",.!;", r[0]) >= 0) {
		return "", false
	}
	return m[1], true
}

// pastSlashLabel is a label's line past a second label that a slash joins
// to it ("Buchungscode / Rechnungsnummer: XBCMFA" after "Buchungscode"):
// words without digits, four at most, and their colon; else the line.
func pastSlashLabel(line string) string {
	t, ok := strings.CutPrefix(strings.TrimLeft(line, " \t"), "/")
	if !ok {
		return line
	}
	label, value, ok := strings.Cut(t, ":")
	if !ok || len(label) > 40 || hasDigit(label) || strings.TrimSpace(label) == "" || len(strings.Fields(label)) > 4 {
		return line
	}
	return value
}

// rightColumn is the column, in runes, where the cell that ends a row
// starts, when text stands before it three spaces or a tab apart (a
// printout's columns); 0 when the row is one cell.
func rightColumn(row string) int {
	gap := -1
	for i := len(row) - 1; i > 0; i-- {
		if row[i] == '\t' || i >= 2 && row[i] == ' ' && row[i-1] == ' ' && row[i-2] == ' ' {
			gap = i + 1
			break
		}
	}
	if gap < 0 || strings.TrimSpace(row[:gap]) == "" {
		return 0
	}
	return utf8.RuneCountInString(row[:gap])
}

// cellAt is the cell of a printout's line, its cells three spaces or a
// tab apart, that starts within three runes of column col or spans it;
// "" when none does.
func cellAt(line string, col int) string {
	runes := []rune(line)
	for i := 0; i < len(runes); {
		if runes[i] == ' ' || runes[i] == '\t' {
			i++
			continue
		}
		start, end := i, i
		for end < len(runes) && !(runes[end] == '\t' || end+2 < len(runes) && runes[end] == ' ' && runes[end+1] == ' ' && runes[end+2] == ' ') {
			end++
		}
		if start >= col-3 && start <= col+3 || start < col && end > col {
			return string(runes[start:end])
		}
		i = end
	}
	return ""
}
