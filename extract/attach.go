package extract

import (
	"math/big"
	"regexp"
	"strings"
	"time"

	"mailnode/extract/barcode"
	"mailnode/extract/bcbp"
	"mailnode/extract/einvoice"
	"mailnode/extract/injection"
	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/pdfdoc"
	"mailnode/extract/pkpass"
	"mailnode/mail/mime"
)

// Facts from attachments: Apple Wallet passes, PDFs and e-invoices in
// XML. They are machine
// made, so they are read whatever the mail's text says, and added to the
// facts of the markup or text (the merge joins the same flight read
// twice).

// documentFacts reads the message's kept documents.
func (c *msgContext) documentFacts(docs []mime.Document) []Fact {
	var out []Fact
	for _, d := range docs {
		if c.images.late() {
			break // the message's time is spent (messageTime)
		}
		switch d.Kind {
		case "pkpass":
			p, err := pkpass.Read(d.Data)
			if err != nil {
				continue // a broken pass says nothing; the mail's text still may
			}
			out = append(out, c.passFacts(p)...)
		case "pdf":
			out = append(out, c.pdfFacts(d.Data)...)
		case "xml":
			// An e-invoice of its own: the exact bill, as inside a PDF.
			if inv, err := einvoice.Parse(d.Data); err == nil {
				if b := c.einvoiceBill(inv); b != nil {
					out = append(out, Fact{Kind: KindBill, From: FromAttachment, Bill: b, exactBill: true})
				}
			}
		case "image":
			// Decoding an image costs milliseconds: after the sync.
			if !c.full {
				c.pending = true
				continue
			}
			if texts := c.images.decodeBytes(d.Data); len(texts) > 0 {
				out = append(out, c.barcodeFacts(texts)...)
			}
		}
	}
	return out
}

// passFacts turns a Wallet pass into facts: a boarding pass by its
// barcode's boarding-pass text (else by its fields), an event ticket by
// its semantic tags (else by its fields).
func (c *msgContext) passFacts(p *pkpass.Pass) []Fact {
	fs := c.passStyleFacts(p)
	// A rail ticket's barcode states its journey whatever the pass's
	// style; the merge keeps it only when no print gives a train
	// (withoutTicketLegs).
	for _, b := range p.Barcodes {
		if rail := c.railTicketFacts(b.Message); len(rail) > 0 {
			return append(fs, rail...)
		}
	}
	return fs
}

// passStyleFacts reads a pass by its style.
func (c *msgContext) passStyleFacts(p *pkpass.Pass) []Fact {
	switch p.Style {
	case "boardingPass":
		for _, b := range p.Barcodes {
			if bp, err := bcbp.Parse(b.Message); err == nil {
				return c.boardingPassFacts(p, bp)
			}
		}
		return c.passLeg(p)
	case "eventTicket":
		if fs := c.passStay(p); len(fs) > 0 {
			return fs
		}
		return c.passEvent(p)
	case "generic":
		return c.passStay(p)
	}
	return nil
}

// passStay reads a hotel's booking sent as a pass (an event ticket or a
// generic pass, as hotels have no style of their own): its fields, each
// label before its value, read by the text reader as a mail's text
// would be; only a stay is taken from it.
func (c *msgContext) passStay(p *pkpass.Pass) []Fact {
	sub := *c // the pass is read as its own text
	if t, ok := passTime(p.RelevantDate); ok {
		sub.ref = t
	}
	var out []Fact
	text := passText(p)
	for _, f := range sub.textFacts(p.Description, text) {
		if f.Kind == KindHotel {
			f.From = FromAttachment
			out = append(out, f)
		}
	}
	c.noteAddressed(out, p.Description+"\n"+text)
	return out
}

// noteAddressed marks the message as addressing an AI reader when a
// document's text that gave facts does, and notes whether such a text
// names an account: the text is never quoted to an agent, but a bill
// read from it would otherwise keep its account where the same words in
// the body drop it. Searched only when it gave facts, as a body is.
func (c *msgContext) noteAddressed(facts []Fact, text string) {
	if len(facts) == 0 {
		return
	}
	if !c.docAddressed && injection.Addressed(text) {
		c.docAddressed = true
	}
	if !c.docAccount && namesAccount(text) {
		c.docAccount = true
	}
}

// barcodeFacts reads the boarding passes and rail tickets among a
// barcode's texts.
func (c *msgContext) barcodeFacts(texts []string) []Fact {
	var out []Fact
	for _, t := range texts {
		if bp, err := bcbp.Parse(t); err == nil {
			out = append(out, c.boardingPassFacts(&pkpass.Pass{}, bp)...)
		} else {
			out = append(out, c.railTicketFacts(t)...)
		}
	}
	return out
}

// boardingPassFacts: one flight per leg of the barcode. The barcode has
// the day, not the time: a departure time comes from the pass's semantic
// tags when it has them, else the day alone is kept.
func (c *msgContext) boardingPassFacts(p *pkpass.Pass, bp *bcbp.Pass) []Fact {
	ref := c.ref
	if t, ok := passTime(p.RelevantDate); ok {
		ref = t
	}
	if ref.IsZero() {
		ref = c.arrived
	}
	if ref.IsZero() {
		ref = time.Now()
	}
	kind := KindFlight
	if p.TransitType == "PKTransitTypeTrain" {
		kind = KindTrain // rail legs sold by airlines carry airline passes
	}
	var out []Fact
	for i, l := range bp.Legs {
		from, to := &Place{Code: l.From}, &Place{Code: l.To}
		seg := &Segment{Type: kind, Status: StatusConfirmed, Reservation: l.PNR, Carrier: l.Carrier,
			Number: l.Carrier + " " + l.Flight, From: from, To: to, Seat: l.Seat}
		day := bp.Date(i, ref)
		z := c.airportZone(from)
		// A semantic departure time counts only on the barcode's day: the
		// barcode is what the gate reads.
		t, ok := passTime(firstNonEmpty(p.Semantic("currentDepartureDate"), p.Semantic("originalDepartureDate")))
		if ok && len(bp.Legs) == 1 && t.In(orUTC(z.loc)).Format("2006-01-02") == day.Format("2006-01-02") {
			seg.Depart = &Time{Time: t.In(orUTC(z.loc)), Zone: z.name}
		} else {
			seg.Depart = &Time{Time: time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, orUTC(z.loc)), Zone: z.name, DateOnly: true}
		}
		out = append(out, Fact{Kind: kind, From: FromAttachment, Segment: seg, boardingPass: true})
	}
	c.printedTimes(out, passText(p))
	return out
}

// passText is a pass's fields as text, a line each, its label before
// its value, in the pass's order.
func passText(p *pkpass.Pass) string {
	var b strings.Builder
	for _, k := range p.Keys {
		f := p.Fields[k]
		if f.Value == "" || strings.Contains(f.Value, "<") {
			continue // an empty field, or a link's markup
		}
		if f.Label != "" {
			b.WriteString(strings.TrimSpace(f.Label))
			if !strings.HasSuffix(f.Label, ":") {
				b.WriteByte(':')
			}
			b.WriteByte(' ')
		}
		b.WriteString(f.Value)
		b.WriteString("\n")
	}
	return b.String()
}

// printedTimes gives the flights a boarding pass's barcode read, which
// carry their day alone, the clocks the pass prints for the same flight
// (its number, its day, its airport) in text (a PDF's page, a Wallet
// pass's fields): the barcode says which flight, the print when it
// leaves and lands. A flight printed on another day, or not at all,
// keeps its day alone.
func (c *msgContext) printedTimes(passes []Fact, text string) {
	var day *Time
	for _, f := range passes {
		if s := f.Segment; s != nil && s.Depart != nil && s.Depart.DateOnly {
			day = s.Depart
			break
		}
	}
	if day == nil || !hasDigit(text) {
		return
	}
	sub := *c // the print is read as its own text, its dates near the barcode's day
	sub.ref = day.Time
	printed := sub.textFacts("", text)
	defer c.labelledClocks(passes, text)
	for _, f := range passes {
		s := f.Segment
		if s == nil || s.Depart == nil || !s.Depart.DateOnly {
			continue
		}
		for _, p := range printed {
			q := p.Segment
			if p.Kind != f.Kind || q == nil || q.Depart == nil || q.Depart.DateOnly || flightNumber("", q.Number) != flightNumber("", s.Number) ||
				q.Depart.Format("2006-01-02") != s.Depart.Format("2006-01-02") || !samePlaceCode(s.From, q.From) {
				continue
			}
			s.Depart = q.Depart
			if s.Arrive == nil && q.Arrive != nil && !q.Arrive.DateOnly && samePlaceCode(s.To, q.To) {
				s.Arrive = q.Arrive
			}
			break
		}
	}
}

// depField and arrField are a print's field labels of a departure and an
// arrival, at the start of their line ("DEPARTURE 10:25", "Abflug: 10:25");
// depWord and arrWord the same words anywhere, which elsewhere on a line
// label something else ("Boarding ab 06:25", "NEW DEPARTURE 15:05").
var (
	depField, depWord = fieldLabel("departure")
	arrField, arrWord = fieldLabel("arrival")
)

// fieldLabel is a category's words as a line's label, and anywhere.
func fieldLabel(category string) (label, word *lazyregexp.Regexp) {
	words := `(?:` + strings.Join(longestFirst(lang.Entries(category)), "|") + `)(?:[^\p{L}]|$)`
	return lazyregexp.New(`(?i)^[ \t]*` + words), lazyregexp.New(`(?i)(?:^|[^\p{L}])` + words)
}

// labelledClocks gives a one-leg pass's flight, whose print names it but
// gives no date the text reader could put a flight on ("Flight SN 2592",
// "Departure time 10:25", "Boarding 09:45"), the clock on the print's one
// departure line on the barcode's day, and the arrival's likewise when it
// comes after it that day. A line with two clocks, or two departure
// clocks, says nothing sure.
func (c *msgContext) labelledClocks(passes []Fact, text string) {
	if len(passes) != 1 || passes[0].Segment == nil || passes[0].Kind != KindFlight {
		return
	}
	s := passes[0].Segment
	code, num, ok := strings.Cut(flightNumber("", s.Number), " ")
	if !ok || s.Depart == nil || !s.Depart.DateOnly || s.Arrive != nil {
		return
	}
	named := regexp.MustCompile(`(?i)(?:^|[^\p{L}\d])` + regexp.QuoteMeta(code) + `[ \t]*0*` + regexp.QuoteMeta(num) + `(?:[^\p{L}\d]|$)`)
	if !named.MatchString(text) {
		return
	}
	day := s.Depart.Time
	var dep, arr []clockMatch
	for ln := range strings.Lines(text) {
		// A print that dates the flight on another day than the barcode
		// is another flight's, or a rebooking's: its clocks say nothing.
		dated, same := false, false
		for _, us := range []bool{false, true} { // a slashed date read either way
			for _, d := range c.findDates(ln, us) {
				dated = true
				same = same || d.m == int(day.Month()) && d.d == day.Day() && (!d.hasYear || d.y == day.Year())
			}
		}
		if dated && !same {
			return
		}
		cs := findClocks(ln)
		anyDep, anyArr := depWord.MatchString(ln), arrWord.MatchString(ln)
		if len(cs) == 0 || !anyDep && !anyArr {
			continue
		}
		// A clock beside a departure's word that is not the line's label
		// ("NEW DEPARTURE 15:05", "Boarding ab 06:25"), or two clocks, or
		// both words: the print says more than one time, none surely.
		isDep, isArr := depField.MatchString(ln), arrField.MatchString(ln)
		if len(cs) > 1 || anyDep && anyArr || anyDep && !isDep || anyArr && !isArr {
			return
		}
		if isDep {
			dep = append(dep, cs[0])
		} else {
			arr = append(arr, cs[0])
		}
	}
	one := func(cs []clockMatch) (clockMatch, bool) {
		if len(cs) == 0 {
			return clockMatch{}, false
		}
		for _, k := range cs {
			if k.h != cs[0].h || k.m != cs[0].m {
				return clockMatch{}, false
			}
		}
		return cs[0], true
	}
	d, ok := one(dep)
	if !ok {
		return
	}
	z := c.airportZone(s.From)
	dt := time.Date(day.Year(), day.Month(), day.Day(), d.h, d.m, 0, 0, orUTC(z.loc))
	s.Depart = &Time{Time: dt, Zone: z.name}
	if a, ok := one(arr); ok {
		za := c.airportZone(s.To)
		at := time.Date(day.Year(), day.Month(), day.Day(), a.h, a.m, 0, 0, orUTC(za.loc))
		if at.After(dt) && at.Sub(dt) < 20*time.Hour {
			s.Arrive = &Time{Time: at, Zone: za.name}
		}
	}
}

// samePlaceCode says whether two places may be the same airport: their
// codes agree, or one of them has none.
func samePlaceCode(a, b *Place) bool {
	return a == nil || b == nil || a.Code == "" || b.Code == "" || a.Code == b.Code
}

// passLeg reads a boarding pass without a boarding-pass barcode (trains,
// buses, ferries) by its usual field keys.
func (c *msgContext) passLeg(p *pkpass.Pass) []Fact {
	kind := map[string]string{"PKTransitTypeAir": KindFlight, "PKTransitTypeTrain": KindTrain,
		"PKTransitTypeBus": KindBus, "PKTransitTypeBoat": KindFerry}[p.TransitType]
	if kind == "" {
		return nil
	}
	from, to := passPlace(p, "origin", "from", "departure", "departureStation"), passPlace(p, "destination", "to", "arrival", "arrivalStation")
	t, ok := passTime(p.Semantic("originalDepartureDate"))
	if !ok {
		t, ok = passTime(p.RelevantDate)
	}
	if from == nil || to == nil || !ok {
		return nil
	}
	seg := &Segment{Type: kind, Status: StatusConfirmed, From: from, To: to,
		Depart: &Time{Time: t}, Seat: p.Fields["seat"].Value,
		Reservation: firstField(p, "pnr", "bookingReference", "recordlocator", "filekey", "reservation"),
		Number:      firstField(p, "flight", "flightNumber", "train", "trainNumber", "vessel")}
	return []Fact{{Kind: kind, From: FromAttachment, Segment: seg}}
}

// passEvent reads an event ticket.
func (c *msgContext) passEvent(p *pkpass.Pass) []Fact {
	name := firstNonEmpty(p.Semantic("eventName"), p.Description, p.Organization)
	start, ok := passTime(firstNonEmpty(p.Semantic("eventStartDate"), p.Semantic("eventStartDateInfo"), p.RelevantDate))
	if name == "" || !ok {
		return nil
	}
	seg := &Segment{Type: KindEvent, Status: StatusConfirmed, Name: name, Depart: &Time{Time: start},
		Address: firstNonEmpty(p.Semantic("venueName"), firstField(p, "venue", "location")),
		Seat:    firstField(p, "seat", "seats")}
	if end, ok := passTime(p.Semantic("eventEndDate")); ok {
		seg.Arrive = &Time{Time: end}
	}
	if seats, ok := p.Semantics["seats"].([]any); ok && len(seats) > 0 && seg.Seat == "" {
		if s, ok := seats[0].(map[string]any); ok {
			var parts []string
			for _, k := range []struct{ key, label string }{{"seatSection", "section"}, {"seatRow", "row"}, {"seatNumber", "seat"}} {
				if v, ok := s[k.key].(string); ok && v != "" {
					parts = append(parts, k.label+" "+v)
				}
			}
			seg.Seat = strings.Join(parts, ", ")
		}
	}
	return []Fact{{Kind: KindEvent, From: FromAttachment, Segment: seg}}
}

func passPlace(p *pkpass.Pass, keys ...string) *Place {
	for _, k := range keys {
		f, ok := p.Fields[k]
		if !ok || f.Value == "" {
			continue
		}
		pl := &Place{Name: f.Value}
		if len(f.Value) == 3 && isUpper(f.Value) {
			pl = &Place{Code: f.Value, Name: f.Label}
		}
		return pl
	}
	return nil
}

func firstField(p *pkpass.Pass, keys ...string) string {
	for _, k := range keys {
		if v := p.Fields[k].Value; v != "" {
			return v
		}
	}
	return ""
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

// passTime reads a pass's date: W3C date-time, with or without seconds.
func passTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func orUTC(l *time.Location) *time.Location {
	if l == nil {
		return time.UTC
	}
	return l
}

// pdfFacts reads a PDF: the e-invoice embedded in it (ZUGFeRD, Factur-X)
// is the exact bill when present; else its text goes through the text
// rules, as a mail's body would (an invoice or a ticket printed to PDF).
func (c *msgContext) pdfFacts(data []byte) []Fact {
	d, err := pdfdoc.Open(data)
	if err != nil {
		return nil
	}
	if files, err := d.Files(); err == nil {
		for _, f := range files {
			if inv, err := einvoice.Parse(f.Data); err == nil {
				if b := c.einvoiceBill(inv); b != nil {
					return []Fact{{Kind: KindBill, From: FromAttachment, Bill: b, exactBill: true}}
				}
				return nil // a credit note asks for nothing
			}
		}
	}
	if !c.full {
		c.pending = true
		return nil
	}
	// A boarding pass printed to PDF: its barcode image holds the exact
	// flight. A rail ticket's barcode stands for its journey only when
	// the print's text gives no train (withoutTicketLegs).
	var rail []Fact
	if imgs, err := d.Images(c.images.allowance()); err == nil {
		var facts []Fact
		for _, img := range imgs {
			r := img.Bounds()
			if !c.images.take(r.Dx(), r.Dy()) {
				break
			}
			if texts, err := barcode.Decode(img); err == nil {
				facts = append(facts, c.barcodeFacts(texts)...)
			}
		}
		var flights []Fact
		for _, f := range facts {
			if f.railTicket {
				rail = append(rail, f)
			} else {
				flights = append(flights, f)
			}
		}
		if len(flights) > 0 {
			if text, err := d.Text(); err == nil {
				c.printedTimes(flights, text)
			}
			return facts
		}
	}
	text, err := d.Text()
	if err != nil || strings.TrimSpace(text) == "" {
		return rail
	}
	sub := *c // the PDF's text is read as its own, without the body's state
	// Dates without a year are read against the document's own dates,
	// not the mail's: an invoice may be forwarded years later.
	sub.ref = time.Time{}
	facts := sub.textFacts("", text)
	for i := range facts {
		facts[i].From = FromAttachment
	}
	c.noteAddressed(facts, text)
	return append(facts, rail...)
}

// einvoiceBill turns an e-invoice into a bill: due, or paid when nothing
// is left to pay; nil for a credit note.
func (c *msgContext) einvoiceBill(inv *einvoice.Invoice) *Bill {
	if inv.CreditNote() {
		return nil
	}
	b := &Bill{Issuer: firstNonEmpty(inv.Seller, c.senderName), Domain: c.senderDomain, Number: inv.Number, Status: StatusDue}
	amount, negative := strings.CutPrefix(strings.TrimSpace(inv.Amount), "-")
	if a, ok := normaliseAmount(amount); ok {
		if negative {
			a = "-" + a
		}
		b.Amount = &Money{Amount: a, Currency: strings.ToUpper(inv.Currency)}
		// Nothing left to pay (or money owed back): settled.
		if r, ok := new(big.Rat).SetString(a); ok && r.Sign() <= 0 {
			b.Status = StatusPaid
		}
	}
	// Payment terms that say it was paid ("Der Rechnungsbetrag wurde
	// bereits beglichen"): a receipt, whatever amount it states.
	if inv.Terms != "" && termsPaid(lower(inv.Terms)) {
		b.Status = StatusPaid
	}
	z := c.countryZone("")
	day := func(t time.Time) *Time {
		if t.IsZero() {
			return nil
		}
		return &Time{Time: time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, orUTC(z.loc)), Zone: z.name, DateOnly: true}
	}
	b.Due, b.Issued = day(inv.Due), day(inv.Issued)
	return b
}

// termsPaid reports whether an e-invoice's payment terms say it is paid:
// a paid phrase (bill.paid), less those that need a mail's first lines
// to mean it ("wurde am" also begins "wurde am 1. März erbracht").
func termsPaid(terms string) bool {
	paid := false
	billPaid.Each(terms, func(i int) bool {
		paid = !strings.HasSuffix(paidPhrases[i], " am")
		return !paid
	})
	return paid
}

// paidPhrases are billPaid's phrases, by index.
var paidPhrases = lang.Entries("bill.paid")
