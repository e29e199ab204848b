package extract_test

// The fifteenth outside review: bills after 56c5e59f (SaaS receipts).

import (
	"strings"
	"testing"
)

// ATTACK (HIGH, a real bill lost from bills_due; new with 56c5e59f):
// bill.paid gained "we billed", "we've billed", "we just charged" and
// "you're paid up" as phrases of a paid receipt. A due invoice says
// "billed" of the charge it asks for ("We billed you $45.00 for March.
// Payment is due April 1"), and a reminder "pay now to make sure you're
// paid up"; a failed charge ("We billed $45.00 to the card ending 4242
// but the charge failed") is not paid either. Each is read as paid, and
// paid is final: the bill leaves bills_due and the agent tells the person
// it is settled.
// SAFE: status due in each: a "billed" phrase says paid only with no due
// date or pay request in the mail (or only of a charge to a card already
// made: "we've just billed your card"), "paid up" only as a statement of
// the present (not after "make sure", "once", "to be"), and a failure
// word after the phrase ("failed", "declined", "unsuccessful") undoes it.
func TestReview15BilledPhraseMarksDueBillPaid(t *testing.T) {
	from := "Brightlane <billing@brightlane.example>"
	for _, c := range [][2]string{
		{"Your March invoice", "Invoice number: BL-2027-0311\nWe billed you $45.00 for March. Payment is due April 1, 2027.\n"},
		{"Your March invoice", "Invoice number: BL-2027-0311\nWe've billed $45.00 to your account. Please pay by April 1, 2027.\n"},
		{"Payment reminder", "Invoice number: BL-2027-0311\nAmount: $45.00\nDue date: April 1, 2027\nPay now to make sure you're paid up.\n"},
		{"Your March invoice", "Invoice number: BL-2027-0311\nAmount: $45.00\nDue date: April 1, 2027\nWe billed $45.00 to the card ending 4242 but the charge failed.\n"},
	} {
		if got := review15Bill(from, c[0], c[1]); !strings.Contains(got, "| due |") {
			t.Errorf("due bill read as %s\n%s", got, c[1])
		}
	}
}

// ATTACK (HIGH, a real bill lost; new with 56c5e59f): paidByLabel now
// takes a paid label alone on its line over the next line's amount
// ("Amount Paid", then "€9.00"). An invoice that shows the last period's
// payment before this period's charge of the same amount (a subscription
// bills the same every month: "Previous balance $45.00 / Amount Paid
// $45.00 / New charges $45.00 / Due date April 1") is read as paid,
// because the paid amount equals the bill's and no bill.balance label
// ("amount due", "balance due") stands to undo it.
// SAFE: due: a paid label over its amount says paid only when the mail
// names no due date and no new charge after it (or the label's amount
// is the mail's last total, not one of a previous period).
func TestReview15PaidLabelOfPreviousPeriod(t *testing.T) {
	from := "Brightlane <billing@brightlane.example>"
	for _, c := range [][2]string{
		{"Your March invoice", "Invoice number: BL-2027-0311\nPrevious balance\n$45.00\nAmount Paid\n$45.00\nNew charges\n$45.00\nDue date: April 1, 2027\n"},
		{"Your March invoice", "Invoice number: BL-2027-0311\nLast month\nAmount Paid\n$45.00\n\nThis month\nInvoice total\n$45.00\nDue date: April 1, 2027\n"},
	} {
		if got := review15Bill(from, c[0], c[1]); !strings.Contains(got, "| due |") {
			t.Errorf("due bill read as %s\n%s", got, c[1])
		}
	}
}

// ATTACK (HIGH, a false bill the agent would pay; new with 56c5e59f):
// readBill now takes onlyAmount (the one amount of the first 60 lines,
// alone on a line once) as the bill's amount whenever the mail has an
// invoice number. A shop's refund ("We've issued your refund. Invoice
// number: 448812", then "$45.00"), a credit note, a credit on the
// account, a voided invoice: each is a due bill of $45.00 from a trusted
// sender, listed by bills_due (none before 56c5e59f). So is an invoice
// "paid by direct debit" (due, not paid).
// SAFE: no due bill of these: onlyAmount only in a mail that says an
// invoice is ready or will be charged (its own test's notice), never in
// one of a refund, credit (note), void or cancellation
// (bill.receipt.unpaid's refund words, a credit's), and "was paid" read
// as paid.
func TestReview15OnlyAmountMakesRefundADueBill(t *testing.T) {
	from := "Greenleaf <orders@greenleaf.example>"
	for _, c := range [][2]string{
		{"Refund issued", "We've issued your refund.\nInvoice number: 448812\n\n$45.00\n\nIt will reach your card in 5 days.\n"},
		{"Your credit note", "Credit note for invoice number 448812\n\n$45.00\n"},
		{"Your invoice is ready", "Your invoice is ready\nInvoice number: 448812\n\nYou have a credit of\n$45.00\n"},
		{"Invoice 448812 cancelled", "Invoice number: 448812 has been voided.\n\n$45.00\n"},
		{"Invoice 448812", "Invoice number: 448812\nThis invoice was paid by direct debit.\n\n$45.00\n"},
	} {
		if got := review15Bill(from, c[0], c[1]); strings.Contains(got, "| due |") {
			t.Errorf("a due bill: %s\n%s", got, c[1])
		}
	}
}
