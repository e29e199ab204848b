package facts_test

// The tenth outside review (2026-11-29, an attacker given the docs and a
// clone). Each test is an attack that works today; each says the safe
// result it expects.

import (
	"strings"
	"testing"
	"time"
)

// ATTACK (through the tools): the forged From of the person's utility,
// authenticated by a planted Authentication-Results field under the
// provider's own field that the parser rejects (see
// mail/msgauth.TestReview10UnparsableProviderFieldLetsForgedOneThrough:
// the sender's envelope address "a;b"@evil.example, quoted in the
// provider's field, breaks authres.Parse). The forgery is the utility,
// authenticated and trusted, and its "payment received" pays the
// person's real bill: it leaves bills_due.
// SAFE: the forged mail is unauthenticated (the provider's field says
// dmarc=fail), its own message alone, and pays nothing.
func TestReview10PlantedAuthResultsPaysRealBill(t *testing.T) {
	const d = "citypower.example"
	seed := review10Mail("City Power <billing@"+d+">", d, "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
	bill := review10Mail("City Power <billing@"+d+">", d, "", "Your bill 88120344", "Fri, 20 Nov 2026 08:00:00 +0100",
		"Hi Alex,\r\n\r\nYour new bill is ready.\r\nInvoice number: 88120344\r\nAmount due: $94.20\r\nDue date: December 9, 2026\r\n", 2)
	forged := "Authentication-Results: mx.demo-mail.example;\r\n" +
		"       spf=pass (mx.demo-mail.example: domain of \"a;b\"@evil.example designates 192.0.2.7 as permitted sender) smtp.mailfrom=\"a;b\"@evil.example;\r\n" +
		"       dmarc=fail (p=REJECT sp=REJECT dis=QUARANTINE) header.from=" + d + "\r\n" +
		"Authentication-Results: mx.demo-mail.example; dkim=pass header.d=" + d + "; dmarc=pass header.from=" + d + "\r\n" +
		"From: City Power <billing@" + d + ">\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\nSubject: Payment received for invoice 88120344\r\n" +
		"Date: Sat, 21 Nov 2026 08:00:00 +0100\r\nMessage-ID: <x10-forged@x>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"Hi Alex,\r\n\r\nThank you for your payment.\r\nInvoice number: 88120344\r\nAmount paid: $94.20\r\nStatus: Paid in full\r\n"
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, bill, time.Now().AddDate(0, 0, -1)), review7Msg(3, forged, time.Now()))
	got := review10Bills(t, fx)
	t.Logf("bills_due = %s", got)
	if !strings.Contains(got, "88120344") {
		t.Errorf("a forged From under a planted Authentication-Results field paid the person's bill: bills_due = %s", got)
	}
}

// ATTACK (a real fact lost, no stranger needed): an airline's
// cancellation-and-rebooking mail. "Your flight LH 400 … has been
// cancelled. We have rebooked you on the following flight: LH 402 …"
// (and "Cancelled: LH 400 … / Rebooked: LH 402 …") marks the NEW flight
// LH 402 cancelled: the mail's cancellation word is applied to every leg
// it lists. With LH 400 cancelled too, every segment of booking XK4R7Q is,
// the trip is cancelled and get_upcoming_travel leaves it out: the
// person's agent says they have no flight on the 14th; in the sentence
// form the trip stays with LH 400 confirmed and LH 402 cancelled, the
// states exactly inverted; a schedule change that lists "Your original
// flight" above "Your new flight" leaves both confirmed. (The German
// "annulliert … umgebucht" mail is read right.)
// SAFE: a cancellation applies to the leg it names; a leg under
// "rebooked on", "new flight", "your new itinerary" is confirmed.
func TestReview10RebookedFlightReadAsCancelled(t *testing.T) {
	const d = "lufthansa.com"
	seed := review10Mail("Lufthansa <info@"+d+">", d, "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
	booking := review10Mail("Lufthansa <info@"+d+">", d, "", "Your booking XK4R7Q", "Tue, 10 Nov 2026 08:00:00 +0100",
		"Dear Alex,\r\n\r\nBooking reference: XK4R7Q\r\n\r\nLH 400 Frankfurt (FRA) 10:10 -> New York (JFK) 12:55, 14 December 2026\r\n", 2)
	for _, tc := range []struct{ name, body string }{
		{"sentence", "Dear Alex,\r\n\r\nBooking reference: XK4R7Q\r\n\r\nUnfortunately your flight LH 400 on 14 December 2026 has been cancelled. We have rebooked you on the following flight:\r\n\r\nLH 402 Frankfurt (FRA) 13:25 -> New York (JFK) 16:05, 14 December 2026\r\n"},
		{"original-new", "Dear Alex,\r\n\r\nBooking reference: XK4R7Q\r\n\r\nYour original flight:\r\nLH 400 Frankfurt (FRA) 10:10 -> New York (JFK) 12:55, 14 December 2026\r\n\r\nYour new flight:\r\nLH 402 Frankfurt (FRA) 13:25 -> New York (JFK) 16:05, 14 December 2026\r\n"},
		{"labels", "Dear Alex,\r\n\r\nBooking reference: XK4R7Q\r\n\r\nCancelled: LH 400 Frankfurt (FRA) 10:10 -> New York (JFK) 12:55, 14 December 2026\r\nRebooked: LH 402 Frankfurt (FRA) 13:25 -> New York (JFK) 16:05, 14 December 2026\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rebook := review10Mail("Lufthansa <info@"+d+">", d, "", "Your flight has been cancelled - new booking XK4R7Q", "Sat, 21 Nov 2026 08:00:00 +0100", tc.body, 3)
			fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, booking, time.Now().AddDate(0, 0, -10)), review7Msg(3, rebook, time.Now()))
			got := fx.trips(t)
			t.Logf("get_upcoming_travel = %s", got)
			if !strings.Contains(got, `"status":"confirmed","reservation":"XK4R7Q","number":"LH 402"`) {
				t.Errorf("the person's rebooked flight LH 402 is not confirmed upcoming travel: %s", got)
			}
			if strings.Contains(got, `"status":"confirmed","reservation":"XK4R7Q","number":"LH 400"`) {
				t.Errorf("the cancelled flight LH 400 is still confirmed: %s", got)
			}
		})
	}
}

// ATTACK (a real fact lost, no stranger needed): the shop's own
// cancellation or return of an order that had shipped. mergeOrder applies
// it ("cancelled and returned always apply"), then the order's shipments,
// still "shipped"/"delivered" from the earlier mail, are folded back into
// the order's status, and nextStatus reads "shipped after a
// cancellation" as a new shipment: the order shows shipped/delivered
// again, and the person's agent tells them a cancelled or refunded order
// is on its way.
// SAFE: an order's state is its newest mail's when that is a
// cancellation or return; a shipment's older state does not undo it.
func TestReview10ShippedOrderCancellationLost(t *testing.T) {
	for _, tc := range []struct{ name, subject, body, want string }{
		{"cancelled", "Order 448812 cancelled", "Hi Alex,\r\n\r\nYour order 448812 has been cancelled. The parcel is being returned to us and you have been refunded $42.00.\r\n", "cancelled"},
		{"returned", "Refund for order 448812", "Hi Alex,\r\n\r\nWe have received your return for order 448812 and refunded $42.00 to your card.\r\n", "returned"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seed := review10Mail("Kaffee Kontor <orders@kaffeekontor.example>", "kaffeekontor.example", "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
			shipped := review10Mail("Kaffee Kontor <orders@kaffeekontor.example>", "kaffeekontor.example", "", "Your order 448812 has shipped", "Fri, 20 Nov 2026 08:00:00 +0100",
				"Hi Alex,\r\n\r\nYour order 448812 has shipped.\r\nEthiopia Yirgacheffe 1 kg\r\nOrder total: $42.00\r\nCarrier: UPS\r\nTracking number: 1Z999AA10123456784\r\n", 2)
			last := review10Mail("Kaffee Kontor <orders@kaffeekontor.example>", "kaffeekontor.example", "", tc.subject, "Sat, 21 Nov 2026 08:00:00 +0100", tc.body, 3)
			fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, shipped, time.Now().AddDate(0, 0, -1)), review7Msg(3, last, time.Now()))
			got := fx.orders(t, "kaffeekontor")
			t.Logf("order_status = %s", got)
			if !strings.Contains(got, `"sources":[2,3]`) {
				t.Skipf("the last mail is not part of the order")
			}
			if !strings.Contains(got, `"number":"448812","status":"`+tc.want+`"`) {
				t.Errorf("the shop's own %s of a shipped order is lost: %s", tc.want, got)
			}
		})
	}
}

// ATTACK (no stranger needed; a real fact lost): a partial payment's
// receipt, "Thank you for your payment of $50.00 … Remaining balance:
// $44.20, due December 9", is read as the invoice paid (its amount the
// payment's; in German "Teilzahlung … Offener Betrag: 44,20 EUR" even the
// open amount, marked paid), and "Paid is final" in the merge: the
// person's real bill, still $44.20 due, leaves bills_due.
// SAFE: a payment with a remaining balance, open amount or amount still
// due in the same mail is no payment in full: the bill stays due (for the
// remainder).
func TestReview10PartialPaymentPaysBill(t *testing.T) {
	for _, tc := range []struct{ name, bill, pay string }{
		{"en", "Hi Alex,\r\n\r\nYour new bill is ready.\r\nInvoice number: 88120344\r\nAmount due: $94.20\r\nDue date: December 9, 2026\r\n",
			"Hi Alex,\r\n\r\nThank you for your payment of $50.00.\r\nInvoice number: 88120344\r\nRemaining balance: $44.20\r\nDue date: December 9, 2026\r\n"},
		{"de", "Hallo Alex,\r\n\r\nIhre neue Rechnung ist da.\r\nRechnungsnummer: 88120344\r\nRechnungsbetrag: 94,20 EUR\r\nFällig am: 09.12.2026\r\n",
			"Hallo Alex,\r\n\r\nvielen Dank für Ihre Teilzahlung von 50,00 EUR.\r\nRechnungsnummer: 88120344\r\nOffener Betrag: 44,20 EUR\r\nFällig am: 09.12.2026\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seed := review10Mail("City Power <billing@citypower.example>", "citypower.example", "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
			bill := review10Mail("City Power <billing@citypower.example>", "citypower.example", "", "Your bill 88120344", "Fri, 20 Nov 2026 08:00:00 +0100", tc.bill, 2)
			pay := review10Mail("City Power <billing@citypower.example>", "citypower.example", "", "Payment received", "Sat, 21 Nov 2026 08:00:00 +0100", tc.pay, 3)
			if got := review10Bills(t, review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, bill, time.Now().AddDate(0, 0, -1)))); !strings.Contains(got, "88120344") {
				t.Fatalf("the bill alone is not due: %s", got)
			}
			fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, bill, time.Now().AddDate(0, 0, -1)), review7Msg(3, pay, time.Now()))
			got := review10Bills(t, fx)
			t.Logf("bills_due = %s", got)
			if !strings.Contains(got, "88120344") {
				t.Errorf("a partial payment paid invoice 88120344 in full: bills_due = %s", got)
			}
		})
	}
}

// ATTACK (a real fact changed, no stranger needed): one item of an order
// cancelled. "One item in your order 448812 has been cancelled because it
// is out of stock: Blue mug. The rest of your order will ship as
// planned." and a "Cancelled items: … / Remaining items: …" update are
// each read as order 448812 cancelled, and a cancellation always applies
// in the merge: the person's agent says the order is cancelled (and the
// person may order again) while the rest of it is on its way.
// SAFE: a cancellation of an item, a line or a part of the order ("one
// item", "cancelled items", "the rest of your order") is no cancellation
// of the order; the order keeps its state.
func TestReview10PartialCancellationCancelsOrder(t *testing.T) {
	const d = "kaffeekontor.example"
	seed := review10Mail("Kaffee Kontor <orders@"+d+">", d, "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
	real := review10Mail("Kaffee Kontor <orders@"+d+">", d, "", "Order 448812 confirmed", "Fri, 20 Nov 2026 08:00:00 +0100",
		"Hi Alex,\r\n\r\nThank you for your order! We'll let you know when it ships.\r\nOrder number: 448812\r\nEthiopia Yirgacheffe 1 kg $42.00\r\nBlue mug $8.00\r\nOrder total: $50.00\r\n", 2)
	for _, tc := range []struct{ name, subject, body string }{
		{"sentence", "An item in your order 448812 has been cancelled", "Hi Alex,\r\n\r\nOne item in your order 448812 has been cancelled because it is out of stock: Blue mug.\r\nThe rest of your order will ship as planned.\r\n"},
		{"list", "Update to order 448812", "Hi Alex,\r\n\r\nOrder number: 448812\r\n\r\nCancelled items:\r\nBlue mug 1x $8.00\r\n\r\nRemaining items:\r\nEthiopia Yirgacheffe 1 kg $42.00\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			upd := review10Mail("Kaffee Kontor <orders@"+d+">", d, "", tc.subject, "Sat, 21 Nov 2026 08:00:00 +0100", tc.body, 3)
			fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, real, time.Now().AddDate(0, 0, -1)), review7Msg(3, upd, time.Now()))
			got := fx.orders(t, "kaffeekontor")
			t.Logf("order_status = %s", got)
			if strings.Contains(got, `"number":"448812","status":"cancelled"`) {
				t.Errorf("one item's cancellation cancelled the whole order: %s", got)
			}
		})
	}
}
