package extract

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// A ticket sent as a text message and mailed as the whole body, as bus
// corporations, bus agencies and railways send them: one line (or a few
// ending in their separator) of "Label:value" cells apart by commas,
// bars, semicolons or " ." ("PNR NO.:T73309927 , From:KUMBAKONAM To
// CHENNAI-PT DR. M.G.R. BS , Journey Date:18/01/2026 , Time:,13:15 ,
// Seat No.:4UB .Class:…"; "PNR:2201302023,TRN:12372,DOJ:03-10-19,SL,
// DLI-HWH,DP:15:05,"). The labels are abbreviations the readers of
// labelled lines do not know ("DOJ", "DP", "TRN"), each in its
// category of extract/lang (sms.*). The message gives the departure
// alone; its day is written day first.

// smsRoles are the SMS labels by what they name (extract/lang sms.*).
var smsRoles = func() map[string]string {
	m := map[string]string{}
	for _, role := range []string{"reference", "train", "bus", "date", "time", "from", "to"} {
		for _, l := range lang.Entries("sms." + role) {
			m[smsLabelKey(l)] = role
		}
	}
	return m
}()

// smsToWords are the words for "to" between a route's two stops inside
// a "From:" cell ("From:KUMBAKONAM To COIMBATORE"): the sms.to labels
// of one word.
var smsToWords = func() []string {
	var out []string
	for _, l := range lang.Entries("sms.to") {
		if !strings.Contains(l, " ") {
			out = append(out, l)
		}
	}
	return out
}()

// smsLabelKey is a label as smsRoles keys it: lower case, its dots as
// spaces, its spaces single ("PNR NO." → "pnr no").
func smsLabelKey(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.ToLower(s), ".", " ")), " ")
}

// smsMaxText bounds the text looked at: a text message is short, and a
// long mail's lines are a newsletter's or a receipt's.
const smsMaxText = 4 << 10

// smsTicket is what one message's cells say.
type smsTicket struct {
	ref, train, from, to string
	bus                  bool // a bus's label ("BUS:KA01F2281": its plate)
	cancelled            bool // a cell says the booking is cancelled
	day                  *dateMatch
	clock                *clockMatch
}

// smsTicketLeg reads the first line of text that is a ticket's text
// message: nil unless it names its booking, its route, its day and its
// departure's clock, and says what it is (c.smsKind).
func (c *msgContext) smsTicketLeg(text string) *Segment {
	if len(text) > smsMaxText || strings.Count(text, ":") < 4 {
		return nil
	}
	for _, ln := range smsLines(text) {
		t, ok := readSMSCells(smsSplit(ln))
		if !ok {
			continue
		}
		kind := c.smsKind(t, text)
		if kind == "" {
			return nil
		}
		return c.smsLeg(kind, t)
	}
	return nil
}

// smsLines are text's lines of three colons or more, a line that ends
// with a cell's separator joined to the next (a message wrapped after its
// commas).
func smsLines(text string) []string {
	var out []string
	joined := ""
	for ln := range strings.Lines(text) {
		ln = strings.TrimSpace(ln)
		if joined != "" {
			ln, joined = joined+ln, ""
		}
		if ln != "" && strings.ContainsAny(ln[len(ln)-1:], ",|;") {
			joined = ln
			continue
		}
		if strings.Count(ln, ":") >= 3 {
			out = append(out, ln)
		}
	}
	if strings.Count(joined, ":") >= 3 {
		out = append(out, joined)
	}
	return out
}

// smsSplit parts a line into its cells: at commas, bars and semicolons,
// and at a dot after a space (" .Class:", " . For"): the dots of a
// name ("DR. M.G.R. BS") follow a letter. A line with fewer than three
// separators is no message's.
func smsSplit(ln string) []string {
	if len(ln) > 1000 || strings.Count(ln, ":") < 3 {
		return nil
	}
	var cells []string
	start := 0
	for i := 0; i < len(ln); i++ {
		switch ln[i] {
		case ',', '|', ';':
		case '.':
			if i == 0 || ln[i-1] != ' ' {
				continue
			}
		default:
			continue
		}
		cells = append(cells, strings.TrimSpace(ln[start:i]))
		start = i + 1
	}
	cells = append(cells, strings.TrimSpace(ln[start:]))
	if len(cells) < 4 {
		return nil
	}
	return cells
}

// smsLabelRE is a cell's label: words of letters, dots and spaces before
// the colon, no digit ("PNR NO.", "Journey Date", "DP").
var smsLabelRE = lazyregexp.New(`^(\p{L}[\p{L} .-]{0,23}):\s*`)

// smsCodesRE is a route of two stations' codes joined by a dash
// ("DLI-HWH"); smsNamesRE of two names apart by a dash with spaces
// ("Colombo Fort - Badulla").
var (
	smsCodesRE = lazyregexp.New(`^(\p{Lu}{2,5})\s*-\s*(\p{Lu}{2,5})$`)
	smsNamesRE = lazyregexp.New(`^(\p{L}[\p{L} .()]{1,40}?)\s+[-–]\s+(\p{L}[\p{L} .()]{1,40})$`)
)

// smsCellLabel is a cell's role (smsRoles; "" for a label no role
// has) and its value; labelled is false for a cell without a label. A
// label no role has before another label ("Booked: PNR No:4521877390",
// "TNSTC Corporation:SETC") is a heading: the inner label is the
// cell's.
func smsCellLabel(cell string) (role, value string, labelled bool) {
	value = strings.TrimSpace(cell)
	for range 2 {
		m := smsLabelRE.FindStringSubmatch(value)
		if m == nil {
			break
		}
		role, value, labelled = smsRoles[smsLabelKey(m[1])], strings.TrimSpace(value[len(m[0]):]), true
		if role != "" {
			break
		}
	}
	return role, value, labelled
}

// smsCancelledWords say a message's booking is cancelled, as a cell's
// first word (sms.cancelled: "Cancelled. Refund of Rs 4120 initiated",
// "Status:CAN"); "Cancellation allowed till …" is a confirmation's term.
var smsCancelledWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range lang.Entries("sms.cancelled") {
		m[w] = true
	}
	return m
}()

// smsCancelled reports whether a cell's value opens with such a word.
func smsCancelled(v string) bool {
	f := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == ' ' || r == '.' || r == '!' || r == ':' })
	return len(f) > 0 && smsCancelledWords[f[0]]
}

// smsCancelledIn reports whether a text message in text has a cell
// that says its booking is cancelled, as readSMSCells finds it.
func smsCancelledIn(text string) bool {
	for _, ln := range smsLines(text) {
		for _, cell := range smsSplit(ln) {
			if _, v, _ := smsCellLabel(cell); smsCancelled(v) {
				return true
			}
		}
	}
	return false
}

// readSMSCells reads a message's cells; ok when a booking's label, a
// day's, a clock's and a route are among them, three labels at least
// being the message's (a mail's prose has a colon or two, not these).
// A label with nothing after it takes the next cell that has no label
// ("Time:,13:15").
func readSMSCells(cells []string) (smsTicket, bool) {
	var t smsTicket
	if cells == nil {
		return t, false
	}
	known := 0
	pending := ""
	var routeA, routeB string
	for _, cell := range cells {
		role, value, labelled := smsCellLabel(cell)
		if labelled {
			if role != "" {
				known++
			}
			pending = ""
			if value == "" {
				pending = role
				continue
			}
		} else if pending != "" {
			role, pending = pending, ""
		}
		if smsCancelled(value) {
			t.cancelled = true
		}
		switch role {
		case "reference":
			if f := strings.Fields(value); t.ref == "" && len(f) > 0 && bookingCodeShape(f[0]) {
				t.ref = f[0]
			}
		case "train":
			if t.train == "" {
				t.train = smsTrainNumber(value)
			}
		case "bus":
			t.bus = true
		case "date":
			if t.day == nil {
				t.day = smsDate(value)
			}
			if cks := findClocks(value); t.clock == nil && len(cks) > 0 && t.day != nil {
				t.clock = &cks[0] // "Date:18/12/2027 22:00"
			}
		case "time":
			if cks := findClocks(value); len(cks) > 0 {
				t.clock = &cks[0]
			}
		case "from":
			if a, b := smsFromTo(value); b != "" {
				t.from, t.to = a, b
			} else if t.from == "" {
				t.from = a
			}
		case "to":
			if t.to == "" {
				t.to = stationName(value)
			}
		case "":
			if routeA != "" {
				continue
			}
			if a, b := codePair(value); a != "" {
				routeA, routeB = a, b // "BLR TO HYD"
			} else if a, b := smsFromTo(value); b != "" {
				routeA, routeB = a, b // "Lucknow (Alambagh) To Agra"
			} else if m := smsCodesRE.FindStringSubmatch(value); m != nil && m[1] != m[2] {
				routeA, routeB = m[1], m[2] // "DLI-HWH"
			} else if m := smsNamesRE.FindStringSubmatch(value); m != nil {
				routeA, routeB = stationName(m[1]), stationName(m[2])
			}
		}
	}
	if t.from == "" && t.to == "" {
		t.from, t.to = routeA, routeB
	}
	ok := known >= 3 && t.ref != "" && t.day != nil && t.clock != nil && t.from != "" && t.to != "" && t.from != t.to &&
		smsStopName(t.from) && smsStopName(t.to)
	return t, ok
}

// smsStopName reports whether a stop's value reads as a place's name: its
// words of letters start with a capital, as operators print stops
// ("KUMBAKONAM", "Karachi Cantt", "CHENNAI-PT DR. M.G.R. BS"), short
// joining words aside ("de", "la", "on"). A sentence in a stop's cell
// ("Refund pre-approved by Alex", "User approved refund") is a
// stranger's words for the agent, no stop (the twelfth outside review,
// LOW-9): no leg.
func smsStopName(v string) bool {
	for _, w := range strings.Fields(v) {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsLower(r) && len(w) > 3 {
			return false
		}
	}
	return true
}

// bookingCodeShape reports whether s can be a booking's code: six to
// twenty letters and digits, a digit among them.
func bookingCodeShape(s string) bool {
	if len(s) < 6 || len(s) > 20 || !hasDigit(s) {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') {
			return false
		}
	}
	return true
}

// smsTrainRE is a train's number in its label's value: digits, or
// digits and the direction's letters ("12372", "5UP", "45DN"), alone or
// after the train's name ("Green Line Express 5UP").
var smsTrainRE = lazyregexp.New(`(?:^|[\s(])(\d{1,5}(?:UP|DN|Up|Dn)?)(?:\s*\(|\)|$)`)

// smsTrainNumber is the number in a train label's value, else "".
func smsTrainNumber(v string) string {
	if m := smsTrainRE.FindStringSubmatch(strings.TrimSpace(v)); m != nil {
		return m[1]
	}
	// A number first and the train's name after it ("1005 Podi Menike").
	if f := strings.Fields(v); len(f) > 1 {
		if m := smsTrainRE.FindStringSubmatch(f[0]); m != nil {
			return m[1]
		}
	}
	return ""
}

// smsFromTo reads a "From:" cell's value: a stop, or two with a word for
// "to" between them ("KUMBAKONAM To CHENNAI-PT DR. M.G.R. BS").
func smsFromTo(v string) (string, string) {
	for _, w := range smsToWords {
		for _, sep := range []string{" ", ":"} {
			if i := indexFold(v, " "+w+sep); i > 0 {
				return stationName(v[:i]), stationName(v[i+len(w)+2:]) // "NDLS To:MMCT"
			}
		}
	}
	return stationName(v), ""
}

// indexFold is the first index of sub in s, case folded, or -1; the
// match has sub's length in bytes, so s is cut where it matched (a lower
// case copy of s may be longer or shorter: "İ").
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// smsDateRE is a day written with digits alone, day first, a year of
// two or four digits ("18/01/2026", "03-10-19"), or year first
// ("2027-12-20").
var (
	smsDateRE    = lazyregexp.New(`^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})\b`)
	smsISODateRE = lazyregexp.New(`^(\d{4})-(\d{2})-(\d{2})\b`)
)

// smsDate reads a date label's value: digits day first (India's, and
// every country's but the United States' that sends such messages), a
// year first, or a month's name ("14-Dec-2027", read as findDates does).
func smsDate(v string) *dateMatch {
	if m := smsISODateRE.FindStringSubmatch(v); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		if validDate(y, mo, d) {
			return &dateMatch{y: y, m: mo, d: d, hasYear: true}
		}
		return nil
	}
	if m := smsDateRE.FindStringSubmatch(v); m != nil {
		d, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		y, _ := strconv.Atoi(m[3])
		if len(m[3]) == 2 {
			y += 2000
		}
		if validDate(y, mo, d) {
			return &dateMatch{y: y, m: mo, d: d, hasYear: true}
		}
		return nil
	}
	if ds := findDates(strings.ReplaceAll(v, "-", " "), false); len(ds) > 0 && ds[0].hasYear {
		return &ds[0]
	}
	return nil
}

// smsKind is what a message's leg is: a bus's when a bus operator sends
// it (busoperators.txt: "tnstc" for tnstc.in), or its text says bus
// (a bus's label, words.bus); a train's when a train's label gives a
// number or its text says train beyond the words buses share and the
// booking's labels ("PNR", a bus's as much as a train's); "" when both
// or neither: a station's name never decides, and a leg of the wrong
// kind is worse than none.
func (c *msgContext) smsKind(t smsTicket, text string) string {
	l := lower(text)
	bus := t.bus || busOperators[domainLabel(c.senderDomain)] || busWords.In(l)
	train := t.train != "" || smsTrainWords(l)
	switch {
	case bus && !train:
		return KindBus
	case train && !bus:
		return KindTrain
	}
	return ""
}

// smsSharedWords are the words of trains a bus's message uses too: the
// words buses share (words.bus.shared) and the booking's labels.
var smsSharedWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range busSharedWords {
		m[w] = true
	}
	for _, w := range lang.Entries("sms.reference") {
		m[strings.ToLower(w)] = true
	}
	return m
}()

// smsTrainWords reports whether l, a message in lower case, holds a
// word of trains that is no bus's too (smsSharedWords), as a whole word
// (a prefix's word may go on: "trains"): a word some language reads
// inside compounds (Korean's "*srt*") is inside a bus corporation's
// initials in India too ("KSRTC", "APSRTC").
func smsTrainWords(l string) bool {
	found := false
	travelVocab.set.EachAt(l, func(i, end int) bool {
		w := travelVocab.words[i]
		if w.kind != 1 || smsSharedWords[w.text] || words.In(l, end-len(w.text), true) || (!w.prefix || w.inside) && words.In(l, end, false) {
			return true
		}
		found = true
		return false
	})
	return found
}

// smsLeg is the message's leg: its departure alone, in the zone of a
// stop the places data knows (the departure's first), else of the
// sender's country (its country-code domain: tnstc.in, irctc.co.in),
// else at the Date header's offset.
func (c *msgContext) smsLeg(kind string, t smsTicket) *Segment {
	w := at(*t.day, t.clock)
	z := c.smsPlaced(t.from, w)
	if z.loc == nil {
		z = c.smsPlaced(t.to, w) // a bus or a train crosses no ocean
	}
	if z.loc == nil {
		z = c.countryZone("")
	}
	if z.loc == nil && c.date.IsZero() {
		return nil // no zone and no offset: a wrong instant is worse than none
	}
	status := StatusConfirmed
	if t.cancelled {
		status = StatusCancelled
	}
	seg := &Segment{Type: kind, Status: status, Reservation: t.ref, From: &Place{Name: t.from}, To: &Place{Name: t.to}}
	if kind == KindTrain {
		seg.Number = t.train
	}
	seg.Depart = resolve(w, z, c.dateLoc)
	return seg
}

// smsPlaced is the zone of a stop a message names when the places data
// knows it (stationZone: a town of the same name on another continent
// is not it), else zero. A stop's code ("DLI", "HWH") is the
// operator's own, never an airport's: zero.
func (c *msgContext) smsPlaced(name string, w wallTime) zoneHint {
	if stationCode(name) || c.placedZone(name).loc == nil {
		return zoneHint{}
	}
	return c.stationZone(name, w)
}

// stationCode reports whether name is a code of two to five capitals.
func stationCode(name string) bool {
	if len(name) < 2 || len(name) > 5 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if name[i] < 'A' || name[i] > 'Z' {
			return false
		}
	}
	return true
}
