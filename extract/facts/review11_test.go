package facts_test

// The eleventh outside review (2026-11-29, an attacker given the docs and
// a clone). Each test is an attack that works today; each says the safe
// result it expects.

import (
	"strings"
	"testing"
	"time"
)

// ATTACK: trust.RelayedByReply (today's change) keeps the orders of a
// message Relayed only by a Reply-To at a free-mail box. That sign is
// exactly what a platform mailing a stranger's own words shows when the
// platform is in neither shared.txt nor relays.txt: a Zoom webinar's
// registration confirmation (From "<host name>" <no-reply@zoom.us>,
// DKIM-aligned, Reply-To the host's Gmail, body the host's own text). A
// stranger hosts a webinar and registers the person; the body says an
// order of another shop has shipped. Before today the relayed message
// stated no order; now it is an order with verified_sender true (zoom.us
// authenticated) for the agent to act on ("Apple order W1187332 shipped,
// verified").
// SAFE: a relayed message's order is never verified_sender (its words are
// the Reply-To writer's, not the authenticated domain's), or the
// free-mail Reply-To keeps orders only where the From's own domain names
// the shop the order names (a small shop's own domain), never a
// platform's.
func TestReview11PlatformReplyToGmailOrderVerified(t *testing.T) {
	seed := review10Mail("Zoom <no-reply@zoom.us>", "zoom.us", "", "Welcome to Zoom", "Sat, 21 Nov 2025 08:00:00 +0100", "Hi Alex, welcome to Zoom.\r\n", 1)
	order := review10Mail("\"Apple Store\" <no-reply@zoom.us>", "zoom.us", "Reply-To: Apple Store <apple.store.orders@gmail.com>\r\n",
		"Your order W1187332 has shipped", "Sat, 21 Nov 2026 08:00:00 +0100",
		"Hi Alex,\r\n\r\nThank you for your order W1187332! Your order has shipped.\r\n\r\nItem: MacBook Pro 14-inch\r\nOrder total: $2,499.00\r\n\r\nApple Store\r\n", 2)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, order, time.Now()))
	got := fx.orders(t, "Apple") + fx.orders(t, "zoom")
	t.Logf("%s", got)
	if strings.Contains(got, "W1187332") && strings.Contains(got, `"verified_sender":true`) {
		t.Errorf("a stranger's words through a platform with a Gmail Reply-To are a verified order: %s", got)
	}
}

// ATTACK (HIGH): the ninth review's H1 (a forged From of the person's own
// address cancels the booking the person forwarded) comes back through
// mail/mime salvageAddress (today's change). The stranger sends from its
// own domain with its own DKIM, so the provider's DMARC passes for
// header.from=attacker.example, but writes the From so that net/mail
// refuses it and salvage takes the first "<…>", inside the quoted name:
//
//	From: "Alex Morgan <alex.morgan@demo-mail.example>" <x@attacker.example> =?utf-8?q?x?=
//
// The node reads alex.morgan@demo-mail.example; the verdict is neither
// authenticated nor Failed, so the record is not kept apart
// (senderKey's "failed|") and shares "fwd|alex.morgan@demo-mail.example"
// with the person's Sent forward: the forged "cancelled" wins.
// SAFE: the booking stays confirmed (salvage never takes an address out
// of a quoted string or comment; a From whose domain is not the one the
// provider's dmarc result names is Failed or its message alone).
func TestReview11SalvagedOwnFromCancelsSentForward(t *testing.T) {
	after := review9SentForwardThenForged(t, "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=attacker.example; spf=pass smtp.mailfrom=attacker.example; dmarc=pass header.from=attacker.example\r\n"+
		"From: \"Alex Morgan <alex.morgan@demo-mail.example>\" <x@attacker.example> =?utf-8?q?x?=\r\n")
	if !strings.Contains(after, `"XK4R7Q"`) || strings.Contains(after, `"cancelled"`) {
		t.Errorf("a salvaged From of the person's own address (the provider judged attacker.example) cancelled the booking the person forwarded")
	}
}

// ATTACK (HIGH; not today's code, a class the tenth review's fix left):
// msgauth.authenticate stops at the provider's topmost
// Authentication-Results field when it does not parse (the tenth review:
// the sender's envelope address "a;b"@attacker.example, which the provider
// quotes, breaks authres.Parse), but then leaves Verdict.Failed false
// although the field says dmarc=fail. The ninth review's H1 fix keys a
// forged From apart only when Failed (senderKey's "failed|"). A forged
// From of the person's own address (a provider of p=none, as the big
// free-mail providers publish, delivers it) with that envelope address is
// neither authenticated nor failed, shares "fwd|alex.morgan@…" with the
// person's Sent forward, and its "cancelled" wins.
// SAFE: a provider field that does not parse (or another host of the
// provider on top) makes the verdict Failed, or at least keeps the message
// its own sender; the booking stays confirmed.
func TestReview11UnparsedFailVerdictOwnFromCancelsSentForward(t *testing.T) {
	after := review9SentForwardThenForged(t, "Authentication-Results: mx.demo-mail.example;\r\n"+
		"       spf=pass (mx.demo-mail.example: domain of \"a;b\"@attacker.example designates 192.0.2.7 as permitted sender) smtp.mailfrom=\"a;b\"@attacker.example;\r\n"+
		"       dkim=none; dmarc=fail (p=NONE sp=QUARANTINE dis=NONE) header.from=demo-mail.example\r\n"+
		"From: Alex Morgan <alex.morgan@demo-mail.example>\r\n")
	if !strings.Contains(after, `"XK4R7Q"`) || strings.Contains(after, `"cancelled"`) {
		t.Errorf("a forged From of the person's own address whose provider field (dmarc=fail) does not parse cancelled the booking the person forwarded")
	}
}

// ATTACK (a real fact lost; today's change): extract dueDate skips a due
// label's line that holds a discount's word without a net one
// (discountTerm), meant for payment terms ("Zahlbar bis 01.09.2025: 2,5 %
// Skonto"). Real bills print a discount beside the due day for other
// reasons: "Due date: December 9, 2026 (paperless discount applied)",
// "Due date: December 9, 2026    Discount: none", "Please pay by
// December 9, 2026. Early payment discount: 2% if paid by November 30,
// 2026." Each gave December 9 before a6a850a3; today the bill has no due
// day, and the bills-due tool no longer lists it by its day.
// SAFE: a discount's word voids only the day it governs (the day in the
// discount's own clause: "2% if paid by …"), never the due label's day
// on a line that merely mentions a discount.
func TestReview11DiscountWordDropsDueDay(t *testing.T) {
	for i, line := range []string{
		"Due date: December 9, 2026 (paperless discount applied)",
		"Due date: December 9, 2026    Discount: none",
		"Please pay by December 9, 2026. Early payment discount: 2% if paid by November 30, 2026.",
	} {
		seed := review10Mail("City Water <billing@citywater.example>", "citywater.example", "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hi Alex, welcome.\r\n", 1)
		bill := review10Mail("City Water <billing@citywater.example>", "citywater.example", "", "Your water bill INV-2026-4471", "Sat, 21 Nov 2026 08:00:00 +0100",
			"Hi Alex,\r\n\r\nInvoice number: INV-2026-4471\r\nAmount due: $212.50\r\n"+line+"\r\n", 2)
		fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, bill, time.Now()))
		got := review10Bills(t, fx)
		if !strings.Contains(got, "2026-12-09") {
			t.Errorf("%d: %q: the bill's due day is lost: %s", i, line, got)
		}
	}
}

// ATTACK (today's change, trust.RelayedByReply): a brand that both sells
// to the person and mails strangers' words from its own domain with the
// stranger's free-mail box as Reply-To (an iCloud calendar invitation from
// noreply@email.apple.com, Reply-To the inviter's icloud.com; any such
// notice not in relays.txt) was Relayed, so it stated no order. Since
// today a Reply-To at a free-mail box alone keeps its orders. The stranger
// writes "Your order W1187332 has been cancelled" (the number from a
// leaked receipt, or guessed from the person's posts): the person's real,
// trusted Apple order stays "ordered", and beside it, newer, stands the
// same order number "cancelled" from apple.com with verified_sender true.
// Before today the relayed message gave no order.
// SAFE: a relayed message (by any sign) states nothing of an order number
// the From's domain already holds in its own mail; or its orders carry
// verified_sender false (its words are the Reply-To writer's, not the
// authenticated domain's).
func TestReview11RelayedByReplyCancelsBrandOrderNumber(t *testing.T) {
	real := review10Mail("Apple Store <order_acknowledgment@orders.apple.com>", "apple.com", "", "We're processing your order W1187332", "Sat, 14 Nov 2026 08:00:00 +0100",
		"Hi Alex,\r\n\r\nThank you for your order W1187332.\r\n\r\nMacBook Pro 14-inch\r\nOrder total: $2,499.00\r\n", 1)
	old := review10Mail("Apple <no_reply@email.apple.com>", "apple.com", "", "Your receipt", "Sat, 21 Nov 2025 08:00:00 +0100", "Hi Alex.\r\n", 3)
	attack := review10Mail("\"Apple Store\" <noreply@email.apple.com>", "apple.com", "Reply-To: Apple Store <applestore.help@icloud.com>\r\n",
		"Your order W1187332 has been cancelled", "Sat, 21 Nov 2026 08:00:00 +0100",
		"Hi Alex,\r\n\r\nYour order W1187332 has been cancelled and will not ship.\r\n\r\nApple Store\r\n", 2)
	fx := review7Store(t, review7Msg(3, old, time.Now().AddDate(-1, 0, 0)), review7Msg(1, real, time.Now().AddDate(0, 0, -7)), review7Msg(2, attack, time.Now()))
	got := fx.orders(t, "Apple")
	t.Logf("%s", got)
	for _, o := range strings.Split(got, "},{") {
		if strings.Contains(o, "W1187332") && strings.Contains(o, `"cancelled"`) && strings.Contains(o, `"verified_sender":true`) {
			t.Errorf("a stranger's words behind a free-mail Reply-To are a verified cancellation of the person's Apple order: %s", o)
		}
	}
}
