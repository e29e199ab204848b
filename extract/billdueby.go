package extract

import (
	"strings"
	"time"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// A notice that a charge falls due by a day, its amount left out: "la
// redevance de décembre à régler au plus tard le 08/01/2026" (a student
// residence's fee), "the last instalment of your fees will be debited
// from 14/01/2026" (a school's). The person owes it, and by when; the
// amount is in an attachment or known to them.

// chargeNouns are the names of what a person is asked to pay: a bill's
// (bill.noun) and a charge's that is no bill by name (bill.charge: a
// fee, rent, an instalment, tuition).
var chargeNouns = words.NewWholeSet(append(lang.Entries("bill.noun"), lang.Entries("bill.charge")...))

// payVerbs are a payment's or a debit's words (bill.pay.verb: "régler",
// "debited", "zahlen"), whole words.
var payVerbs = words.NewWholeSet(lang.Entries("bill.pay.verb"))

// chargeChange are the words of a charge's change or its cancellation
// (bill.change: "new fees", "Änderung", "hausse", "waived", "storniert"):
// a tariff announced or a charge let off, not a bill.
var chargeChange = words.NewWholeSet(lang.Entries("bill.change"))

// payByRE is the phrase that puts a day right after it (bill.pay.by:
// "au plus tard le", "à partir du", "no later than", "by"), at the end
// of the text before the day.
var payByRE = lazyregexp.New(`(?i)(?:^|[\s,])(?:` + strings.Join(quoteAll(longestFirst(lang.Entries("bill.pay.by"))), "|") + `)\s*$`)

// amountlessDue is the day a notice of a charge without its amount asks
// it to be paid or debited by, or nil. The subject names the charge, and
// one of the text's first lines says in one clause what is to be paid,
// that it is to be paid or debited (before the day or after it), and by
// which day ("… la redevance de DECEMBRE 2025 à régler au plus tard le
// 08/01/2026"). A mail that prints
// an amount with its currency in its first lines is none (its amount is
// misread, not left out), nor one with a document, whose reader gives
// the bill, nor a day before the mail's.
func (c *msgContext) amountlessDue(subject, text string) *Time {
	if c.documents || !chargeNouns.In(lower(subject)) || chargeChange.In(lower(subject)) {
		return nil
	}
	head := firstLines(strings.TrimPrefix(text, subject+"\n"), 15)
	if !payVerbs.In(lower(head)) {
		return nil
	}
	for ln := range strings.Lines(firstLines(text, 60)) {
		if hasDigit(ln) && holdsCurrency(ln, lowerLine(ln)) && moneyRE.FindStringIndex(ln) != nil {
			return nil
		}
	}
	for ln := range strings.Lines(head) {
		// A quoted line is another's mail ("> … to be paid no later
		// than …" in a reply): its sender's notice, not this one's.
		if !hasDigit(ln) || strings.HasPrefix(strings.TrimSpace(ln), ">") {
			continue
		}
		for _, d := range c.dates(ln) {
			// Each clause read within 200 bytes of its day: a line of
			// thousands of days must not read the line once a day.
			// The verb may stand after the day, as German puts it ("…
			// wird ab dem 01.03.2027 von Ihrem Konto abgebucht").
			before := clauseBefore(ln[max(0, d.start-200):d.start])
			if !payByRE.MatchString(before) {
				continue
			}
			after := ln[d.end:min(len(ln), d.end+200)]
			end := clauseEnd(after)
			clause := lower(before + after[:end])
			if !payVerbs.In(clause) || !chargeNouns.In(clause) || chargeChange.In(clause) {
				continue
			}
			if end < len(after) && after[end] == '?' {
				continue // asked, not asked for: "Could you tell us whether the rent is due by …?"
			}
			due := resolve(at(d.withYear(c.ref), nil), c.countryZone(""), c.dateLoc)
			// A day before the mail's own is one it was paid or debited
			// on ("Your rent for March was paid on 1 March"), not one a
			// notice asks for.
			if due != nil && !c.date.IsZero() && due.Format(time.DateOnly) < c.date.Format(time.DateOnly) {
				return nil
			}
			return due
		}
	}
	return nil
}

// clauseEnd is the length of s up to its sentence's or clause's break.
func clauseEnd(s string) int {
	if i := strings.IndexAny(s, ".!?;:\n"); i >= 0 {
		return i
	}
	return len(s)
}

// clauseBefore is the end of s from its last sentence's or clause's
// break: the words that lead to a day.
func clauseBefore(s string) string {
	if i := strings.LastIndexAny(s, ".!?;:"); i >= 0 {
		s = s[i+1:]
	}
	return s
}
