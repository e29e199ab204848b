package extract_test

// The thirteenth outside review (2026-11-30, an attacker given the docs
// and a clone): proofs of what works today, each with the safe result it
// expects.

import (
	"strings"
	"testing"
	"time"
)

// review13Bill is the first bill's "number status amount", or "" when the
// mail gives none.
func review13Bill(from, subject, text string) string {
	for _, f := range mailFacts(from, subject, text, time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)) {
		if f.Bill != nil {
			amt := ""
			if f.Bill.Amount != nil {
				amt = f.Bill.Amount.Amount
			}
			return f.Bill.Number + " " + f.Bill.Status + " " + amt
		}
	}
	return ""
}

// ATTACK (HIGH, a real bill lost): readBill's zeroDue (662720e6, "a zero
// balance pays the bill") takes the first balance label of the first 40
// lines (billcharged.go: balanceFigure), with no regard to the due day or
// the amount due the bill also labels. A statement's balance-forward block,
// the commonest US utility and card layout ("Previous balance $61.22 /
// Payment received -$61.22 / Remaining balance: $0.00" above "New
// charges" and "Total amount due: $64.10, Due date: December 15"), is
// read as paid: bills_due drops the new bill. Before 662720e6 it was due.
// SAFE: status due, 64.10 (a zero balance pays only when no other
// balance or due label gives an amount, or only the last/total balance
// label counts; never with a due day and a non-zero amount due).
func TestReview13ZeroBalanceForwardPaysNewBill(t *testing.T) {
	got := review13Bill("City Water <billing@citywater.example>", "Your November statement",
		"Account number: 4471-22\nStatement date: November 18, 2026\n\nPrevious balance: $61.22\nPayment received, thank you: -$61.22\nRemaining balance: $0.00\n\nNew charges: $64.10\nTotal amount due: $64.10\nDue date: December 15, 2026\n")
	if got != " due 64.10" {
		t.Errorf("statement with a balance forward of zero: bill %q, want due 64.10", got)
	}
}

// ATTACK (HIGH, a real bill lost): receiptPaid (billcharged.go, 662720e6)
// makes any mail that calls itself a receipt and prints a masked card or a
// payment method's label paid, unless a debit is to come, a due day, an
// open balance label or a purchase's label stands. It never asks whether
// the payment went through: a declined, pending, unsuccessful or
// authorisation-only receipt, a refund's receipt and a deposit receipt
// whose balance is told in a sentence are all "paid". The issuer's own
// notice of a failed card payment then closes the real bill, and
// mergeBill keeps paid final, so no later reminder reopens it. Each was
// "due" before 662720e6.
// SAFE: none of these is paid (a failure, pending, hold, refund or
// remaining-amount word in the receipt vetoes receiptPaid, as billDebit
// does); the bill stays due (or is read as no bill).
func TestReview13ReceiptNotPaidIsPaid(t *testing.T) {
	for _, c := range []struct{ name, from, subject, text string }{
		{"status declined", "Harbor Radio <billing@harborradio.example>", "Payment receipt",
			"Invoice number: HR-2026-1188\nAmount: $8.60\nPayment method: Visa •••• 2231\nStatus: Declined\n"},
		{"status pending", "Harbor Radio <billing@harborradio.example>", "Payment receipt",
			"Invoice number: HR-2026-1190\nAmount: $50.00\nPayment method: Visa •••• 2231\nPayment status: Pending\n"},
		{"unsuccessful", "Harbor Radio <billing@harborradio.example>", "Payment receipt",
			"Invoice number: HR-2026-1193\nAmount: $8.60\nPayment method: Visa •••• 2231\nTransaction status: Unsuccessful\n"},
		{"authorisation hold", "Harbor Radio <billing@harborradio.example>", "Your receipt",
			"Invoice number: HR-2026-1194\nAmount: $8.60\nPayment method: Visa •••• 2231\nThis is a temporary authorisation hold; your card has not been charged yet.\n"},
		{"refund", "Harbor Radio <billing@harborradio.example>", "Refund receipt",
			"Invoice number: HR-2026-1191\nRefund amount: $50.00\nRefunded to: Visa •••• 2231\n"},
		{"deposit, rest in a sentence", "Maple Photo <accounts@maplephoto.example>", "Receipt for your deposit",
			"Thank you, we've received your deposit.\n\nInvoice: MP-2207\nPaid with Visa •••• 5520: $100.00\nThe remaining $300.00 is due on the day of the shoot.\n"},
		{"de abgelehnt", "Spielwolke <konto@spielwolke.example>", "Ihre Quittung",
			"Rechnungsnummer: SW-2026-11874\nBetrag: 4,99 €\nZahlungsmethode: Visa •••• 7710\nStatus: Abgelehnt\n"},
	} {
		got := review13Bill(c.from, c.subject, c.text)
		if len(got) > 0 && strings.Contains(got, " paid ") {
			t.Errorf("%s: bill %q read as paid", c.name, got)
		}
	}
}

// ATTACK (MEDIUM, a real order's state changed): deliveryToday
// (ee6fb957, "a courier at the door today is out for delivery") fires on
// any "at your door" with a word for today anywhere near it, also in a
// question or a promotion: a real shop's shipping notice (estimated
// delivery in four days) that adds "With Express we're at your door
// today." or "Won't be at your door today? Choose a safe place." makes
// the order and its shipment out_for_delivery. Carriers' own notices
// carry such lines too, and a carrier's notice moves every order that
// lists its tracking number forward (the carrier exception). Before
// ee6fb957 both read shipped.
// SAFE: shipped (the phrase counts only as a statement about this parcel:
// not in a question, a negation, a conditional or an offer).
func TestReview13DoorTodayInPromoOrQuestion(t *testing.T) {
	day := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for _, tail := range []string{
		"Need it faster next time? With Express we're at your door today.",
		"Won't be at your door today? Choose a safe place.",
	} {
		text := "Your order #FF-88120 has shipped with UPS.\nTracking number: 1Z4A9V83E038127748\nEstimated delivery: Tuesday, November 24\n\n" + tail + "\n"
		for _, f := range mailFacts("Fern & Field <orders@fernandfield.example>", "Your order has shipped", text, day) {
			if f.Order != nil && f.Order.Status != "shipped" {
				t.Errorf("%q: order %s is %s, want shipped", tail, f.Order.Number, f.Order.Status)
			}
		}
	}
}

// ATTACK (MEDIUM, a real train lost): withoutAirlineNumbered (cda590a4,
// "a leg under an airline's flight number in flight mail is no train")
// drops a leg whose number starts with any airlines.tsv designator unless
// railProducts lists it (RE, RB, IC, EC, IR, ICE, TGV, IRE). Trenitalia's
// Frecciarossa numbers its trains "FR 9615", and FR is Ryanair's
// designator; ÖBB's Railjet "RJ 62" is Royal Jordanian's. An agency's
// itinerary of a flight and then a Frecciarossa leg (a mail whose words
// are a flight's first) loses the train, which cda590a4^ read.
// SAFE: the train FR 9615 Roma Termini - Milano Centrale is kept (the
// rule asks for a leg the flight rules also see as a flight, or for no
// train word beside the leg, not a designator's letters alone; FR, RJ,
// FA, NJ … join railProducts).
func TestReview13FrecciarossaAfterFlightLost(t *testing.T) {
	day := time.Date(2026, 5, 9, 9, 0, 0, 0, time.UTC)
	text := "Your flight and train\n\nFlight\nAZ 610\nNew York JFK 17:05 - Rome FCO 07:35\n12 May 2026\nBooking code: KX7QPM\n\nTrain\n\n13.05.2026\nab 10:00 Roma Termini\nFR 9615\nan 12:59 Milano Centrale\n"
	trains := 0
	for _, f := range mailFacts("Viaggi Rossi <booking@viaggirossi.example.it>", "Your itinerary", text, day) {
		if f.Segment != nil && f.Segment.Number == "FR 9615" {
			trains++
		}
	}
	if trains != 1 {
		t.Errorf("the Frecciarossa leg FR 9615 after a flight: %d legs, want 1", trains)
	}
}

// ATTACK (MEDIUM, denial of service): runOnLabels (208349c1) breaks a
// long line before each labelled stop, so a one-line mail of run-on
// journeys, one journey a line of 400 bytes ("Outward A - B Departure:
// Fri 12 Jun 2026 at 09:00 Arrival: …", 250 KB, the size textRulesIn
// allows), is now read as thousands of labelled legs: 3 s of one core
// for one mail, 0.15 s before 208349c1; the same text as one line, 1.3 s
// (0.16 s before). The same legs already broken cost as much before, so
// the labelled-leg readers' cost is the cause and runOnLabels a new door
// to it. The text's readers have no time budget (messageTime bounds only
// attachments); a few dozen such mails hold the facts pass for minutes.
// SAFE: one such mail costs well under a second (cap the legs or the
// labelled lines read per mail, as maxFlightNumbers caps flights, or put
// the text's readers under messageTime).
func TestReview13RunOnJourneysCost(t *testing.T) {
	unit := "Outward London Kings Cross - Edinburgh Waverley Departure: Fri 12 Jun 2026 at 09:00 Arrival: Fri 12 Jun 2026 at 13:20 Departure: Fri 12 Jun 2026 at 09:00 Arrival: Fri 12 Jun 2026 at 13:20 Departure: Fri 12 Jun 2026 at 09:00 Arrival: Fri 12 Jun 2026 at 13:20 Return York - Leeds Departure: Sat 13 Jun 2026 at 10:00 Arrival: Sat 13 Jun 2026 at 11:00\n"
	for _, c := range []struct{ name, text string }{
		{"run-on lines", strings.Repeat(unit, 250000/len(unit))},
		{"one line", strings.Repeat(strings.TrimSuffix(unit, "\n")+" ", 250000/len(unit))},
	} {
		start := time.Now()
		mailFacts("Grand Northern Rail <tickets@gnrail.example.co.uk>", "Your booking", c.text, time.Date(2026, 5, 9, 9, 0, 0, 0, time.UTC))
		d := time.Since(start)
		t.Logf("%s: %v", c.name, d)
		if d > time.Second*raceSlowdown {
			t.Errorf("%s (%d bytes) held the readers %v", c.name, len(c.text), d)
		}
	}
}

// ATTACK (MEDIUM, a real order lost): chargeOnly (billcharged.go,
// 662720e6) reads a receipt that shows its payment and holds no word of
// order.goods as a paid bill, before the order reader. Goods to come are
// often named otherwise: a UK shop's "P&P", a German "Versandkosten" or
// "versendet" (whole words: "versand" does not match inside them), "when
// your order ships" ("ships to" is listed, "ships" is not), Click &
// Collect. Each shop's order confirmation below becomes a paid bill and no
// order: order_status has no order HB-220918 until it ships (and never its
// items or total), and bills shows a "paid bill" to a bookshop. Each was
// an order before 662720e6.
// SAFE: each is order <number> ordered (a receipt that lists goods, a
// quantity or an order's words is an order unless the shop is a known
// app store or subscription; or goods words as stems: "versand*",
// "ship*", "collect", "p&p").
func TestReview13GoodsReceiptIsNoOrder(t *testing.T) {
	day := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct{ from, subject, text, number string }{
		{"Hartwell Books <orders@hartwellbooks.example.co.uk>", "Your order receipt",
			"Thank you for your order!\n\nOrder number: HB-220918\n\nThe Overstory (hardback)   £20.00\nP&P                        £3.99\nTotal                      £23.99\n\nPaid with Visa •••• 8812\n\nWe'll email you when your order ships.\n", "HB-220918"},
		{"Homeway <orders@homeway.example.co.uk>", "Your receipt",
			"Thanks for your order.\n\nOrder number: HW-774411\n\nCordless drill   £89.00\nTotal            £89.00\n\nPayment method: Mastercard •••• 4401\n\nClick & Collect at Homeway Leeds: we'll text you when it's ready to collect.\n", "HW-774411"},
		{"Buchhaus Weber <bestellung@buchhaus-weber.example.de>", "Ihre Quittung",
			"Vielen Dank für Ihre Bestellung!\n\nBestellnummer: BW-552019\n\nDer Zauberberg   24,00 €\nVersandkosten    3,90 €\nGesamt           27,90 €\n\nZahlungsart: Visa •••• 7710\n\nWir benachrichtigen Sie, sobald Ihre Bestellung versendet wird.\n", "BW-552019"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, day) {
			switch {
			case f.Order != nil:
				got = "order " + f.Order.Number + " " + f.Order.Status
			case f.Bill != nil:
				got = "bill " + f.Bill.Number + " " + f.Bill.Status
			}
		}
		if got != "order "+c.number+" ordered" {
			t.Errorf("%s: %q, want order %s ordered", c.from, got, c.number)
		}
	}
}
