package extract

import (
	"slices"
	"strings"
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
	for i, p := range ps {
		top := max(0, p.line-parcelBlock)
		if i > 0 {
			top = max(top, ps[i-1].line+1)
		}
		status := ""
		// Its state: the nearest line above it that says one (its own,
		// or its section's heading: "Arriving Today"). The lines under
		// the last parcel are the mail's own ("Returns are free …").
		for j := p.line; j >= top && status == ""; j-- {
			status = statusIn(lower(lines[j]))
		}
		if status == StatusOrdered {
			status = ""
		}
		shipper := ""
		for j := p.line; j >= top && shipper == ""; j-- {
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
