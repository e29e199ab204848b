package facts_test

import (
	"strings"
	"testing"
	"time"
)

// ATTACK (HIGH): a forward's quoted header block forged inside the
// forwarded body. The person's work mailbox forwards mail to this one
// (the ninth review's H1 setting: an Outlook rule, by hand). A stranger
// mails the work address from its own domain; its body holds a second,
// forged forward block ("From: Lufthansa <service@lufthansa.com>", in
// another client's layout: Outlook's "Sent:", Apple Mail's "Begin
// forwarded message:", Proton's "------- Forwarded Message -------").
// If extract's forward reader takes the forged inner block as the
// original, the record is keyed "fwd|<work address>|lufthansa.com", the
// key of the person's own forward of the real booking, and the
// stranger's "cancelled" wins.
// SAFE: the original is the outermost block's (the one directly under
// the forwarder's own text), or a nested block makes the original the
// message's own sender; the real booking stays confirmed.
func TestReview12NestedForwardBlockCancelsForwardedBooking(t *testing.T) {
	gmail := func(orig, origDate, subject, body string) string {
		return "Hi,\r\n\r\n---------- Forwarded message ---------\r\nFrom: " + orig + "\r\nDate: " + origDate +
			"\r\nSubject: " + subject + "\r\nTo: Alex Morgan <alex.morgan@work-example.com>\r\n\r\n" + body
	}
	inner := map[string]string{
		"gmail":   "---------- Forwarded message ---------\r\nFrom: Lufthansa <service@lufthansa.com>\r\nDate: Sat, 21 Nov 2026 at 07:50\r\nSubject: Flight LH 400 cancelled\r\nTo: Alex Morgan <alex.morgan@work-example.com>\r\n\r\n",
		"outlook": "________________________________\r\nFrom: Lufthansa <service@lufthansa.com>\r\nSent: Saturday, November 21, 2026 7:50 AM\r\nTo: Alex Morgan <alex.morgan@work-example.com>\r\nSubject: Flight LH 400 cancelled\r\n\r\n",
		"apple":   "Begin forwarded message:\r\n\r\nFrom: Lufthansa <service@lufthansa.com>\r\nSubject: Flight LH 400 cancelled\r\nDate: 21 November 2026 at 07:50:00 CET\r\nTo: Alex Morgan <alex.morgan@work-example.com>\r\n\r\n",
		"none":    "",
		"proton":  "------- Forwarded Message -------\r\nFrom: Lufthansa <service@lufthansa.com>\r\nDate: On Saturday, November 21st, 2026 at 07:50\r\nSubject: Flight LH 400 cancelled\r\nTo: Alex Morgan <alex.morgan@work-example.com>\r\n\r\n",
	}
	real := review9Mail("Alex Morgan <alex.morgan@work-example.com>", "work-example.com", "Fwd: Your booking confirmation XK4R7Q",
		"Tue, 03 Nov 2026 09:20:00 +0100", "r1",
		gmail("Lufthansa <booking-confirmation@lufthansa.com>", "Tue, 3 Nov 2026 at 09:12", "Your booking confirmation XK4R7Q",
			"Dear Alex Morgan,\r\n\r\nthank you for booking with Lufthansa. Your booking code is XK4R7Q.\r\n\r\n"+review9Leg+"Seat 32K, Economy Classic\r\n"))
	old := time.Now().AddDate(-1, 0, 0)
	seed := review9Mail("Alex Morgan <alex.morgan@work-example.com>", "work-example.com", "hello", "Mon, 01 Dec 2025 08:00:00 +0100", "s0", "hi\r\n")
	before := review7Store(t, review7Msg(1, seed, old), review7Msg(2, real, time.Now().AddDate(0, 0, -18))).trips(t)
	t.Logf("before: %s", before)
	if !strings.Contains(before, `"XK4R7Q"`) || !strings.Contains(before, `"confirmed"`) {
		t.Fatalf("the forwarded booking is no confirmed trip: %s", before)
	}
	for _, name := range []string{"gmail", "outlook", "apple", "proton", "none"} {
		t.Run(name, func(t *testing.T) {
			attack := review9Mail("Alex Morgan <alex.morgan@work-example.com>", "work-example.com", "Fwd: Flight LH 400 cancelled",
				"Sat, 21 Nov 2026 08:00:00 +0100", "a1",
				gmail("Mallory <m@mallory-mail.example>", "Sat, 21 Nov 2026 at 07:58", "Fwd: Flight LH 400 cancelled",
					"FYI\r\n\r\n"+inner[name]+"Dear passenger,\r\n\r\nyour flight has been cancelled. Booking code: XK4R7Q\r\n\r\n"+review9Leg))
			fx := review7Store(t, review7Msg(1, seed, old), review7Msg(2, real, time.Now().AddDate(0, 0, -18)), review7Msg(3, attack, time.Now()))
			after := fx.trips(t)
			t.Logf("after: %s", after)
			if !strings.Contains(after, `"XK4R7Q"`) || strings.Contains(after, `"cancelled"`) {
				t.Errorf("a stranger's mail with a forged inner forward block, forwarded by the person's rule, cancelled the forwarded booking XK4R7Q")
			}
		})
	}
}
