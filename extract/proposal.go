package extract

import (
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// planWords say a leg is proposed or asked about, not booked (plan:
// "shall we", "mein Vorschlag", "on pourrait", "¿y si …?"); bookedWords
// are a booking's own (booking.sign: "confirmed", "Ihre Buchung",
// "e-billet"), and a paid price's (bill.paid, bill.paid.label).
var (
	planWords     = words.NewWholeSet(lang.Entries("plan"))
	bookedWords   = words.NewWholeSet(append(lang.Entries("booking.sign"), append(lang.Entries("bill.paid"), lang.Entries("bill.paid.label")...)...))
	seatLabels    = words.NewSet(seatLabelList)
	seatLabelList = lang.Entries("seat.label")
)

// proposedOnly reports whether legs read from a mail are a plan, a
// friend's chat or a colleague's proposal ("shall we take the 08:12 from
// Utrecht to Köln on Friday?", "I was thinking LH400 FRA-JFK 12 June"),
// rather than a booking: the mail speaks of a plan and holds none of a
// booking's signs, neither its reference, an order's or a ticket's
// number, a seat or a stay's number, nor a booking's or a payment's
// words. Every sign must be missing: the readers are tuned on many
// layouts, and a booking that names one of them is read as before. The
// plan's words first, which few mails hold.
func (c *msgContext) proposedOnly(out []Fact, all string) bool {
	l := c.lowerOf(all) // the label sets' copy, when they lowered this text
	if !planWords.In(l) || bookedWords.In(l) {
		return false
	}
	for _, f := range out {
		if s := f.Segment; s == nil || s.Reservation != "" || s.Seat != "" {
			return false
		}
	}
	return !seatNamed(l) && !c.numbersBooking(all)
}

// numbersBooking reports whether a text gives a booking's reference, an
// order's number or a ticket's code: the numbered signs of a booking.
func (c *msgContext) numbersBooking(text string) bool {
	return c.bookingRef(text) != "" || c.orderNumber(text) != "" || c.ticketCode(text) != ""
}

// bookingSigned reports whether a text shows a sign of a booking: its
// reference, an order's number or a ticket's code, a seat, a booking's or
// a payment's words. A layout that a booking shares with a newsletter's
// featured arrivals or with a connection a friend looked up (stacked
// stops, a connection's row) is a trip only beside one.
func (c *msgContext) bookingSigned(text string) bool {
	l := lower(text)
	return bookedWords.In(l) || seatNamed(l) || c.numbersBooking(text)
}

// langBooked is bookingSigned of the text the rules read, worked out the
// first time a reader asks: a reader that asks for each row or line it
// takes would read the whole text again each time.
func (c *msgContext) langBooked() bool {
	if !c.bookedDone {
		c.booked, c.bookedDone = c.bookingSigned(c.langText), true
	}
	return c.booked
}

// seatNamed reports whether a lower-cased text names a seat, a coach or a
// row by its number ("Seat 42", "Wagen 7", "place : 84"): a ticket's, which
// the readers do not always take as the leg's seat. The number has at most
// three digits: one language's coach is another's train ("voz" in
// Slovenian and Serbian), and "Voz 7401" is a train's number.
// seatNumberWords are the words for "number" that may stand between a
// seat's label and its number.
var seatNumberWords = []string{"number", "numéro", "numero", "número", "nummer", "numer", "no", "nr", "n°", "nº"}

func seatNamed(l string) bool {
	found := false
	seatLabels.EachAt(l, func(p, end int) bool {
		if words.In(l, end, false) || words.In(l, end-len(seatLabelList[p]), true) {
			return true
		}
		rest := strings.TrimLeft(l[end:min(len(l), end+24)], " :.#\t")
		// "Seat Number: 22A", "Sitzplatz Nr. 42": a word for number
		// between.
		for _, w := range seatNumberWords {
			if r, ok := strings.CutPrefix(rest, w); ok && (r == "" || r[0] < 'a' || r[0] > 'z') {
				rest = strings.TrimLeft(r, " :.#\t")
				break
			}
		}
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		found = n > 0 && n <= 3
		return !found
	})
	return found
}

// offerWords say a stay is offered, not booked (offer: "we have rooms for
// you", "Book now", "Jetzt buchen", "Comparez", "Offerta valida").
var offerWords = words.NewWholeSet(lang.Entries("offer"))

// offeredStay reports whether a stay read without a booking's number is a
// hotel's offer, a newsletter's, a price comparison's or an abandoned
// booking's reminder: its text offers and holds none of a booking's signs
// (no reference, no order's number or ticket's code, as proposedOnly and
// replyOffers ask, none of a booking's or a payment's words). The offer's
// words first, which few mails hold.
func (c *msgContext) offeredStay(subject, text string) bool {
	l := lower(subject + "\n" + text)
	return offerWords.In(l) && !bookedWords.In(l) && !c.numbersBooking(text)
}

// replyOffers reports whether a reply's own words over the booking it
// quotes offer or propose other dates rather than state a changed booking
// ("We could offer you instead, maybe: … until then your booking stays as
// it is"): they speak of a plan or an offer and name no reference, order's
// number or ticket of their own, and none of their legs or stays carries
// one. The quoted confirmation's number and words do not count, nor do a
// booking's words in the reply: it speaks of "your booking", the quoted
// one. The words first, which few replies hold.
func (c *msgContext) replyOffers(own string, facts []Fact) bool {
	l := lower(own)
	if !planWords.In(l) && !offerWords.In(l) {
		return false
	}
	for _, f := range facts {
		if f.Segment != nil && f.Segment.Reservation != "" {
			return false
		}
	}
	return !c.numbersBooking(own)
}
