package extract

import (
	"slices"
	"strings"
	"unicode"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// A receipt's charge (issue 46, the tenth outside set): a receipt that
// shows how it was paid (a card's masked number, "Payment method:") is a
// bill paid, and the amount printed with the card, on its line or alone
// under it, is what was charged ("American Express •••• 1234" over
// "$32.78"). A receipt that delivers nothing (an app store's, a
// subscription's, a streaming service's: no shipping, no parcel) is that
// bill and no order: its "Order ID" numbers the charge. A shop's receipt
// for goods to ship or hand over stays the order's.

var (
	// receiptWords name a mail a receipt (bill.receipt).
	receiptWords = words.NewWholeSet(lang.Entries("bill.receipt"))
	// methodLabels label how a bill was paid (bill.method).
	methodLabels = longestFirst(lang.Entries("bill.method"))
	methodSet    = words.NewWholeSet(methodLabels)
	// goodsWords speak of goods to ship or deliver (order.goods).
	goodsWords = words.NewWholeSet(lang.Entries("order.goods"))
)

// maskedCardRE is a payment card's masked number ("•••• 1234", "****1234",
// "XXXX-1234") or a card's name with its last four digits ("Visa ending
// in 4417", "Mastercard-0000", "Amex 1005").
var maskedCardRE = lazyregexp.New(`(?i)(?:[•*●·]{2,}|\bX{4,}|\bx{4,})[ \t-]?\d{4}\b|\b(?:visa|mastercard|master card|american express|amex|maestro|discover|diners club|jcb|unionpay|carte bancaire|cb)\b[ \t]*(?:-|ending(?: in)?|endet auf|terminant par|terminada en|che termina con|eindigend op)?[ \t]*\d{4}\b`)

// cardGate holds what every match of maskedCardRE holds, so that the
// first lines of most mail, which show no card, are never run through
// it (chargedAmount, paymentLine: the per-mail benchmark took 1.17x
// with the regular expression on every line with a digit).
var cardGate = words.NewSet([]string{"••", "**", "●●", "··", "xxxx", "visa", "mastercard", "master card",
	"american express", "amex", "maestro", "discover", "diners club", "jcb", "unionpay", "carte bancaire", "cb"})

// receiptNamed reports whether the subject or the first lines name the
// mail a receipt: twelve lines of text, blank ones not counted, as a
// store's receipt says so after its greeting and how to use what was
// bought ("This email message will serve as your receipt").
func receiptNamed(subject, text string) bool {
	return receiptWords.In(lower(subject + "\n" + firstTextLines(text, 12)))
}

// paymentShown reports whether one of the first lines shows how a bill
// was paid: a card's masked number, or a payment method's label at the
// line's start.
func paymentShown(text string) bool {
	return paymentLine(text) != ""
}

// paymentLine is the first of the first lines that shows how a bill was
// paid (paymentShown), trimmed; provenance names it as a paid status's
// source.
func paymentLine(text string) string {
	head := firstLines(text, 80)
	cards := cardGate.AnyFold(head)
	for ln := range strings.Lines(head) {
		if cards && hasDigit(ln) && maskedCardRE.MatchString(ln) || methodLabel(strings.ToLower(strings.TrimSpace(ln))) {
			return strings.TrimSpace(ln)
		}
	}
	return ""
}

// methodLabel reports whether lower-cased line l opens with a payment
// method's label, followed by a colon, a column gap or nothing.
func methodLabel(l string) bool {
	if l == "" || !methodSet.In(l) {
		return false
	}
	for _, p := range methodLabels {
		if rest, ok := strings.CutPrefix(l, p); ok {
			rest = strings.TrimLeft(rest, " ")
			return rest == "" || rest[0] == ':' || strings.HasPrefix(rest, "\t") || strings.HasPrefix(l[len(p):], "  ")
		}
	}
	return false
}

// receiptPaid reports whether a mail is a receipt that shows its payment
// and says nothing of a debit to come ("will be charged on …": an
// autopay's notice of a bill due).
func receiptPaid(subject, text string) bool {
	return receiptNamed(subject, text) && shownPaid(subject, text)
}

// shownPaid is receiptPaid less its receipt's name: the payment shown,
// and no word of a debit to come, a payment that failed or a ticket.
func shownPaid(subject, text string) bool {
	if !paymentShown(text) {
		return false
	}
	head := lower(firstLines(text, 60))
	return !billDebit.In(head) && !receiptUnpaid.In(head) && !receiptTicket.In(lower(subject)+"\n"+head)
}

// receiptTicket are the words of a travel ticket's receipt ("Your
// Electronic Ticket Receipt", "bilhete eletrônico", a flight's words):
// a trip bought, for the travel readers, never a paid bill (an airline's
// e-ticket receipt in Portuguese that no travel reader read gave one).
// The ticket's documents (receipt.itinerary, bill.go's ticketDocument)
// and a flight's own words (receipt.ticket).
var receiptTicket = words.NewWholeSet(slices.Concat(lang.Entries("receipt.itinerary"), lang.Entries("receipt.ticket")))

// receiptUnpaid are a receipt's words for a payment that did not go
// through or is not the bill's whole: declined, pending, a hold, a
// refund, an amount remaining (bill.receipt.unpaid; the thirteenth
// outside review, HIGH-2: the issuer's own "Status: Declined" receipt
// closed its real bill).
var receiptUnpaid = words.NewWholeSet(lang.Entries("bill.receipt.unpaid"))

// chargeOnly reports whether a paid receipt delivers nothing: no word of
// its text speaks of shipping, delivery or a parcel. It is a bill, not
// an order (an app store's or a subscription's receipt).
func (c *msgContext) chargeOnly(subject, all string) bool {
	return c.receiptNamed(subject, all) && shownPaid(subject, all) && !goodsWords.In(c.lowerOf(all))
}

// serviceWords name a service paid for that delivers nothing: a
// subscription, a licence, a domain, hosting, a renewal (bill.service).
var serviceWords = words.NewWholeSet(lang.Entries("bill.service"))

// servicePaid reports whether a mail (all, its subject's line and its
// text) says a service that delivers nothing was paid for or renewed in
// its first lines: a domain's automatic renewal ("your domains have been
// automatically renewed … the amount was debited"), a licence's order
// paid ("we received payment for order AT-…"). No word of goods to ship
// and none of a payment that failed or is to come.
func (c *msgContext) servicePaid(all string) bool {
	// Folded as it is read first: most mail says nothing was paid, and a
	// lower-cased copy of each mail's whole text costs.
	if !billPaid.AnyFold(firstLines(all, 40)) {
		return false
	}
	l := c.lowerOf(all)
	head := firstLines(l, 40)
	return serviceWords.In(head) && !goodsWords.In(l) && !receiptUnpaid.In(head) && !billDebit.In(head)
}

// receiptNamed is receiptNamed, worked out once for the subject and text
// last asked.
func (c *msgContext) receiptNamed(subject, text string) bool {
	if !sameString(subject, c.receiptSubject) || !sameString(text, c.receiptText) {
		c.receiptSubject, c.receiptText, c.receipt = subject, text, receiptNamed(subject, text)
	}
	return c.receipt
}

// walletAmount is the amount a wallet's line shows paid, as ride
// receipts show theirs (ridePayment): "Apple Card" over "$39.89", a
// store's renewal receipt that prints its total nowhere else.
func (c *msgContext) walletAmount(text string) *Money {
	m, _ := c.ridePayment(text)
	return m
}

// chargedAmount is the amount printed with a payment card: after the
// card's masked number on its line, or alone on the next line that holds
// anything ("Visa •••• 1234 (Apple Pay)" over "$43.54").
func (c *msgContext) chargedAmount(text string) *Money {
	head := firstLines(text, 80)
	if !cardGate.AnyFold(head) {
		return c.walletAmount(text)
	}
	lines := strings.Split(head, "\n")
	for i, ln := range lines {
		if !hasDigit(ln) {
			continue
		}
		card := maskedCardRE.FindStringIndex(ln)
		if card == nil {
			continue
		}
		rest := ln[card[1]:]
		if m := moneyRE.FindStringSubmatchIndex(rest); m != nil {
			if mo := c.moneyAt(rest, m, text); mo != nil {
				return mo
			}
		}
		for _, next := range lines[i+1:] {
			t := strings.TrimSpace(next)
			if t == "" {
				continue
			}
			if m := moneyRE.FindStringSubmatchIndex(t); m != nil && m[0] == 0 && m[1] == len(t) {
				return c.moneyAt(t, m, text)
			}
			break
		}
	}
	return c.walletAmount(text)
}

// zeroBalance reports whether a balance's label at the start of one of
// the first lines gives zero ("Total Due: $0.00", "Restbetrag: 0,00 €"):
// nothing is left to pay.
func (c *msgContext) zeroBalance(text string) bool {
	m := c.balanceFigure(text)
	return m != nil && m.Amount == "0.00"
}

// openBalance reports whether a balance's label gives an amount left to
// pay ("Balance due: $250.00" under a deposit's receipt), unless the
// receipt was paid from a balance (bill.wallet: "Payment method: Google
// Play balance"), whose "Remaining balance" is the wallet's.
func (c *msgContext) openBalance(text string) bool {
	m := c.balanceFigure(text)
	return m != nil && m.Amount != "0.00" && !paidFromWallet(text)
}

// walletWords name a stored balance a receipt may be paid from
// (bill.wallet).
var walletWords = words.NewWholeSet(lang.Entries("bill.wallet"))

// paidFromWallet reports whether a payment method's label names a
// balance, a credit or a gift card as the method, on its line or the
// next.
func paidFromWallet(text string) bool {
	lines := strings.Split(firstLines(text, 80), "\n")
	for i, ln := range lines {
		l := strings.ToLower(strings.TrimSpace(ln))
		if !methodLabel(l) {
			continue
		}
		if walletWords.In(l) {
			return true
		}
		for _, next := range lines[i+1:] {
			if t := strings.TrimSpace(next); t != "" {
				return walletWords.In(strings.ToLower(t))
			}
		}
	}
	return false
}

// balanceFigure is the amount after the first balance's label at the
// start of one of the first lines.
func (c *msgContext) balanceFigure(text string) *Money {
	for ln := range strings.Lines(firstLines(text, 40)) {
		if !hasDigit(ln) {
			continue
		}
		t := strings.TrimSpace(ln)
		l := strings.ToLower(t)
		if len(l) != len(t) || !balanceSet.Any(l) {
			continue
		}
		for _, p := range balanceLabels {
			if !strings.HasPrefix(l, p) || words.In(l, len(p), false) {
				continue
			}
			rest := strings.TrimLeft(t[len(p):], " \t:")
			if m := moneyRE.FindStringSubmatchIndex(rest); m != nil && m[0] == 0 {
				return c.moneyAt(rest, m, text)
			}
		}
	}
	return nil
}

// balanceLabels are bill.balance's labels, longest first.
var balanceLabels = longestFirst(lang.Entries("bill.balance"))

// paidFigure is the amount after a payment's label at the start of one of
// the first lines: a paid label ("Amount paid: $6.32") or the word for
// paid alone as one ("Paid: $6.32", "Bezahlt: 39,99 €").
func (c *msgContext) paidFigure(text string) *Money {
	for ln := range strings.Lines(firstLines(text, 40)) {
		if !hasDigit(ln) {
			continue
		}
		t := strings.TrimSpace(ln)
		l := strings.ToLower(t)
		if len(l) != len(t) || !paidFirstWords[firstWord(l)] && !paidLabelSet.Any(l) {
			continue
		}
		for _, p := range paidFigureLabels {
			if !strings.HasPrefix(l, p) || words.In(l, len(p), false) {
				continue
			}
			rest := strings.TrimLeft(t[len(p):], " \t:")
			if m := moneyRE.FindStringSubmatchIndex(rest); m != nil && m[0] == 0 {
				if mo := c.moneyAt(rest, m, text); mo != nil && mo.Amount != "0.00" {
					return mo
				}
			}
			break
		}
	}
	return nil
}

// paidFigureLabels are the paid labels and the words for paid, longest
// first.
var paidFigureLabels = longestFirst(append(append([]string{}, paidLabels...), lang.Entries("bill.paid.word")...))

// firstWord is l up to its first space or colon.
func firstWord(l string) string {
	if i := strings.IndexAny(l, " :\t"); i >= 0 {
		return l[:i]
	}
	return l
}

// bracketName is the text a subject sets in brackets ("（NTTファイナンス）",
// "【東京ガス】", "[Stadtwerke Lahntal]"), at most 40 bytes and without
// digits; "" when it has none. The caller asks it to agree with the
// sender's domain.
func bracketName(subject string) string {
	// Full-width brackets are folded to ASCII ones before the text
	// rules read a subject (foldWidth).
	for _, p := range [][2]string{{"（", "）"}, {"【", "】"}, {"［", "］"}, {"(", ")"}, {"[", "]"}} {
		i := strings.Index(subject, p[0])
		if i < 0 {
			continue
		}
		rest := subject[i+len(p[0]):]
		j := strings.Index(rest, p[1])
		if j <= 0 || j > 40 {
			continue
		}
		if name := strings.TrimSpace(rest[:j]); !hasDigit(name) {
			return name
		}
	}
	return ""
}

// scriptSpaced is name with a space where Latin letters meet letters of
// another script ("NTT ファイナンス"), so that the Latin word is a word
// of its own to agree with a domain by.
func scriptSpaced(name string) string {
	var b strings.Builder
	prev := -1 // 1 Latin, 0 other
	for _, r := range name {
		cur := -1
		if unicode.IsLetter(r) {
			cur = 0
			if unicode.Is(unicode.Latin, r) {
				cur = 1
			}
		}
		if prev >= 0 && cur >= 0 && cur != prev {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = cur // letters that meet only: a space between ends the run
	}
	return b.String()
}

// isASCII reports whether s holds ASCII bytes only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
