package extract

import (
	"cmp"
	_ "embed"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// Rule-based reading of mails without markup. Every rule is anchored: a
// value counts only next to a label that names it ("Booking reference:",
// "Rechnungsnummer"), or when its own form proves it (an IATA code in
// parentheses next to a clock time, a tracking number whose check digit
// is right). A mail becomes a fact only when the fields that make the fact
// useful were all found; a promotion that mentions a price, or a one-time
// code mail with digits in it, stays without facts.
//
// This file is the text reader's entry (textFacts): which kinds of travel
// a mail's words name (classifyTravel) or its shape suggests (shape.go),
// then each kind's reader: flight.go, train.go, hotel.go, order.go,
// bill.go. The layout of the readers: docs/extract.md, "Where each
// reader is".

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

//go:embed busoperators.txt
var busOperatorsFile string

// busOperators are busoperators.txt's domain labels: the coach operators
// whose mail is a coach's whatever words it uses.
var busOperators = func() map[string]bool {
	m := map[string]bool{}
	for ln := range strings.Lines(busOperatorsFile) {
		if ln = strings.TrimSpace(ln); ln != "" && !strings.HasPrefix(ln, "#") {
			m[ln] = true
		}
	}
	return m
}()

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
func lowerTravelWordCounts(l string) [3]int { return countTravelWords(l, nil) }

// busSharedWords are the words of trains that a bus's or coach's ticket
// uses too (words.bus.shared): "coach", "station", "seat", "Hinfahrt".
var busSharedWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range lang.Entries("words.bus.shared") {
		m[strings.Trim(w, "*")] = true
	}
	return m
}()

// lowerTrainWordsBeyondBus counts the distinct words of trains in l, a
// text in lower case, that a bus's ticket does not use too.
func lowerTrainWordsBeyondBus(l string) int { return countTravelWords(l, busSharedWords)[1] }

// countTravelWords counts the distinct words of flights, trains and stays
// in l but those in skip.
func countTravelWords(l string, skip map[string]bool) [3]int {
	seen := make([]bool, len(travelVocab.words))
	var n [3]int
	travelVocab.set.EachAt(l, func(i, end int) bool {
		w := travelVocab.words[i]
		if skip[w.text] {
			return true
		}
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

// ticketIssuedWords say a mail issues tickets (ticket.issued: "Your
// tickets have been issued", "Ihre Fahrkarte", "vos billets").
var ticketIssuedWords = words.NewWholeSet(lang.Entries("ticket.issued"))

// ticketsIssued reports whether an order read from a mail is a journey's
// tickets whose legs no reader could read: no parcel, the mail saying
// tickets were issued, and two words or more of a train or of a flight
// ("railcard", "off-peak", "Train"). A ticket is no shop's order (nor is
// its "Off-Peak Return" a parcel sent back); a shop's order of a model
// railway names no ticket issued.
func ticketsIssued(f Fact, all string) bool {
	o := f.Order
	if o == nil || len(o.Shipments) > 0 {
		return false
	}
	l := lower(all)
	if !ticketIssuedWords.In(l) {
		return false
	}
	n := lowerTravelWordCounts(l)
	return n[0] >= 2 || n[1] >= 2
}

// flightBooked reports whether an order read from a mail is a flight
// booking's whose legs no reader could read: no parcel, two words or more
// of flights, and a route of two airports by their codes in parentheses
// ("Chicago (ORD) → Frankfurt (FRA)" under "Order number: XY9876"). An
// airline's booking is no shop's order, whatever it calls its number.
func flightBooked(f Fact, all string) bool {
	o := f.Order
	if o == nil || len(o.Shipments) > 0 || strings.IndexByte(all, '(') < 0 {
		return false
	}
	return knownParenCodes(all) >= 2 && lowerTravelWordCounts(lower(all))[0] >= 2
}

// travelFacts applies one kind of travel's rules.
func (c *msgContext) travelFacts(kind, subject, text, all string) []Fact {
	var out []Fact
	switch kind {
	case KindFlight:
		fl := c.textFlights(all)
		if len(fl) == 0 && hasCJK(all) {
			// "您已预订5月2日CA4102航班，北京首都T2 08:30起飞，…" (cjk.go).
			ref := c.recordLocator(all)
			for _, s := range c.cjkFlightSentences(all) {
				s.Reservation = ref
				fl = append(fl, Fact{Kind: KindFlight, From: FromText, Segment: s})
			}
		}
		// Each field after its own label on a line (labelledflight.go).
		// A list read whole is its flights' own reading, over the line
		// readers' of the same number (which take one of its flights
		// and miss the rest, an e-ticket's connection); a friend's "my
		// flight details" are labelled so too: no booking's sign, no
		// flight (the ninth outside review).
		if labelled := c.labelledFlights(all); len(labelled) > 0 && (c.recordLocator(all) != "" || c.langBooked()) {
			ref := c.recordLocator(all)
			if len(fl) > 0 {
				ref = fl[0].Segment.Reservation
			}
			for _, s := range labelled {
				s.Reservation = ref
				fl = slices.DeleteFunc(fl, func(f Fact) bool { return f.Segment != nil && f.Segment.Number == s.Number })
			}
			for _, s := range labelled {
				fl = append(fl, Fact{Kind: KindFlight, From: FromText, Segment: s})
			}
		}
		// A booking's one leg that no layout's reader read, by what its
		// text names once (flightbookedroute.go).
		if len(fl) == 0 {
			if s := c.bookedRouteLeg(all); s != nil {
				fl = append(fl, Fact{Kind: KindFlight, From: FromText, Segment: s})
			}
		}
		// The booking's own code read as a flight's number ("Order
		// number: XY9876", XY being an airline's code too): that line
		// numbers the booking, and no flight's number is printed. The
		// flight keeps its route and times, without a number.
		for _, f := range fl {
			if s := f.Segment; s != nil && s.Reservation != "" && compactCode(s.Number) == compactCode(s.Reservation) {
				s.Number = ""
			}
		}
		out = append(out, fl...)
	case KindTrain:
		// A ticket laid out as columns of stops (traintable.go) is read
		// as its table says, before the readers of lines see its cells
		// as stops stacked one under the other.
		legs := c.cellTableLegs(text, c.ref)
		if len(legs) == 0 {
			legs = c.textLegs(tabLabelled(labelledRows(text)), c.ref, nil)
		}
		if len(legs) == 0 && hasCJK(text) {
			legs = c.cjkRailSentences(text) // "2026年12月20日08:00开，北京南站-上海虹桥站，G102次列车"
		}
		if len(legs) == 0 {
			legs = c.dateOnlyLegs(text, c.ref) // "Van : ZOTTEGEM" / "Naar : …" / "Heen: 13/02/2026" (traindateonly.go)
		}
		// A railway's answer to a claim for a delay's compensation names
		// the journey the claim was for, one made: no journey to keep
		// (the legs a booking confirms lie ahead of its mail).
		if len(legs) > 0 {
			legs = c.withoutPaidDelays(legs, all)
		}
		// An airline's leg the train rules read (a flight's number, two
		// airports' codes, in an airline's mail) is no train's.
		if len(legs) > 0 {
			am := c.airlineMailOf(all)
			legs = slices.DeleteFunc(legs, func(l *Segment) bool { return am.leg(l) })
		}
		// Several bookings each under its code and days: each leg its
		// block's code (legrefs.go).
		c.legRefs(all, legs)
		ref := ""
		if len(legs) > 0 {
			ref = c.bookingRef(all) // one booking, one search
			if ref == "" {
				// A ticket bought as an order is found by its order's
				// number ("Ordrenummer: 55120881"), else by the ticket's
				// own ("Ticket code: BDZ5512044"): never a flight's, whose
				// e-ticket number is no booking.
				// Else by the code a ticket's text opens with, alone on
				// its line (headcode.go).
				// Else by a code of six its subject alone names after an
				// order's or booking's word ("… (order HFRXDK)").
				ref = cmp.Or(c.orderNumber(all), c.ticketCode(all), headCode(text), c.mixedOrderCode(all), subjectLocator(subject))
			}
		}
		// A leg that names no train, in a mail that speaks of a bus and
		// of trains hardly at all ("Votre billet de bus", "Bus n°
		// 1021"), is a bus's: trips hold train segments only.
		// The words trains share with buses do not count ("coach",
		// "station", "seat" on a coach's ticket; words.bus.shared).
		lowerAll := lower(all)
		// A coach operator's own mail is a coach's too, when it says
		// only "Origen", "Destino", "Asiento" (busoperators.txt).
		busLegs := (busWords.In(lowerAll) || busBayNumbered(lowerAll) || busOperators[domainLabel(c.senderDomain)]) && lowerTrainWordsBeyondBus(lowerAll) <= 1
		var nums, each []string
		if busLegs {
			nums, each = busNumbers(all)
		}
		if hasCJK(text) {
			legs = slices.DeleteFunc(legs, airportLeg)
		}
		var buses []*Segment
		subjectRef, subjectRefDone := "", false // subjectCode, once a mail
		for _, l := range legs {
			// A stop that is a bus station ("Leeds Bus Station",
			// "Autobusové nádraží") makes a leg with no train a bus's.
			if l.Number == "" && (busLegs || busWords.In(strings.ToLower(l.From.Name+" "+l.To.Name))) {
				l.Type = KindBus
				buses = append(buses, l)
			} else if n := busRun(l.Number, nums); busLegs && l.Type == KindTrain && n != "" {
				// A run's number that a bus's label gives, read as a
				// train's by a label buses share ("Spoj 2014", "Kurs
				// 517, miejsce 24"): the bus's.
				l.Type, l.Number = KindBus, n
			}
			r := cmp.Or(l.Reservation, ref) // a direction block's own code (traindirection.go)
			if l.Type == KindBus && r == "" {
				// A coach's ticket names its booking; legs without one
				// are a timetable's ("Fahrplanänderung Linie 042: Abfahrt
				// Berlin ZOB neu 08:30"). By a label of its own, or by
				// the code its subject names and its text repeats,
				// whatever the label there ("Your trip is booked -
				// MCL-81193" over "Trip code: MCL-81193").
				if !subjectRefDone {
					subjectRef, subjectRefDone = subjectCode(subject, text), true
				}
				// A seat given names a ticket too: a timetable gives none
				// ("Poltrona: 14" on a ticket that prints no code).
				if r = subjectRef; r == "" && !seatNamed(lowerAll) {
					continue
				}
			}
			l.Reservation = r
			out = append(out, Fact{Kind: l.Type, From: FromText, Segment: l})
		}
		// A bus's own number after its label ("Bus-Nr. N 1174"), one
		// for each bus leg, in their order: the distinct numbers, or
		// each label's when every leg has one ("Linie 032" under the
		// outward and the return leg).
		if len(buses) > 0 {
			if !busLegs {
				nums, each = busNumbers(all)
			}
			// Else the numbers after the bus's word heading each leg's
			// line ("Buss 832 Göteborg …").
			if len(nums) == 0 {
				nums = busHeadNumbers(all)
			}
			// Else a bus's word and number that a line starts with, or
			// a list on it ("Bus 1920 · Sitzplatz 21" under the stops,
			// "Anbieter: RegioJet, Bus 441").
			if len(nums) == 0 {
				nums = busWordNumbers(all)
			}
			if len(nums) != len(buses) && len(each) == len(buses) {
				nums = each
			}
			if len(nums) == len(buses) {
				for k, l := range buses {
					l.Number = nums[k]
				}
			}
		}
	case KindHotel:
		// "5月2日入住，5月4日离店" (cjk.go): the days before their words.
		if s := c.cjkStaySentence(all); s != nil {
			out = append(out, Fact{Kind: KindHotel, From: FromText, Segment: s})
			break
		}
		// A stay that ends the day it begins, by dates alone, is no
		// night's: a flight's "Departure" and "Arrival" on one day read
		// as a stay's labels (an airline's e-ticket no flight rule read).
		out = append(out, slices.DeleteFunc(c.textHotels(subject, all), sameDayStay)...)
	}
	return out
}

// sameDayStay reports whether a stay's check-in and check-out are the
// same day, both by their dates alone.
func sameDayStay(f Fact) bool {
	s := f.Segment
	return s != nil && s.CheckIn != nil && s.CheckOut != nil && s.CheckIn.DateOnly && s.CheckOut.DateOnly &&
		s.CheckIn.Format("2006-01-02") == s.CheckOut.Format("2006-01-02")
}

// stayThenFlight reports whether the kind at i is a flight after a stay
// the mail's words ranked first and the stay rules read: a trip's
// itinerary with its flight's blocks and its hotel's dates, the stay's
// words the more.
func stayThenFlight(travel []string, i int, out []Fact) bool {
	return i == 1 && len(travel) > 1 && travel[0] == KindHotel && travel[1] == KindFlight && len(out) > 0 && out[0].Kind == KindHotel
}

// flightThenHeadedTrain reports whether the kind at i is a train after
// flights the flight rules read, in a mail that heads a part of itself
// with a train's word alone ("Volo", "AZ 611", …, then "Treno",
// "Partenza 10:15 Roma Termini", "FR 9527"): a trip's itinerary of a
// flight and a train, each under its heading.
func flightThenHeadedTrain(travel []string, i int, out []Fact, text string) bool {
	if i < 1 || i >= len(travel) || travel[i] != KindTrain || !slices.Contains(travel[:i], KindFlight) || len(out) == 0 {
		return false
	}
	for _, f := range out {
		if f.Kind != KindFlight {
			return false
		}
	}
	// The heading must head a train's own lines: a train's number under
	// it ("FR 9527", "RJ 762", "ICE 723"), not an airline's advice on
	// getting to the airport ("Train", "Departure 05:20 Frankfurt Hbf").
	lines := strings.Split(text, "\n")
	for i, ln := range lines {
		if wordHeading(ln, trainWordAlone) {
			for _, next := range lines[i+1 : min(len(lines), i+9)] {
				if m := flightNumRE.FindStringSubmatch(next); m != nil && (railProducts[m[1]] || sharedRailProducts[m[1]]) || len(next) < 400 && surfaceVehicleRE.MatchString(next) {
					return true
				}
			}
		}
	}
	return false
}

// trainWordAlone are a train's words (vehicle.train in extract/lang).
var trainWordAlone = words.NewWholeSet(lang.Entries("vehicle.train"))

// emptyStayThenFlight reports whether the flight rules get a turn after
// the stay rules read nothing in a mail whose words are a stay's first and
// a flight's next: an airline's confirmation that names its stops by
// their towns, not their codes ("07:45Stockholm-Arlanda", "09:40
// Helsingfors"), and advertises hotels ("2 nätter", "Hotel …") has no
// flight's shape by codes to put the flight first.
func emptyStayThenFlight(travel []string, i int, out []Fact) bool {
	return i == 1 && len(travel) > 1 && travel[0] == KindHotel && travel[1] == KindFlight && len(out) == 0
}

// notNumberedAirports reports whether a leg lacks what a flight read in a
// stay's mail must have: an airline's number and both its airports'
// codes (a stay's "Arrival 14:00" over its town is none).
func notNumberedAirports(f Fact) bool {
	s := f.Segment
	return s == nil || s.Number == "" || s.From == nil || s.To == nil || s.From.Code == "" || s.To.Code == "" || s.Depart == nil
}

// textFacts applies the text rules to a message's readable text.
func (c *msgContext) textFacts(subject, text string) []Fact {
	if len(text) > 256<<10 {
		text = text[:256<<10]
	}
	text = runOnLabels(hashParenLabels(keyValueLabels(cjkClockMarks(bracketLabels(unglueClocks(foldWidth(unboldLabels(dropInvisible(text)))))))))
	subject = foldWidth(dropInvisible(subject))
	out := c.textFactsRead(subject, text)
	// Looked for only where there is something to drop: most mail has
	// no facts, and the look reads every mail's head.
	if len(out) > 0 && helpdeskEcho(subject, text) {
		return nil
	}
	return out
}

// textFactsRead is textFacts' reading of a text made plain.
func (c *msgContext) textFactsRead(subject, text string) []Fact {
	all := subject + "\n" + text
	c.langText, c.langDone, c.sureDone, c.bookedDone = all, false, false, false
	if c.ref.IsZero() {
		us := c.usSender()
		c.ref = firstFullDate(text, func(ln string) []dateMatch { return c.findDates(ln, us) })
	}
	if c.ref.IsZero() {
		c.ref = c.arrived
	}
	var out []Fact
	// A journey's mail gives times and dates: without a digit in its text
	// there is no leg to read, and a long personal mail full of travel
	// words is not classified word by word.
	var travel []string
	if seg := c.smsTicketLeg(text); seg != nil {
		// A ticket's text message (smsticket.go) is read whole: its
		// labels are its own, and its kind is its sender's or its words'.
		out = append(out, Fact{Kind: seg.Type, From: FromText, Segment: seg})
	} else if hasDigit(text) {
		lowerAll := lower(all)
		travel = rankLowerTravel(lowerAll)
		// A flight's shape (a number beside two airports' codes, a
		// printout's segment, a flight table's row, stops stacked with
		// their airports' codes) outranks words that trains share with
		// flights ("PNR", "e-ticket").
		if !slices.Contains(travel, KindFlight) && (flightShaped(text) || c.gdsShaped(text) || c.flightTableShaped(text) || c.stopsShaped(text) || c.namedFlightShaped(text)) {
			travel = append([]string{KindFlight}, travel...)
		} else if len(travel) > 1 && travel[0] == KindHotel && travel[1] == KindFlight && flightShaped(text) {
			// A flight's shape outranks a stay's words too: an airline's
			// or an agency's trip with a hotel in it, offered or booked
			// (packageStays reads a booked one after the flights).
			travel[0], travel[1] = KindFlight, KindHotel
		}
		// A leg's shape alone is also a fare newsletter's ("Leeds 07:45 ->
		// York 08:12 from £9"): the offer rule below drops what it reads.
		if !slices.Contains(travel, KindTrain) && (legShaped(text) || stopPairShaped(text) || tabStopPairShaped(text) || c.routeShaped(text) || c.dateOnlyShaped(lowerAll, text) || railServiceShaped(text) || c.ticketShaped(lowerAll, text)) {
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
		// A leg told in a sentence in a mail whose words name no travel
		// ("Depart London Euston 21:15 on Tuesday …, arrive Fort William
		// 10:00 …", "… fahren Sie um 09:05 von Kassel-Wilhelmshöhe ab und
		// kommen um 10:02 in Göttingen an."): the train rules read it, in
		// a mail that names its booking.
		if len(travel) == 0 && sentenceClocks(text) && noFlightIn(all) && c.bookingRef(all) != "" {
			travel = []string{KindTrain}
		}
		// A coach's ticket whose words are a bus's alone ("Busbillet",
		// "Linje 888 · Bus"), its stops stacked as a card's blocks: the
		// ground rules read it, in a mail that names its booking, by a
		// label or as the code its text opens with (headcode.go).
		if len(travel) == 0 && busWords.In(lowerAll) && noFlightIn(all) && (c.bookingRef(all) != "" || headCode(text) != "") {
			travel = []string{KindTrain}
		}
	}
	// The kind with most words first; when its rules find nothing and
	// the mail has words of stays too, the stay rules ("Arrivée" and
	// "Départ" head a hotel's dates as well as a train's stops). The
	// train rules only in a mail with no flight in it: they read any pair
	// of timed stops, a flight's that its rules could not read too.
	for i, kind := range travel {
		namedAfterStay := emptyStayThenFlight(travel, i, out)
		// The train rules after a flight's: also in a railway's slip
		// whose codes in brackets look like airports' ("KALYAN JN
		// (KYN)") and whose flight rules read nothing, its words a
		// train's and none a flight's.
		if (i > 0 && kind != KindHotel && !(kind == KindTrain && (noFlightIn(all) || len(out) == 0 && trainWordsOnly(all))) || i > 1 && kind != KindTrain) && !stayThenFlight(travel, i, out) && !namedAfterStay && !flightThenHeadedTrain(travel, i, out, text) {
			break
		}
		facts := c.travelFacts(kind, subject, text, all)
		if namedAfterStay {
			facts = slices.DeleteFunc(facts, notNumberedAirports)
		}
		if kind == KindTrain && slices.Contains(travel[:i], KindFlight) {
			facts = withoutAirlineNumbered(facts, all)
		}
		out = append(out, facts...)
		// A stay and a flight in one mail, the stay's words the more
		// (a trip's itinerary: the flight's blocks, then the hotel's
		// dates): the flight rules read it too.
		if len(out) > 0 && !stayThenFlight(travel, i+1, out) && !flightThenHeadedTrain(travel, i+1, out, text) {
			break
		}
	}
	// A package holiday's or an agency's trip: its flights or trains, and
	// its stays under their own headings and labels (packageStays), in a
	// mail whose words speak of stays too.
	if len(out) > 0 && out[0].Kind != KindHotel && slices.Contains(travel, KindHotel) {
		out = append(out, c.packageStays(subject, all, out)...)
	}
	// Travel in a mail that offers prices ("from £64", "dès 69 €") is a
	// deal, not a booking, unless the mail names its booking's reference;
	// so is travel in a mail that watches prices or offers a booking
	// (unbooked: "Price alert", "Complete your booking", a newsletter's
	// footer). The reference first: most bookings name one, and the
	// offer's expression, with no literal to start from, costs far more on
	// a long mail.
	// A ticket's own number after its label ("Bilj. nr NRT4471K0003")
	// names a ticket bought as well: a promotion under it is the sender's.
	// So does the code a ticket's text opens with (headcode.go).
	if len(out) > 0 && c.bookingRef(all) == "" && !staysNumbered(out) && (unbookedWords.In(lower(subject+"\n"+all)) || offerPrice.match(all)) && c.ticketCode(all) == "" && headCode(text) == "" {
		out = nil
	}
	// A leg a friend or a colleague proposes or asks about, in a mail
	// with no sign of a booking, is a plan (proposal.go).
	if len(out) > 0 && c.proposedOnly(out, all) {
		out = nil
	}
	// A leg whose line opens with a word for "example" ("Beispiel: Flug
	// DE 2204 Frankfurt (FRA) – Palma (PMA), Abflug 07:15") illustrates a
	// rule in a mail that names no booking; it is none.
	if len(out) > 0 && c.bookingRef(all) == "" {
		out = slices.DeleteFunc(out, func(f Fact) bool { return f.Segment != nil && exampleLeg(all, f.Segment.Number) })
	}
	if len(out) > 0 {
		if isCancellation(subject) || cancelledInText(text) {
			for _, f := range out {
				// The new travel a cancellation rebooks onto is not
				// cancelled (rebooked.go).
				if f.Segment.Number != "" && rebookedLeg(text, f.Segment.Number) {
					continue
				}
				f.Segment.Status = StatusCancelled
			}
			out = append(out, cancelledOnly(text, c.bookingRef(all), out)...)
		}
		return out
	}
	// A payment processor's notice of a payment to someone else
	// (processor.go): the payee's order or bill, which the shop's and the
	// biller's readers do not read.
	if c.processorMail() {
		if f, ok := c.processorFact(subject, all); ok {
			return []Fact{f}
		}
	}
	// An instalment's reminder names the order it pays for ("your next
	// instalment of €45.00 for order 123-… is due on …"): it is a bill
	// due, the payment service's or the shop's, not the order (the
	// seventh outside set's marketplace reminder gave eight wrong order
	// fields and no bill).
	if billInstalment.AnyFold(subject) || billInstalment.AnyFold(firstLines(all, 30)) {
		if f, ok := c.textBill(subject, all); ok && f.Bill.Status == StatusDue && f.Bill.Due != nil {
			return []Fact{f}
		}
	}
	// A paid receipt that delivers nothing (an app store's, a
	// subscription's) is a bill, whatever order number it prints
	// (billcharged.go).
	if c.chargeOnly(subject, all) {
		if f, ok := c.textBill(subject, all); ok && f.Bill.Status == StatusPaid {
			return []Fact{f}
		}
	}
	// So is a paid service's (a domain's or a licence's renewal, a
	// software order paid): its paid bill, or nothing when it prints no
	// amount; never an order ("Namecheap.com Order Summary … your domains
	// have been automatically renewed"; "we received payment for order
	// AT-…" of a licence gave orders "ordered", foreign-11).
	// Asked only of a mail the order reader reads: the rest go to the
	// bill reader below anyway, and the question costs (7 % of a
	// generated mail's reading when asked of every mail).
	f, ok := c.textOrder(subject, all)
	if ok && c.servicePaid(all) {
		if f, ok := c.textBill(subject, all); ok && f.Bill.Status == StatusPaid {
			return []Fact{f}
		}
		return nil
	}
	if ok && !ticketsIssued(f, all) && !flightBooked(f, all) {
		// A notice that lists several parcels: each its own (parcellist.go).
		if len(f.Order.Shipments) > 0 {
			if fs := c.parcelList(all, f.Order, 2); fs != nil {
				return fs
			}
			// A carrier's digest of one parcel names its shipper in the
			// parcel's block, its letters' senders above it ("FROM <a
			// bank>"): the block's shipper is the parcel's.
			if len(f.Order.Shipments) == 1 && carrierBySender(c.senderDomain) != "" {
				if fs := c.parcelList(all, f.Order, 1); len(fs) == 1 && fs[0].Order.Merchant != "" {
					f.Order.Merchant = fs[0].Order.Merchant
				}
			}
		}
		return []Fact{f}
	}
	// A carrier's list whose state is in its parcels' blocks, not in its
	// first lines (a postal operator's daily digest).
	if carrierBySender(c.senderDomain) != "" {
		if fs := c.parcelList(all, &Order{}, 1); fs != nil {
			return fs
		}
	}
	if f, ok := c.textBill(subject, all); ok {
		return []Fact{f}
	}
	// A cancellation that names only the booking still cancels it.
	if isCancellation(subject) || cancelledInText(text) {
		if ref := c.bookingRef(all); ref != "" {
			if kind := classifyTravel(all); kind != "" {
				return []Fact{{Kind: kind, From: FromText, Segment: &Segment{Type: kind, Status: StatusCancelled, Reservation: ref}}}
			}
		}
	}
	return nil
}

// helpdeskEcho reports whether a text opens as a help desk's or a contact
// form's acknowledgement that echoes what someone wrote to the shop
// (helpdesk.echo: Zendesk's "##- Please type your reply above this line
// -##", "Here is a copy of your message", a "send to a friend" form's
// mail; or helpdesk.received, "We received your request", under a
// subject that names a ticket). Whoever wrote the echoed text (anyone can
// fill a shop's contact form with the person's address) is not the shop:
// none of it is read (the tenth outside review, 2026-11-29, HIGH-4: a
// stranger's "Your order 448812 has been cancelled" cancelled the
// person's order, from the shop's own authenticated domain).
func helpdeskEcho(subject, text string) bool {
	// Folded as it is read: a lower-cased copy of every mail's head cost
	// 4 % of extraction (the phrases' letters are ASCII but a few
	// accented small ones, which a capital seldom starts).
	head := firstLines(text, echoLines)
	if helpdeskEchoWords.AnyFold(head) {
		return true
	}
	return helpdeskReceivedWords.AnyFold(head) && ticketSubject.MatchString(subject)
}

// echoLines are the lines helpdeskEcho reads: an acknowledgement says so
// first.
const echoLines = 15

var (
	helpdeskEchoWords     = words.NewSet(lang.Entries("helpdesk.echo"))
	helpdeskReceivedWords = words.NewSet(lang.Entries("helpdesk.received"))
	// ticketSubject names a help desk's ticket: "[Request #20931]",
	// "Ticket 88123", "Case no. 00412", "Anfrage #4471".
	ticketSubject = lazyregexp.New(`(?i)\b(?:request|ticket|case|support|anfrage|demande|solicitud|richiesta|aanvraag|ärende|sag)\s*(?:#|no\.?|nr\.?|n°|number|nummer)?\s*:?\s*#?\d{3,}`)
)

// isCancellation reports whether a subject says a booking is cancelled, in
// the words of every language (extract/lang, booking.cancelled:
// "Rezerwacja anulowana", "Avbokning bekräftad", "Varauksesi on peruttu").
func isCancellation(subject string) bool {
	l := strings.ToLower(subject)
	return containsAny(l, "cancel", "storniert", "stornierung", "annul", "cancelación", "cancellazione", "geannuleerd") || cancelledWords.In(l)
}

// cancelledWords say a booking is cancelled (booking.cancelled).
var cancelledWords = words.NewWholeSet(lang.Entries("booking.cancelled"))

// cancelledInText reports whether a text's first lines say, in a sentence
// of its own, that the booking is cancelled, under a subject that names
// only the booking ("Booking.com: reservering 3671120845" over "Je
// reservering is geannuleerd", booking.cancelled.text). A confirmation's
// "Free cancellation until …" is no such sentence.
func cancelledInText(text string) bool {
	head := lower(firstLines(text, cancelledLines))
	found := false
	cancelledPhrases.EachAt(head, func(_, end int) bool {
		// "If your booking has been cancelled by the airline, …" is a
		// condition, not this booking's state: no word for "if" before
		// the phrase in its line.
		line := head[strings.LastIndexByte(head[:end], '\n')+1 : end]
		found = !conditionWords.In(line)
		return !found
	})
	return found
}

// conditionWords open a condition (clause.if): "if", "falls", "si".
var conditionWords = words.NewWholeSet(lang.Entries("clause.if"))

// cancelledLines are the lines cancelledInText reads: a cancellation says
// so first, a confirmation's terms come further down.
const cancelledLines = 12

// cancelledPhrases are booking.cancelled.text's sentences.
var cancelledPhrases = words.NewSet(lang.Entries("booking.cancelled.text"))

// usSender reads slashed dates month first: a US sender, or a .com
// sender writing English (a .com airline writing Spanish puts the day
// first; so does one whose few words say no language, as English's
// common words would).
func (c *msgContext) usSender() bool {
	if c.dayFirst {
		return false
	}
	if c.senderCountry == "US" || c.monthFirst {
		return true
	}
	if c.senderCountry != "" || !strings.HasSuffix(c.senderDomain, ".com") {
		return false
	}
	if !c.langDone {
		c.language, c.langDone = lang.Detect(c.langText), true
	}
	return c.language == "en"
}

// keyValueRE is a line of machine-made text that gives a value under a
// key ("departure_time=2026-12-18T07:45:00+01:00", "pnr = K7TQ2M").
var keyValueRE = lazyregexp.New(`(?m)^([ \t]*[A-Za-z][A-Za-z_ .-]{0,30}?)[ \t]*=[ \t]*([^=\s][^=]*)$`)

// keyValueLabels writes a machine's key=value lines as the labels a person
// reads ("departure time: 2026-12-18T…"), so that the label rules of every
// kind read them: only in text with three such lines or more, which
// nobody writes by hand.
func keyValueLabels(text string) string {
	if strings.Count(text, "=") < 3 {
		return text
	}
	ms := keyValueRE.FindAllStringSubmatchIndex(text, -1)
	if len(ms) < 3 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(text[last:m[2]])
		b.WriteString(strings.ReplaceAll(text[m[2]:m[3]], "_", " "))
		b.WriteString(": ")
		b.WriteString(text[m[4]:m[5]])
		last = m[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// runOnStopRE is a departure's or an arrival's label and its colon inside
// a line, its value a date or a clock, a weekday's short name before it
// perhaps: "… Departure: Mon 02 Feb 2026 om 18:27 Arrival: …", "Abfahrt:
// Mo, 15.06.2026". A station after the label ("Afg: København H 08.12
// Ank: Helsingør 08.58", a ticket's text message on one line) is no
// run-on card's.
var runOnStopRE = lazyregexp.New(`(?i)[ \t](?:` + strings.Join(longestFirst(append(lang.Entries("departure"), lang.Entries("arrival")...)), "|") + `)[ \t]*:[ \t]*(?:\p{L}{1,4}\.?,?[ \t]+)?\d`)

// runOnClockStopRE is a departure's or an arrival's word right before
// its clock, no colon between, opening a cell after a table's bar ("|
// Abflug 07:15 Uhr Köln-Bonn | | Ankunft 09:40 Uhr Valencia"): a stop's
// cell of a table run together. Not in a sentence ("…: departure 07:45
// from Leeds, arrival 10:12 in London"), which the sentence rules read
// whole.
var runOnClockStopRE = lazyregexp.New(`(?i)\|[ \t]*[ \t](?:` + strings.Join(longestFirst(append(lang.Entries("departure"), lang.Entries("arrival")...)), "|") + `)[ \t]+\d{1,2}:\d{2}(?:\D|$)`)

// runOnLegDayRE is a flight's label before its day of digits ("Flug:
// 07.11.2026 | Flugnummer: EW 539 …"): where a leg's cells start when
// legs run together on one line.
var runOnLegDayRE = lazyregexp.New(`(?i)[ \t](?:` + strings.Join(longestFirst(lang.Entries("column.flight")), "|") + `)[ \t]*:[ \t]*\d{1,4}[./-]\d{1,2}[./-]\d{1,4}`)

// runOnDirectionRE is a journey's direction as a heading writes it, a
// capital first, before a capitalised word inside a line: "… Outward Gent
// St Pieters - Utrecht Centraal".
var runOnDirectionRE = lazyregexp.New(`[ \t](?:` + capitalised(append(lang.Entries("journey.outward"), lang.Entries("journey.return")...)) + `)[ \t]+\p{Lu}`)

// capitalised is alternatives of plain words (no pattern's signs), each
// with its first letter in capitals.
func capitalised(alts []string) string {
	var out []string
	for _, a := range longestFirst(alts) {
		if strings.ContainsAny(a, `\()[]?*+|.`) || a == "" {
			continue
		}
		r, n := utf8.DecodeRuneInString(a)
		out = append(out, regexp.QuoteMeta(string(unicode.ToUpper(r))+a[n:]))
	}
	return strings.Join(out, "|")
}

// runOnLabels breaks a line that runs a journey's labelled stops together
// (HTML of inline elements alone, or a part whose line breaks were lost:
// "Passengers … Outward Gent St Pieters - Utrecht Centraal Departure: Mon
// 02 Feb 2026 om 18:27 Arrival: Mon 02 Feb 2026 om 21:14 Travel time: …")
// before each departure's and arrival's label and each direction's
// heading, so that the readers of a route over its labelled stops read
// it. Only a long line with two such labels or more, each before a date
// or a clock; no line longer than runOnMaxLine and no more than
// runOnMaxLines lines a mail, since each labelled leg the break makes
// costs its readers a pass (a booking's journeys are a few lines, not a
// mail of thousands).
func runOnLabels(text string) string {
	if !strings.Contains(text, ":") {
		return text
	}
	var b strings.Builder
	changed, broken := false, 0
	for rest := text; rest != ""; {
		ln, next, ok := strings.Cut(rest, "\n")
		rest = next
		if len(ln) > 100 && len(ln) <= runOnMaxLine && broken < runOnMaxLines && strings.Count(ln, ":") >= 2 {
			stops := append(runOnStopRE.FindAllStringIndex(ln, 16), runOnClockStopRE.FindAllStringIndex(ln, 16)...)
			if len(stops) >= 2 {
				cuts := append(stops, runOnDirectionRE.FindAllStringIndex(ln, 8)...)
				cuts = append(cuts, runOnLegDayRE.FindAllStringIndex(ln, 8)...)
				starts := make([]int, 0, len(cuts))
				for _, m := range cuts {
					starts = append(starts, m[0])
				}
				slices.Sort(starts)
				last := 0
				for _, at := range slices.Compact(starts) {
					b.WriteString(ln[last:at])
					b.WriteByte('\n')
					last = at + 1 // the space the line breaks at
				}
				ln, changed = ln[last:], true
				broken++
			}
		}
		b.WriteString(ln)
		if ok {
			b.WriteByte('\n')
		}
	}
	if !changed {
		return text
	}
	return b.String()
}

// runOnMaxLine and runOnMaxLines bound runOnLabels: the longest line it
// breaks (an HTML part's journeys run together take a few hundred bytes a
// leg) and how many lines of a mail it breaks.
const (
	runOnMaxLine  = 8 << 10
	runOnMaxLines = 16
)

// tabLabelled is text with each line of two cells apart by a tab whose
// first is a label (a few words, no digit) written as the label and its
// value ("Van\tUtrecht Jaarbeursplein" as "Van: Utrecht Jaarbeursplein"):
// an HTML table of labels and values, flattened, read as labelled lines.
func tabLabelled(text string) string {
	if !strings.Contains(text, "\t") {
		return text
	}
	lines := strings.Split(text, "\n")
	changed := false
	for i, ln := range lines {
		label, value, ok := strings.Cut(ln, "\t")
		label, value = strings.TrimSpace(label), strings.TrimSpace(value)
		if !ok || label == "" || value == "" || strings.Contains(value, "\t") || len(label) > 30 ||
			strings.ContainsAny(label, ":0123456789") || len(strings.Fields(label)) > 3 {
			continue
		}
		lines[i], changed = label+": "+value, true
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "\n")
}

// tabStopPairShaped is stopPairShaped of tabLabelled's text, for a text
// with a tab and two clocks only: most mails have no such table.
func tabStopPairShaped(text string) bool {
	return strings.IndexByte(text, '\t') >= 0 && stopClocks(text) >= 2 && stopPairShaped(tabLabelled(text))
}

// busBays are the bays' words (bayWords) that only a bus station's bays
// are called by: not a platform's as well ("quai", "andén", "laituri"),
// an airport's ("gate") or another word's ("Stand: 01.10.2027").
var busBays = []string{"steig", "bay", "stance", "dársena", "darsena", "stallo", "stanowisko", "stanoviště", "stanoviste", "stání", "stani", "cais", "stade", "plattform", "läge"}

// busBayExpr is a bus's bay before its number: "(cais 12)", "Steig 3".
var busBayExpr = newPhraseExpr(busBays, `\s*\d`)

// busBayNumbered reports whether lower-cased text names a bus's bay by
// its number: a coach's ticket that never says bus ("Partida: 09:00
// Lisboa - Oriente (cais 12)").
func busBayNumbered(l string) bool {
	return busBayExpr.match(l)
}

// busNumberExpr is a bus's number after its label (bus.number in
// extract/lang): "Bus-Nr. N 1174", "Coach no: 540", "Línea 7".
var busNumberExpr = func() *phraseExpr {
	var alts []string
	for _, e := range lang.Entries("bus.number") {
		alts = append(alts, strings.ReplaceAll(regexp.QuoteMeta(e), " ", `\s*`))
	}
	return newPhraseExpr(longestFirst(alts), `\.?\s*[:#]?\s*((?-i:\p{Lu}{1,3}\s?)?\d{1,5})\b`)
}()

// busNumbers are the buses' numbers text gives after their labels, once
// each, in order (distinct), and as often as a label gives them (each),
// from the first eight labels with a number. A number that goes on as a
// phone number's or a date's does ("Customer service 0330 124 5566",
// "Service 24/7") is none.
func busNumbers(text string) (distinct, each []string) {
	if !hasDigit(text) {
		return nil, nil
	}
	return busNumbersOf(text, busNumberExpr.findAll(text, 8))
}

// busNumbersOf is busNumbers of the label matches ms in text.
func busNumbersOf(text string, ms [][]int) (distinct, each []string) {
	for _, m := range ms {
		rest := text[m[3]:]
		if datePartNext(rest) || len(rest) >= 2 && (rest[0] == ' ' || rest[0] == '-') && isDigitByte(rest[1]) {
			continue
		}
		n := strings.Join(strings.Fields(text[m[2]:m[3]]), " ")
		each = append(each, n)
		if !slices.Contains(distinct, n) {
			distinct = append(distinct, n)
		}
	}
	return distinct, each
}

// subjectCode is a booking's code that the subject names and the text
// repeats after a label of its own ("Trip code: MCL-81193", "Booking
// number #3012845999"): letters and at least two digits, or six digits
// and more; "" when there is none or more than one. A voucher's or a
// customer's code is not in a subject; a newsletter's issue or a
// timetable's code that its subject names is not labelled in its text
// ("In newsletter NL2027 we present", "Timetable TT2027 - weekend";
// the fourth outside review of 2026-11-29). Each distinct word of the
// subject's first 256 bytes is looked at once, and the text's services'
// numbers are found once: the time is linear in the text.
func subjectCode(subject, text string) string {
	if len(subject) > 256 {
		subject = subject[:256]
	}
	var services []string
	servicesFound := false
	seen := map[string]bool{}
	code := ""
	for _, w := range strings.FieldsFunc(subject, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-')
	}) {
		w = strings.Trim(w, "-")
		if seen[w] || len(w) < 5 || len(w) > 20 || !codeShaped(w) {
			continue
		}
		seen[w] = true
		if !labelledIn(text, w) {
			continue
		}
		if !servicesFound {
			services, servicesFound = serviceNumbers(subject+"\n"+text), true
		}
		if serviceCode(w, services) {
			continue
		}
		if code != "" && code != w {
			return ""
		}
		code = w
	}
	return code
}

// serviceNumbers are the bus's and train's numbers a text names ("Linie
// N1430", "Bus 1920"), for serviceCode.
func serviceNumbers(text string) []string {
	nums, _ := busNumbers(text)
	return slices.Concat(nums, busWordNumbers(text))
}

// serviceCode reports whether w is a train's number ("RB-2041") or one of
// a text's services' numbers (serviceNumbers): a timetable's notice names
// its line in its subject.
func serviceCode(w string, services []string) bool {
	if t := strings.ReplaceAll(w, "-", " "); trainNumRE.FindString(t) == t {
		return true
	}
	for _, n := range services {
		if compactCode(n) == compactCode(w) || strings.HasSuffix(compactCode(w), compactCode(n)) && len(compactCode(n)) >= 4 {
			return true
		}
	}
	return false
}

// labelledIn reports whether text holds w as a word of its own right
// after a label: a line's first words, four at most and no digit among
// them, ending in a colon or "#" ("Journey code: SGK4471209", "Booking
// number #3012845999").
func labelledIn(text, w string) bool {
	edge := func(b byte) bool { return isDigitByte(b) || b == '-' || isASCIILetter(b) }
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		i = j + 1
		if j > 0 && edge(text[j-1]) || j+len(w) < len(text) && edge(text[j+len(w)]) {
			continue
		}
		// The label's line within a label's reach (lineAround): a hostile
		// line of ": CODE" repeated costs each a bounded look back.
		start, _ := lineAround(text, j, 120, 0)
		label := strings.TrimRight(text[start:j], " \t")
		if !strings.HasSuffix(label, ":") && !strings.HasSuffix(label, "#") {
			continue
		}
		label = strings.TrimRight(label, ":# \t")
		if label != "" && !hasDigit(label) && len(strings.Fields(label)) <= 4 {
			return true
		}
	}
	return false
}

// codeShaped reports whether w, of capitals, digits and dashes, has a
// letter and two digits, or is six digits and more.
func codeShaped(w string) bool {
	letters, digits := 0, 0
	for i := 0; i < len(w); i++ {
		switch {
		case w[i] >= 'A' && w[i] <= 'Z':
			letters++
		case isDigitByte(w[i]):
			digits++
		}
	}
	return letters > 0 && digits >= 2 || letters == 0 && digits >= 6 && digits == len(w)
}

// busWordRE is a bus's word and its number at a line's start or after a
// list's separator, the number alone or before another separator: "Bus
// 1920 · Sitzplatz 21", "RegioJet, Bus 441", "Аутобус 1204",
// "ΛΕΩΦΟΡΕΙΟ 512". The words are vehicle.bus's in extract/lang; a
// coach's (vehicle.coach) are not among them: a train's coach is its car.
var busWordRE = lazyregexp.New(`(?m)(?:^|[,·|:;])[ \t]*(?i:` + vehicleWords("vehicle.bus") + `)[ \t]+((?:\p{Lu}{1,3} ?)?\d{1,5})[ \t]*(?:$|[·|,(])`)

// busWordNumbers are the numbers of busWordRE on lines without a clock,
// once each, in order.
func busWordNumbers(text string) []string {
	var out []string
	for ln := range strings.Lines(text) {
		if !hasDigit(ln) || hasClockShape(ln, ":") {
			continue
		}
		for _, m := range busWordRE.FindAllStringSubmatch(strings.TrimRight(ln, "\r\n"), 4) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// busRun is the number of a train leg's service that is a bus's run:
// one of nums, the numbers bus labels give, alone ("2014" read after
// "Spoj") or after its label's word ("Kurs 517"); "" otherwise.
func busRun(service string, nums []string) string {
	if service == "" || len(nums) == 0 {
		return ""
	}
	if slices.Contains(nums, service) {
		return service
	}
	if word, n, ok := strings.Cut(service, " "); ok && slices.Contains(nums, n) && busNumberExpr.match(word+" "+n) {
		return n
	}
	return ""
}

// sentenceClocks reports whether a line of text is a sentence of five
// words and more with two clocks in it: a byte scan first.
func sentenceClocks(text string) bool {
	if colonClocks(text) < 2 {
		return false
	}
	for ln := range strings.Lines(text) {
		if colonClocks(ln) == 2 && len(findClocks(ln)) == 2 && len(strings.Fields(ln)) >= 5 {
			return true
		}
	}
	return false
}

// exampleWords are the words for "example" of every language (example).
var exampleWords = words.NewWholeSet(lang.Entries("example"))

// exampleLeg reports whether the first line of text that names a leg's
// number (or a parcel's: textOrder) opens, before the number, with a word
// for "example".
func exampleLeg(text, number string) bool {
	if number == "" {
		return false
	}
	i := strings.Index(text, number)
	if i < 0 {
		return false
	}
	start := strings.LastIndexByte(text[:i], '\n') + 1
	return exampleWords.In(lower(text[start:i]))
}

// airlineMail is what leg asks of a mail, read once for all its
// legs: no word of trains that a coach's ticket does not share and no
// word of buses (rail), a word of flights in any language, an airport's
// code alone on a line; and whether an airline sends it (airline): its
// sender's name is an airline's, or a line names one alone ("JetBlue").
type airlineMail struct{ rail, flightWord, codeLine, airline bool }

func (c *msgContext) airlineMailOf(all string) airlineMail {
	la := lower(all)
	if lowerTrainWordsBeyondBus(la) > 0 || busWords.In(la) {
		return airlineMail{rail: true}
	}
	lines := strings.Split(all, "\n")
	return airlineMail{
		airline:    c.airlineDesignator(lines) != "",
		flightWord: lowerTravelWordCounts(la)[0] > 0,
		codeLine: slices.ContainsFunc(lines, func(ln string) bool {
			ln = strings.TrimSpace(ln)
			return len(ln) == 3 && cardCode(ln) != ""
		}),
	}
}

// leg reports whether a leg the train rules read is an airline's, in a
// mail with no word of trains that a coach's ticket does not share and no
// word of buses: its number a flight's whose designator is two letters
// and no rail product's ("AA 3579"; not "ICE 723", "RE 4711", nor a
// headcode's "1S09") in a mail with a word of flights in any language or
// an airport's code alone on a line ("DFW"), or any leg in a mail with
// both ("Flight 1123" over "BOS"); any leg in an airline's mail ("Depart:
// DENVER, CO 9:34am" under "Frontier Airlines flight #1129").
func (a airlineMail) leg(l *Segment) bool {
	if a.rail {
		return false
	}
	if a.airline {
		return true
	}
	coded := func(p *Place) bool { return p != nil && len(p.Name) == 3 && cardCode(p.Name) != "" }
	codeLine := a.codeLine || coded(l.From) || coded(l.To)
	if a.flightWord && codeLine {
		return true
	}
	m := flightNumRE.FindStringSubmatch(l.Number)
	return m != nil && m[0] == l.Number && isUpper(m[1]) && !railProducts[m[1]] && isFlightDesignator(m[1]) && (a.flightWord || codeLine)
}

// delayCompensationWords say a railway answers a claim for a delay's
// compensation (notice.delay_compensation: "your Delay Repay claim",
// "richiesta di indennizzo", "Ihr Fahrgastrechte-Antrag"); a delay alert's
// "Claim Delay Repay for delays of 15 minutes or more" is none.
var delayCompensationWords = words.NewWholeSet(lang.Entries("notice.delay_compensation"))

// withoutPaidDelays is legs without those such an answer names: those that
// left before the mail's Date, or all when the mail has none (nothing then
// says one lies ahead); legs itself in any other mail.
func (c *msgContext) withoutPaidDelays(legs []*Segment, all string) []*Segment {
	if !delayCompensationWords.In(lower(all)) {
		return legs
	}
	return slices.DeleteFunc(legs, func(l *Segment) bool { return c.date.IsZero() || l.Depart != nil && l.Depart.Before(c.date) })
}

// airlineNumberRE is a service's number as an airline's flight is
// numbered: a two-character designator and up to four digits.
var airlineNumberRE = lazyregexp.New(`^([A-Z][A-Z0-9]|[0-9][A-Z]) ?(\d{1,4})$`)

// withoutAirlineNumbered is facts less the legs the ground rules read
// under an airline's flight number (airlines.tsv's designator, not a rail
// product's: "AZ2058" between two clocks over two cities), in a mail
// (text) whose words are a flight's before a train's: a boarding pass or
// an airline's card the flight rules could not read is no train, and its
// stops are whatever lines stood under the clocks (a passenger's name).
//
// A named train's category that is an airline's designator too
// (sharedRailProducts: Frecciarossa's "FR 9615", Ryanair's FR) keeps its
// leg when the nearest line above its number with a word of travel, or
// its own line, speaks of trains and not of flights ("Train" over
// "FR 9615" after the flight's block).
func withoutAirlineNumbered(facts []Fact, text string) []Fact {
	trainWords := -1
	var lines []string
	return slices.DeleteFunc(facts, func(f Fact) bool {
		if f.Segment == nil {
			return false
		}
		m := airlineNumberRE.FindStringSubmatch(f.Segment.Number)
		if m == nil || !airlineDesignators[m[1]] || railProduct(m[1], text, &trainWords) {
			return false
		}
		if sharedRailProducts[m[1]] {
			if lines == nil {
				lines = strings.Split(text, "\n")
			}
			return !trainHeaded(lines, m[1], m[2])
		}
		return true
	})
}

// holdsNumber reports whether ln holds designator and digits as one
// word, a space between them or none ("FR 9615", "FR9615"), as the
// expression \bFR ?9615\b would, without compiling one per leg.
func holdsNumber(ln, designator, digits string) bool {
	wordByte := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for off := 0; ; {
		i := strings.Index(ln[off:], designator)
		if i < 0 {
			return false
		}
		i += off
		off = i + 1
		if i > 0 && wordByte(ln[i-1]) {
			continue
		}
		rest := ln[i+len(designator):]
		rest = strings.TrimPrefix(rest, " ")
		if after, ok := strings.CutPrefix(rest, digits); ok && (after == "" || !wordByte(after[0])) {
			return true
		}
	}
}

// sharedRailProducts are named trains' categories that airlines.tsv
// holds as designators too: Trenitalia's Frecciarossa (FR, Ryanair's),
// Frecciargento (FA), ÖBB's Railjet (RJ, Royal Jordanian's) and Nightjet
// (NJ). Unlike railProducts, a word of trains anywhere in the mail does
// not make them trains (a Ryanair mail may name the train to the
// airport): trainHeaded asks for one beside the number.
var sharedRailProducts = map[string]bool{"FR": true, "FA": true, "RJ": true, "NJ": true}

// trainHeadedLines is how many lines above a leg's number trainHeaded
// reads for the word of travel that heads it.
const trainHeadedLines = 8

// trainHeaded reports whether the first line of lines that holds the
// number designator+digits (written with a space or none) speaks of
// trains and not of flights, or else the nearest line above it, within
// trainHeadedLines, that speaks of either.
func trainHeaded(lines []string, designator, digits string) bool {
	for i, ln := range lines {
		if !holdsNumber(ln, designator, digits) {
			continue
		}
		for k := i; k >= max(0, i-trainHeadedLines); k-- {
			if n := travelWordCounts(lines[k]); n[0] > 0 || n[1] > 0 {
				return n[1] > 0 && n[0] == 0
			}
		}
		return false
	}
	return false
}

// airlineDesignators are airlines.tsv's designators.
var airlineDesignators = func() map[string]bool {
	m := map[string]bool{}
	for _, a := range gdsAirlines {
		m[a.code] = true
	}
	return m
}()

// trainWordsOnly reports whether a mail has words of trains and none of
// flights.
func trainWordsOnly(all string) bool {
	n := travelWordCounts(all)
	return n[0] == 0 && n[1] > 0
}
