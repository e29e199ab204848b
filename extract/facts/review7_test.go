package facts_test

// The seventh outside review (2026-11-29, a reviewer given the docs and a
// clone): its proofs of HIGH-1 (a stranger's GitHub @mention was a
// trusted sender: a trusted bill, a borrowed shop's name, a real order
// delivered), MEDIUM-3 (a Gmail stranger delivered a new shop's order
// by naming its tracking number) and LOW-1 through the tools (a bank's
// newsletter's example payment was a trusted bill), each failing before
// its fix.

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"mailnode/assets"
	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

// review7Mail is a mail from "from" whose provider vouches for domain.
func review7Mail(from, domain, subject, body string, n int) string {
	return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=" + domain + "; dmarc=pass header.from=" + domain + "\r\n" +
		"From: " + from + "\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: " + subject + "\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\nMessage-ID: <xa7-" + string(rune('a'+n)) + "@x>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
}

// review7Store is a store whose facts are read as the tools read them.
func review7Store(t *testing.T, msgs ...store.NewMessage) readers {
	t.Helper()
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	if err := st.AddMessages(ctx, inbox.ID, msgs, uint32(len(msgs))); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	return readers{fx}
}

// review7Msg is a message arriving at arrived.
func review7Msg(uid uint32, raw string, arrived time.Time) store.NewMessage {
	return store.NewMessage{UID: uid, Raw: []byte(raw), Size: int64(len(raw)), InternalDate: arrived}
}

// A Gmail stranger who knows a parcel's tracking number moves the order of
// a shop first seen this week (authenticated, not yet trusted: the same
// tier as an authenticated Gmail address) to delivered, and re-dates it:
// the carrier exception of "Merging" holds for any sender whose mail names
// no order number.
func TestReview7GmailStrangerDeliversNewShopOrder(t *testing.T) {
	shop := review7Mail("Kleine Laden <orders@kleiner-laden-shop.de>", "kleiner-laden-shop.de", "Ihre Bestellung 448812 wurde versandt",
		"Hallo Alex,\r\n\r\nIhre Bestellung 448812 wurde versandt.\r\nVersand mit DHL, Sendungsnummer: 00340434161094042557\r\nVoraussichtliche Zustellung: 3. Dezember 2026\r\n", 4)
	gmail := review7Mail("DHL Paket <dhl.paket.info@gmail.com>", "gmail.com", "Your parcel has been delivered",
		"Hello,\r\n\r\nyour parcel 00340434161094042557 has been delivered and handed to a neighbour.\r\n", 5)
	fx := review7Store(t, review7Msg(1, shop, time.Now()), review7Msg(2, gmail, time.Now()))
	got := fx.orders(t, "kleiner-laden-shop")
	t.Logf("order_status = %s", got)
	if strings.Contains(got, `"status":"delivered"`) {
		t.Errorf("a Gmail stranger delivered the shop's order: %s", got)
	}
}

// review7GitHub is a GitHub notification: a stranger @mentions the person in an
// issue of a repository the stranger owns, and GitHub mails the comment,
// written by the stranger, from notifications@github.com, DKIM-signed and
// DMARC-aligned for github.com, an established domain (the person has had
// GitHub mail for years; assets/demo-senders.txt lists it since 2013).
func review7GitHub(n int, title, comment string) string {
	return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=github.com; spf=pass smtp.mailfrom=github.com; dmarc=pass header.from=github.com\r\n" +
		"From: Mallory Parcel <notifications@github.com>\r\nReply-To: mallory/parcels <reply+ABC@reply.github.com>\r\n" +
		"To: mallory/parcels <parcels@noreply.github.com>\r\nCc: Alex Morgan <alex.morgan@demo-mail.example>, Mention <mention@noreply.github.com>\r\n" +
		"Subject: [mallory/parcels] " + title + " (Issue #" + string(rune('0'+n)) + ")\r\n" +
		"Date: Fri, 20 Nov 2026 09:00:00 +0000\r\nMessage-ID: <mallory/parcels/issues/" + string(rune('0'+n)) + "@github.com>\r\n" +
		"List-ID: mallory/parcels <parcels.mallory.github.com>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + comment +
		"\r\n\r\n-- \r\nReply to this email directly, view it on GitHub:\r\nhttps://github.com/mallory/parcels/issues/" + string(rune('0'+n)) +
		"\r\nYou are receiving this because you were mentioned.\r\n"
}

// A stranger's GitHub @mention is a trusted sender's mail: it moves the
// person's trusted Amazon order to delivered (the carrier exception at
// tier 3), and it puts a trusted bill in bills_due.
func TestReview7GitHubMentionIsTrusted(t *testing.T) {
	amazon, err := fs.ReadFile(assets.DemoMailbox(), "INBOX/11-amazon-shipped.eml")
	if err != nil {
		t.Fatal(err)
	}
	seed := review7GitHub(1, "Welcome", "@alex-morgan thanks for the star!")
	parcel := review7GitHub(2, "Parcel 1Z999AA10123456784 delivered",
		"@alex-morgan Your package has been delivered.\r\n\r\nUPS tracking number: 1Z999AA10123456784\r\nDelivered: Friday, November 20, 2026\r\n")
	bill := review7GitHub(3, "Invoice INV-2026-0931",
		"@alex-morgan\r\n\r\nInvoice number: INV-2026-0931\r\nAmount due: $349.99\r\nDue date: December 4, 2026\r\n")
	old := time.Now().AddDate(-1, 0, 0)
	fx := review7Store(t, review7Msg(1, string(amazon), old), review7Msg(2, seed, old), review7Msg(3, parcel, time.Now()), review7Msg(4, bill, time.Now()))
	orders := fx.orders(t, "amazon")
	t.Logf("order_status(amazon) = %s", orders)
	if strings.Contains(orders, `"status":"delivered"`) {
		t.Errorf("a stranger's GitHub comment delivered the trusted Amazon order")
	}
	bills, err := fx.fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 11, 22, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	got := join(bills)
	t.Logf("bills_due = %s", got)
	if strings.Contains(got, "349.99") && strings.Contains(got, `"trusted_sender":true`) {
		t.Errorf("a stranger's GitHub comment is a trusted bill")
	}
}

// A stranger's GitHub @mention in the words of a building's notice (the
// claimless path: no domain of its own, named by the shop its text names)
// is a trusted order of "Amazon.com" in order_status(amazon).
func TestReview7GitHubClaimlessNoticeBorrowsShop(t *testing.T) {
	seed := review7GitHub(1, "Welcome", "@alex-morgan thanks for the star!")
	desk := review7GitHub(2, "A parcel is waiting for you",
		"@alex-morgan Hello Alex,\r\n\r\nYour package from Amazon.com is waiting at the front desk.\r\nTracking number: 1Z999AA10199999999\r\n")
	shop := review7GitHub(3, "Ihre Sendung",
		"@alex-morgan Hallo Alex,\r\n\r\nIhre Amazon Sendung wurde heute zugestellt.\r\nSendungsnummer: 00340434161094049999\r\n")
	old := time.Now().AddDate(-1, 0, 0)
	fx := review7Store(t, review7Msg(1, seed, old), review7Msg(2, desk, time.Now()), review7Msg(3, shop, time.Now()))
	got := fx.orders(t, "amazon")
	t.Logf("order_status(amazon) = %s", got)
	if strings.Contains(got, `"trusted_sender":true`) && strings.Contains(got, `"merchant":"Amazon`) {
		t.Errorf("a stranger's GitHub comment is a trusted Amazon order")
	}
}

// A bank's newsletter (an established, authenticated domain) that explains
// its reminder feature with an example amount and day is a trusted bill
// due in bills_due (bill.topic's "payment reminder", "upcoming payment",
// "payment is due", 236df41; "850,00 euro", c58ee4e).
func TestReview7NewsletterIsNoTrustedBill(t *testing.T) {
	seed := review7Mail("Monzo <hello@monzo.com>", "monzo.com", "Welcome to Monzo", "Hi Alex, welcome aboard.\r\n", 0)
	news := review7Mail("Monzo <hello@monzo.com>", "monzo.com", "Never miss a bill again",
		"Hi Alex,\r\n\r\nNever miss a payment again. Set up a payment reminder in the app and we'll nudge you\r\n"+
			"the day before your upcoming payment is due. For example, if your rent of 850,00 euro\r\n"+
			"is due on 1 December 2026, we'll remind you on 30 November.\r\n\r\nHappy saving,\r\nThe Monzo team\r\n", 1)
	revo := review7Mail("Revolut <no-reply@revolut.com>", "revolut.com", "Your rent, sorted",
		"Hey Alex,\r\n\r\nScheduled payments are here. Your rent payment is due on the 1st? Set it once:\r\n"+
			"Amount: 1,200.00 GBP\r\nDue: 1 December 2026\r\nand we'll do the rest. Tap Payments > Scheduled to start.\r\n", 2)
	seed2 := review7Mail("Revolut <no-reply@revolut.com>", "revolut.com", "Welcome", "Hi.\r\n", 3)
	old := time.Now().AddDate(-1, 0, 0)
	fx := review7Store(t, review7Msg(1, seed, old), review7Msg(2, news, time.Now()), review7Msg(3, seed2, old), review7Msg(4, revo, time.Now()))
	bills, err := fx.fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 11, 22, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	if got := join(bills); strings.Contains(got, "850.00") || strings.Contains(got, "1200.00") {
		t.Errorf("a newsletter's example is a bill due: %s", got)
	}
}
