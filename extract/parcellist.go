package extract

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Notices that list several parcels, a block each (parcelList): a
// postal operator's daily digest ("Arriving Today", then per package
// "FROM <shipper>", "Tracking Number: …", "Expected Delivery: …"), a
// shop's shipped notice whose order left in two parcels. Each labelled
// tracking number whose form and check digit a carrier's is a parcel;
// its shipper and its state are read in its own block, nearest first,
// never in another parcel's: the digest's letters above the packages
// ("FROM <a bank>") and its "expected to be delivered" preamble are no
// package's.

// maxListed bounds the parcels one notice lists; parcelBlock, the lines
// above a number that are its block.
const (
	maxListed   = 8
	parcelBlock = 6
)

// listedParcel is one parcel of a list: its number, its carrier, and
// the line it is on.
type listedParcel struct {
	tracking, carrier string
	line              int
}

// listedParcels are the distinct labelled tracking numbers of text that
// a carrier's form and check digit prove, in the order of their lines:
// the numbers after their labels, and those in a table's column under a
// tracking number's header ("Paket  Inhalt  Sendungsnummer" over a row a
// parcel).
func (c *msgContext) listedParcels(text string, lines []string) []listedParcel {
	values := c.after(trackingLabel, text)
	if strings.IndexByte(text, '\t') >= 0 {
		values = append(values, tabledTracking(lines)...)
	}
	var out []listedParcel
	for _, v := range values {
		n := trackingValue(v)
		if n == "" || masked(n) || !hasDigit(n) {
			continue
		}
		car, ok := carrierOf(n, c.senderDomain, true)
		if !ok || car == "" {
			continue
		}
		dup := false
		for _, p := range out {
			dup = dup || strings.EqualFold(p.tracking, n)
		}
		if dup {
			continue
		}
		at := -1
		for i := 0; i < len(lines) && at < 0; i++ {
			if strings.Contains(strings.ToUpper(compactCode(lines[i])), strings.ToUpper(n)) {
				at = i
			}
		}
		if at < 0 {
			return nil // not where the lines say: read as one notice
		}
		out = append(out, listedParcel{tracking: n, carrier: car, line: at})
		if len(out) == maxListed {
			break
		}
	}
	slices.SortStableFunc(out, func(a, b listedParcel) int { return a.line - b.line })
	for i := 1; i < len(out); i++ {
		if out[i].line == out[i-1].line {
			return nil // two on one line: no blocks to read them by
		}
	}
	return out
}

// parcelList reads the parcels a notice lists; nil unless it lists at
// least `least` of them. The order's number, when the notice gives one, is
// the order all its parcels belong to: one order, a shipment each.
// Otherwise each parcel is an order of its own, its shipper the
// merchant.
func (c *msgContext) parcelList(text string, o *Order, least int) []Fact {
	lines := strings.Split(text, "\n")
	ps := c.listedParcels(text, lines)
	if len(ps) < least {
		return nil
	}
	var ships []Shipment
	var shippers []string
	spans := c.parcelSpans(lines, ps)
	heads := headingWords(lines, ps[0].line, ps[len(ps)-1].line)
	for i, p := range ps {
		status, _ := parcelState(lines, ps, spans, heads, i)
		if status == StatusOrdered {
			status = ""
		}
		order := spans[i].order(p.line)
		row := tabledRow(lines, p.line)
		shipper := ""
		for _, ln := range row {
			if shipper = c.shipperNamed(ln); shipper != "" {
				break
			}
		}
		for _, j := range order {
			if shipper != "" {
				break
			}
			shipper = c.shipperNamed(lines[j])
		}
		ships = append(ships, Shipment{Carrier: p.carrier, Tracking: p.tracking, Status: status})
		shippers = append(shippers, shipper)
	}
	// A parcel whose block says no state: the notice's, when no block
	// says one (the notice speaks for all); else, or when the notice says
	// none, on its way: it has a tracking number. A digest's sections say
	// each of theirs ("Arriving Today" over one, "Arriving Soon" over
	// another), and the first is not the second's.
	own := false
	for _, s := range ships {
		own = own || s.Status != ""
	}
	if !own && (o.Status == "" || o.Status == StatusOrdered) && o.Number == "" {
		// Neither the notice nor a block says what became of a parcel:
		// a carrier's help or marketing mail that shows a number ("Your
		// tracking number looks like: 1Z…") is no parcel's notice.
		return nil
	}
	for i := range ships {
		if ships[i].Status == "" {
			if !own && o.Status != "" && o.Status != StatusOrdered {
				ships[i].Status = o.Status
			} else {
				ships[i].Status = StatusShipped
			}
		}
	}
	if o.Number != "" {
		out := *o
		out.Shipments = ships
		out.Status = ships[0].Status
		return []Fact{{Kind: KindOrder, From: FromText, Order: &out}}
	}
	// A carrier's own notice names no merchant but each parcel's shipper:
	// the one its whole text names first may be a letter's sender.
	merchant, domain := o.Merchant, o.Domain
	if carrierBySender(c.senderDomain) != "" {
		merchant, domain = "", ""
	}
	var facts []Fact
	for i, s := range ships {
		one := &Order{Merchant: merchant, Domain: domain, Status: s.Status, Shipments: []Shipment{s}}
		if shippers[i] != "" && !sameShop(shippers[i], c.senderName, c.senderDomain) {
			one.Merchant, one.Domain = shippers[i], ""
		}
		facts = append(facts, Fact{Kind: KindOrder, From: FromText, Order: one})
	}
	return facts
}

// parcelState is a listed parcel's state and the line that says it;
// "" when none does. A table's row says its state in the columns its
// header names ("Expected Delivery" over "Today"): the row read as
// labelled lines comes first. Then the nearest line of its block that
// says one (its own, or its section's heading: "Arriving Today"), on the
// side its block's fields are; then its section's heading further up.
func parcelState(lines []string, ps []listedParcel, spans []parcelSpan, heads listHeads, i int) (status, said string) {
	at := ps[i].line
	for _, ln := range tabledRow(lines, at) {
		if st := statusIn(lower(ln)); st != "" {
			return st, strings.TrimSpace(lines[at])
		}
	}
	for _, j := range spans[i].order(at) {
		if st := statusIn(lower(lines[j])); st != "" {
			return st, strings.TrimSpace(lines[j])
		}
	}
	return sectionState(lines, ps, spans, at, heads)
}

// parcelSpan is the lines of one parcel's block, top to bottom
// inclusive, and whether its fields follow its number ("Tracking
// Number: 9400…" over "Sender:", "Status:") rather than lead to it
// ("FROM <shop>" over "Tracking Number:").
type parcelSpan struct {
	top, bottom int
	down        bool
}

// order is the block's lines nearest the number's first: its own line,
// then the side its fields are on, then the other.
func (s parcelSpan) order(at int) []int {
	out := []int{at}
	up := func() {
		for j := at - 1; j >= s.top; j-- {
			out = append(out, j)
		}
	}
	down := func() {
		for j := at + 1; j <= s.bottom; j++ {
			out = append(out, j)
		}
	}
	if s.down {
		down()
		up()
	} else {
		up()
		down()
	}
	return out
}

// parcelSpans cut a list's lines into its parcels' blocks. A list's
// blocks repeat one layout, and the first parcel shows which: its shipper
// named above its number (a digest's "FROM <shop>", then "Tracking
// Number:") or under it (an older digest's "Tracking Number: …", then
// "Sender:", "Status:"). Where the shipper leads, a block starts at its
// shipper's line or at a heading that says a state ("Delivered",
// "Arriving Today"); where the number leads, at the number, or at the
// headings just above it. Each block reaches at most parcelBlock lines
// either side of its number; the last one under its number only as far
// as the one before it did, since the mail's own lines come after it.
func (c *msgContext) parcelSpans(lines []string, ps []listedParcel) []parcelSpan {
	n := len(ps)
	down := c.numberLeads(lines, ps)
	starts := make([]int, n)
	starts[0] = max(0, ps[0].line-parcelBlock)
	for i := 1; i < n; i++ {
		lo, at := ps[i-1].line+1, ps[i].line
		start := at
		if down {
			for start > lo && stateHeading(lines[start-1]) {
				start--
			}
		} else {
			for k := max(lo, at-parcelBlock); k < at; k++ {
				if stateHeading(lines[k]) || c.shipperNamed(lines[k]) != "" {
					start = k
					break
				}
			}
		}
		starts[i] = max(start, at-parcelBlock)
	}
	spans := make([]parcelSpan, n)
	for i := range ps {
		spans[i] = parcelSpan{top: starts[i], down: down}
		if !down {
			// Where the shipper leads, the lines under a number are the
			// next block's head or the mail's own.
			spans[i].bottom = ps[i].line
			continue
		}
		if i+1 < n {
			spans[i].bottom = min(starts[i+1]-1, ps[i].line+parcelBlock)
			continue
		}
		below := 0
		if down && n > 1 {
			below = spans[i-1].bottom - ps[i-1].line
		} else if down {
			below = parcelBlock
		}
		spans[i].bottom = min(len(lines)-1, ps[i].line+below)
	}
	return spans
}

// numberLeads reports whether the first parcel's shipper is named under
// its number, nearer than any above it.
func (c *msgContext) numberLeads(lines []string, ps []listedParcel) bool {
	at := ps[0].line
	up := -1
	for k := at; k >= max(0, at-parcelBlock); k-- {
		if c.shipperNamed(lines[k]) != "" {
			up = at - k
			break
		}
	}
	end := min(len(lines)-1, at+parcelBlock)
	if len(ps) > 1 {
		end = min(end, ps[1].line-1)
	}
	for k := at + 1; k <= end && (up < 0 || k-at < up); k++ {
		if c.shipperNamed(lines[k]) != "" {
			return true
		}
	}
	return false
}

// stateHeading reports whether a line is a list's heading that says a
// state for the parcels under it ("Delivered", "Arriving Today"): a few
// words, no label, no number.
func stateHeading(ln string) bool {
	// A table's row: its first cell ("Arriving Today", then the day).
	ln, _, _ = strings.Cut(ln, "\t")
	ln = strings.TrimSpace(ln)
	return headingShaped(ln) && statusIn(lower(ln)) != ""
}

// headingShaped reports whether a trimmed line has a heading's shape: a
// few words, no label, no number ("Pending", "Awaiting Pickup").
func headingShaped(ln string) bool {
	return ln != "" && len(ln) <= 40 && !strings.ContainsAny(ln, ":0123456789") && len(strings.Fields(ln)) <= 3
}

// listHeads are what a list's lines say of its sections: the first
// words of its headings that say a state ("Arriving" of "Arriving
// Today"; nil when it has none), and the heading-shaped lines every
// block repeats ("Track Package", "package"), which are no section's.
type listHeads struct {
	words, repeated map[string]bool
}

// headingWords reads a list's headings from a few lines above its first
// parcel to a block's length under its last.
func headingWords(lines []string, first, last int) listHeads {
	var out listHeads
	seen := map[string]bool{}
	top := max(0, first-parcelBlock)
	for k, ln := range lines[top:min(len(lines), last+parcelBlock+1)] {
		if top+k <= last && stateHeading(ln) {
			if out.words == nil {
				out.words = map[string]bool{}
			}
			out.words[strings.ToLower(strings.Fields(ln)[0])] = true
		}
		ln, _, _ = strings.Cut(ln, "\t")
		ln = strings.ToLower(strings.TrimSpace(ln))
		if !headingShaped(ln) {
			continue
		}
		if seen[ln] {
			if out.repeated == nil {
				out.repeated = map[string]bool{}
			}
			out.repeated[ln] = true
		}
		seen[ln] = true
	}
	return out
}

// arrivingWords are every language's words for arriving of four letters
// or more (arrival in extract/lang/data): a heading with one that says no
// state ("Arriving Soon") starts a section of its own.
var arrivingWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range wordSet("arrival") {
		if utf8.RuneCountInString(w) >= 4 && !strings.ContainsAny(w, `\.?()[]|`) {
			m[w] = true
		}
	}
	return m
}()

// sectionState is the state of the section a parcel is listed in: its
// nearest heading above, when that heading says a state. Any heading
// ends the section above it, also one whose words no table knows
// ("Pending", "Awaiting Pickup"): a digest lists the parcels of a section
// under one heading, and a parcel under a heading that says no state has
// none rather than the one of the section before. Not headings: the
// lines of a parcel's block from its top to its number (its shipper,
// "Tracking Number") and the lines every block repeats ("Track
// Package").
func sectionState(lines []string, ps []listedParcel, spans []parcelSpan, at int, heads listHeads) (status, said string) {
	if heads.words == nil {
		return "", ""
	}
	inBlock := func(j int) bool {
		for k := range ps {
			if spans[k].top <= j && j <= ps[k].line {
				return true
			}
		}
		return false
	}
	for j := at - 1; j >= 0 && j >= at-80; j-- {
		ln, _, _ := strings.Cut(lines[j], "\t")
		ln = strings.TrimSpace(ln)
		if stateHeading(ln) {
			return statusIn(lower(ln)), ln
		}
		if !headingShaped(ln) {
			continue
		}
		f := strings.Fields(ln)
		if heads.words[strings.ToLower(f[0])] || slices.ContainsFunc(f, func(w string) bool { return arrivingWords[strings.ToLower(w)] }) {
			return "", ""
		}
		if inBlock(j) || heads.repeated[strings.ToLower(ln)] {
			continue
		}
		return "", ""
	}
	return "", ""
}

// trackingValue is the number a label's value or a cell starts with.
func trackingValue(v string) string {
	if n := groupedNumber(v); n != "" {
		return n
	}
	if m := trackingRE.FindStringSubmatch(v); m != nil {
		return m[1]
	}
	return ""
}

// tabledRow is a table's row read as labelled lines, its header's cell
// before each of its cells ("Expected Delivery: Today"), when the line at
// is a row under a header that names a tracking number's column; nil
// otherwise. The cells without a value are left out.
func tabledRow(lines []string, at int) []string {
	if strings.IndexByte(lines[at], '\t') < 0 {
		return nil
	}
	cells := strings.Split(lines[at], "\t")
	for h := at - 1; h >= 0 && h >= at-2*maxListed; h-- {
		ln := lines[h]
		if strings.IndexByte(ln, '\t') < 0 || hasDigit(ln) {
			continue
		}
		head := strings.Split(ln, "\t")
		if len(head) != len(cells) || !slices.ContainsFunc(head, func(cell string) bool {
			cell = strings.TrimSpace(cell)
			loc := trackingLabel.re.FindStringIndex(cell)
			return loc != nil && strings.TrimSpace(cell[loc[1]:]) == ""
		}) {
			return nil
		}
		var out []string
		for k, v := range cells {
			if h, v := strings.TrimSpace(head[k]), strings.TrimSpace(v); h != "" && v != "" {
				out = append(out, h+": "+v)
			}
		}
		return out
	}
	return nil
}

// tabledTracking are the cells of the tables whose header names a column
// by a tracking number's label alone ("Sendungsnummer", "Tracking
// number"), top to bottom, at most maxListed.
func tabledTracking(lines []string) []string {
	var out []string
	for h, ln := range lines {
		if strings.IndexByte(ln, '\t') < 0 || hasDigit(ln) {
			continue
		}
		var cols []int
		for k, cell := range strings.Split(ln, "\t") {
			cell = strings.TrimSpace(cell)
			if loc := trackingLabel.re.FindStringIndex(cell); loc != nil && cell != "" && strings.TrimSpace(cell[loc[1]:]) == "" {
				cols = append(cols, k)
			}
		}
		if len(cols) == 0 {
			continue
		}
		_, rows := headedTable(lines, h)
		for _, r := range rows {
			for _, col := range cols {
				if col < len(r.cells) && r.cells[col] != "" {
					out = append(out, r.cells[col])
				}
			}
			if len(out) >= maxListed {
				return out
			}
		}
	}
	return out
}
