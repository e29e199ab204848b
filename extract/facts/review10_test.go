package facts_test

// The tenth outside review (2026-11-29, an attacker given the docs and a
// clone). Each test is an attack that works today; each says the safe
// result it expects.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// review10Mail is a mail from "from" whose provider vouches for domain,
// with extra header lines and a Date of its own.
func review10Mail(from, domain, extra, subject, date, body string, n int) string {
	return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=" + domain + "; dmarc=pass header.from=" + domain + "\r\n" +
		"From: " + from + "\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" + extra +
		"Subject: " + subject + "\r\nDate: " + date + "\r\nMessage-ID: <x10-" + fmt.Sprint(n) + "@x>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
}

func review10Bills(t *testing.T, fx readers) string {
	t.Helper()
	bills, err := fx.fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 11, 22, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	return join(bills)
}

const review10Bill = "Hi Alex,\r\n\r\nInvoice number: INV-2026-4471\r\nAmount due: $212.50\r\nDue date: December 9, 2026\r\n"

// ATTACK: the big platforms that mail a stranger's own words from their
// own old domain are missing from mail/trust/shared.txt. Anyone can share
// a Google Drive file or a Dropbox folder with any address, with a message
// of their own; Google and Dropbox mail it from drive-shares-dm-noreply@
// google.com / no-reply@dropbox.com, DKIM-aligned, and the person has had
// mail from both for years. A stranger's Calendar invitation and a Google
// Forms / Docs comment notification do the same. The stranger's invoice
// text in the share message is a trusted bill of "google.com".
// SAFE: a bill in a stranger's share message is never trusted (the share
// services are shared senders, or better: mail whose Reply-To or display
// name names another writer "via" the service is the writer's).
func TestReview10ShareServiceStrangerIsNoTrustedBill(t *testing.T) {
	for _, tc := range []struct{ service, from, extra string }{
		{"google.com", "\"Mallory Billing (via Google Drive)\" <drive-shares-dm-noreply@google.com>", "Reply-To: Mallory Billing <mallory.billing@gmail.com>\r\n"},
		{"google.com", "\"Mallory Billing (via Google Docs)\" <comments-noreply@docs.google.com>", "Reply-To: Mallory Billing <mallory.billing@gmail.com>\r\n"},
		{"google.com", "Google Calendar <calendar-notification@google.com>", "Reply-To: Mallory Billing <mallory.billing@gmail.com>\r\n"},
		{"dropbox.com", "\"Mallory Billing (via Dropbox)\" <no-reply@dropbox.com>", "Reply-To: Mallory Billing <mallory.billing@gmail.com>\r\n"},
		{"box.com", "\"Mallory Billing (via Box)\" <noreply@box.com>", ""},
		{"canva.com", "\"Mallory Billing via Canva\" <no-reply@canva.com>", ""},
	} {
		t.Run(tc.from, func(t *testing.T) {
			seed := review10Mail(tc.from, tc.service, "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hi Alex, welcome.\r\n", 1)
			bill := review10Mail(tc.from, tc.service, tc.extra, "Mallory Billing shared \"Invoice INV-2026-4471\" with you", "Sat, 21 Nov 2026 08:00:00 +0100",
				"Mallory Billing shared a file with you:\r\n\r\n"+review10Bill+"\r\nOpen\r\n", 2)
			fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, bill, time.Now()))
			got := review10Bills(t, fx)
			if !strings.Contains(got, "212.50") {
				t.Skipf("no bill read: %s", got)
			}
			if strings.Contains(got, `"trusted_sender":true`) {
				t.Errorf("a stranger's share message through %s is a trusted bill: %s", tc.service, got)
			}
		})
	}
}

// ATTACK: a third-party seller on Amazon's marketplace (anyone who once
// sold the person anything, or who writes through "contact seller"
// threads) messages the buyer through Amazon's buyer-seller messaging:
// the mail comes from <id>@marketplace.amazon.com, DKIM-aligned with
// amazon.com, so its text is amazon.com's. "Your order 112-... has been
// cancelled" in the seller's words cancels the person's real Amazon order,
// trusted, since cancellations always apply within a sender.
// SAFE: the marketplace's messages (and eBay's, Etsy's member messages)
// are each their message alone: a seller's words change no order of
// amazon.com.
func TestReview10MarketplaceSellerCancelsAmazonOrder(t *testing.T) {
	seed := review10Mail("Amazon.com <auto-confirm@amazon.com>", "amazon.com", "", "Your Amazon.com order", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
	real := review10Mail("Amazon.com <shipment-tracking@amazon.com>", "amazon.com", "", "Your Amazon.com order #112-4485123-7781234", "Fri, 20 Nov 2026 08:00:00 +0100",
		"Hello Alex,\r\n\r\nThank you for your order. We'll send a confirmation when your item ships.\r\nOrder #112-4485123-7781234\r\nSony WH-1000XM5 Headphones\r\nOrder total: $348.00\r\n", 2)
	attack := review10Mail("\"Mallory Gadgets - Amazon Marketplace\" <8kq2x7yb3m4lz9p@marketplace.amazon.com>", "amazon.com", "",
		"Order cancellation for order 112-4485123-7781234 (Message from seller)", "Sat, 21 Nov 2026 08:00:00 +0100",
		"------------- Message: -------------\r\n\r\nHello Alex,\r\n\r\nYour order #112-4485123-7781234 has been cancelled and refunded.\r\n\r\n------------- End message -------------\r\n\r\nFor your protection, we recommend that you respond through Amazon's messaging system.\r\n", 3)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, real, time.Now().AddDate(0, 0, -1)), review7Msg(3, attack, time.Now()))
	got := fx.orders(t, "amazon")
	t.Logf("order_status(amazon) = %s", got)
	if strings.Contains(got, `"status":"cancelled"`) {
		t.Errorf("a marketplace seller's message cancelled the person's Amazon order: %s", got)
	}
	// Any stranger, for $1: an Amazon e-mail gift card to the person's
	// address carries the buyer's own message, mailed by Amazon from
	// gc.email.amazon.com.
	gift := review10Mail("\"Amazon.com\" <gc-orders@gc.email.amazon.com>", "amazon.com", "",
		"Mallory sent you an Amazon.com Gift Card!", "Sat, 21 Nov 2026 09:00:00 +0100",
		"Mallory sent you an Amazon.com Gift Card!\r\n\r\n$1.00\r\n\r\nHello Alex,\r\n\r\nYour order #112-4485123-7781234 has been cancelled and refunded.\r\n\r\nClaim code: XXXX-XXXXXX-XXXX\r\n", 4)
	fx = review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, real, time.Now().AddDate(0, 0, -1)), review7Msg(4, gift, time.Now()))
	got = fx.orders(t, "amazon")
	t.Logf("order_status(amazon) after a gift card = %s", got)
	if strings.Contains(got, `"status":"cancelled"`) {
		t.Errorf("a stranger's gift card message cancelled the person's Amazon order: %s", got)
	}
}

// ATTACK: a helpdesk's acknowledgement echoes the request's text. A
// stranger fills the real shop's contact form (or mails support@) giving
// the person's address; the shop's helpdesk, from the shop's own old,
// authenticated domain, mails the person "We received your request" with
// the stranger's words below. Those words ("Your order 448812 has been
// cancelled") are read as the shop's and cancel the person's real order,
// trusted: cancellations always apply within a sender.
// SAFE: the echoed request under a helpdesk's "we received your
// request/message" heading (Zendesk's "##- Please type your reply above
// this line -##", Freshdesk's, a contact form's copy) is the requester's
// words, read as quoted: no state of the shop's.
func TestReview10HelpdeskEchoCancelsOrder(t *testing.T) {
	seed := review10Mail("Kaffee Kontor <orders@kaffeekontor.example>", "kaffeekontor.example", "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
	real := review10Mail("Kaffee Kontor <orders@kaffeekontor.example>", "kaffeekontor.example", "", "Order 448812 confirmed", "Fri, 20 Nov 2026 08:00:00 +0100",
		"Hi Alex,\r\n\r\nThank you for your order! We'll let you know when it ships.\r\nOrder number: 448812\r\nEthiopia Yirgacheffe 1 kg\r\nOrder total: $42.00\r\n", 2)
	attack := review10Mail("Kaffee Kontor Support <support@kaffeekontor.example>", "kaffeekontor.example", "",
		"[Request #20931] Order 448812", "Sat, 21 Nov 2026 08:00:00 +0100",
		"##- Please type your reply above this line -##\r\n\r\nYour request (20931) has been received and is being reviewed by our support staff.\r\n\r\nTo add additional comments, reply to this email.\r\n\r\nAlex Morgan\r\n\r\nHello Alex,\r\n\r\nYour order 448812 has been cancelled and refunded.\r\n", 3)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, real, time.Now().AddDate(0, 0, -1)), review7Msg(3, attack, time.Now()))
	got := fx.orders(t, "kaffeekontor")
	t.Logf("order_status(kaffeekontor) = %s", got)
	if strings.Contains(got, `"status":"cancelled"`) {
		t.Errorf("a stranger's words echoed by the shop's helpdesk cancelled the person's order: %s", got)
	}
}

// ATTACK: a mailing list that rewrites From for DMARC (Mailman, Sympa,
// groups.io do; any self-hosted list) sends every member's post as
// "Mallory via Neighbours <neighbours@lists.town.example>", authenticated
// for the list's own old domain. Only googlegroups.com and groups.io are
// shared senders by name; a self-hosted list's posts are the list
// domain's: a stranger's post to it (open lists accept anyone's) with an
// invoice is a trusted bill.
// SAFE: a mail with List-Id / List-Post (a list's) states nothing
// trusted; its words are its poster's.
func TestReview10MailingListPostIsNoTrustedBill(t *testing.T) {
	list := "List-Id: Neighbours <neighbours.lists.town.example>\r\nList-Post: <mailto:neighbours@lists.town.example>\r\nReply-To: Mallory <mallory@evil.example>\r\n"
	seed := review10Mail("Bob via Neighbours <neighbours@lists.town.example>", "town.example", list, "[Neighbours] Street party", "Sat, 21 Nov 2025 08:00:00 +0100", "See you all.\r\n", 1)
	bill := review10Mail("Mallory via Neighbours <neighbours@lists.town.example>", "town.example", list, "[Neighbours] Invoice INV-2026-4471", "Sat, 21 Nov 2026 08:00:00 +0100", review10Bill, 2)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, bill, time.Now()))
	got := review10Bills(t, fx)
	t.Logf("bills_due = %s", got)
	if !strings.Contains(got, "212.50") {
		t.Skipf("no bill read")
	}
	if strings.Contains(got, `"trusted_sender":true`) {
		t.Errorf("a stranger's post to a list is a trusted bill: %s", got)
	}
}

// ATTACK: an internationalised look-alike of a brand's own domain.
// "pаypal.com" with a Cyrillic "а" (xn--pypal-4ve.com) is a domain anyone
// can register and authenticate (SMTPUTF8 mail carries it in Unicode).
// Seeded with one mail weeks ahead it is trusted, and the tools show it as
// issuer and domain "pаypal.com": to the person's agent, which reads
// text, the very name of PayPal. Unlike the known amazon-orders.shop case
// nothing in the shown name tells it apart.
// SAFE: a domain whose labels mix scripts, or hold letters confusable
// with Latin ones, is shown in its ASCII (xn--) form and never trusted
// (or never named by a brand it looks like).
func TestReview10HomographDomainShownAsBrand(t *testing.T) {
	const d = "p\u0430ypal.com" // Cyrillic a
	seed := review10Mail("PayPal <service@"+d+">", d, "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hi Alex, welcome.\r\n", 1)
	bill := review10Mail("PayPal <service@"+d+">", d, "", "Your invoice INV-2026-4471", "Sat, 21 Nov 2026 08:00:00 +0100", review10Bill, 2)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, bill, time.Now()))
	got := review10Bills(t, fx)
	t.Logf("bills_due = %s", got)
	if !strings.Contains(got, "212.50") {
		t.Skipf("no bill read")
	}
	if strings.Contains(got, `"trusted_sender":true`) && strings.Contains(got, d) {
		t.Errorf("a homograph of paypal.com is shown as a trusted issuer %q: %s", d, got)
	}
}

// ATTACK: an internet provider's customers have mailboxes at the very
// domain the provider bills from (sky.com, virginmedia.com, rogers.com,
// shaw.ca, ziggo.nl, telenet.be: none is in mail/trust/freemail.txt).
// Any of its millions of customers, a stranger with an address there,
// is the provider to the merge: its "payment received" for the person's
// invoice pays the real, trusted bill (one sender key, "sky.com"), and
// its own invoice is a trusted bill of issuer "Sky".
// SAFE: a consumer mailbox provider's domain is free mail (a sender
// there is its address; the provider's own bills come from its billing
// addresses, which the user can vouch for by corresponding), or at least
// a payment notice from another address pays nothing.
func TestReview10ISPMailboxPaysProviderBill(t *testing.T) {
	for _, d := range []string{"sky.com", "virginmedia.com", "rogers.com", "shaw.ca", "ziggo.nl", "telenet.be"} {
		t.Run(d, func(t *testing.T) {
			seed := review10Mail("Provider <noreply@"+d+">", d, "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
			real := review10Mail("Provider Billing <billing@"+d+">", d, "", "Your bill is ready", "Fri, 20 Nov 2026 08:00:00 +0100",
				"Hi Alex,\r\n\r\nYour new bill is ready.\r\nInvoice number: 88120344\r\nAmount due: $94.20\r\nDue date: December 9, 2026\r\n", 2)
			attack := review10Mail("Mallory Smith <mallory.smith1987@"+d+">", d, "", "Payment received for invoice 88120344", "Sat, 21 Nov 2026 08:00:00 +0100",
				"Hi Alex,\r\n\r\nThank you for your payment.\r\nInvoice number: 88120344\r\nAmount paid: $94.20\r\nStatus: Paid in full\r\n", 3)
			fake := review10Mail("Mallory Smith <mallory.smith1987@"+d+">", d, "", "Invoice INV-2026-4471", "Sat, 21 Nov 2026 09:00:00 +0100", review10Bill, 4)
			old := time.Now().AddDate(-1, 0, 0)
			fx := review7Store(t, review7Msg(1, seed, old), review7Msg(2, real, time.Now().AddDate(0, 0, -1)), review7Msg(3, attack, time.Now()), review7Msg(4, fake, time.Now()))
			got := review10Bills(t, fx)
			t.Logf("bills_due = %s", got)
			if !strings.Contains(got, "94.20") {
				t.Errorf("a stranger with a mailbox at %s paid the person's bill from %s: %s", d, d, got)
			}
			if strings.Contains(got, "212.50") && strings.Contains(got[strings.Index(got, "212.50"):], `"trusted_sender":true`) {
				t.Errorf("a stranger with a mailbox at %s has a trusted bill: %s", d, got)
			}
		})
	}
}

// ATTACK: the share services' class reaches travel. A stranger's Google
// Calendar invitation (any Google account can invite any address; Google
// mails it from calendar-notification@google.com with the event as
// invite.ics) names a flight with a booking code: it is a trusted trip,
// and a later invitation update of the same "booking" with STATUS
// CANCELLED is the same sender (google.com) as every other stranger's
// invitation.
// SAFE: an invitation relayed by a calendar service is its organiser's
// word: untrusted, and its message alone.
func TestReview10CalendarInviteIsTrustedTrip(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\n" +
		"DTSTART:20261214T091000Z\r\nDTEND:20261214T171000Z\r\nUID:x10-flight@google.com\r\n" +
		"SUMMARY:Flight LH 400 Frankfurt (FRA) to New York (JFK)\r\nDESCRIPTION:Booking reference: XK4R7Q\\nLufthansa flight LH 400\r\n" +
		"ORGANIZER;CN=Mallory:mailto:mallory.travel@gmail.com\r\nSTATUS:CONFIRMED\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	body := "--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMallory has invited you to: Flight LH 400 Frankfurt (FRA) to New York (JFK)\r\n" +
		"--b1\r\nContent-Type: text/calendar; charset=utf-8; method=REQUEST\r\nContent-Disposition: attachment; filename=invite.ics\r\n\r\n" + ics + "--b1--\r\n"
	mail := "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=google.com; dmarc=pass header.from=google.com\r\n" +
		"From: Google Calendar <calendar-notification@google.com>\r\nReply-To: Mallory <mallory.travel@gmail.com>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: Invitation: Flight LH 400 Frankfurt (FRA) to New York (JFK) @ Mon Dec 14, 2026\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\nMessage-ID: <x10-cal@x>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b1\r\n\r\n" + body
	seed := review10Mail("Google <no-reply@accounts.google.com>", "google.com", "", "Security alert", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, mail, time.Now()))
	got := fx.trips(t)
	t.Logf("trips = %s", got)
	if !strings.Contains(got, "LH 400") {
		t.Skipf("no trip read")
	}
	if strings.Contains(got, `"trusted_sender":true`) {
		t.Errorf("a stranger's calendar invitation is a trusted flight: %s", got)
	}
}

// ATTACK: a money request through the person's own bank. Anyone who
// knows the person's e-mail address can send a Zelle request; the
// person's bank (chase.com: authenticated, years old, the most trusted
// sender there is) mails "MALLORY SMITH requested $212.50 with Zelle"
// with the requester's own memo. The memo's invoice number and due date
// make it a trusted bill issued by "Chase", due December 9. (Bizum,
// Swish, Vipps, MobilePay and banks' "request money" features carry a
// stranger's words the same way.)
// SAFE: a request from another person relayed by a bank is no bill of the
// bank's: a "requested … with Zelle"/request-money notice is the
// requester's word, untrusted, its message alone.
func TestReview10BankMoneyRequestIsTrustedBill(t *testing.T) {
	seed := review10Mail("Chase <no.reply.alerts@chase.com>", "chase.com", "", "Your statement is ready", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
	req := review10Mail("Chase <no.reply.alerts@chase.com>", "chase.com", "", "MALLORY SMITH requested $212.50 with Zelle®", "Sat, 21 Nov 2026 08:00:00 +0100",
		"Hi Alex,\r\n\r\nMALLORY SMITH requested $212.50 with Zelle®.\r\n\r\nMemo: Invoice INV-2026-4471 - amount due $212.50, due date December 9, 2026\r\n\r\nTo pay, sign in to Chase.\r\n", 2)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, req, time.Now()))
	got := review10Bills(t, fx)
	t.Logf("bills_due = %s", got)
	if strings.Contains(got, "212.50") && strings.Contains(got, `"trusted_sender":true`) {
		t.Errorf("a stranger's Zelle request through the person's bank is a trusted bill: %s", got)
	}
}
