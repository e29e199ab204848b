package extract_test

// The fourth outside review (2026-11-29): a coach's booking kept by the
// code its subject names (subjectCode) took time that multiplied legs,
// subject words and text, and booked a newsletter's or a timetable's
// code. Both proofs failed before the fix.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// review4CoachTicket is a coach e-ticket whose booking's label no table
// holds ("Journey code:"), its subject naming the code times times, with
// legs legs and pad lines of terms.
func review4CoachTicket(times, legs, pad int) string {
	subj := strings.TrimSpace(strings.Repeat("SGK4471209 ", times))
	var b strings.Builder
	fmt.Fprintf(&b, "From: Straits Express Coaches <eticket@straitsexpress.example.sg>\r\nTo: wei.ling.tan@example.sg\r\n"+
		"Subject: Your e-ticket %s is ready\r\nDate: Sun, 09 Jul 2028 20:41:00 +0800\r\nMessage-ID: <x@straitsexpress.example.sg>\r\n"+
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n", subj)
	b.WriteString("Thank you for travelling with Straits Express. Please be at the bus bay 30 minutes before departure.\r\n\r\nJourney code: SGK4471209\r\n")
	for range legs {
		b.WriteString("Sat, 15 Jul 2028\r\n08:00  Singapore, Golden Mile Complex\r\n13:30  Kuala Lumpur, TBS Bandar Tasik Selatan\r\nSeat 2A\r\n\r\n")
	}
	b.WriteString("Amount paid: SGD 45.00\r\n")
	b.WriteString(strings.Repeat("Terms and conditions apply to every journey 2028.\r\n", pad))
	return b.String()
}

// review4Extract extracts raw and reports the CPU time it took (the
// process's, user and system): the bounds the reviews set are the work a
// mail costs, which wall time on a shared machine overstates many times
// (a load of 12 on two cores made 0.3 s of work take 2.2 s).
func review4Extract(raw string) (extract.Result, time.Duration) {
	m := mime.Parse([]byte(raw))
	start := processCPU()
	res := extract.Extract(m, msgauth.Checker{}.Check(m, nil))
	return res, processCPU() - start
}

func review4Plain(from, subject, body string) string {
	return "From: " + from + "\r\nTo: alex@example.com\r\nSubject: " + subject +
		"\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\nMessage-ID: <p@x>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		strings.ReplaceAll(body, "\n", "\r\n")
}

// TestSubjectCodeLinear: many legs, a subject naming the code a hundred
// times and a long text cost what the text costs.
func TestSubjectCodeLinear(t *testing.T) {
	for _, c := range []struct{ times, legs, pad int }{{1, 1, 0}, {1, 400, 0}, {100, 10, 1000}} {
		raw := review4CoachTicket(c.times, c.legs, c.pad)
		res, d := review4Extract(raw)
		if d > 3*time.Second*raceSlowdown {
			t.Errorf("one mail of %d bytes (code %d times in the subject, %d legs) held the reader %v", len(raw), c.times, c.legs, d)
		}
		if c.legs == 1 && (len(res.Facts) != 1 || res.Facts[0].Segment.Reservation != "SGK4471209") {
			t.Errorf("the ticket gave %d facts, want its bus under SGK4471209", len(res.Facts))
		}
	}
}

// TestSubjectCodeNotANewsletter: a newsletter's issue or a timetable's
// code that its subject names books no bus.
func TestSubjectCodeNotANewsletter(t *testing.T) {
	for _, raw := range []string{
		review4Plain("Coach Tours <info@coachtours.example.co.uk>", "Newsletter issue NL2027: our summer coach trips",
			"Hello,\n\nIn newsletter NL2027 we present our summer trips.\n\nSat, 12 Jun 2027\n07:00  London Victoria Coach Station\n10:30  Bath Spa Bus Station\n\nSee you on board!\n"),
		review4Plain("Megabus <news@megabus.example.com>", "Your timetable PDF TT2027 is here",
			"Hello,\n\nTimetable TT2027 - weekend departures:\n\nSat, 12 Jun 2027\n07:00  London Victoria Coach Station\n10:30  Bath Spa Bus Station\n\nSat, 12 Jun 2027\n12:00  Bath Spa Bus Station\n15:30  London Victoria Coach Station\n"),
	} {
		res, _ := review4Extract(raw)
		for _, f := range res.Facts {
			if f.Segment != nil {
				t.Errorf("a newsletter gave a %s %s booking %q", f.Segment.Status, f.Segment.Type, f.Segment.Reservation)
			}
		}
	}
}
