package facts_test

// The thirteenth outside review (2026-11-30, an attacker given the docs
// and a clone). Each test is an attack that works today; each says the
// safe result it expects.

import (
	"context"
	"strings"
	"testing"
	"time"
)

// ATTACK (HIGH, a real bill lost, end to end): the person's trusted
// issuer sends invoice HR-2026-1188, due December 15; its card payment is
// then declined and the issuer's "Payment receipt" says "Status:
// Declined". receiptPaid (extract/billcharged.go) reads the receipt as
// paid, and mergeBill keeps paid final: bills_due shows the real bill
// paid, and a later reminder does not reopen it. The agent tells the
// person the bill is settled.
// (Without the receipt, bills_due shows HR-2026-1188 due, sources [2,4].)
// SAFE: the merged bill HR-2026-1188 stays due.
func TestReview13DeclinedReceiptClosesRealBill(t *testing.T) {
	const dom = "harborradio.example"
	seed := review7Mail("Harbor Radio <billing@"+dom+">", dom, "Welcome", "Hello.\r\n", 1)
	invoice := review7Mail("Harbor Radio <billing@"+dom+">", dom, "Your invoice HR-2026-1188",
		"Invoice number: HR-2026-1188\r\nAmount due: $8.60\r\nDue date: December 15, 2026\r\n", 2)
	declined := review7Mail("Harbor Radio <billing@"+dom+">", dom, "Payment receipt",
		"Invoice number: HR-2026-1188\r\nAmount: $8.60\r\nPayment method: Visa •••• 2231\r\nStatus: Declined\r\n", 3)
	reminder := review7Mail("Harbor Radio <billing@"+dom+">", dom, "Reminder: invoice HR-2026-1188",
		"Invoice number: HR-2026-1188\r\nAmount due: $8.60\r\nDue date: December 15, 2026\r\n", 4)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)),
		review7Msg(2, invoice, time.Now().Add(-3*time.Hour)), review7Msg(3, declined, time.Now().Add(-2*time.Hour)),
		review7Msg(4, reminder, time.Now().Add(-time.Hour)))
	bills, err := fx.fx.BillsDue(context.Background(), time.Now().AddDate(0, 0, -30), time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	got := join(bills)
	t.Logf("bills_due = %s", got)
	if !strings.Contains(got, `"HR-2026-1188","status":"due"`) {
		t.Errorf("a declined payment's receipt closed the real bill: %s", got)
	}
}

// ATTACK (HIGH, a stranger closes a real bill): many billers take a
// guest payment with the account or invoice number alone. A stranger who
// knows the number pays $1.00 of the person's invoice; the biller's own
// receipt (trusted, same sender) names the invoice, "Amount: $1.00" and
// the card. receiptPaid (extract/billcharged.go, 662720e6) makes any
// receipt showing a card paid without comparing what was paid with what
// was due, and mergeBill keeps paid final: the $389.00 bill leaves
// bills_due, and the biller's reminder cannot bring it back. (Before
// 662720e6 this receipt left the bill due, though for $1.00: the receipt's
// amount replaced the due one; with "Thank you for your payment." above
// it, paidPhraseStands closed the bill before 662720e6 too: the class is
// older, the receipt rule widens it to every receipt.)
// SAFE: HR-2026-2201 stays due (a receipt pays a bill only for its
// amount; a smaller payment is a part payment).
func TestReview13PartPaymentReceiptClosesBill(t *testing.T) {
	const dom = "harborradio.example"
	seed := review7Mail("Harbor Radio <billing@"+dom+">", dom, "Welcome", "Hello.\r\n", 1)
	invoice := review7Mail("Harbor Radio <billing@"+dom+">", dom, "Your invoice HR-2026-2201",
		"Invoice number: HR-2026-2201\r\nAmount due: $389.00\r\nDue date: December 15, 2026\r\n", 2)
	receipt := review7Mail("Harbor Radio <billing@"+dom+">", dom, "Your payment receipt",
		"Invoice number: HR-2026-2201\r\nAmount: $1.00\r\nPayment method: Visa •••• 9999\r\n", 3)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)),
		review7Msg(2, invoice, time.Now().Add(-3*time.Hour)), review7Msg(3, receipt, time.Now().Add(-2*time.Hour)))
	bills, err := fx.fx.BillsDue(context.Background(), time.Now().AddDate(0, 0, -30), time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	got := join(bills)
	t.Logf("bills_due = %s", got)
	if !strings.Contains(got, `"HR-2026-2201","status":"due"`) {
		t.Errorf("a $1.00 receipt closed the $389.00 bill: %s", got)
	}
}
