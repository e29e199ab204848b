package extract

import (
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// A bill in a sentence (issue 46, the sixth outside set): a notice that
// writes what is owed and the day to pay by in running text, no label for
// either ("Your account has a past due balance of $86.40. Please pay by
// September 22, 2026 to avoid a late fee", "Ihr Konto weist einen
// Rückstand von 86,40 € auf. Bitte zahlen Sie bis zum 22.09.2026"). An
// amount in a sentence is a bill's only after a word for what is owed
// (bill.owed: "balance of", "Rückstand von", "solde impayé de") and before
// a due or pay phrase with its date on the same line or the next: "Save
// $20 when you pay by Friday" owes nothing.

// The words for what is owed right before its amount, every language's
// (bill.owed), longest first.
var (
	owedPhrases = longestFirst(lang.Entries("bill.owed"))
	owedWords   = words.NewWholeSet(lang.Entries("bill.owed"))
)

// owedAmount is the amount a sentence says is owed and the day it is to
// be paid by, among a bill's first lines. cond: an amount owed was found
// only in a clause a conditional opens (conditionalClause), which states
// no bill.
func (c *msgContext) owedAmount(text string, z zoneHint) (_ *Money, _ *Time, cond bool) {
	lines := strings.Split(firstLines(text, 30), "\n")
	for i, ln := range lines {
		if !hasDigit(ln) {
			continue
		}
		l := lowerLine(ln)
		if !holdsCurrency(ln, l) || !owedWords.In(l) && !dueWordsOrBefore(l) {
			continue
		}
		prev := " "
		if i > 0 {
			prev = lines[i-1] + " "
		}
		for _, m := range moneyRE.FindAllStringSubmatchIndex(ln, 4) {
			if !afterOwedWord(ln[:m[0]]) {
				// An amount that opens its sentence is owed when the
				// sentence says it is due ("$86.40 is due by September
				// 22", "86,40 € sind bis zum 22.09.2026 fällig").
				if d := c.openingAmountDue(ln, m, z); d != nil {
					if conditionalClause(prev + ln[:m[0]]) {
						cond = true
						break
					}
					return c.moneyAt(ln, m, text), d, false
				}
				continue
			}
			if conditionalClause(prev + ln[:m[0]]) {
				// "Tip of the month: if your statement shows a past
				// due balance of $86.40, please pay by …": a
				// newsletter's tip, no bill (the ninth outside
				// review, L2).
				cond = true
				break
			}
			rest := ln[m[1]:]
			if i+1 < len(lines) {
				rest += "\n" + lines[i+1]
			}
			due := c.dueDate(rest, z)
			if due == nil {
				due = c.payByDate(rest, z)
			}
			if due == nil {
				due = c.byDateInSentence(rest, z)
			}
			if due == nil {
				break
			}
			return c.moneyAt(ln, m, text), due, false
		}
	}
	return nil, nil, cond
}

// conditionalClause reports whether the clause that before ends (the
// text before an amount, from its sentence's start, after its last comma)
// opens with a conditional (clause.if: "if", "should", "in case", "falls",
// "si", "se", "als", "jeśli").
func conditionalClause(before string) bool {
	s := sentenceTail(strings.ToLower(before))
	if i := strings.LastIndexByte(s, ','); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimLeft(s, " \t\n\"'(-*•>")
	for _, w := range conditionPhrases {
		if strings.HasPrefix(s, w) && !words.In(s, len(w), false) {
			return true
		}
	}
	return false
}

// conditionPhrases are the words that open a condition (clause.if), lower
// case.
var conditionPhrases = func() []string {
	var out []string
	for _, e := range lang.Entries("clause.if") {
		out = append(out, strings.ToLower(e))
	}
	return out
}()

// afterOwedWord reports whether before, the text before an amount on its
// line, ends with a word for what is owed ("a past due balance of").
func afterOwedWord(before string) bool {
	b := strings.ToLower(strings.TrimRight(before, " \t"))
	for _, p := range owedPhrases {
		if strings.HasSuffix(b, p) && !words.In(b, len(b)-len(p), true) {
			return true
		}
	}
	return false
}

// payByDate is the date after a word that asks to pay and a word that
// puts the day after it ("Please pay by September 22", "Bitte zahlen Sie
// bis zum 22.09.2026", "Betala senast 22 september"), a few words apart
// at most ("Bitte überweisen Sie den Betrag bis zum …").
func (c *msgContext) payByDate(rest string, z zoneHint) *Time {
	l := strings.ToLower(rest)
	for _, p := range payPhrases {
		i := strings.Index(l, p)
		if i < 0 || words.In(l, i, true) || words.In(l, i+len(p), false) {
			continue
		}
		after := l[i+len(p):] // lower case: the offsets are l's
		w := dueAfterRE.FindStringIndex(after)
		if w == nil || w[0] > 24 || strings.ContainsAny(after[:w[0]], ".\n") {
			continue
		}
		if ds := c.dates(after[w[1]:]); len(ds) > 0 && ds[0].start == 0 {
			return resolve(at(ds[0].withYear(c.ref), nil), z, c.dateLoc)
		}
	}
	return nil
}

// byDateInSentence is the date after a word of due.after in the owed
// amount's own sentence, a few words on ("… of $86.40 must be paid by
// September 22", "Het bedrag van € 86,40 moet vóór 22-09-2026 betaald
// zijn", "Kwotę 86,40 zł należy zapłacić do 22.09.2026"): the word for
// what is owed has said the amount is to be paid.
func (c *msgContext) byDateInSentence(rest string, z zoneHint) *Time {
	rest = rest[:owedSentenceEnd(rest)]
	w := dueAfterRE.FindStringIndex(rest)
	if w == nil || w[0] > 40 {
		return nil
	}
	if ds := c.dates(rest[w[1]:]); len(ds) > 0 && ds[0].start == 0 {
		return resolve(at(ds[0].withYear(c.ref), nil), z, c.dateLoc)
	}
	return nil
}

// owedSentenceEnd is the offset where s's first sentence ends: a line's end,
// "!" or "?", or a full stop before a space or the end (a date's or an
// amount's dots end none).
func owedSentenceEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', '!', '?':
			return i
		case '.':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\r' || s[i+1] == '\n' {
				return i
			}
		}
	}
	return len(s)
}

// dueWordsOrBefore reports whether lower-cased line l says something is
// due: a due label's word or a word that ends a sentence after its day
// (due.before: "fällig", "zu zahlen").
func dueWordsOrBefore(l string) bool {
	return strings.Contains(l, "due") || dueBeforeWords.In(l)
}

// openingAmountDue is the day an amount that opens its sentence is due:
// a due label and its date right after it ("$86.40 is due by September
// 22"), or a word of due.after and its date with a word that ends the
// sentence as due ("86,40 € sind bis zum 22.09.2026 fällig"). An offer's
// sentence ("10 € Rabatt bis zum 31.10.") says nothing is due.
func (c *msgContext) openingAmountDue(ln string, m []int, z zoneHint) *Time {
	before := strings.TrimRight(ln[:m[0]], " \t")
	if before != "" && !strings.HasSuffix(before, ".") {
		return nil
	}
	sentence := ln[m[1]:]
	sentence = sentence[:owedSentenceEnd(sentence)]
	l := strings.ToLower(sentence)
	if billOffers.In(l) || offerWords.In(l) {
		return nil
	}
	if strings.HasPrefix(strings.TrimLeft(l, " "), "is due") || strings.HasPrefix(strings.TrimLeft(l, " "), "are due") {
		return c.dueDate(sentence, z)
	}
	if dueBeforeWords.In(l) {
		return c.byDateInSentence(sentence, z)
	}
	return nil
}
