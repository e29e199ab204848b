package extract

import (
	"strings"
	"time"

	"mailnode/extract/uic918"
)

// Rail tickets' barcodes (UIC 918.3): the Aztec code of a European
// railway's ticket holds the printed ticket's layout, whose RCT2 grid
// states the journey in a standard form whatever the railway and the
// mail's words, or its FCB record (UIC 918.9), in a UIC 918.3 container
// or in UIC's barcode header. A ticket whose layout is another standard,
// a rail pass, a day ticket for a region or a railcard states no journey
// and gives nothing.

// railTicketFacts reads the journeys of a barcode's text when it is a
// rail ticket (railPayload). The barcode readers give a binary payload as
// ISO 8859-1 text (a character per byte), as Wallet passes carry it too.
func (c *msgContext) railTicketFacts(text string) []Fact {
	if !railPayload(text) {
		return nil
	}
	j := railJourney(text)
	if j == nil {
		return nil
	}
	return c.journeyFacts(j)
}

// journeyFacts is a ticket's journeys as trains.
func (c *msgContext) journeyFacts(j *uic918.RCT2) []Fact {
	var out []Fact
	for _, leg := range j.Legs {
		// Only a leg the ticket binds to a train has one (the layout's
		// outward journey, an FCB's train link); the booking is the one
		// an FCB record states, else the one the mail names.
		seg := &Segment{Type: KindTrain, Status: StatusConfirmed, From: &Place{Name: leg.From}, To: &Place{Name: leg.To}, Number: leg.Train, Reservation: j.Booking}
		d := c.ticketDay(leg.Depart, j)
		if d.y == 0 {
			continue
		}
		dep := wallTime{y: d.y, mo: d.m, d: d.d, dateOnly: !leg.DepartClock.OK, h: leg.DepartClock.Hour, mi: leg.DepartClock.Minute}
		fz, tz := c.legZones(leg.From, leg.To, dep, dep)
		if leg.Further {
			// A further train of the route states no station of its
			// own: none is given, and its clock is read only when both
			// ends of the route put it at one instant (one zone, or
			// zones a border apart that keep one time): where it boards
			// is not said.
			if fz.loc == nil || tz.loc == nil || !leg.DepartClock.OK || !resolve(dep, fz, nil).Equal(resolve(dep, tz, nil).Time) {
				continue
			}
			seg.From, seg.To = nil, nil
		}
		seg.Depart = resolve(dep, fz, c.dateLoc)
		if leg.ArriveClock.OK && leg.Arrive.Month > 0 {
			// The arrival's year is the one that puts it on or after the
			// departure's day.
			a := onOrAfter(leg.Arrive, time.Date(d.y, time.Month(d.m), d.d, 0, 0, 0, 0, time.UTC))
			arr := wallTime{y: a.y, mo: a.m, d: a.d, h: leg.ArriveClock.Hour, mi: leg.ArriveClock.Minute}
			_, tz := c.legZones(leg.From, leg.To, dep, arr)
			seg.Arrive = resolve(arr, tz, c.dateLoc)
			if seg.Arrive.Before(seg.Depart.Time) {
				seg.Arrive = nil // a day misread: no arrival rather than a wrong one
			}
		}
		out = append(out, Fact{Kind: KindTrain, From: FromAttachment, Segment: seg, railTicket: true})
	}
	return out
}

// ticketBookings gives the journeys of rail tickets' barcodes the
// booking the mail names by its label (its subject, then its text): the
// barcode states the journey, and its issuer's key is not the booking's
// code in every railway's form.
func ticketBookings(facts []Fact, subject, text string) {
	code := ""
	for i := range facts {
		if f := &facts[i]; f.railTicket && f.Segment.Reservation == "" {
			if code == "" {
				if code = findReservation(subject); code == "" {
					code = findReservation(text)
				}
				if code == "" {
					return
				}
			}
			f.Segment.Reservation = code
		}
	}
}

// withoutTicketLegs drops the journeys of rail tickets' barcodes when
// the mail's text or another document gives a train: the print names
// the stations as the railway writes them for people and gives what the
// grid may not (trains, clocks), and two spellings of one journey would
// be two trips. The barcode is read for the mail that states its
// journey nowhere else.
func withoutTicketLegs(body, docs []Fact) []Fact {
	trains := false
	for _, fs := range [][]Fact{body, docs} {
		for _, f := range fs {
			trains = trains || f.Kind == KindTrain && !f.railTicket
		}
	}
	if !trains {
		return docs
	}
	out := docs[:0:0]
	for _, f := range docs {
		if !f.railTicket {
			out = append(out, f)
		}
	}
	return out
}

// railPayload says whether a barcode's text starts as a rail ticket read
// here does: a UIC 918.3 container ("#UT"), or UIC's barcode header
// (DOSIPAS), which holds the FCB record without a container.
func railPayload(text string) bool {
	if strings.HasPrefix(text, "#UT") {
		return true
	}
	var head [3]byte
	n := 0
	for _, r := range text {
		if n == len(head) {
			break
		}
		if r > 0xFF {
			return false
		}
		head[n] = byte(r)
		n++
	}
	return n == len(head) && uic918.IsBarcodeHeader(head[:])
}

// railJourney decodes a rail ticket's text to its journeys, or nil.
func railJourney(text string) *uic918.RCT2 {
	b, ok := latin1(text)
	if !ok {
		return nil
	}
	if uic918.IsBarcodeHeader(b) {
		j, err := uic918.HeaderJourney(b)
		if err != nil {
			return nil
		}
		return j
	}
	t, err := uic918.Parse(b)
	if err != nil {
		return nil
	}
	j, err := t.Journey()
	if err != nil {
		return nil
	}
	return j
}

// latin1 is the bytes of an ISO 8859-1 text: each character one byte.
func latin1(s string) ([]byte, bool) {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			return nil, false
		}
		b = append(b, byte(r))
	}
	return b, true
}

// ticketDay is a printed day with its year: the ticket's own when it
// prints one; else the first on or after the first day of validity when
// the ticket prints that (a ticket is not used before it is valid), else
// on or after the day it was issued; else the mail's rule for a day
// without a year.
func (c *msgContext) ticketDay(d uic918.Date, j *uic918.RCT2) dateMatch {
	switch {
	case d.Month == 0:
		return dateMatch{}
	case d.Year > 0:
		return dateMatch{y: d.Year, m: d.Month, d: d.Day, hasYear: true}
	case j.ValidFrom.Year > 0:
		v := j.ValidFrom
		return onOrAfter(d, time.Date(v.Year, time.Month(max(v.Month, 1)), max(v.Day, 1), 0, 0, 0, 0, time.UTC))
	case j.Issued.Month > 0:
		v := j.Issued
		return onOrAfter(d, time.Date(v.Year, time.Month(v.Month), v.Day, 0, 0, 0, 0, time.UTC))
	}
	return dateMatch{m: d.Month, d: d.Day}.withYear(c.ref)
}

// onOrAfter gives a day and month the year that puts it on or after
// from, within the year that follows.
func onOrAfter(d uic918.Date, from time.Time) dateMatch {
	if d.Year > 0 {
		return dateMatch{y: d.Year, m: d.Month, d: d.Day, hasYear: true}
	}
	y := from.Year()
	if time.Date(y, time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC).Before(from) {
		y++
	}
	return dateMatch{y: y, m: d.Month, d: d.Day, hasYear: true}
}
