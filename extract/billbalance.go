package extract

import (
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// A bill's amount is what is due. Two layouts print another figure
// first under a label the amount reader takes: a part payment's receipt
// ("Amount paid: $30.00" over "Balance due: $70.00") and a card or
// account statement ("New balance: $1,234.56" beside "Minimum payment
// due: $35.00"). The words are extract/lang/data's (bill.paid.label,
// bill.balance, bill.statement, bill.minimum).

var (
	statementSet = words.NewSet(lang.Entries("bill.statement"))
	minimumSet   = words.NewSet(lang.Entries("bill.minimum"))
)

// statementGates are words one of which every bill.statement phrase
// holds (a test checks it): a few fast substring looks keep the phrase
// set's scan off the mails that are no bill.
var statementGates = []string{"sald", "balance", "solde", "zůstatek", "zustatek", "баланс"}

// statementGate reports whether lowered text may hold a statement's
// balance label.
func statementGate(l string) bool {
	for _, g := range statementGates {
		if strings.Contains(l, g) {
			return true
		}
	}
	return false
}

// partBalance is what a part payment leaves to pay: the amount of a
// balance label, when a paid label's amount is another one, both in one
// currency and the balance not zero (a receipt of the whole bill prints
// "Amount paid" and "Amount due" with one figure, or a zero balance).
// A minimum payment's line is no balance ("Minimum amount due").
func (c *msgContext) partBalance(text string) *Money {
	paid := c.lineAmount(paidLabelSet, nil, text)
	if paid == nil {
		return nil
	}
	return c.balanceBesides(paid, text)
}

// remainingSet are the labels of what a part payment leaves to pay, and
// no other figure (bill.remaining): "Remaining balance", "Offener
// Betrag", "Reste à payer".
var remainingSet = words.NewSet(lang.Entries("bill.remaining"))

// remainingBalance is what a payment's receipt says is left to pay when
// the payment is told in a sentence, with no paid label ("Thank you for
// your payment of $50.00" over "Remaining balance: $44.20"; "Teilzahlung
// von 50,00 EUR" over "Offener Betrag: 44,20 EUR"): the receipt of a part,
// which left the bill due (the tenth outside review's MEDIUM-6). A zero
// remainder is a payment in full.
func (c *msgContext) remainingBalance(text string) *Money {
	bal := c.lineAmount(remainingSet, minimumSet, text)
	if bal == nil || bal.Amount == "0.00" || bal.Amount == "0" {
		return nil
	}
	return bal
}

// balanceBesides is the balance label's amount when it is another than
// paid's, in paid's currency, and not zero.
func (c *msgContext) balanceBesides(paid *Money, text string) *Money {
	bal := c.lineAmount(balanceSet, minimumSet, text)
	if bal == nil || bal.Amount == "0.00" || bal.Amount == paid.Amount || bal.Currency != paid.Currency {
		return nil
	}
	return bal
}

// statementBalance is a statement's amount: its new or closing balance,
// not the minimum payment it also names.
func (c *msgContext) statementBalance(text string) *Money {
	return c.lineAmount(statementSet, minimumSet, text)
}

// lineAmount is the amount after the first phrase of set on a line of
// text's first lines that holds no phrase of skip: on the phrase's line,
// else alone on the next line (a label over its value).
func (c *msgContext) lineAmount(set, skip *words.Set, text string) *Money {
	lines := firstLines(text, 60)
	for len(lines) > 0 {
		ln, rest, _ := strings.Cut(lines, "\n")
		lines = rest
		if !hasLetterDigit(ln) {
			continue
		}
		l := lowerLine(ln)
		end := -1
		set.EachAt(l, func(_, e int) bool { end = e; return false })
		if end < 0 || skip != nil && skip.Any(l) {
			continue
		}
		v := ln
		if len(l) == len(ln) {
			v = ln[end:] // the amount after the label, not one before it
		}
		if m := moneyRE.FindStringSubmatchIndex(v); m != nil {
			if mo := c.moneyAt(v, m, text); mo != nil {
				return mo
			}
			continue
		}
		next, _, _ := strings.Cut(rest, "\n")
		next = strings.TrimSpace(next)
		if m := moneyRE.FindStringSubmatchIndex(next); m != nil && m[0] == 0 && m[1] == len(next) {
			if mo := c.moneyAt(next, m, text); mo != nil {
				return mo
			}
		}
	}
	return nil
}

// hasLetterDigit reports whether s holds a byte that is a letter or a
// digit: a line of none holds no label.
func hasLetterDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i] | 0x20; b >= 'a' && b <= 'z' || s[i] >= '0' && s[i] <= '9' || s[i] >= 0x80 {
			return true
		}
	}
	return false
}
