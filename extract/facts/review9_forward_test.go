package facts_test

// The ninth outside review (2026-11-29), H1: a forwarded original's
// sender was only its forwarder. Proofs through a real store, as the read
// tools see it (from the review's x9_test.go).

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

// review9Mail is a mail from "from", authenticated for domain, with its own
// Message-ID and Date.
func review9Mail(from, domain, subject, date, id, body string) string {
	return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=" + domain + "; dmarc=pass header.from=" + domain + "\r\n" +
		"From: " + from + "\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: " + subject + "\r\nDate: " + date + "\r\nMessage-ID: <" + id + "@x9>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
}

const review9Leg = "LH 400  Frankfurt (FRA) 14 Dec 2026 10:05  ->  New York JFK (JFK) 14 Dec 2026 13:00\r\n"

// Proves H1 of the ninth outside review is fixed: a forwarded original
// is keyed by its forwarder and its quoted sender (senderKey).
// Before: forwarded originals were keyed by the forwarder only
// ("fwd|" + address), whoever the quoted original's sender is. A person
// whose work mailbox forwards mail to this one (an Outlook rule that
// forwards, or forwarding by hand) has the real Lufthansa booking and a
// stranger's "cancelled" mail to the work address under one sender: the
// stranger's quoted mail cancels and re-times the real booking.
func TestReview9ForwardedStrangerCancelsForwardedBooking(t *testing.T) {
	fwd := func(orig, origDate, subject, body string) string {
		return "Hi,\r\n\r\n---------- Forwarded message ---------\r\nFrom: " + orig + "\r\nDate: " + origDate +
			"\r\nSubject: " + subject + "\r\nTo: Alex Morgan <alex.morgan@work-example.com>\r\n\r\n" + body
	}
	real := review9Mail("Alex Morgan <alex.morgan@work-example.com>", "work-example.com", "Fwd: Your booking confirmation XK4R7Q",
		"Tue, 03 Nov 2026 09:20:00 +0100", "r1",
		fwd("Lufthansa <booking-confirmation@lufthansa.com>", "Tue, 3 Nov 2026 at 09:12", "Your booking confirmation XK4R7Q",
			"Dear Alex Morgan,\r\n\r\nthank you for booking with Lufthansa. Your booking code is XK4R7Q.\r\n\r\n"+review9Leg+"Seat 32K, Economy Classic\r\n"))
	attack := review9Mail("Alex Morgan <alex.morgan@work-example.com>", "work-example.com", "Fwd: Flight LH 400 cancelled",
		"Sat, 21 Nov 2026 08:00:00 +0100", "a1",
		fwd("Lufthansa Service <service@lh-rebooking.top>", "Sat, 21 Nov 2026 at 07:58", "Flight LH 400 cancelled",
			"Dear passenger,\r\n\r\nyour flight has been cancelled. Booking code: XK4R7Q\r\n\r\n"+review9Leg))
	old := time.Now().AddDate(-1, 0, 0)
	seed := review9Mail("Alex Morgan <alex.morgan@work-example.com>", "work-example.com", "hello", "Mon, 01 Dec 2025 08:00:00 +0100", "s0", "hi\r\n")
	fx := review7Store(t, review7Msg(1, seed, old), review7Msg(2, real, time.Now().AddDate(0, 0, -18)))
	before := fx.trips(t)
	t.Logf("before: %s", before)
	fx = review7Store(t, review7Msg(1, seed, old), review7Msg(2, real, time.Now().AddDate(0, 0, -18)), review7Msg(3, attack, time.Now()))
	after := fx.trips(t)
	t.Logf("after: %s", after)
	if !strings.Contains(before, `"confirmed"`) {
		t.Fatalf("the forwarded booking is no confirmed trip: %s", before)
	}
	if !strings.Contains(after, `"XK4R7Q"`) || strings.Contains(after, `"cancelled"`) {
		t.Errorf("a stranger's mail, forwarded by the person's own rule, cancelled the forwarded real booking XK4R7Q")
	}
}

// Proves H1 of the ninth outside review is fixed for a forged own From:
// a message that failed the provider's checks is its own sender.
// Before: the person forwards the real booking to their partner (a
// message in Sent: From the person, no Authentication-Results, as every
// Sent copy). A stranger forges the person's own From (dmarc=fail) over a
// "forwarded" cancellation: both are "fwd|alex.morgan@demo-mail.example",
// neither authenticated, so the forgery cancels the forwarded booking.
func TestReview9ForgedOwnFromCancelsSentForward(t *testing.T) {
	after := review9SentForwardThenForged(t, "Authentication-Results: mx.demo-mail.example; dkim=none; spf=fail smtp.mailfrom=demo-mail.example; dmarc=fail header.from=demo-mail.example\r\n"+
		"From: Alex Morgan <alex.morgan@demo-mail.example>\r\n")
	if !strings.Contains(after, `"XK4R7Q"`) || strings.Contains(after, `"cancelled"`) {
		t.Errorf("a forged From of the person's own address cancelled the booking the person forwarded")
	}
}

// review9SentForwardThenForged files the person's own forward of the real
// Lufthansa booking in Sent (as every Sent copy: no Authentication-Results)
// and reads it, then delivers to the inbox a mail whose head is forgedHead
// (its Authentication-Results and From) over a "forwarded" cancellation of
// the same booking, and reads again: the trips before and after, as the
// read tools see them.
func review9SentForwardThenForged(t *testing.T, forgedHead string) (after string) {
	t.Helper()
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, review9Checker())
	acct, _ := st.EnsureAccount(ctx, review9Account())
	sent, err := st.EnsureFolder(ctx, acct.ID, "Sent", `\Sent`)
	if err != nil {
		t.Fatal(err)
	}
	fwdBody := func(orig, subject, body string) string {
		return "See below.\r\n\r\n---------- Forwarded message ---------\r\nFrom: " + orig + "\r\nDate: Tue, 3 Nov 2026 at 09:12\r\nSubject: " + subject +
			"\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n\r\n" + body
	}
	mine := "From: Alex Morgan <alex.morgan@demo-mail.example>\r\nTo: Kim <kim@example.org>\r\nSubject: Fwd: Your booking confirmation XK4R7Q\r\n" +
		"Date: Tue, 03 Nov 2026 10:00:00 +0100\r\nMessage-ID: <sent1@demo-mail.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		fwdBody("Lufthansa <booking-confirmation@lufthansa.com>", "Your booking confirmation XK4R7Q",
			"Dear Alex Morgan,\r\n\r\nthank you for booking with Lufthansa. Your booking code is XK4R7Q.\r\n\r\n"+review9Leg+"Seat 32K, Economy Classic\r\n")
	forged := forgedHead + "To: Alex Morgan <alex.morgan@demo-mail.example>\r\nSubject: Fwd: Flight LH 400 cancelled\r\n" +
		"Date: Sat, 21 Nov 2026 08:00:00 +0100\r\nMessage-ID: <forged1@attacker.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		fwdBody("Lufthansa <service@lufthansa.com>", "Flight LH 400 cancelled", "Dear passenger,\r\n\r\nyour flight has been cancelled. Booking code: XK4R7Q\r\n\r\n"+review9Leg)
	if err := st.AddMessages(ctx, sent.ID, []store.NewMessage{review7Msg(1, mine, time.Now().AddDate(0, 0, -18))}, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	before := readers{fx}.trips(t)
	if err := st.AddMessages(ctx, inbox.ID, []store.NewMessage{review7Msg(1, forged, time.Now())}, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	after = readers{fx}.trips(t)
	t.Logf("before: %s", before)
	t.Logf("after: %s", after)
	if !strings.Contains(before, `"XK4R7Q"`) {
		t.Fatalf("the person's forward is no trip")
	}
	return after
}

func review9Checker() msgauth.Checker {
	return msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}}
}

func review9Account() store.Account { return store.Account{Name: "demo", Server: "h:1", Username: "u"} }

// A reply quotes a mail as a forward does (forwardedHead reads both): the
// person's work address replying "is this real?" above a stranger's
// quoted cancellation is no word on the booking it forwarded before.
func TestReview9QuotedStrangerInReplyCancelsNothing(t *testing.T) {
	real := review9Mail("Alex Morgan <alex.morgan@work-example.com>", "work-example.com", "Fwd: Your booking confirmation XK4R7Q",
		"Tue, 03 Nov 2026 09:20:00 +0100", "r1",
		"Hi,\r\n\r\n---------- Forwarded message ---------\r\nFrom: Lufthansa <booking-confirmation@lufthansa.com>\r\nDate: Tue, 3 Nov 2026 at 09:12\r\n"+
			"Subject: Your booking confirmation XK4R7Q\r\nTo: Alex Morgan <alex.morgan@work-example.com>\r\n\r\n"+
			"Dear Alex Morgan,\r\n\r\nthank you for booking with Lufthansa. Your booking code is XK4R7Q.\r\n\r\n"+review9Leg+"Seat 32K, Economy Classic\r\n")
	quote := "> Dear passenger,\r\n>\r\n> your flight has been cancelled. Booking code: XK4R7Q\r\n>\r\n> " + review9Leg
	for name, body := range map[string]string{
		"attributed": "Is this real?\r\n\r\nOn Sat, 21 Nov 2026 at 07:58, Lufthansa Service <service@lh-rebooking.top> wrote:\r\n" + quote,
	} {
		t.Run(name, func(t *testing.T) {
			reply := review9Mail("Alex Morgan <alex.morgan@work-example.com>", "work-example.com", "Re: Flight LH 400 cancelled",
				"Sat, 21 Nov 2026 08:00:00 +0100", "q1", body)
			old := time.Now().AddDate(-1, 0, 0)
			seed := review9Mail("Alex Morgan <alex.morgan@work-example.com>", "work-example.com", "hello", "Mon, 01 Dec 2025 08:00:00 +0100", "s0", "hi\r\n")
			fx := review7Store(t, review7Msg(1, seed, old), review7Msg(2, real, time.Now().AddDate(0, 0, -18)), review7Msg(3, reply, time.Now()))
			got := fx.trips(t)
			if !strings.Contains(got, `"XK4R7Q"`) || strings.Contains(got, `"cancelled"`) {
				t.Errorf("a stranger's mail quoted in the person's reply cancelled the forwarded booking XK4R7Q: %s", got)
			}
		})
	}
}
