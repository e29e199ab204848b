package extract

import (
	"regexp"
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// Bills from text (textBill): the invoice number, the amount (money.go),
// the due date by its label, after the amount ("£61.30 by 21 December")
// or in the sentence that says it is debited, and whether it is paid.
// The words are extract/lang/data's (bill.*, due, due.after, invoice).

// textBill reads a bill: an amount and a due date or invoice number next
// to their labels, in a mail about a bill or invoice.
func (c *msgContext) textBill(subject, text string) (Fact, bool) {
	l := strings.ReplaceAll(lower(subject+"\n"+firstLines(text, 30)), "’", "'")
	if !billTopic.Any(l) {
		return Fact{}, false
	}
	// "We couldn't process your payment": an account notice, not a bill.
	if paymentFailed.Any(l) {
		return Fact{}, false
	}
	b := &Bill{Domain: c.senderDomain, Issuer: c.senderName, Status: StatusDue}
	b.Amount = c.labelledAmount(text)
	if b.Amount == nil {
		b.Amount = c.sentenceAmount(text)
	}
	b.Due = c.labelledDate(dueLabels, text, c.countryZone(""))
	for _, v := range c.after(invoiceLabels, text) {
		// A label that ends a row of a printed invoice may have the
		// account's IBAN on the row below: a number that passes the
		// IBAN check is no invoice number.
		// A year alone is the period's ("Ihre Jahresabrechnung 2029").
		if m := invoiceNumRE.FindStringSubmatch(v); m != nil && !validIBAN(m[1]) && !notSeries[strings.Fields(m[1])[0]] && !yearRE.MatchString(m[1]) {
			b.Number = m[1]
			break
		}
	}
	if billPaid.Any(l) {
		b.Status = StatusPaid
	}
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue {
		b.Due = c.dueAfterAmount(text, c.countryZone(""))
	}
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue {
		b.Due = c.debitDate(text, c.countryZone(""))
	}
	// A bill needs its amount and something to tell it apart: a due date
	// or a number. A payment notice needs only the amount it paid.
	if b.Amount == nil || b.Due == nil && b.Number == "" && b.Status != StatusPaid {
		return Fact{}, false
	}
	if containsAny(l, "statement") && b.Due == nil {
		return Fact{}, false // a statement without a due date asks for nothing
	}
	return Fact{Kind: KindBill, From: FromText, Bill: b}, true
}

// The phrases of every language that say a mail is about a bill, that it
// was paid, that a payment failed, or that the amount will be taken from
// the payer's account (extract/lang).
var (
	// As sets, found in one pass: looked for in every mail's first lines
	// one phrase at a time, they were half of the extraction time of mail
	// that is no bill.
	billTopic     = words.NewSet(lang.Entries("bill.topic"))
	billPaid      = words.NewSet(lang.Entries("bill.paid"))
	paymentFailed = words.NewSet(lang.Entries("notice.payment_failed"))
	billDebit     = words.NewWholeSet(lang.Entries("bill.debit"))
)

// invoiceNumRE is an invoice number after its label: orderNumRE's form,
// or a series of capitals before the number ("FT 2027/118342", the
// Portuguese series-and-number form; "FAC 2027/220918").
var invoiceNumRE = regexp.MustCompile(`^[#:\s]*(?:(?:no|nr|n\.?[°º]?)\.?\s*)?((?:[A-Z]{1,4} )?[0-9][0-9\-/]{3,30}[0-9]|[A-Z0-9][A-Z0-9\-/]{2,30}[0-9])\b`)

// yearRE is a year alone.
var yearRE = regexp.MustCompile(`^(?:19|20)\d\d$`)

// notSeries are the capitals before a number that are no invoice series:
// a currency's code ("EUR 64,50" after an invoice label is an amount) and
// the abbreviations of "number".
var notSeries = map[string]bool{"EUR": true, "USD": true, "GBP": true, "CHF": true, "SEK": true, "NOK": true, "DKK": true,
	"PLN": true, "CZK": true, "HUF": true, "NR": true, "NO": true}

// dueAfterRE is a word that puts a date after an amount as the day it is
// due by ("£61.30 by 21 December", "89,99 zł do 20.12.2028", "450 kr
// senast 2028-12-28": due.after in extract/lang/data).
var dueAfterWords = words.NewWholeSet(lang.Entries("due.after"))

var dueAfterRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("due.after")), "|") + `)[ \t]+`)

// dueAfterAmount is the date that follows an amount on its line after a
// word of dueAfterRE.
func (c *msgContext) dueAfterAmount(text string, z zoneHint) *Time {
	for ln := range strings.Lines(firstLines(text, 60)) {
		// The expressions only on a line with a digit and one of the
		// words: an invoice's lines are many.
		if !hasDigit(ln) || !dueAfterWords.In(strings.ToLower(ln)) {
			continue
		}
		m := moneyRE.FindStringIndex(ln)
		if m == nil {
			continue
		}
		rest := ln[m[1]:]
		w := dueAfterRE.FindStringIndex(rest)
		if w == nil || w[0] > 3 {
			continue
		}
		if ds := c.dates(rest[w[1]:]); len(ds) > 0 && ds[0].start == 0 {
			return resolve(at(ds[0].withYear(c.ref), nil), z, c.dateLoc)
		}
	}
	return nil
}

// debitDate is the day a direct debit takes a bill's amount, read from
// the sentence that says so: such a bill has no due-date label, and the
// day may stand before the verb ("wird am 06.04.2027 abgebucht", "We
// schrijven het bedrag rond 28-03-2027 af") or after it ("We'll collect
// this by Direct Debit on or just after 21 June 2027"). The sentence's
// line must hold one date, or, when it holds none, the line after it
// (a sentence wrapped in plain text).
func (c *msgContext) debitDate(text string, z zoneHint) *Time {
	lines := strings.Split(firstLines(text, 60), "\n")
	for i, ln := range lines {
		if !billDebit.In(strings.ToLower(ln)) {
			continue
		}
		ds := c.dates(ln)
		if len(ds) == 0 && i+1 < len(lines) {
			ds = c.dates(lines[i+1])
		}
		if len(ds) != 1 {
			continue
		}
		d := ds[0].withYear(c.ref)
		return resolve(at(d, nil), z, c.dateLoc)
	}
	return nil
}
