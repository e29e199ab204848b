package extract

import (
	"strings"
	"time"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// Several stays in one mail: a travel agency's or a tour operator's trip,
// a booking tool's itinerary, a platform's booking in two cities. Each
// stay is a block of its own, its check-in and check-out by their labels,
// and is read as a mail of one stay is (readStay); the block's name, its
// number and its dates are its own. Without two such blocks, or when one
// of them reads as no stay, the mail is read whole, as before.

// maxStays bounds the stays one mail gives: an itinerary's, not a
// directory's.
const maxStays = 8

// textHotels reads a mail's stays: one per stay block, else the one
// textHotel reads.
func (c *msgContext) textHotels(subject, text string) []Fact {
	if blocks := c.stayBlocks(text, checkinLabels, checkoutLabels, 2); len(blocks) > 1 {
		var out []Fact
		for k, b := range blocks {
			s := ""
			if k == 0 {
				s = subject
			}
			f, ok := c.readStay(s, b.text, false)
			// A stay offered beside the booked one ("Extend your trip:
			// Hotel Torel Porto, check-in 13 May, check-out 16 May, from
			// €99 a night") names no number of its own.
			offered := k > 0 && findReservation(b.own) == "" && (offerPrice.match(b.core) || unbookedWords.In(lower(b.core)))
			if !ok || f.Segment.CheckOut == nil || offered {
				out = nil
				break
			}
			// The stay's own number, under its heading, before the
			// trip's ("Booking reference: TRV-88123" over the first
			// hotel), else the trip's for every stay.
			if r := findReservation(b.own); r != "" {
				f.Segment.Reservation = r
			} else if f.Segment.Reservation == "" {
				f.Segment.Reservation = c.bookingRef(text)
			}
			out = append(out, f)
		}
		if len(out) > 1 {
			return out
		}
	}
	if f, ok := c.textHotel(subject, text); ok {
		return []Fact{f}
	}
	return nil
}

// stayBlock is one stay's part of a mail. text runs from the line after
// the last stay's part (the first block from the mail's start) to two
// lines under its check-out: its name is above its dates, and what
// follows them is the next stay's heading or the mail's advice ("Hotels
// near your destination"). own runs from its heading (a hotel's label or
// a lodging's name) or, without one, its check-in, to the next block (the
// last to the mail's end): its number may follow its dates. core is own
// as far as text goes.
type stayBlock struct{ text, own, core string }

// stayBlocks cuts text into one block per stay, when it has two or more
// stays each with a check-in and then a check-out by their labels, on
// lines of their own or on one line, and no two the same dates (two
// rooms of one booking). A block starts at the first heading between the
// last stay's check-out and its own check-in (a hotel label, a lodging's
// name: "Hotel 2", "Parador de Granada"), else after the first blank line
// there, else right after that check-out.
//
// inL and outL are the check-in's and check-out's labels; least is the
// fewest stays that make blocks.
func (c *msgContext) stayBlocks(text string, inL, outL labelSet, least int) []stayBlock {
	// Cheap gate: that many check-in values with a date in the mail.
	n := 0
	for _, v := range c.after(inL, text) {
		if ds := c.dates(v); len(ds) > 0 && ds[0].start <= 40 {
			n++
		}
	}
	if n < least {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	starts := make([]int, len(lines)+1) // byte offset of each line
	for i, ln := range lines {
		starts[i+1] = starts[i] + len(ln)
	}
	window := func(i int) string { return text[starts[i]:starts[min(i+3, len(lines))]] }
	type stay struct{ in, out int } // line indexes
	var stays []stay
	seen := map[string]bool{}
	z := c.countryZone("")
	open := -1 // line of a check-in without its check-out yet
	var openIn *Time
	for i, ln := range lines {
		if len(ln) > 400 {
			continue
		}
		if labelOn(inL, ln) {
			if t := c.labelledDate(inL, window(i), z); t != nil {
				if open >= 0 && !t.Equal(openIn.Time) {
					return nil // a check-in without its check-out
				}
				if open >= 0 {
					continue // the same check-in read again from the line under
				}
				open, openIn = i, t
			}
		}
		if open >= 0 && labelOn(outL, ln) {
			w := window(i)
			if i == open {
				// "Check-in: 14 June 2027   Check-out: 16 June 2027":
				// the check-out's label and what follows it.
				if j := outL.re.FindStringIndex(ln); j != nil {
					w = text[starts[i]+j[0] : starts[min(i+3, len(lines))]]
				}
			}
			if t := c.labelledDate(outL, w, z); t != nil {
				if !t.After(openIn.Time) {
					return nil
				}
				key := openIn.Format("2006-01-02") + t.Format("2006-01-02")
				if seen[key] {
					return nil
				}
				seen[key] = true
				stays = append(stays, stay{open, i})
				open = -1
				if len(stays) > maxStays {
					return nil
				}
			}
		}
	}
	if open >= 0 || len(stays) < least {
		return nil
	}
	// Where each block starts: stays[k]'s heading below stays[k-1].out.
	cut := make([]int, len(stays)+1)
	cut[len(stays)] = len(lines)
	own := make([]int, len(stays))
	// above is how many lines with words the first stay's heading is
	// over its check-in, -1 without one: an itinerary lays out each stay
	// alike, its name where the first one's is.
	above := -1
	for k, s := range stays {
		if k == 0 {
			own[0] = s.in
			n := 0
			for i := s.in - 1; i >= max(0, s.in-12) && n < 6; i-- {
				if strings.TrimSpace(lines[i]) == "" {
					continue
				}
				n++
				if stayHeading(lines[i]) {
					own[0], above = i, n
					break
				}
			}
			continue
		}
		from := stays[k-1].out + 1
		cut[k] = from
		at := -1
		for i := from; i < s.in; i++ {
			if stayHeading(lines[i]) {
				at = i
				break
			}
		}
		if at < 0 && above > 0 {
			n := 0
			for i := s.in - 1; i >= from; i-- {
				if strings.TrimSpace(lines[i]) == "" {
					continue
				}
				if n++; n == above {
					at = i
					break
				}
			}
		}
		if at < 0 {
			// Else after the first blank line, the end of the last
			// stay's paragraph.
			for i := from; i < s.in; i++ {
				if strings.TrimSpace(lines[i]) == "" {
					at = i + 1
					break
				}
			}
		}
		own[k] = s.in
		if at >= 0 {
			cut[k], own[k] = at, at
		}
	}
	// A block's heading that is its hotel's label ("Hotel: Grand Hyatt")
	// may have the booking's number over it in the same paragraph
	// ("Booking Reference: HTL789" under an agency's "HOTEL CONFIRMATION"):
	// the block starts there when it names no number of its own, never
	// across a blank line, another heading, a line with a date or a clock
	// (a journey's), or the block before.
	for k := range stays {
		if own[k] == stays[k].in || !hotelLabels.re.MatchString(lines[own[k]]) {
			continue
		}
		if end := min(stays[k].out+3, cut[k+1]); len(reservationCodes(text[starts[own[k]]:starts[end]])) > 0 {
			continue
		}
		for i, n := own[k]-1, 0; i >= cut[k] && n < 3; i, n = i-1, n+1 {
			ln := lines[i]
			if strings.TrimSpace(ln) == "" || len(c.dates(ln)) > 0 || len(findClocks(ln)) > 0 {
				break
			}
			if labelOn(reservationLabels, ln) {
				own[k] = i // "Hotel Confirmation No: …" too
				break
			}
			if stayHeading(ln) {
				break
			}
		}
	}
	out := make([]stayBlock, len(stays))
	for k := range stays {
		end := min(stays[k].out+3, cut[k+1])
		out[k] = stayBlock{text: text[starts[cut[k]]:starts[end]], own: text[starts[own[k]]:starts[cut[k+1]]],
			core: text[starts[own[k]]:starts[max(end, own[k])]]}
	}
	return out
}

// labelOn reports whether a line holds one of l's labels.
func labelOn(l labelSet, line string) bool {
	if l.anchorSet != nil && !l.anchorSet.Any(lowerLine(line)) {
		return false
	}
	return l.re.MatchString(line)
}

// stayHeading reports whether a line heads a stay's block: a hotel's
// label ("Hotel:", "Accommodation"), or a place's name by its lodging
// word ("Hotel Arts Barcelona", "The Savoy Hotel"), on a short line that
// holds no date's label.
func stayHeading(ln string) bool {
	ln = strings.TrimSpace(ln)
	if ln == "" || len(ln) > 80 || labelOn(checkinLabels, ln) || labelOn(checkoutLabels, ln) {
		return false
	}
	return hotelLabels.re.MatchString(ln) || lodgingRE.MatchString(ln) || lodgingBeforeRE.MatchString(ln)
}

// staysNumbered reports whether facts are all stays that name their
// booking's number, a small house's short one too ("Buchungsnummer: 312"):
// a booking, whatever its mail offers beside it ("Sommerkarte ab 45 €").
func staysNumbered(facts []Fact) bool {
	for _, f := range facts {
		if f.Kind != KindHotel || f.Segment == nil || f.Segment.Reservation == "" {
			return false
		}
	}
	return len(facts) > 0
}

// changedSet finds the words that say a stay was changed (stay.changed:
// "changed", "umgebucht", "modifiée"), as whole words (changedRange).
var changedSet, changedLens = func() (*words.Set, []int) {
	e := lang.Entries("stay.changed")
	lens := make([]int, len(e))
	for i, p := range e {
		lens[i] = len(p)
	}
	return words.NewSet(e), lens
}()

// changedRange is a stay's dates as a sentence changes them: the first
// range after a word that says the stay was changed, on its line or the
// line under it, in the text's first 40 lines ("Your stay has been changed
// to 14–17 June 2027", "Ihre Buchung wurde geändert: 14.06.–17.06.2027").
// The dates the mail gave before the change ("Your stay on 7–9 May has
// been changed to …") are before the word, and are never read.
func (c *msgContext) changedRange(text string, z zoneHint) (in, out *Time) {
	lines := strings.Split(firstLines(text, 40), "\n")
	for i, ln := range lines {
		if !hasDigit(ln) && (i+1 >= len(lines) || !hasDigit(lines[i+1])) {
			continue
		}
		l := lower(ln)
		at, atPhrase := -1, 0
		changedSet.EachAt(l, func(p, end int) bool {
			if !words.In(l, end-changedLens[p], true) && !words.In(l, end, false) {
				at, atPhrase = end, p
				return false
			}
			return true
		})
		if at < 0 {
			continue
		}
		// The line under it when the sentence leads to it ("changed to:")
		// or it starts with its date, never a heading's old dates
		// ("Previous dates: …").
		rest := l[at:]
		if i+1 < len(lines) {
			if next := strings.TrimSpace(lines[i+1]); strings.HasSuffix(strings.TrimSpace(rest), ":") || next != "" && next[0] >= '0' && next[0] <= '9' {
				rest += "\n" + lower(next)
			}
		}
		if a, b := c.rangeDates(rest, z); a != nil {
			return a, b
		}
		// A verb at the sentence's end ("Ihr Aufenthalt wurde auf den
		// 14.–17. Juni 2027 verschoben"): the range after the last word
		// for "to" before it (stay.changed.to: "auf"), never one after
		// "from" ("vom 7.–9. Juni") with no "to" after it.
		if a, b := c.rangeDates(changedTo(l[:at-changedLens[atPhrase]]), z); a != nil {
			return a, b
		}
	}
	return nil, nil
}

// changedToSet finds the words for "to" that lead a changed stay's range
// before its verb (stay.changed.to: "auf"), as whole words (changedTo).
var changedToSet, changedToLens = func() (*words.Set, []int) {
	e := lang.Entries("stay.changed.to")
	lens := make([]int, len(e))
	for i, p := range e {
		lens[i] = len(p)
	}
	return words.NewSet(e), lens
}()

// changedTo is what follows the last word of changedToSet in s, or "".
func changedTo(s string) string {
	from := -1
	changedToSet.EachAt(s, func(p, end int) bool {
		if !words.In(s, end-changedToLens[p], true) && !words.In(s, end, false) {
			from = end
		}
		return true
	})
	if from < 0 {
		return ""
	}
	return s[from:]
}

// stayInLabels and stayOutLabels are the check-in's and check-out's labels
// that no journey shares: "Check-in", "Anreise", "Fecha de entrada", not
// "Arrival", "Ankunft", "Arrivée", "Departure" (arrival: and departure:
// words head a flight's or a train's times too).
var stayInLabels, stayOutLabels = stayOnly("checkin"), stayOnly("checkout")

// stayOnly is the labels of a category whose words start with no word of
// a journey's departure or arrival.
func stayOnly(category string) labelSet {
	var journey []string
	for _, e := range append(lang.Entries("departure"), lang.Entries("arrival")...) {
		if w := requiredText(e); len(w) >= 3 {
			journey = append(journey, w)
		}
	}
	var keep []string
	for _, e := range lang.Entries(category) {
		rt := requiredText(e)
		shared := false
		for _, w := range journey {
			if strings.HasPrefix(rt, w) || strings.Contains(rt, " "+w) {
				shared = true
				break
			}
		}
		if !shared {
			keep = append(keep, e)
		}
	}
	return numericLabels(keep...)
}

// packageStays reads the stays of a mail whose journeys were read (a
// package holiday, an agency's trip with flights and hotels): each stay by
// the labels no journey shares, under a heading of its own (a hotel label
// or a lodging's name at most eight lines above its check-in), read from
// that heading to two lines under its check-out, and only with a name.
// Without such a heading the dates may be a flight's. A stay without a
// number of its own needs one the journeys did not take.
func (c *msgContext) packageStays(subject, text string, journeys []Fact) []Fact {
	var out []Fact
	for k, b := range c.stayBlocks(text, stayInLabels, stayOutLabels, 1) {
		if !headedStay(b.own) {
			return nil
		}
		s := ""
		if k == 0 {
			s = subject
		}
		f, ok := c.readStay(s, b.core, false)
		if !ok || f.Segment.CheckOut == nil || f.Segment.Hotel == "" {
			return nil
		}
		f = c.stayByJourneys(f, s, b.core, text, journeys)
		// A hotel offered beside the journey ("Hotel Tivoli Oriente,
		// check-in 14 Jun, check-out 16 Jun, from €89 a night") names no
		// number of its own.
		near := firstLines(b.own, strings.Count(b.core, "\n")+3)
		if f.Segment.Reservation == "" && (offerPrice.match(near) || unbookedWords.In(lower(near))) {
			return nil
		}
		// Its number is the block's own, else the mail's first (a
		// package's "Vorgangsnummer", the agency's). When that is the
		// record locator the journeys took, or there is none, nothing says
		// the stay is booked: an airline's "Hotel tip" beside its flights.
		if f.Segment.Reservation == "" {
			ref := c.bookingRef(text)
			if ref == "" || journeyRef(journeys, ref) {
				return nil
			}
			f.Segment.Reservation = ref
		}
		out = append(out, f)
	}
	return out
}

// stayByJourneys is the stay f read again with its slashed dates in the
// other order ("05/04/2026" the 5th of April, not the 4th of May) when
// the mail's slashed dates can only be read in that order, or when both
// orders are dates and only that reading puts its check-in on a day one
// of the journeys beside it arrives or leaves (or the next): an agency's
// itinerary dates its stay as its flights are dated. f else.
// The mail's other slashed dates decide first: one that can be read in
// one order only ("ask us before 31/01/2027") gives the order of all.
func (c *msgContext) stayByJourneys(f Fact, subject, core, all string, journeys []Fact) Fact {
	if !slashDateRE.MatchString(core) {
		return f
	}
	us := c.usSender()
	dayFirst, monthFirst := slashOrders(all)
	if dayFirst && monthFirst || dayFirst && !us || monthFirst && us {
		return f // the order the sender's country gives, or no order
	}
	if us {
		c.dayFirst = true
	} else {
		c.monthFirst = true
	}
	g, ok := c.readStay(subject, core, false)
	c.dayFirst, c.monthFirst = false, false
	if !ok || g.Segment.CheckIn == nil || g.Segment.CheckOut == nil || g.Segment.Hotel != f.Segment.Hotel {
		return f
	}
	if dayFirst || monthFirst || !stayMeetsJourney(f.Segment, journeys) && stayMeetsJourney(g.Segment, journeys) {
		return g
	}
	return f
}

// stayMeetsJourney reports whether a stay of at most 30 nights starts on
// the day one of the journeys leaves or arrives, or the day after.
func stayMeetsJourney(s *Segment, journeys []Fact) bool {
	if s.CheckIn == nil || s.CheckOut == nil || s.CheckOut.Sub(s.CheckIn.Time) > 30*24*time.Hour {
		return false
	}
	y, m, d := s.CheckIn.Date()
	in := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	for _, j := range journeys {
		if j.Segment == nil {
			continue
		}
		for _, t := range []*Time{j.Segment.Depart, j.Segment.Arrive} {
			if t == nil {
				continue
			}
			y, m, d := t.Date()
			if day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC); !in.Before(day) && !in.After(day.AddDate(0, 0, 1)) {
				return true
			}
		}
	}
	return false
}

// headedStay reports whether a stay's block starts with its heading, or
// with its booking's number over it (stayBlocks): the first of its four
// first lines that is no booking's number is a heading.
func headedStay(own string) bool {
	for range 4 {
		head, rest, _ := strings.Cut(own, "\n")
		if stayHeading(head) {
			return true
		}
		if !labelOn(reservationLabels, head) {
			return false
		}
		own = rest
	}
	return false
}

// journeyRef says whether ref is the reservation of one of the journeys.
func journeyRef(journeys []Fact, ref string) bool {
	for _, f := range journeys {
		if f.Segment != nil && strings.EqualFold(f.Segment.Reservation, ref) {
			return true
		}
	}
	return false
}
