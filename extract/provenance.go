package extract

import (
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/emersion/go-ical"

	"mailnode/extract/barcode"
	"mailnode/extract/bcbp"
	"mailnode/extract/carriers"
	"mailnode/extract/einvoice"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/pdfdoc"
	"mailnode/extract/pkpass"
	"mailnode/extract/places"
	"mailnode/mail/mime"
)

// Provenance: where each value of a fact came from (issue 46, "precision
// guards": a wrong fact is worse than none, and a value no part of the
// mail holds is a value made up).
//
// The readers do not record it as they read: some forty readers build
// facts, and threading a source through each of them would cost every
// mail what only a check needs. A locator finds it afterwards instead,
// over the message's readable material (its text, its HTML as text, its
// markup's values, its calendars, its attachments' text and embedded
// files, its barcodes' payloads, its headers), and says a material holds
// a value only when a span of it normalises to the value with the
// extractor's own normalisers: findDates and gdsDate's tokens with the
// year completed as withYear does, findClocks and gdsClocks, parseDateTime
// for markup, the calendar's icalTime, moneyRE with moneyAt and
// normaliseAmount, places.Fold for names, airports from
// places.AirportByName. A value that is the product of a rule rather
// than of a span (a year added to a day and month, a status, an issuer
// from the sender's domain, a carrier from a tracking number's form, a
// currency from the sender's country) gets the source kind "derived",
// naming the rule; it is never let pass silently. It runs on demand
// (TestProvenance over the whole evaluation corpus), never in Extract:
// no fact or tool output carries it (docs/protocol.md defines those).

// Kinds of source.
const (
	SourceText       = "text"       // the mail's text, or its HTML as text
	SourceMarkup     = "markup"     // a schema.org property's value (JSON-LD, microdata) or the HTML's own text
	SourceCalendar   = "calendar"   // an iCalendar property
	SourceAttachment = "attachment" // a PDF's text, an e-invoice's XML, a Wallet pass's fields
	SourceBarcode    = "barcode"    // a barcode's payload (an IATA boarding pass)
	SourceHeader     = "header"     // the Subject, From or Date header
	SourceDerived    = "derived"    // made by a rule from other values; Rule names it
)

// Source is where one value of a fact came from.
type Source struct {
	Kind string
	// Raw is the characters of the mail the value was read from, short;
	// for a derived value, what the rule started from.
	Raw string
	// Rule names the rule of a derived value.
	Rule string
}

// FieldSource is one field of a fact, its value and its source; Source
// is zero when no part of the mail holds the value.
type FieldSource struct {
	Field  string // "segment.from.code", "bill.amount.amount", …
	Value  string
	Source Source
}

// Found reports whether a source holds the value.
func (f FieldSource) Found() bool { return f.Source.Kind != "" }

// provenance locates the source of every field of every fact of a
// message that Extract read them from.
func provenance(m *mime.Message, facts []Fact) [][]FieldSource {
	ev := newEvidence(m)
	out := make([][]FieldSource, len(facts))
	for i, f := range facts {
		for _, fv := range factFields(f) {
			out[i] = append(out[i], FieldSource{Field: fv.name, Value: fv.value, Source: ev.locate(f, fv)})
		}
	}
	return out
}

// fieldValue is one field of a fact and how its value is compared.
type fieldValue struct {
	name, value string
	kind        fieldKind
	t           *Time
	place       *Place
	money       *Money
}

type fieldKind int

const (
	fieldCode     fieldKind = iota // a reference, number, seat or tracking number: letters and digits
	fieldName                      // a name, an address, an item
	fieldCarrier                   // a carrier's or airline's name
	fieldParty                     // a merchant or issuer
	fieldDomain                    // a sender's domain
	fieldStatus                    // a status
	fieldAirport                   // a place's code
	fieldTime                      // a date or a date and clock
	fieldAmount                    // an amount of money
	fieldCurrency                  // its currency
)

// factFields lists the fields of f that hold a value.
func factFields(f Fact) []fieldValue {
	var out []fieldValue
	add := func(name, v string, k fieldKind) {
		if v != "" {
			out = append(out, fieldValue{name: name, value: v, kind: k})
		}
	}
	addTime := func(name string, t *Time) {
		if t != nil {
			out = append(out, fieldValue{name: name, value: t.Format(time.RFC3339), kind: fieldTime, t: t})
		}
	}
	addPlace := func(name string, p *Place) {
		if p == nil {
			return
		}
		add(name+".name", p.Name, fieldName)
		if p.Code != "" {
			out = append(out, fieldValue{name: name + ".code", value: p.Code, kind: fieldAirport, place: p})
		}
	}
	addMoney := func(name string, m *Money) {
		if m == nil {
			return
		}
		out = append(out, fieldValue{name: name + ".amount", value: m.Amount, kind: fieldAmount, money: m})
		if m.Currency != "" {
			out = append(out, fieldValue{name: name + ".currency", value: m.Currency, kind: fieldCurrency, money: m})
		}
	}
	switch {
	case f.Segment != nil:
		s := f.Segment
		add("segment.status", s.Status, fieldStatus)
		add("segment.reservation", s.Reservation, fieldCode)
		add("segment.carrier", s.Carrier, fieldCarrier)
		add("segment.number", s.Number, fieldCode)
		addPlace("segment.from", s.From)
		addPlace("segment.to", s.To)
		addTime("segment.depart", s.Depart)
		addTime("segment.arrive", s.Arrive)
		add("segment.seat", s.Seat, fieldCode)
		add("segment.name", s.Name, fieldName)
		add("segment.hotel", s.Hotel, fieldName)
		add("segment.address", s.Address, fieldName)
		addTime("segment.check_in", s.CheckIn)
		addTime("segment.check_out", s.CheckOut)
	case f.Order != nil:
		o := f.Order
		add("order.merchant", o.Merchant, fieldParty)
		add("order.domain", o.Domain, fieldDomain)
		add("order.number", o.Number, fieldCode)
		add("order.status", o.Status, fieldStatus)
		addTime("order.ordered", o.Ordered)
		addMoney("order.total", o.Total)
		for _, it := range o.Items {
			add("order.item", it, fieldName)
		}
		for _, sh := range o.Shipments {
			add("order.shipment.carrier", sh.Carrier, fieldCarrier)
			add("order.shipment.tracking", sh.Tracking, fieldCode)
			add("order.shipment.status", sh.Status, fieldStatus)
			addTime("order.shipment.expected", sh.Expected)
		}
	case f.Bill != nil:
		b := f.Bill
		add("bill.issuer", b.Issuer, fieldParty)
		add("bill.domain", b.Domain, fieldDomain)
		add("bill.number", b.Number, fieldCode)
		add("bill.status", b.Status, fieldStatus)
		addMoney("bill.amount", b.Amount)
		addTime("bill.due", b.Due)
		addTime("bill.issued", b.Issued)
	}
	return out
}

// material is one readable part of a message.
type material struct {
	kind   string
	text   string
	folded string // places.Fold(text), spaces around
	alnum  string // foldAlnum(text)
	digits string // its letters and digits with every zero kept
}

// dayFound is a date some material writes; clockFound a clock; and
// instantFound a whole time markup or a calendar gives.
type dayFound struct {
	kind, raw string
	// mat and line are where it is: the material's index in
	// evidence.mats and its line there, -1 for a whole calendar event's.
	mat, line int
	y, m, d   int
	hasYear   bool
}

type clockFound struct {
	kind, raw string
	mat, line int
	h, m      int
	days      int // a printout's "+1": the arrival's days after its row's date
}

type instantFound struct {
	kind, raw string
	rule      string // the rule that made it, for a derived kind
	t         time.Time
	w         wallTime
	dateOnly  bool
}

type amountFound struct {
	kind, raw string
	money     *Money
}

// evidence is everything a message's materials were found to write.
type evidence struct {
	c        *msgContext
	mats     []material
	days     []dayFound
	clocks   []clockFound
	instants []instantFound
	amounts  []amountFound
	// senders are the message's sender's and a forwarded original's.
	senders []*msgContext
	// barcodeLegs are the boarding passes' legs its barcodes hold.
	barcodeLegs []bcbp.Leg
	// text is the mail's text and its HTML's; subject its subject.
	text, subject string
	// markup is its markup's values.
	markup []string
}

func newEvidence(m *mime.Message) *evidence {
	c := newMsgContext(m, true)
	c.langText = m.Text
	ev := &evidence{c: c, senders: []*msgContext{c}, text: m.Text + "\n" + m.HTMLText, subject: m.Subject}
	for _, text := range []string{m.Text, m.HTMLText} {
		if from, _, _, ok := forwarded(text); ok {
			fc := *c
			fc.asForwarded(from)
			ev.senders = append(ev.senders, &fc)
		}
	}

	ev.addText(SourceHeader, m.Subject)
	if len(m.From) > 0 {
		ev.addText(SourceHeader, m.From[0].Name+" "+m.From[0].Address)
	}
	ev.addText(SourceText, m.Text)
	ev.addText(SourceText, m.HTMLText)
	for _, h := range m.HTML {
		var vals []string
		for _, items := range [][]node{jsonLD(h), microdata(h)} {
			for _, it := range items {
				markupStrings(it, &vals, 0)
			}
		}
		for _, v := range vals {
			if w, ok := parseDateTime(v); ok {
				ev.instants = append(ev.instants, instantFound{kind: SourceMarkup, raw: v, w: w, dateOnly: w.dateOnly})
			}
		}
		ev.markup = append(ev.markup, vals...)
		ev.addText(SourceMarkup, strings.Join(vals, "\n"))
		// Attributes and text as the HTML holds them ("content=").
		ev.addText(SourceMarkup, html.UnescapeString(h))
	}
	for _, cal := range m.Calendars {
		ev.addCalendar(cal)
	}
	for _, d := range m.Documents {
		ev.addDocument(d)
	}
	return ev
}

// markupStrings collects the string values of a markup item.
func markupStrings(v any, out *[]string, depth int) {
	if depth > 12 {
		return
	}
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case float64:
		*out = append(*out, fmt.Sprint(x))
	case map[string]any:
		for _, e := range x {
			markupStrings(e, out, depth+1)
		}
	case []any:
		for _, e := range x {
			markupStrings(e, out, depth+1)
		}
	}
}

// addText adds a material and the dates, clocks and amounts it writes.
func (ev *evidence) addText(kind, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if kind == SourceText || kind == SourceHeader {
		text = unglueClocks(foldWidth(text)) // as textFacts reads them
	}
	ev.mats = append(ev.mats, material{kind: kind, text: text, folded: " " + places.Fold(text) + " ", alnum: foldAlnum(text), digits: alnumOnly(text)})
	mat, line := len(ev.mats)-1, -1
	for ln := range strings.Lines(text) {
		ln = strings.TrimRight(ln, "\r\n")
		line++
		for _, us := range []bool{false, true} {
			for _, d := range findDates(ln, us) {
				ev.days = append(ev.days, dayFound{kind: kind, mat: mat, line: line, raw: ln[d.start:d.end], y: d.y, m: d.m, d: d.d, hasYear: d.hasYear})
				// A name a language reads as another month (Croatian
				// "listopada" is October) is either.
				if sharedMonths[d.m] {
					for _, mo := range ownMonthsIn(ln[d.start:d.end]) {
						ev.days = append(ev.days, dayFound{kind: kind, mat: mat, line: line, raw: ln[d.start:d.end], y: d.y, m: mo, d: d.d, hasYear: d.hasYear})
					}
				}
			}
		}
		// A table's date cell ("ons 24/11", "6. 3."), as cellDate reads
		// it under a header that says Date.
		if strings.ContainsAny(ln, "/.-") {
			for _, cell := range cellSepRE.Split(strings.TrimSpace(ln), -1) {
				for _, monthFirst := range []bool{false, true} {
					if d := cellDate(cell, func(string) []dateMatch { return nil }, monthFirst); d != nil {
						ev.days = append(ev.days, dayFound{kind: kind, mat: mat, line: line, raw: cell, m: d.m, d: d.d})
					}
				}
			}
		}
		// A ticket's text message's date cells, day first, a year of two
		// digits too ("DOJ:14-12-27"), as smsDate reads them.
		for _, cell := range smsSplit(ln) {
			if _, v, ok := smsCellLabel(cell); ok {
				if d := smsDate(v); d != nil {
					ev.days = append(ev.days, dayFound{kind: kind, mat: mat, line: line, raw: v, y: d.y, m: d.m, d: d.d, hasYear: true})
				}
			}
		}
		for _, f := range strings.Fields(ln) {
			if dm := gdsDateTokenRE.FindStringSubmatch(strings.ToUpper(strings.Trim(f, ",.;:()"))); dm != nil {
				if d, ok := ev.c.gdsDate(dm[1], dm[2], dm[3]); ok {
					ev.days = append(ev.days, dayFound{kind: kind, mat: mat, line: line, raw: f, y: d.y, m: d.m, d: d.d, hasYear: d.hasYear})
				}
			}
		}
		if w, ok := parseDateTime(strings.TrimSpace(ln)); ok {
			ev.instants = append(ev.instants, instantFound{kind: kind, raw: strings.TrimSpace(ln), w: w, dateOnly: w.dateOnly})
		}
		for _, k := range findClocks(ln) {
			ev.clocks = append(ev.clocks, clockFound{kind: kind, mat: mat, line: line, raw: ln[k.start:k.end], h: k.h, m: k.m})
		}
		// A text message's fields on one line, read a field a line as
		// the train readers read them (labelledRows: "Avg: Uppsala C
		// 09.40 Ank: …").
		if strings.Count(ln, ": ") >= 4 {
			if rows := labelledRows(ln); rows != ln {
				for cell := range strings.Lines(rows) {
					for _, k := range findClocks(strings.TrimRight(cell, "\n")) {
						ev.clocks = append(ev.clocks, clockFound{kind: kind, mat: mat, line: line, raw: cell[k.start:k.end], h: k.h, m: k.m})
					}
				}
			}
		}
		for _, k := range gdsClocks(ln, 64) {
			ev.clocks = append(ev.clocks, clockFound{kind: kind, mat: mat, line: line, raw: ln[k.start:k.end], h: k.h, m: k.m, days: k.days})
		}
		for _, mm := range moneyRE.FindAllStringSubmatchIndex(ln, -1) {
			if mo := ev.c.moneyAt(ln, mm, text); mo != nil {
				ev.amounts = append(ev.amounts, amountFound{kind: kind, raw: strings.TrimSpace(ln[mm[0]:mm[1]]), money: mo})
			}
		}
		for _, n := range numberRE.FindAllString(ln, -1) {
			if a, ok := normaliseAmount(n); ok {
				ev.amounts = append(ev.amounts, amountFound{kind: kind, raw: n, money: &Money{Amount: a}})
			}
		}
		// The figure that ends a row after the day it is due on
		// ("Montant prélevé le 20 mars 2026 42,99"), which numberRE
		// takes with the year as one (bareTotal's afterDueClause).
		if f := strings.Fields(ln); len(f) > 1 && bareAmountRE.MatchString(f[len(f)-1]) {
			if a, ok := normaliseAmount(f[len(f)-1]); ok {
				ev.amounts = append(ev.amounts, amountFound{kind: kind, raw: f[len(f)-1], money: &Money{Amount: a}})
			}
		}
		// A row of numbers apart by column gaps ("TOTAL   3   214,00
		// 44,94   258,94"), which numberRE takes as one: each cell's
		// (bareTotal).
		if strings.Contains(ln, "   ") {
			for _, cell := range cellSepRE.Split(ln, -1) {
				if n := strings.TrimSpace(cell); numberCellRE.MatchString(n) {
					if a, ok := normaliseAmount(n); ok {
						ev.amounts = append(ev.amounts, amountFound{kind: kind, raw: n, money: &Money{Amount: a}})
					}
				}
			}
		}
	}
}

// cellSepRE parts a table's cells: a tab, a bar, two spaces.
var cellSepRE = lazyregexp.New(`\t|\||\s{2,}`)

// numberRE is a number as amounts are written without their currency.
var numberRE = lazyregexp.New(`\d[\d.,' \x{00a0}\x{202f}]*\d|\d`)

// addCalendar adds an iCalendar's text, and each of its times as
// icalTime reads it.
func (ev *evidence) addCalendar(src string) {
	cal, err := decodeCalendar(src)
	if err != nil {
		ev.addText(SourceCalendar, src)
		return
	}
	var b strings.Builder
	for _, comp := range cal.Children {
		ev.addComponent(comp, &b)
	}
	ev.addText(SourceCalendar, b.String())
}

func (ev *evidence) addComponent(comp *ical.Component, b *strings.Builder) {
	for name, props := range comp.Props {
		for i := range props {
			p := &props[i]
			b.WriteString(icalText(p.Value)) // as calendarFacts and embeddedItems read it
			b.WriteByte('\n')
			if name == ical.PropDateTimeStart || name == ical.PropDateTimeEnd || name == ical.PropDue || name == ical.PropRecurrenceID {
				if t := ev.c.icalTime(p); t != nil {
					raw := name + ":" + p.Value
					ev.instants = append(ev.instants, instantFound{kind: SourceCalendar, raw: raw, t: t.Time, dateOnly: t.DateOnly})
					// Its day, for a clock the description gives.
					ev.days = append(ev.days, dayFound{kind: SourceCalendar, mat: len(ev.mats), line: -1, raw: raw, y: t.Year(), m: int(t.Month()), d: t.Day(), hasYear: true})
				}
			}
		}
	}
	// The reservation an X- property carries, as markup's values.
	var vals []string
	for _, it := range embeddedItems(comp) {
		markupStrings(it, &vals, 0)
	}
	for _, v := range vals {
		if w, ok := parseDateTime(v); ok {
			ev.instants = append(ev.instants, instantFound{kind: SourceCalendar, raw: v, w: w, dateOnly: w.dateOnly})
		}
	}
	ev.markup = append(ev.markup, vals...)
	if len(vals) > 0 {
		b.WriteString(strings.Join(vals, "\n"))
		b.WriteByte('\n')
	}
	for _, ch := range comp.Children {
		ev.addComponent(ch, b)
	}
}

// addDocument adds what an attachment holds: a pass's fields and
// barcodes, a PDF's text, embedded files and barcodes, an XML file, a
// picture's barcodes.
func (ev *evidence) addDocument(d mime.Document) {
	switch d.Kind {
	case "pkpass":
		p, err := pkpass.Read(d.Data)
		if err != nil {
			return
		}
		var vals []string
		vals = append(vals, p.Description, p.Organization, p.RelevantDate)
		for _, k := range p.Keys { // in the pass's order, as passText reads them
			vals = append(vals, p.Fields[k].Label, p.Fields[k].Value)
		}
		markupStrings(p.Semantics, &vals, 0)
		for _, v := range vals {
			if t, ok := passTime(v); ok {
				ev.instants = append(ev.instants, instantFound{kind: SourceAttachment, raw: v, t: t})
			}
		}
		ev.addText(SourceAttachment, strings.Join(vals, "\n"))
		var codes []string
		for _, bc := range p.Barcodes {
			codes = append(codes, bc.Message)
		}
		ev.addBarcodes(codes, p.RelevantDate)
	case "pdf":
		doc, err := pdfdoc.Open(d.Data)
		if err != nil {
			return
		}
		if files, err := doc.Files(); err == nil {
			for _, f := range files {
				ev.addXML(f.Data)
			}
		}
		if imgs, err := doc.Images(messagePixels); err == nil {
			for _, img := range imgs {
				if texts, err := barcode.Decode(img); err == nil {
					ev.addBarcodes(texts, "")
				}
			}
		}
		if text, err := doc.Text(); err == nil {
			ev.addText(SourceAttachment, text)
		}
	case "xml":
		ev.addXML(d.Data)
	case "image":
		if texts, err := barcode.DecodeBytes(d.Data); err == nil {
			ev.addBarcodes(texts, "")
		}
	}
}

// addXML adds an e-invoice's values as einvoice.Parse reads them, and
// the XML's text.
func (ev *evidence) addXML(data []byte) {
	if inv, err := einvoice.Parse(data); err == nil {
		var vals []string
		vals = append(vals, inv.Seller, inv.Number, inv.Amount, inv.Currency)
		for _, t := range []time.Time{inv.Due, inv.Issued} {
			if !t.IsZero() {
				ev.days = append(ev.days, dayFound{kind: SourceAttachment, mat: -1, line: -1, raw: t.Format("20060102"), y: t.Year(), m: int(t.Month()), d: t.Day(), hasYear: true})
			}
		}
		ev.addText(SourceAttachment, strings.Join(vals, "\n"))
	}
	ev.addText(SourceAttachment, html.UnescapeString(string(data)))
}

// addBarcodes adds barcodes' payloads and the boarding passes' legs they
// hold, each leg's day as Pass.Date gives it.
func (ev *evidence) addBarcodes(texts []string, relevant string) {
	ref := ev.c.ref
	if t, ok := passTime(relevant); ok {
		ref = t
	}
	if ref.IsZero() {
		ref = ev.c.arrived // as boardingPassFacts reads the legs
	}
	if ref.IsZero() {
		ref = time.Now()
	}
	for _, t := range texts {
		ev.addText(SourceBarcode, t)
		bp, err := bcbp.Parse(t)
		if err != nil {
			ev.addRailTicket(t)
			continue
		}
		for i, l := range bp.Legs {
			ev.barcodeLegs = append(ev.barcodeLegs, l)
			ev.addText(SourceBarcode, strings.Join([]string{l.PNR, l.From, l.To, l.Carrier, l.Carrier + " " + l.Flight, l.Seat}, "\n"))
			day := bp.Date(i, ref)
			ev.days = append(ev.days, dayFound{kind: SourceBarcode, mat: -1, line: -1, raw: fmt.Sprintf("day %d", l.Day), y: day.Year(), m: int(day.Month()), d: day.Day(), hasYear: true})
		}
	}
}

// addRailTicket adds a UIC 918.3 ticket's journeys as railTicketFacts
// reads them: stations and trains as the layout prints them, each day
// with the year ticketDay gives it and its printed clocks.
func (ev *evidence) addRailTicket(t string) {
	if !railPayload(t) {
		return
	}
	j := railJourney(t)
	if j == nil {
		return
	}
	for _, leg := range j.Legs {
		ev.addText(SourceBarcode, strings.Join([]string{leg.From, leg.To, leg.Train, j.Booking}, "\n"))
		kind, rule := SourceBarcode, ""
		if leg.Depart.Year == 0 && j.ValidFrom.Year == 0 && j.Issued.Month == 0 {
			kind, rule = SourceDerived, "the year from the mail's date"
		}
		dep := ev.c.ticketDay(leg.Depart, j)
		if dep.y == 0 {
			continue
		}
		raw := fmt.Sprintf("%02d.%02d", leg.Depart.Day, leg.Depart.Month)
		w := wallTime{y: dep.y, mo: dep.m, d: dep.d, dateOnly: !leg.DepartClock.OK, h: leg.DepartClock.Hour, mi: leg.DepartClock.Minute}
		if leg.DepartClock.OK {
			raw += fmt.Sprintf(" %02d:%02d", leg.DepartClock.Hour, leg.DepartClock.Minute)
		}
		ev.instants = append(ev.instants, instantFound{kind: kind, rule: rule, raw: raw, w: w, dateOnly: w.dateOnly})
		if leg.ArriveClock.OK && leg.Arrive.Month > 0 {
			a := onOrAfter(leg.Arrive, time.Date(dep.y, time.Month(dep.m), dep.d, 0, 0, 0, 0, time.UTC))
			raw := fmt.Sprintf("%02d.%02d %02d:%02d", leg.Arrive.Day, leg.Arrive.Month, leg.ArriveClock.Hour, leg.ArriveClock.Minute)
			ev.instants = append(ev.instants, instantFound{kind: kind, rule: rule, raw: raw, w: wallTime{y: a.y, mo: a.m, d: a.d, h: leg.ArriveClock.Hour, mi: leg.ArriveClock.Minute}})
		}
	}
}

// foldAlnum is s's letters and digits, folded as places.Fold does, with
// the leading zeros of each run of digits dropped ("LH 0400" is "lh400").
func foldAlnum(s string) string {
	f := places.Fold(s)
	var b strings.Builder
	b.Grow(len(f))
	prevDigit := false
	for i := 0; i < len(f); i++ {
		ch := f[i]
		switch {
		case ch == ' ':
			prevDigit = false
		case ch >= '0' && ch <= '9':
			if ch == '0' && !prevDigit && i+1 < len(f) && f[i+1] >= '0' && f[i+1] <= '9' {
				continue
			}
			prevDigit = true
			b.WriteByte(ch)
		default:
			prevDigit = false
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// locate finds the source of one field of f.
func (ev *evidence) locate(f Fact, fv fieldValue) Source {
	switch fv.kind {
	case fieldCode:
		if s, ok := ev.holds(fv.value); ok {
			return s
		}
		if s, ok := ev.tokens(fv.value); ok {
			return s
		}
		if s := ev.derivedCode(fv); s.Kind != "" {
			return s
		}
		return ev.joinedMarkup(fv.value)
	case fieldName:
		if s, ok := ev.holds(fv.value); ok {
			return s
		}
		return ev.words(fv.value)
	case fieldCarrier:
		if s, ok := ev.holds(fv.value); ok {
			return s
		}
		return ev.derivedCarrier(f, fv.value)
	case fieldParty:
		if s, ok := ev.holds(fv.value); ok {
			return s
		}
		for _, c := range ev.senders {
			if fv.value == c.senderName || fv.value == asOrg(c.senderName) {
				return Source{Kind: SourceDerived, Rule: "the sender's domain", Raw: c.senderDomain}
			}
		}
		return Source{}
	case fieldDomain:
		for _, c := range ev.senders {
			if fv.value == c.senderDomain {
				return Source{Kind: SourceHeader, Raw: c.senderDomain}
			}
		}
		return Source{}
	case fieldStatus:
		return ev.status(f, fv)
	case fieldAirport:
		return ev.airport(f, fv)
	case fieldTime:
		if s := ev.when(fv.t); s.Kind != "" {
			return s
		}
		return ev.derivedTime(f, fv)
	case fieldAmount:
		for _, a := range ev.amounts {
			if sameAmount(a.money.Amount, strings.TrimPrefix(fv.value, "-")) {
				return Source{Kind: a.kind, Raw: a.raw}
			}
		}
		return Source{}
	case fieldCurrency:
		return ev.currency(fv)
	}
	return Source{}
}

// holds finds a material that holds v: as a run of its words (folded),
// else as its letters and digits run together ("LH 400" in "LH0400").
func (ev *evidence) holds(v string) (Source, bool) {
	fv := places.Fold(v)
	if fv == "" {
		return Source{}, false
	}
	for _, m := range ev.mats {
		if strings.Contains(m.folded, " "+fv+" ") || len(fv) >= 4 && strings.Contains(m.folded, fv) {
			return Source{Kind: m.kind, Raw: rawAround(m.text, v)}, true
		}
	}
	av := foldAlnum(v)
	if len(av) < 3 {
		return Source{}, false
	}
	dv := alnumOnly(v)
	for _, m := range ev.mats {
		if strings.Contains(m.alnum, av) || strings.Contains(m.digits, dv) {
			return Source{Kind: m.kind, Raw: rawAround(m.text, v)}, true
		}
	}
	return Source{}, false
}

// alnumOnly is s's letters and digits, folded as places.Fold does.
func alnumOnly(s string) string {
	return strings.ReplaceAll(places.Fold(s), " ", "")
}

// tokens finds a material whose words, one after another, are a short
// code's ("S0" for "S 0", "TGV INOUI n° 6603" for "INOUI 6603", "UA" and
// "110" apart in markup for "UA 110"), skipping the words for a number.
func (ev *evidence) tokens(v string) (Source, bool) {
	want := foldAlnum(v)
	if want == "" {
		return Source{}, false
	}
	for _, m := range ev.mats {
		ws := strings.Fields(m.folded)
		for i := range ws {
			got := ""
			for j := i; j < len(ws) && j < i+5 && len(got) < len(want); j++ {
				if j > i && numberWords[ws[j]] {
					continue
				}
				got += foldAlnum(ws[j])
				if got == want {
					return Source{Kind: m.kind, Raw: strings.Join(ws[i:j+1], " ")}, true
				}
			}
		}
	}
	return Source{}, false
}

// numberWords are the words that stand between a service's name and its
// number ("n° 6603", "FLT: 925").
var numberWords = map[string]bool{"n": true, "no": true, "nr": true, "flt": true, "flight": true, "zug": true, "train": true}

// words finds a material that holds each word of a name, for names
// joined from parts (an address's street, code and town).
func (ev *evidence) words(v string) Source {
	ws := strings.Fields(places.Fold(v))
	if len(ws) < 2 {
		return Source{}
	}
	for _, m := range ev.mats {
		if !slices.ContainsFunc(ws, func(w string) bool { return !strings.Contains(m.folded, " "+w+" ") }) {
			return Source{Kind: m.kind, Raw: "the words of " + truncateRunes(v, 40)}
		}
	}
	return Source{}
}

// rawAround is the characters of text that hold v, short.
func rawAround(text, v string) string {
	if i := strings.Index(strings.ToLower(text), strings.ToLower(v)); i >= 0 {
		return text[i : i+len(v)]
	}
	return truncateRunes(v, 60)
}

// containsNumber reports whether folded holds the flight's number num as a
// word, perhaps printed with leading zeros to four digits ("0750").
func containsNumber(folded, num string) bool {
	for n := num; ; n = "0" + n {
		if strings.Contains(folded, " "+n+" ") {
			return true
		}
		if len(n) >= 4 {
			return false
		}
	}
}

// derivedCode is a code made by a rule: a flight's number with the code
// of the airline whose name the mail prints ("UNITED AIRLINES  FLT:
// 925" is UA 925), or with the code markup gives apart from the number.
func (ev *evidence) derivedCode(fv fieldValue) Source {
	code, num, ok := strings.Cut(fv.value, " ")
	if !ok || fv.name != "segment.number" {
		return Source{}
	}
	for _, m := range ev.mats {
		if !containsNumber(m.folded, foldAlnum(num)) {
			continue
		}
		for _, a := range gdsAirlines {
			if a.code != code {
				continue
			}
			// The name beside the number, or as the sender's name (an
			// airline's own "Flight 1847").
			for _, n := range ev.mats {
				if (n.kind == m.kind || n.kind == SourceHeader) && strings.Contains(n.folded, " "+places.Fold(a.name)+" ") {
					return Source{Kind: SourceDerived, Rule: "the airline's code of its printed name", Raw: a.name + " " + num}
				}
			}
		}
		if strings.Contains(m.folded, " "+strings.ToLower(code)+" ") && m.kind == SourceMarkup {
			return Source{Kind: SourceMarkup, Raw: code + " … " + num}
		}
	}
	return Source{}
}

// joinedMarkup is a code the markup reader joins from values markup
// gives apart, each whole: a train's name and number ("TGV" and "5186"),
// a seat's coach and place ("17" and "62").
func (ev *evidence) joinedMarkup(v string) Source {
	parts := strings.Fields(v)
	if len(parts) < 2 {
		return Source{}
	}
	for _, p := range parts {
		if !slices.Contains(ev.markup, p) {
			return Source{}
		}
	}
	return Source{Kind: SourceMarkup, Raw: strings.Join(parts, " … ")}
}

// derivedCarrier is a carrier no material names: a tracking number's
// form names it, or the sender's domain does.
func (ev *evidence) derivedCarrier(f Fact, name string) Source {
	if f.Order != nil {
		for _, sh := range f.Order.Shipments {
			if sh.Carrier != name || sh.Tracking == "" {
				continue
			}
			if cr, ok := trackingCarrier(sh.Tracking); ok && cr == name {
				return Source{Kind: SourceDerived, Rule: "the tracking number's form", Raw: sh.Tracking}
			}
			for _, c := range ev.senders {
				for _, m := range carriers.Identify(sh.Tracking, c.senderDomain) {
					if carrierName(m) == name {
						return Source{Kind: SourceDerived, Rule: "the tracking number's form", Raw: sh.Tracking}
					}
				}
			}
		}
	}
	for _, c := range ev.senders {
		if carrierBySender(c.senderDomain) == name {
			return Source{Kind: SourceDerived, Rule: "the sender's domain", Raw: c.senderDomain}
		}
	}
	if ev.c.linkedCarrier(ev.text) == name {
		return Source{Kind: SourceDerived, Rule: "the carrier whose site the mail links to"}
	}
	// "Shipper: United States Postal Service" read as USPS.
	for _, long := range carriers.FullNames(name) {
		if s, ok := ev.holds(long); ok {
			s.Rule = "the carrier's full name, as the text writes it"
			return s
		}
	}
	return Source{}
}

// airport finds a place's code: written as a word in capitals, or the
// airport of a name the mail writes.
func (ev *evidence) airport(f Fact, fv fieldValue) Source {
	code := fv.value
	re := regexp.MustCompile(`(?:^|[^\p{L}\p{N}])` + regexp.QuoteMeta(code) + `(?:$|[^\p{L}\p{N}])`)
	for _, m := range ev.mats {
		if loc := re.FindStringIndex(m.text); loc != nil {
			return Source{Kind: m.kind, Raw: strings.TrimFunc(m.text[loc[0]:loc[1]], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })}
		}
	}
	if name := fv.place.Name; name != "" {
		if c, ok := places.AirportByName(name); ok && c == code {
			return Source{Kind: SourceDerived, Rule: "the airport of its name", Raw: name}
		}
	}
	for _, m := range ev.mats {
		// A printout's city pair: two codes in one word ("MUCLIS").
		for _, w := range cityPairRE.FindAllString(m.text, -1) {
			if (w[:3] == code || w[3:] == code) && places.Known(w[:3]) && places.Known(w[3:]) {
				return Source{Kind: m.kind, Raw: w}
			}
		}
	}
	// An airport's name of up to four words, as airportNamed reads it;
	// else a city's, whose one large airport in the other end's part of
	// the world nearestNamed takes.
	var other *Place
	if s := f.Segment; s != nil {
		other = s.From
		if fv.name == "segment.from.code" {
			other = s.To
		}
	}
	for _, cities := range []bool{false, true} {
		if cities && (other == nil || other.Code == "") {
			break
		}
		for _, m := range ev.mats {
			for ln := range strings.Lines(m.text) {
				ws := strings.FieldsFunc(ln, func(r rune) bool {
					return !unicode.IsLetter(r) && r != '-' && r != '.' && r != '\''
				})
				for i := range ws {
					for j := i + 1; j <= len(ws) && j <= i+4; j++ {
						name := strings.Join(ws[i:j], " ")
						if !cities {
							if c, ok := places.AirportByName(name); ok && c == code {
								return Source{Kind: SourceDerived, Rule: "the airport of a name", Raw: name}
							}
						} else if p := nearestNamed(name, other); p != nil && p.Code == code {
							return Source{Kind: SourceDerived, Rule: "a city's large airport nearest the other end", Raw: name}
						}
					}
				}
			}
		}
	}
	return Source{}
}

// cityPairRE is a word of two airports' codes.
var cityPairRE = lazyregexp.New(`\b[A-Z]{6}\b`)

// when finds a time: the instant markup or a calendar gives, else a day
// and (unless only the day is known) a clock the same material writes.
func (ev *evidence) when(t *Time) Source {
	v := t.Time
	for _, in := range ev.instants {
		if !in.t.IsZero() {
			if in.t.Equal(v) || in.dateOnly && sameDay(in.t, v) {
				return Source{Kind: in.kind, Raw: in.raw}
			}
			continue
		}
		w := in.w
		if w.y == v.Year() && w.mo == int(v.Month()) && w.d == v.Day() && (t.DateOnly || w.h == v.Hour() && w.mi == v.Minute()) {
			return Source{Kind: in.kind, Raw: in.raw, Rule: in.rule}
		}
	}
	// A day, and unless only the day is known a clock near it: in the
	// same material within clockLines lines (anywhere in a calendar
	// event's text for its DTSTART's day).
	var best Source
	for _, d := range ev.days {
		if d.m != int(v.Month()) || d.d != v.Day() || !(d.hasYear && d.y == v.Year() || !d.hasYear && ev.yearFor(d, v.Year())) {
			continue
		}
		src := Source{Kind: d.kind, Raw: d.raw}
		if !d.hasYear {
			src = Source{Kind: SourceDerived, Rule: "the year from the mail's date", Raw: d.raw}
		}
		if !t.DateOnly {
			// A boarding pass's day is the barcode's, its clock the one
			// the pass prints (labelledClocks).
			k := slices.IndexFunc(ev.clocks, func(k clockFound) bool {
				return k.h == v.Hour() && k.m == v.Minute() && (k.mat == d.mat && (d.line < 0 || abs(k.line-d.line) <= clockLines || ev.headsClock(d, k.line)) ||
					d.kind == SourceBarcode && k.mat >= 0 && ev.mats[k.mat].kind == SourceAttachment)
			})
			if k < 0 {
				continue
			}
			src.Raw += " " + ev.clocks[k].raw
		}
		if d.hasYear {
			return src
		}
		if best.Kind == "" {
			best = src
		}
	}
	return best
}

// clockLines is how far from its day a clock may be: a printout's date
// heading over its block's lines, a table's date over its rows.
const clockLines = 8

// headsClock reports whether day d heads the clock on line of its
// material: the last day written above it, at most clockHeading lines
// up, and joined to it by a chain of clocks, each within clockLines of
// the one before. A booking app's timeline prints its journey's day once
// and each stop as a clock over its station, with the leg's vehicle,
// duration and seat between, so a day's last clock may be far below it;
// a clock alone far from any day is no day's.
func (ev *evidence) headsClock(d dayFound, line int) bool {
	if d.line < 0 || line <= d.line || line-d.line > clockHeading ||
		slices.ContainsFunc(ev.days, func(o dayFound) bool { return o.mat == d.mat && o.line > d.line && o.line < line }) {
		return false
	}
	var at []int
	for _, k := range ev.clocks {
		if k.mat == d.mat && k.line > d.line && k.line <= line {
			at = append(at, k.line)
		}
	}
	slices.Sort(at)
	prev := d.line
	for _, l := range at {
		if l-prev > clockLines {
			return false
		}
		prev = l
	}
	return prev == line
}

// clockHeading is how far below its day heading a clock may be.
const clockHeading = 60

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// status finds what says a fact's status: a status phrase the
// extractor's own readers find (orderStatusOf, statusIn, paidStatus,
// isCancellation), a markup status (orderStatus, deliveryStatus, a
// paymentStatus or reservationStatus), a calendar's STATUS, a printout's
// cancelled row; the statuses a fact starts with (confirmed, ordered,
// due) are the default.
func (ev *evidence) status(f Fact, fv fieldValue) Source {
	st := fv.value
	switch st {
	case StatusConfirmed, StatusOrdered, StatusDue:
		return Source{Kind: SourceDerived, Rule: "the default status", Raw: st}
	}
	for _, m := range ev.mats {
		if m.kind == SourceMarkup || m.kind == SourceCalendar {
			continue
		}
		switch {
		case f.Segment != nil && st == StatusCancelled:
			// The subject, as textFacts reads it.
			if m.kind == SourceHeader && isCancellation(ev.subject) {
				return Source{Kind: m.kind, Raw: "cancellation"}
			}
			if m.kind != SourceHeader && cancelledInText(m.text) {
				return Source{Kind: m.kind, Raw: "cancellation sentence"}
			}
			if m.kind != SourceHeader && smsCancelledIn(m.text) {
				return Source{Kind: m.kind, Raw: "a text message's cancelled cell"}
			}
			// A printout's row with a cancelled segment's code ("HX1").
			for ln := range strings.Lines(m.text) {
				if gdsFlightFirstRE.MatchString(ln) || gdsDateFirstRE.MatchString(ln) {
					if loc := gdsCancelledRE.FindStringIndex(ln); loc != nil {
						return Source{Kind: m.kind, Raw: ln[loc[0]:loc[1]]}
					}
				}
			}
		case f.Order != nil:
			if statusIn(lower(firstTextLines(m.text, 12))) == st || orderStatusOf(ev.subject, m.text) == st {
				return Source{Kind: m.kind, Raw: st + " phrase"}
			}
			// A listed parcel's state, in its block (parcelList).
			if len(f.Order.Shipments) > 0 && f.Order.Shipments[0].Tracking != "" {
				if raw := ev.c.blockStatus(m.text, f.Order.Shipments[0].Tracking, st); raw != "" {
					return Source{Kind: m.kind, Raw: raw}
				}
			}
		case f.Bill != nil && st == StatusPaid:
			if _, paid := ev.c.paidStatus(ev.subject, m.text); paid || billPaid.Any(lower(m.text)) && ev.c.paidPhraseStands(ev.subject, m.text, f.Bill.Amount) || ev.c.paidByLabel(m.text, f.Bill.Amount) || ev.c.paidAtFoot(m.text, f.Bill.Amount) {
				return Source{Kind: m.kind, Raw: "paid phrase"}
			}
			if ev.c.debitStands(ev.subject, m.text, f.Bill.Amount) {
				return Source{Kind: m.kind, Raw: "debited phrase"}
			}
			// A receipt that shows how it was paid (billcharged.go).
			if receiptPaid(ev.subject, m.text) {
				if raw := paymentLine(m.text); raw != "" {
					return Source{Kind: m.kind, Raw: raw}
				}
			}
		}
	}
	// textOrder: a parcel with a tracking number and no other state has
	// been shipped.
	if f.Order != nil && st == StatusShipped && len(f.Order.Shipments) > 0 && f.Order.Shipments[0].Tracking != "" {
		return Source{Kind: SourceDerived, Rule: "a tracking number is a parcel shipped", Raw: f.Order.Shipments[0].Tracking}
	}
	if f.Bill != nil && st == StatusPaid && f.Bill.Amount != nil {
		// "Amount due: $0.00", as textBill reads it.
		for _, m := range ev.mats {
			if a := ev.c.labelledAmount(m.text); a != nil && a.Amount == "0.00" || ev.c.zeroBalance(m.text) {
				return Source{Kind: SourceDerived, Rule: "nothing left to pay", Raw: m.kind}
			}
		}
		if strings.HasPrefix(f.Bill.Amount.Amount, "-") || sameAmount(f.Bill.Amount.Amount, "0.00") {
			return Source{Kind: SourceDerived, Rule: "nothing left to pay", Raw: f.Bill.Amount.Amount}
		}
	}
	for _, v := range ev.markup {
		l := strings.ToLower(v)
		switch {
		case f.Order != nil && (orderStatus(v) == st || deliveryStatus(v) == st):
			return Source{Kind: SourceMarkup, Raw: v}
		case f.Bill != nil && st == StatusPaid && (strings.Contains(l, "complete") || strings.Contains(l, "paid")),
			st == StatusCancelled && (strings.Contains(l, "cancelled") || strings.Contains(l, "canceled")):
			return Source{Kind: SourceMarkup, Raw: v}
		}
	}
	for _, m := range ev.mats {
		if m.kind == SourceCalendar && st == StatusCancelled && strings.Contains(m.text, "CANCELLED") {
			return Source{Kind: SourceCalendar, Raw: "STATUS:CANCELLED"}
		}
	}
	return Source{}
}

// derivedTime is a time made by a rule from the fact's other times: a
// stay's first day in a range that gives its month and year once ("vom
// 10. bis 13. Dezember 2027"), its last from the nights booked, an
// arrival the day after its departure ("+1", or a clock before the
// departure's).
func (ev *evidence) derivedTime(f Fact, fv fieldValue) Source {
	// A bill due a day count after its invoice's date (billterms.go).
	if fv.name == "bill.due" {
		for _, m := range ev.mats {
			if raw, d := ev.c.netTermDueRaw(m.text, zoneHint{}); d != nil && sameDay(d.Time, fv.t.Time) {
				return Source{Kind: SourceDerived, Rule: "the invoice's date and its net days", Raw: raw}
			}
		}
		return Source{}
	}
	s := f.Segment
	if s == nil {
		return Source{}
	}
	v := fv.t.Time
	switch fv.name {
	case "segment.check_in":
		if s.CheckOut == nil || ev.when(s.CheckOut).Kind == "" {
			return Source{}
		}
		end := s.CheckOut.Time
		if !fv.t.DateOnly && !ev.clockOf(v) {
			return Source{}
		}
		// The day alone, not a month's or a year's digits ("03.2028").
		dayRE := regexp.MustCompile(fmt.Sprintf(`\b0?%d\.?(?:[^\d.]|$)`, v.Day()))
		dayMonthRE := regexp.MustCompile(fmt.Sprintf(`\b0?%d[./]0?%d\.?(?:[^\d]|$)`, v.Day(), int(v.Month())))
		for _, d := range ev.days {
			if d.m != int(end.Month()) || d.d != end.Day() {
				continue
			}
			for _, m := range ev.mats {
				i := strings.Index(m.text, d.raw)
				if i < 0 {
					continue
				}
				before := m.text[max(0, i-40):i]
				before = before[strings.LastIndexByte(before, '\n')+1:]
				if loc := dayRE.FindStringIndex(before); loc != nil {
					return Source{Kind: SourceDerived, Rule: "a range's first day, in its end's month and year", Raw: before[loc[0]:] + d.raw}
				}
				// Its day and month, the year the end's ("Termin:
				// 23.07–27.07.2027", "du 30/12 au 02/01/2028").
				if loc := dayMonthRE.FindStringIndex(before); loc != nil {
					return Source{Kind: SourceDerived, Rule: "a range's first day and month, in its end's year", Raw: before[loc[0]:] + d.raw}
				}
			}
		}
	case "segment.check_out":
		if s.CheckIn == nil || ev.when(s.CheckIn).Kind == "" {
			return Source{}
		}
		nights := int(v.Sub(s.CheckIn.Time).Round(24*time.Hour) / (24 * time.Hour))
		// The nights as stayNights reads them ("2 nights", "Nights: 2").
		for _, m := range ev.mats {
			for _, re := range []*lazyregexp.Regexp{nightsLabelRE, nightsAfterRE} {
				for _, n := range re.FindAllStringSubmatch(m.text, -1) {
					if n[1] == fmt.Sprint(nights) {
						return Source{Kind: SourceDerived, Rule: "check-in and the nights booked", Raw: strings.TrimSpace(n[0])}
					}
				}
			}
		}
	case "segment.arrive":
		if s.Depart == nil || ev.when(s.Depart).Kind == "" {
			return Source{}
		}
		dep := s.Depart.Time
		days := v.YearDay() - dep.YearDay() + 365*(v.Year()-dep.Year())
		if days < 1 || days > 2 {
			return Source{}
		}
		for _, k := range ev.clocks {
			if k.h == v.Hour() && k.m == v.Minute() {
				return Source{Kind: SourceDerived, Rule: "the day after its departure", Raw: k.raw}
			}
		}
	}
	return Source{}
}

// yearFor reports whether withYear gives a day without a year the year y,
// from the dates the extractor reads such days against: the mail's
// Date, else the first date with a year its text (or an attachment's)
// writes, else the mail's arrival.
func (ev *evidence) yearFor(d dayFound, y int) bool {
	dm := dateMatch{m: d.m, d: d.d}
	if !ev.c.date.IsZero() && dm.withYear(ev.c.date).y == y {
		return true
	}
	if ev.c.date.IsZero() && !ev.c.arrived.IsZero() && dm.withYear(ev.c.arrived).y == y {
		return true
	}
	for _, m := range ev.mats {
		for _, us := range []bool{false, true} {
			if ref := firstFullDate(m.text, func(ln string) []dateMatch { return findDates(ln, us) }); !ref.IsZero() && dm.withYear(ref).y == y {
				return true
			}
		}
	}
	return false
}

// clockOf reports whether some material writes v's time of day.
func (ev *evidence) clockOf(v time.Time) bool {
	return slices.ContainsFunc(ev.clocks, func(k clockFound) bool { return k.h == v.Hour() && k.m == v.Minute() })
}

func sameDay(a, b time.Time) bool {
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}

// currency finds an amount's currency: the amount written with it, a
// code the mail writes, else the rule that gave it.
func (ev *evidence) currency(fv fieldValue) Source {
	for _, a := range ev.amounts {
		if a.money.Currency == fv.value && sameAmount(a.money.Amount, strings.TrimPrefix(fv.money.Amount, "-")) {
			return Source{Kind: a.kind, Raw: a.raw}
		}
	}
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(fv.value) + `\b`)
	for _, m := range ev.mats {
		if re.MatchString(m.text) {
			return Source{Kind: m.kind, Raw: fv.value}
		}
	}
	// A total printed bare takes the currency the document's other
	// amounts are written in (billAmountBare).
	for _, a := range ev.amounts {
		if a.money.Currency == fv.value {
			return Source{Kind: SourceDerived, Rule: "the currency of the document's other amounts", Raw: a.raw}
		}
	}
	return Source{}
}

// blockStatus is the line of text that says st of the parcel tracking, as
// parcelList reads a listed parcel's state (parcelState), or in the block
// of lines that ends with the one holding tracking, nearest it first; ""
// when none says it.
func (c *msgContext) blockStatus(text, tracking, st string) string {
	lines := strings.Split(text, "\n")
	if ps := c.listedParcels(text, lines); len(ps) > 0 {
		if i := slices.IndexFunc(ps, func(p listedParcel) bool { return strings.EqualFold(p.tracking, tracking) }); i >= 0 {
			spans := c.parcelSpans(lines, ps)
			heads := headingWords(lines, ps[0].line, ps[len(ps)-1].line)
			if s, said := parcelState(lines, ps, spans, heads, i); s == st && said != "" {
				return said
			}
		}
	}
	want := strings.ToUpper(tracking)
	for i, l := range lines {
		if !strings.Contains(strings.ToUpper(compactCode(l)), want) {
			continue
		}
		for j := i; j >= max(0, i-parcelBlock); j-- {
			if s := statusIn(lower(lines[j])); s != "" {
				if s == st {
					return strings.TrimSpace(lines[j])
				}
				break
			}
		}
	}
	return ""
}

// sameAmount reports whether two amounts as facts keep them are the same
// figure: a currency without a minor unit keeps none ("2420" of JPY),
// the text's reading two places ("2420.00").
func sameAmount(a, b string) bool {
	if a == b {
		return true
	}
	na, oka := normaliseAmount(a)
	nb, okb := normaliseAmount(b)
	return oka && okb && na == nb
}
