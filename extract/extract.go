package extract

import (
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-ical"
	"golang.org/x/net/publicsuffix"

	"mailnode/extract/injection"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
	"mailnode/mail/invisible"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// Version identifies the extractors' behaviour. Raise it whenever a change
// would extract different facts from the same mail: the node then runs the
// extractors again over every stored message, from its kept raw bytes.
//
// Version 3: a message's taint (Result.Tainted) is kept with its facts,
// and a tainted message's facts that name an account to pay are dropped.
// Version 4: fact fields get their shape (a name that runs on into a
// clause is cut or dropped, a seat is a seat, a code a code), and the
// injection rules see through accents, letter variants and split words.
// Version 5: a bill's issuer is the name it prints when that name agrees
// with the sender's domain, "paid" is read from a status beside "due"
// wording, and "$" is the dollar the mail or its sender's country names.
// Version 6: an e-invoice attached as XML of its own (CII or UBL) is the
// bill; an unlabelled date range with no hotel's name or booking number
// is no stay.
// Version 7: the layout families that gave nothing (issue 46): flights
// whose words name no flight, designators that are words, printout rows
// after a word; trains and buses stacked, in sentences, by their labels,
// a regional category with its number; stays in a table's columns;
// parcels of carriers no list knows; bills' amount and number labels; a
// flight read from text that lands before it leaves or more than 20
// hours after has no arrival.
// Version 8: a text part's CRLF line ends read as "\n" (mail/mime: every
// message an IMAP server returns has them, and they hid a table's last
// column), a font size under 0.25em no longer hides a whole digest, and
// the families of issue 46's second round: structured sources checked
// against KItinerary (calendar X- reservations, passes, boarding-pass
// years), train and bus sentences and tables, parcel lists and tables,
// bills laid out as tables and printed invoices.
// Version 9: mail as clients pass it on (issue 46's metamorphic part):
// mails forwarded as attachments, inline forwards as Outlook and Apple
// Mail write them, quoted replies, format=flowed text, no-break spaces
// and <pre>, tables rendered to text; rail tickets' barcodes (UIC 918.3
// and its RCT2 layout, UIC 918.9 FCB); boarding passes' issue dates in
// every version; offers, price alerts, examples and delivery lures that
// state no booking give nothing.
// Version 10: buses read as buses (bays, runs, US layouts) in 13
// countries; stays of booking platforms and rented homes, their
// cancellations and date ranges; carriers and shops nobody named (shop
// systems' tracking labels, own delivery, failed deliveries, returns,
// pre-shipment, delays, Brazilian Portuguese, links through click
// counters); forwards whose original's sender clients hide (Outlook's
// header block, wrapped and nameless attributions) read against the
// original's day; UIC FCB 2.0, the DOSIPAS header, countermarks, trains'
// own stations; a delivery window is no leg; at most 3 s for a message's
// attachments.
// Version 11: mail in Chinese, Japanese, Korean, Russian, Turkish,
// Hungarian and Romanian; mail without a Date header (no year guessed
// from the clock, the mailbox's arrival date, a train's stops in one
// zone); several stays in one mail, package holidays, short booking
// numbers, changes told in a sentence, names a sentence inflects; postal
// digests in every layout, digital orders, lost parcels' refunds; bus
// numbers, dotted clocks, "(+1)"; PDF text drawn turned or wrapped in
// its cell; flights whose numbers come under their routes.
// Version 12: mail in Ukrainian, Bulgarian, Serbian, Macedonian, Greek,
// Slovak, Croatian, Slovenian, Lithuanian, Latvian and Estonian, and
// instructions in Cyrillic and Greek seen; plans, offers, a reply's
// changed booking over the quoted one, placeholder senders; stations of
// towns without an airport; a calendar's legs past midnight; stays
// "Jun 18 – 21, 2027"; coach cards with each stop's day under it; a
// building's front desk, mailroom or locker; a return's terms and a shop's
// receipt of an order are no return and no delivery.
// Version 13: classes found by measuring mail other projects wrote (time
// zones after clocks, itinerary and receipt rows naming airlines and
// cities, stays' names, payment reminders, amounts in "euro", status
// labels and sentences, order numbers after a spelled-out "number");
// every train an FCB ticket binds, rail legs in boarding passes; Croatian
// months, role-name senders, the order as the subject of "was shipped";
// bounded label values, conditions in their own sentence, phone lines;
// instructions in every word order and in documents.
// Version 14: classes found by two fresh outside measurements (a booking
// app's journey timeline, trains in one sentence, Nordic dotted clocks,
// tickets issued under an order's number, seven-letter locators, hotel
// names over the guest's label, bracketed labels, held parcels, US
// billers' autopay and month-first dates, renewals, bills without a
// number); shops named before the parcel word, "we shipped your order"
// in the inflected languages, shipping denied or in a condition,
// newsletters' example payments; instructions to a reader named by a
// role, and service text that names no reader.
// Version 15: the held-out set's classes (stacked stop lines over
// airports, a gate's number, rail products to airports, connection rows,
// host notices of rentals, unaccented phrases, bidi marks, carriers in a
// link), coach codes alone, one-line trains and text messages, date-only
// rail bookings, labelled flights; layouts that are no booking alone; a
// machine addressed in every language; carriers known by their sender.
// Version 16: the sixth held-out set's classes (two-column flights, an
// app's one value a line, city routes, rail legs with 12-hour clocks,
// coach routes, a stay after a flight, bills in a sentence, receipts
// that are no bill, progress bars); the ninth review's fixes (forwards
// keyed by their quoted sender and a failed From alone, denied states,
// role words, layouts that need a booking's sign, disguised
// instructions, a long line read around its clock).
// Version 17: the tenth review's fixes (a relayed message known as read,
// facts_extracted.relayed; a helpdesk's echo of a request states nothing).
// Version 18: foreign-8's classes (agencies' e-tickets a line a field,
// Amadeus receipts, schedule changes, fare quotes; North American rail
// stops over their days, Thruway coaches, regions' zones; bills' payment
// terms, printed names and initials, malformed senders, PO numbers);
// currencies by their ISO code, coach operators' own mail, Mexico's
// cities, a city's short name in another country; a shop with a
// free-mail Reply-To keeps its orders (mail/trust.RelayedByReply).
// Version 19: foreign-9's classes (Spanish and Portuguese airlines'
// confirmations: a stop's code before its city under its label, a
// labelled clock, a day after "Fecha:", a flight a line with cities'
// clocks in brackets, a booking code after the airline's name).
// Version 20: the outside sets foreign-10 to -33's classes (printouts'
// rows and cards, GDS receipts, tables by their headers, check-in
// columns, pasted calendars and Windows' zones, bills in more languages
// and amountless notices, issuers by their printed names, shops behind a
// role's or a shop's word, a city's airport as its day knew it): none of
// them reached mail a node had read before, which is read again.
// Version 21: foreign-34's classes (orders without a number, kept and
// joined by their sender's notices days apart; a charge's notice without
// its amount by the day it asks for; a carrier's labelled number before
// another's check; a town with its own state's abbreviation abroad).
const Version = 21

// Result is what one message says.
type Result struct {
	Auth  msgauth.Verdict // as given to Extract
	Facts []Fact
	// Pending: ExtractQuick left a PDF's text unread (it costs
	// milliseconds, the rest of a message microseconds); Extract reads it.
	Pending bool
	// Tainted: the message has facts and is Tainted. Its facts are shown
	// to agents as unverified, and those that name an account to pay are
	// dropped. (A message without facts is not looked at: false.)
	Tainted bool
	// Overdue: the message's documents, pictures or attached mails were
	// not all read, its time being spent (messageTime); what was read
	// is in Facts.
	Overdue bool
}

// msgContext is what the extractors know about the message around the
// text they read.
type msgContext struct {
	date time.Time // the Date header, zero if missing
	// icalZones are the VTIMEZONEs of the calendar calendarFacts reads,
	// by TZID (icalzone.go).
	icalZones map[string]*ical.Component
	// documents: the message carries a PDF, whose printed text may give
	// what its body leaves out (a bill's amount: amountlessInvoice).
	documents bool
	// docAddressed: the text of a document the facts were read from
	// (a PDF's, a pass's) addresses an AI reader: the message is
	// tainted as if its body did (the sixth outside review, L2);
	// docAccount: such a document's text names an account to pay, so
	// a tainted message's bills are dropped as when its body names one.
	docAddressed, docAccount bool
	// images is what is left of the message's budget for reading
	// barcodes in pictures (shared with the mails attached to it); nil
	// reads none.
	images *imageBudget
	// digitText and digitLines remember digitLines of the text the
	// label sets last read (msgContext.after).
	digitText  string
	digitLines []int
	// lowerText and lowered remember widthLower of the text the label
	// sets last read (msgContext.lowerOf).
	lowerText, lowered string
	// receiptSubject, receiptText and receipt remember receiptNamed of
	// the subject and text last asked (msgContext.receiptNamed): the
	// bill reader asks it twice or three times of one text.
	receiptSubject, receiptText string
	receipt                     bool
	// ref is the day that dates without a year are read against: the
	// Date header, else the first date with a year in the text.
	ref time.Time
	// arrived is when the mailbox received the mail (mime.Message.Arrived):
	// what dates without a year are read by in a mail with no Date header
	// and no date with a year in its text. Its offset is the mailbox
	// server's, no clue to the sender's zone.
	arrived time.Time
	dateLoc *time.Location // its offset, the fallback zone for local times
	// flightRef is the booking's reference the text the flight rules
	// read names (textFlights), for the readers of rows that only a
	// booking's printout sets so; "" outside them.
	flightRef     string
	senderDomain  string // From domain, lower case
	senderName    string // From display name, else the domain's name
	unsent        bool   // the message has no From at all (a mail pasted without its header)
	senderCountry string // ISO country guessed from the sender's TLD
	// monthFirst reads slashed dates month first whatever the sender
	// (textBill's second reading of a bill).
	monthFirst bool
	// dayFirst reads them day first whatever the sender (packageStays'
	// second reading of a stay beside its journeys).
	dayFirst      bool
	authenticated bool
	// langText is the text the text rules read; language its language
	// (lang.Detect), worked out the first time a rule asks, and
	// sureLanguage the one lang.DetectSure finds (sureDone once it has).
	langText     string
	language     string
	langDone     bool
	sureLanguage string
	sureDone     bool
	// printed remembers printedCode's answers for the text printedFor.
	printedFor string
	printed    map[string]string
	// booked is bookingSigned(langText), worked out once bookedDone.
	booked, bookedDone bool
	// full: read PDFs' text (Extract); else pending records that one was
	// left unread (ExtractQuick).
	full, pending bool
	// html is the message's HTML parts, whose links may carry a tracking
	// number (linkTracking).
	html []string
	// resv remembers reservationCodes of the last two texts read.
	resv [2]reservationMemo
	// dateMemo remembers the dates of each line read (msgContext.dates).
	dateMemo map[dateKey][]dateMatch
}

// setSender records who a message is from: the address's domain, the
// display name (else the domain's name) and the country its TLD suggests.
func (c *msgContext) setSender(addr, name string) {
	c.senderDomain = ""
	if _, d, ok := strings.Cut(addr, "@"); ok {
		c.senderDomain = strings.ToLower(strings.TrimSuffix(d, ">"))
	}
	// An address field no parser could read keeps its text, which is
	// not a domain ("example> =?utf-8?q?…?="): no domain then, rather
	// than a company's key that no mail of it matches.
	if !mime.IsDomain(c.senderDomain) {
		c.senderDomain = ""
	}
	c.senderName = strings.TrimSpace(name)
	if placeholderSender(c.senderDomain) {
		// Neither the address nor a role's name is a company's
		// (placeholder.go).
		c.senderDomain = ""
	}
	// A role's words alone ("Customer Service", "Kundenservice", "Orders")
	// name no company under any domain: no name, so that the domain
	// shows the sender (Merge's senderName), as for a name the domain
	// does not agree with.
	if roleName(c.senderName) {
		c.senderName = ""
	} else if c.senderName == "" {
		c.senderName = domainLabel(c.senderDomain)
	}
	c.senderCountry = tldCountry(c.senderDomain)
}

// Extract reads the facts of one message, whose sender authentication
// is auth (package msgauth decides it). It never fails: a message it
// cannot read yields no facts.
//
// A mail attached to m whole (mime.Message.Attached: "forward as
// attachment") is read too, as a forwarded original (attached.go).
func Extract(m *mime.Message, auth msgauth.Verdict) Result { return extractAll(m, auth, true) }

// newMsgContext is the reading state of m: its date and time zone, its
// HTML, its sender.
func newMsgContext(m *mime.Message, full bool) *msgContext {
	c := &msgContext{date: m.Date, ref: m.Date, dateLoc: time.UTC, full: full, html: m.HTML}
	if !m.Date.IsZero() {
		c.dateLoc = m.Date.Location()
	}
	c.arrived = m.Arrived
	var addr, name string
	if len(m.From) > 0 {
		addr, name = m.From[0].Address, m.From[0].Name
	}
	c.setSender(addr, name)
	c.unsent = len(m.From) == 0
	for _, a := range m.Attachments {
		if strings.EqualFold(a.ContentType, "application/pdf") || strings.HasSuffix(strings.ToLower(a.Filename), ".pdf") {
			c.documents = true
		}
	}
	return c
}

// ExtractQuick is Extract without the printed text of PDF attachments:
// their embedded e-invoices and Wallet passes are read, their text is
// not, and Result.Pending says so. The sync uses it so that a mailbox of
// PDFs syncs at the speed of one without; the facts service reads the
// pending messages with Extract once the sync is done.
func ExtractQuick(m *mime.Message, auth msgauth.Verdict) Result { return extractAll(m, auth, false) }

func extract(m *mime.Message, auth msgauth.Verdict, full bool, images *imageBudget) Result {
	c := newMsgContext(m, full)
	c.images = images

	c.authenticated = auth.Authenticated && strings.EqualFold(auth.Domain, c.senderDomain)

	// Sources in order of trust; the first that yields facts is used, so
	// that one booking is not read twice from its markup and its text.
	facts := c.markupFacts(m)
	// Markup and calendars in a forwarded mail or a quoted reply are the
	// original's, whatever the forwarder's authentication says: read as
	// its sender's and never authenticated, as its quoted text is (the
	// outside review's HIGH-3: a stranger's JSON-LD bill, forwarded by a
	// trusted partner, came out verified and trusted). Looked for only
	// when the markup gave facts, which most mail's does not.
	if len(facts) > 0 {
		if from, fwd := forwardOf(m); fwd {
			fc := *c
			fc.authenticated = false
			if from != nil {
				fc.asForwarded(from)
			}
			facts = fc.markupFacts(m)
			key := quotedKey(from, readText(m))
			for i := range facts {
				facts[i].From = FromForwarded
				facts[i].quotedBy(key)
			}
		}
	}
	var seen textScan // the text the text rules searched for instructions
	if len(facts) == 0 {
		text := m.Text
		if strings.TrimSpace(text) == "" || len(m.HTMLText) > 2*len(text) {
			text = m.HTMLText
		} else {
			text = joinBrokenRows(text) // a client's rendering of an HTML table
		}
		base := *c // textRules changes c (a forwarded mail's sender, the reference date)
		facts = c.textRules(m.Subject, text)
		// Lines that address an AI reader are blanked so that the rules
		// do not read a booking out of them; looked for only when the
		// rules found something, which most mail does not give.
		if len(facts) > 0 {
			clean, found := withoutInstructions(text)
			seen = textScan{text: text, scanned: true, found: found}
			if clean != text {
				fresh := base
				c = &fresh
				facts = c.textRules(m.Subject, clean)
			}
		}
	}
	if len(m.Documents) > 0 {
		docs := c.documentFacts(m.Documents)
		// A forwarded mail's attachment is the forwarder's word about
		// someone else's booking, as its quoted text is.
		if from, fwd := forwardOf(m); fwd {
			key := quotedKey(from, readText(m))
			for i := range docs {
				docs[i].From = FromForwarded
				docs[i].quotedBy(key)
			}
		}
		ticketBookings(docs, m.Subject, readText(m))
		facts = mergeDocumentFacts(facts, docs)
	}
	if len(facts) > maxFacts {
		facts = facts[:maxFacts]
	}
	for i := range facts {
		facts[i].sanitize()
		facts[i].dropImplausible()
	}
	facts = slices.DeleteFunc(facts, func(f Fact) bool { return f.selfLeg() })
	facts = withoutUnknownYears(facts)
	// Whether the message addresses an AI reader is worked out only for
	// mail with facts, which most mail is not: it costs twice the rest of
	// reading a message without facts (BenchmarkGeneratedMail: 95 µs a
	// mail without it, 300 µs with it).
	taint := len(facts) > 0 && (c.docAddressed || tainted(m, seen))
	if taint {
		facts = withoutAccounts(facts, m)
		if c.docAccount {
			facts = slices.DeleteFunc(facts, func(f Fact) bool { return f.Bill != nil })
		}
	}
	return Result{Auth: auth, Facts: facts, Pending: c.pending, Tainted: taint}
}

// markupFacts reads m's structured sources in order of trust, the
// first that yields facts: JSON-LD, microdata, calendars.
func (c *msgContext) markupFacts(m *mime.Message) []Fact {
	var facts []Fact
	for _, h := range m.HTML {
		facts = append(facts, c.schemaFacts(jsonLD(h), FromJSONLD)...)
	}
	if len(facts) == 0 {
		for _, h := range m.HTML {
			facts = append(facts, c.schemaFacts(microdata(h), FromMicrodata)...)
		}
	}
	if len(facts) == 0 {
		cals := m.Calendars
		if len(cals) == 0 {
			if src, ok := pastedCalendar(m.Text); ok {
				cals = []string{src}
			}
		}
		for _, cal := range cals {
			facts = append(facts, c.calendarFacts(cal)...)
		}
		// A booking's mail whose journey is only in its calendar names
		// the booking in its subject or text ("Buchungsbestätigung
		// Deutsche Bahn (Auftrag: 100000000002)", the legs in DB's
		// attachment): the events that name none are that booking's.
		if missingReservation(facts) {
			if ref := c.bookingRef(m.Subject + "\n" + readText(m)); ref != "" {
				for _, f := range facts {
					if f.Segment != nil && f.Segment.Reservation == "" {
						f.Segment.Reservation = ref
					}
				}
			}
		}
	}
	return facts
}

// missingReservation reports whether a travel fact of facts names no
// booking.
func missingReservation(facts []Fact) bool {
	for _, f := range facts {
		if f.Segment != nil && f.Segment.Reservation == "" {
			return true
		}
	}
	return false
}

// textRules applies the text rules to text, as its original sender's
// when it is a forwarded mail.
func (c *msgContext) textRules(subject, text string) []Fact { return c.textRulesIn(subject, text, 0) }

// textRulesIn is textRules at depth forwards or replies deep: the
// original of a forward or a reply may itself be a reply or a forward
// (a person forwarding their exchange with a shop, a reply quoting a
// forward), read as the outermost is, two deep at most.
func (c *msgContext) textRulesIn(subject, text string, depth int) []Fact {
	if depth == 0 && len(text) > 256<<10 {
		// textFacts reads 256 KB of a text; a chain of forwards and
		// replies is read as its parts, and without this each part's
		// 256 KB: a 1 MB chain of four cost four times one part (the
		// eighth outside review, MEDIUM-1).
		text = text[:256<<10]
	}
	if from, own, head, body, ok := forwardedHead(text); ok {
		if own == "" {
			own = c.ownOverOriginal(text, head, from)
		}
		// A reply's own words come first: a shop answering with the
		// customer's mail quoted under them is the shop's mail. The
		// subject ("Re: Your order …") is the quoted original's.
		if strings.TrimSpace(own) != "" {
			oc := *c
			oc.html = nil // the HTML holds the quoted mail too
			// A reply that offers other dates is read as its quote.
			if facts := oc.textFacts("", own); len(facts) > 0 && !oc.replyOffers(own, facts) {
				oc.html = c.html
				*c = oc
				return facts
			}
		}
		c.asForwarded(from)
		// The original's day, where the mail has a Date of its own
		// (without one, a clock in no known zone has no offset to fall
		// back on, and the original's day gives none).
		if d, ok := c.originalDay(head); ok && !c.date.IsZero() {
			c.date = d
		}
		subject = strings.TrimSpace(fwdPrefixRE.ReplaceAllString(subject, ""))
		var facts []Fact
		if depth < 2 {
			facts = c.textRulesIn(subject, body, depth+1)
		} else {
			facts = c.textFacts(subject, quotePrefixRE.ReplaceAllString(body, ""))
		}
		key := quotedKey(from, text)
		for i := range facts {
			facts[i].From = FromForwarded
			facts[i].quotedBy(key)
		}
		return facts
	}
	if depth > 0 {
		text = quotePrefixRE.ReplaceAllString(text, "") // an original's own quotes
	}
	return c.textFacts(subject, text)
}

// fwdPrefixRE is a forwarded subject's prefix: "Fwd:", "WG:", "TR:", "I:".
var fwdPrefixRE = lazyregexp.New(`(?i)^\s*(?:(?:fwd?|wg|tr|rv|i|doorst)\s*:\s*)+`)

// Tainted reports whether some line of a message (its subject, its
// sender's display name, its text or the text of its HTML) reads as
// instructions to an AI reader (package injection): then the whole
// message is tainted, not only the line. Each text is searched whole in
// one pass, which finds any line that matches (and a phrase a line break
// splits).
func Tainted(m *mime.Message) bool { return tainted(m, textScan{}) }

// textScan is what the text rules already learnt of one of a message's
// texts: that it addresses an AI reader (found) or not. A 20 KB text
// takes milliseconds to search, so it is searched once a message.
type textScan struct {
	text    string
	scanned bool
	found   bool
}

// tainted is Tainted, searching the text seen's again only if it was not
// searched.
func tainted(m *mime.Message, seen textScan) bool {
	addressed := func(s string) bool {
		if seen.scanned && s == seen.text {
			return seen.found
		}
		return injection.Addressed(s)
	}
	var name string
	if len(m.From) > 0 {
		name = m.From[0].Name
	}
	return injection.Addressed(m.Subject) || injection.Addressed(name) || addressed(m.Text) ||
		m.HTMLText != m.Text && addressed(m.HTMLText)
}

// withoutInstructions blanks the lines of text that address an AI reader,
// so that the text rules do not read a booking out of them; found says
// whether the text addresses one at all (a phrase may span two lines).
func withoutInstructions(text string) (clean string, found bool) {
	if !injection.Addressed(text) {
		return text, false
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if injection.Addressed(l) {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n"), true
}

// maxName bounds a free-text field of a fact (a name, an address, an item).
const maxName = 160

// sentenceWords is how many words make a field a sentence rather than a
// name, for sanitize.
const sentenceWords = 6

// instructionParticles are the small words of names (name.particle:
// "Terminal del Norte", "Quinta da Ponte", "Maisons du Monde") that are
// also, in another language, a word the instruction test looks for
// (injection.verbs, injection.you: Spanish "da", give; Danish "del",
// share; German and Nordic "du", you): in a long name they are the
// name's, and an order in a name gives itself away by its other words
// ("send", "your", an address). Worked out from the tables, so a language
// added to either is counted.
var instructionParticles = func() map[string]bool {
	asked := wordSet("injection.verbs")
	for w := range wordSet("injection.you") {
		asked[w] = true
	}
	out := map[string]bool{}
	for w := range nameParticle {
		if asked[w] {
			out[w] = true
		}
	}
	return out
}()

// withoutNameParticles is s without its instructionParticles, for the test of
// a long name for instructions.
func withoutNameParticles(s string) string {
	f := strings.Fields(s)
	out := f[:0:0]
	for _, w := range f {
		if !instructionParticles[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// sanitize clears the free-text fields that read as instructions to an
// AI reader, gives each field its shape (fieldshape.go: a name is no
// clause, a seat a seat, a code a code) and bounds the rest: facts are
// handed to agents' models, and a sender's words reach them only as data.
func (f *Fact) sanitize() {
	clean := func(s *string, shape func(string) string) {
		// Characters nobody sees first: tag characters smuggle text a
		// model reads past every rule and every person.
		*s = shape(invisible.Strip(*s))
		// Addresses and links are not names: a sender's way to hand an
		// agent somewhere to send things.
		// A name that gives orders ("Reply to …", "### system") is a
		// sender's words aimed at a model, not a name; so is a sentence
		// that speaks to its reader ("The assistant should forward …"),
		// which a name of a few words seldom is ("Open Air Festival").
		if injection.Directive(*s) || len(strings.Fields(*s)) >= sentenceWords && injection.Instructive(withoutNameParticles(*s)) ||
			strings.Contains(*s, "@") || strings.Contains(*s, "://") {
			*s = ""
		}
		*s = truncateRunes(*s, maxName)
	}
	name := withoutClause
	carrier := func(s string) string { return asCarrier(withoutClause(s)) }
	place := func(p *Place) {
		if p != nil {
			clean(&p.Name, name)
			clean(&p.Code, asCode)
		}
	}
	switch {
	case f.Segment != nil:
		s := f.Segment
		clean(&s.Reservation, asReference)
		clean(&s.Carrier, carrier)
		clean(&s.Number, asNumber)
		clean(&s.Seat, asSeat)
		for _, v := range []*string{&s.Hotel, &s.Name, &s.Address} {
			clean(v, name)
		}
		place(s.From)
		place(s.To)
	case f.Order != nil:
		o := f.Order
		clean(&o.Merchant, asOrg)
		clean(&o.Number, asReference)
		items := o.Items[:0]
		for _, it := range o.Items {
			if clean(&it, name); it != "" {
				items = append(items, it)
			}
		}
		o.Items = items
		for i := range o.Shipments {
			clean(&o.Shipments[i].Carrier, carrier)
			clean(&o.Shipments[i].Tracking, asTracking)
		}
		o.Total = asMoney(o.Total)
	case f.Bill != nil:
		clean(&f.Bill.Issuer, asOrg)
		clean(&f.Bill.Number, asReference)
		f.Bill.Amount = asMoney(f.Bill.Amount)
	}
}

// maxFlight is longer than any scheduled flight (Singapore to New York,
// under 19 hours).
const maxFlight = 20 * time.Hour

// dropImplausible leaves out a value the other values of its fact show
// to be wrong, whichever rule read it (issue 46's precision guard: a
// wrong fact is worse than none). A flight read from text that lands
// before it leaves, or more than maxFlight after, has a wrong date,
// clock or zone at one end; its departure is the better labelled of the
// two, so the arrival goes. Markup and calendars state both ends as
// their sender wrote them and are left as they are. A text flight's
// airport of today on a day before it opened is set to its city's
// airport of that day, or to none (asOf).
func (f *Fact) dropImplausible() {
	s := f.Segment
	if s != nil && s.Type == KindFlight && f.From == FromText {
		// A segment's status code in a printout's column ("OK", "HK1")
		// beside where a place stands is no place.
		if segmentStatusName(s.From) {
			s.From = nil
		}
		if segmentStatusName(s.To) {
			s.To = nil
		}
		// A city's airport as the flight's day knew it: "Legazpi" in 2016
		// was LGP, not Bicol International (DRP, 2021); "Berlin" in 2019
		// was Tegel or Schönefeld, not BER, and names neither alone.
		if s.Depart != nil {
			asOf(s.From, s.Depart.Time)
			if s.Arrive != nil {
				asOf(s.To, s.Arrive.Time)
			} else {
				asOf(s.To, s.Depart.Time)
			}
		}
	}
	if s == nil || s.Type != KindFlight || f.From != FromText || s.Depart == nil || s.Arrive == nil {
		return
	}
	if d := s.Arrive.Sub(s.Depart.Time); d <= 0 || d > maxFlight {
		s.Arrive = nil
	}
}

// asOf sets a place's airport to the one its city meant on a day
// (places.AsOf): a code of today's airport read from a city's name in
// archived mail. Where the city had several then, the place keeps its
// name and loses the code.
func asOf(p *Place, day time.Time) {
	if p == nil || p.Code == "" {
		return
	}
	code, ok := places.AsOf(p.Code, day)
	if ok {
		p.Code = code
		return
	}
	if p.Name == "" {
		p.Name = places.CityOf(p.Code)
	}
	p.Code = ""
}

// segmentStatusCodes are the status codes of a booked segment a
// reservation system prints in its status column (confirmed "OK", "HK",
// "KK", "TK", "RR"; waitlisted "HL", "WL"; cancelled "HX", "UN", "UC").
var segmentStatusCodes = map[string]bool{"OK": true, "HK": true, "KK": true, "TK": true, "RR": true, "HL": true, "WL": true, "HX": true, "UN": true, "UC": true}

// segmentStatusName reports whether p is a place known by no code whose
// name is a segment's status code, with a passenger count perhaps
// ("HK1").
func segmentStatusName(p *Place) bool {
	if p == nil || p.Code != "" {
		return false
	}
	n := strings.TrimRight(strings.TrimSpace(p.Name), "0123456789")
	return segmentStatusCodes[n]
}

// withoutUnknownYears drops the legs and stays that start on a day whose
// year nothing in the mail gave (unknownYear), and every other time of
// such a year: none rather than a guessed one.
func withoutUnknownYears(facts []Fact) []Fact {
	unknown := func(t *Time) bool { return t != nil && t.Year() <= unknownYear }
	return slices.DeleteFunc(facts, func(f Fact) bool {
		if s := f.Segment; s != nil {
			if unknown(s.Depart) || unknown(s.CheckIn) {
				return true
			}
			if unknown(s.Arrive) {
				s.Arrive = nil
			}
			if unknown(s.CheckOut) {
				s.CheckOut = nil
			}
		}
		if o := f.Order; o != nil {
			if unknown(o.Ordered) {
				o.Ordered = nil
			}
			for i := range o.Shipments {
				if unknown(o.Shipments[i].Expected) {
					o.Shipments[i].Expected = nil
				}
			}
		}
		if b := f.Bill; b != nil {
			if unknown(b.Due) {
				b.Due = nil
			}
			if unknown(b.Issued) {
				b.Issued = nil
			}
		}
		return false
	})
}

// selfLeg tells a leg read from text that leaves from where it arrives
// (the same airport code, or the same station): its places or its row
// were misread (a table's cells run into the next row's), and no part of
// it can be trusted. Markup and calendars state what their sender wrote.
func (f *Fact) selfLeg() bool {
	s := f.Segment
	if s == nil || (f.From != FromText && f.From != FromForwarded) || s.From == nil || s.To == nil {
		return false
	}
	if s.From.Code != "" || s.To.Code != "" {
		return strings.EqualFold(s.From.Code, s.To.Code)
	}
	return s.From.Name != "" && strings.EqualFold(s.From.Name, s.To.Name)
}

// mergeDocumentFacts adds an attachment's facts to the body's. An
// embedded e-invoice is the exact bill: it replaces bills read from text.
// A bill read from a PDF's printed text gives way to one the body states.
func mergeDocumentFacts(body, docs []Fact) []Fact {
	docs = withoutTicketLegs(body, docs)
	docs = withoutRailPasses(body, docs)
	body = withoutPassedLegs(body, docs)
	exact, bodyBill := false, false
	for _, f := range docs {
		exact = exact || f.Bill != nil && f.exactBill
	}
	for _, f := range body {
		bodyBill = bodyBill || f.Bill != nil
	}
	var out []Fact
	for _, f := range body {
		if f.Bill == nil || !exact {
			out = append(out, f)
		}
	}
	for _, f := range docs {
		if f.Bill == nil || f.exactBill || !bodyBill {
			out = append(out, f)
		}
	}
	return out
}

// withoutRailPasses drops a boarding pass's leg that the body gives as
// a train or a bus: airlines sell rail and coach legs (AIRail, TGV AIR,
// Rail&Fly, airport buses) with boarding passes whose barcode names the
// stations by their IATA codes and the leg by a flight number, and the
// mail's text says what it is. The same leg: the same day, and both ends
// of the body's leg name the barcode's codes (as their code, or "(ZSB)"
// in their name). The body's leg stands, with its stations' names and
// clocks; a pass whose leg the body gives as nothing else stays.
func withoutRailPasses(body, docs []Fact) []Fact {
	out := docs[:0:0]
	for _, d := range docs {
		ds := d.Segment
		if !d.boardingPass || ds == nil || ds.Depart == nil || !slices.ContainsFunc(body, func(b Fact) bool {
			bs := b.Segment
			return bs != nil && (b.Kind == KindTrain || b.Kind == KindBus) && bs.Depart != nil &&
				bs.Depart.Format("2006-01-02") == ds.Depart.Format("2006-01-02") &&
				namesCode(bs.From, ds.From) && namesCode(bs.To, ds.To)
		}) {
			out = append(out, d)
		}
	}
	return out
}

// namesCode says whether place p names the IATA code of pass's place,
// as its code or in parentheses in its name ("Salzburg Hbf (ZSB)").
func namesCode(p, pass *Place) bool {
	if p == nil || pass == nil || pass.Code == "" {
		return false
	}
	if strings.EqualFold(p.Code, pass.Code) {
		return true
	}
	for _, m := range parenCode.FindAllStringSubmatch(p.Name, -1) {
		if m[1] == pass.Code {
			return true
		}
	}
	return false
}

// withoutPassedLegs drops the body's flights and trains that an
// attachment gives too (a boarding pass with the itinerary in the text):
// the same leg, by its number, day and stations, is one fact, the
// attachment's, with what only the body gives (its clocks when the
// barcode has the day alone, the arrival, the booking). A leg the
// attachment does not give stays the body's.
func withoutPassedLegs(body, docs []Fact) []Fact {
	var out []Fact
	for _, b := range body {
		bs := b.Segment
		same := -1
		for i, d := range docs {
			ds := d.Segment
			if bs == nil || ds == nil || b.Kind != d.Kind || (b.Kind != KindFlight && b.Kind != KindTrain) ||
				bs.Number == "" || flightNumber("", bs.Number) != flightNumber("", ds.Number) ||
				bs.Depart == nil || ds.Depart == nil || bs.Depart.Format("2006-01-02") != ds.Depart.Format("2006-01-02") ||
				!samePlaceCode(bs.From, ds.From) || !samePlaceCode(bs.To, ds.To) {
				continue
			}
			same = i
			break
		}
		if same < 0 {
			out = append(out, b)
			continue
		}
		ds := docs[same].Segment
		if ds.Depart.DateOnly && !bs.Depart.DateOnly {
			ds.Depart = bs.Depart
		}
		if ds.Arrive == nil {
			ds.Arrive = bs.Arrive
		}
		if ds.Reservation == "" {
			ds.Reservation = bs.Reservation
		}
	}
	return out
}

// maxFacts bounds what one message may contribute.
const maxFacts = 50

// domainLabel turns "mail.zalando.de" into "zalando".
func domainLabel(d string) string {
	if d == "" {
		return ""
	}
	reg, err := publicsuffix.EffectiveTLDPlusOne(d)
	if err != nil {
		reg = d
	}
	label, _, _ := strings.Cut(reg, ".")
	return label
}

// tldCountry guesses the sender's country from a country-code TLD.
func tldCountry(d string) string {
	i := strings.LastIndexByte(d, '.')
	if i < 0 {
		return ""
	}
	tld := d[i+1:]
	switch {
	case tld == "uk":
		return "GB"
	case len(tld) == 2:
		return strings.ToUpper(tld)
	}
	return ""
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
