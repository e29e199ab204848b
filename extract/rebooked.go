package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
)

// An airline's or a railway's cancellation often rebooks in the same mail:
// "Your flight LH 400 has been cancelled. We have rebooked you on the
// following flight: LH 402", "Cancelled: … / Rebooked: …", "Your original
// flight: … / Your new flight: …". The mail's cancellation is the first
// leg's, not the new one's: marking every leg it lists cancelled inverted
// the two states (the tenth outside review, HIGH-5), and with both legs
// cancelled the trip was gone.

// rebookMarks say that what follows is the new travel (booking.rebooked);
// cancelMarks that it is the old: a word for cancelled, or the original
// one (booking.cancelled, booking.original). Lower-case.
var (
	rebookMarks = lang.Entries("booking.rebooked")
	cancelMarks = func() []string {
		var out []string
		for _, e := range append(lang.Entries("booking.cancelled"), lang.Entries("booking.original")...) {
			out = append(out, strings.TrimSuffix(e, "*"))
		}
		return out
	}()
)

// rebookedLeg reports whether a leg numbered number, in a mail that says a
// booking is cancelled, is the new travel the mail rebooks onto: where the
// number first appears, the nearest mark before it is a rebooking's. A
// mail that names no rebooking, or a leg with no mark before it, is the
// cancellation's as before.
func rebookedLeg(text, number string) bool {
	l := lower(text)
	at := numberAt(l, lower(number))
	if at < 0 {
		return false
	}
	head := l[:at]
	reb, can := lastMark(head, rebookMarks), lastMark(head, cancelMarks)
	return reb >= 0 && reb > can
}

// numberAt is where a leg's number first appears in l, written with or
// without the space between its designator and its digits ("lh 402",
// "lh402"); -1 if nowhere.
func numberAt(l, number string) int {
	if number == "" {
		return -1
	}
	forms := []string{number}
	if compact := strings.ReplaceAll(number, " ", ""); compact != number {
		forms = append(forms, compact)
	} else if i := strings.IndexAny(number, "0123456789"); i > 0 {
		forms = append(forms, number[:i]+" "+number[i:])
	}
	best := -1
	for _, f := range forms {
		for from := 0; ; {
			i := strings.Index(l[from:], f)
			if i < 0 {
				break
			}
			i += from
			end := i + len(f)
			// A whole number: "lh 40" is not in "lh 402".
			if end == len(l) || l[end] < '0' || l[end] > '9' {
				if best < 0 || i < best {
					best = i
				}
				break
			}
			from = end
		}
	}
	return best
}

// lastMark is where the last of marks in s starts, as a word of its own;
// -1 if none.
func lastMark(s string, marks []string) int {
	last := -1
	for _, m := range marks {
		if m == "" {
			continue
		}
		for end := len(s); ; {
			i := strings.LastIndex(s[:end], m)
			if i < 0 {
				break
			}
			if r, _ := utf8.DecodeLastRuneInString(s[:i]); i == 0 || !unicode.IsLetter(r) {
				if i > last {
					last = i
				}
				break
			}
			end = i
		}
	}
	return last
}

// cancelledOnly are the flights a rebooking mail names under its
// cancellation but lists as no leg of its own ("Your flight LH 400 on 14
// December has been cancelled. We have rebooked you on …: LH 402 …"): each
// a leg of the booking ref, cancelled by its number, so the old leg of the
// earlier confirmation is cancelled and the new one stands. Only when one
// of legs is rebooked: a mail that rebooks nothing cancels every leg.
func cancelledOnly(text, ref string, legs []Fact) []Fact {
	rebooked := false
	have := map[string]bool{}
	for _, f := range legs {
		if f.Segment == nil {
			continue
		}
		have[f.Segment.Number] = true
		if f.Segment.Status != StatusCancelled && f.Segment.Type == KindFlight {
			rebooked = true
		}
	}
	if !rebooked || ref == "" {
		return nil
	}
	l := lower(text)
	var out []Fact
	for _, m := range flightNumRE.FindAllStringSubmatchIndex(text, -1) {
		code := text[m[2]:m[3]]
		if !isFlightDesignator(code) {
			continue
		}
		number := flightNumber("", text[m[0]:m[1]])
		if have[number] {
			continue
		}
		head := l[:m[0]]
		if can := lastMark(head, cancelMarks); can < 0 || lastMark(head, rebookMarks) > can {
			// Or a cancellation said after it in its sentence.
			if !cancelledAfter(l[m[1]:]) {
				continue
			}
		}
		have[number] = true
		out = append(out, Fact{Kind: KindFlight, From: FromText, Segment: &Segment{Type: KindFlight, Status: StatusCancelled, Reservation: ref, Number: number}})
	}
	return out
}

// cancelledAfter reports whether the sentence that goes on in l says
// cancelled before it ends and before any rebooking's mark.
func cancelledAfter(l string) bool {
	end := strings.IndexAny(l, ".!?\n")
	if end < 0 {
		end = len(l)
	}
	s := l[:end]
	can := -1
	for _, m := range cancelMarks {
		if i := strings.Index(s, m); i >= 0 && (can < 0 || i < can) {
			can = i
		}
	}
	if can < 0 {
		return false
	}
	for _, m := range rebookMarks {
		if i := strings.Index(s, m); i >= 0 && i < can {
			return false
		}
	}
	return true
}
