// Package answer picks, from a few retrieved messages, the one short span
// of text that answers a narrow question, or says honestly that none does.
//
// It is extraction, not generation: the answer is a line or a sentence of
// a message, chosen by the rare words of the question it holds (weighted
// by idf, as BM25 weighs them), by whether it holds what the question asks
// for (a date for "when", an amount for "how much"), and by how much of
// the question its message covers. Nothing is downloaded and nothing
// leaves the node; the gateway redacts the span before an agent sees it.
package answer

import (
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"mailnode/extract/injection"
	"mailnode/extract/places"
)

// Term is one word of a question as the full-text index is searched for
// it: folded, and a prefix when the word was long enough to stem.
type Term struct {
	Word   string
	Prefix bool
}

// Want is what a question asks for.
type Want int

const (
	Anything  Want = iota
	When           // a date or a time
	Amount         // money
	Reference      // a booking, order, tracking or invoice number
	Where          // an address or a place
	Who            // who sent it: an organisation
	Status         // the state of an order, a parcel, a bill or a booking
)

// Question is a parsed question.
type Question struct {
	Terms []Term
	Want  Want
	// Typed asks Find for a span the answer can be read from in the
	// node's own words: one that holds the Value the question wants, or,
	// for a question of no type, a sentence that is Quotable. ask sets
	// it; get_excerpt, which returns mail as quoted data, does not.
	Typed bool
}

// typedOK reports whether span can answer q when q is Typed.
func (q Question) typedOK(span string) bool {
	switch {
	case !q.Typed || q.Want == Who:
		return true
	case q.Want == Anything:
		return Quotable(span)
	}
	_, ok := Value(q.Want, span)
	return ok
}

// maxTerms bounds the words a question is searched by.
const maxTerms = 12

// Parse reads a question: its content words and what it asks for.
func Parse(q string) Question {
	folded := places.Fold(q)
	out := Question{Want: want(" " + folded + " ")}
	seen := map[string]bool{}
	for _, w := range strings.Fields(folded) {
		if stopwords[w] || utf8.RuneCountInString(w) < 2 {
			continue
		}
		t := stem(w)
		if seen[t.Word] || len(out.Terms) == maxTerms {
			continue
		}
		seen[t.Word] = true
		out.Terms = append(out.Terms, t)
	}
	return out
}

// stem turns a long word into a prefix that also finds its other forms:
// "deliveries" and "delivered" both become deliver*, "invoices"
// invoice*. Short words are searched as they are.
func stem(w string) Term {
	if utf8.RuneCountInString(w) < 4 || strings.IndexFunc(w, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 {
		return Term{Word: w}
	}
	s := w
	for _, suf := range []string{"ies", "ing", "ed", "es", "s"} {
		if strings.HasSuffix(s, suf) && utf8.RuneCountInString(s)-len(suf) >= 3 {
			if suf == "es" && !strings.HasSuffix(s, "xes") && !strings.HasSuffix(s, "ches") && !strings.HasSuffix(s, "shes") && !strings.HasSuffix(s, "sses") {
				suf = "s"
			}
			if suf == "s" && strings.HasSuffix(s, "ss") {
				break
			}
			s = strings.TrimSuffix(s, suf)
			// shipped, shipping: ship
			if n := len(s); suf != "s" && n >= 2 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouls", rune(s[n-1])) {
				s = s[:n-1]
			}
			break
		}
	}
	return Term{Word: s, Prefix: true}
}

var wantWords = []struct {
	want  Want
	words []string
}{
	{Amount, []string{" how much ", " cost", " price", " total", " amount", " pay ", " paid ", " owe ", " charge", " fee", " wie viel", " kostet", " betrag", " combien", " cuanto", " quanto"}},
	{When, []string{" when ", " what time ", " what date ", " which day ", " what day ", " how long ", " until ", " wann ", " quand ", " cuando ", " quando ", " wanneer "}},
	{Reference, []string{" number", " code ", " reference", " confirmation", " booking code", " tracking", " order id", " nummer", " numero"}},
	{Where, []string{" where ", " address", " which gate", " which platform", " wo ", " ou ", " donde ", " dove ", " waar "}},
	{Who, []string{" who ", " whom ", " from whom ", " which company", " which shop", " which merchant", " which sender", " wer ", " qui ", " quien ", " chi ", " von wem "}},
	{Status, []string{" status", " shipped", " delivered", " arrived", " cancelled", " canceled", " refunded", " paid ", " confirmed",
		" dispatched", " on its way", " is my ", " are my ", " has my ", " have my ", " did my ", " was my ", " ist mein", " wurde mein"}},
}

func want(folded string) Want {
	for _, w := range wantWords {
		for _, s := range w.words {
			if strings.Contains(folded, s) {
				return w.want
			}
		}
	}
	return Anything
}

// stopwords are left out of the search: function words and the words of
// asking in the languages the extractors read, and words every mail has.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the is are was were be been am do does did what when where which who whom whose why how
		much many my mine me i you your yours we our us they their them it its this that these those there here of to for in on at
		by with from as and or but not no yes if then than so about into over after before until up down out any some all
		can could would should will shall may might must have has had get got give tell find show know need please let
		mail mails email emails e message messages last latest recent next again also just only very
		der die das ein eine ist sind war wann wo wie was wer welche welcher mein meine meinen ich du sie wir und oder
		fur von mit zu im am um auf den dem des nicht noch
		le la les un une des est sont quand ou quel quelle mon ma mes je tu nous vous et de du pour avec dans sur
		el los las es son cuando donde cual mi mis yo y o para con en por que
		il lo gli uno di per con che quando dove mio mia
		het een de is zijn wanneer waar wat mijn ik en van voor met op`) {
		m[w] = true
	}
	return m
}()

// Stopword reports whether w (folded) is a function word or a word of
// asking: it names nothing.
func Stopword(w string) bool { return stopwords[w] }

// IDF is BM25's weight of a term held by n of docs messages: near zero for
// a word most mail has, large for a rare one.
func IDF(n, docs int) float64 {
	return math.Log(1 + (float64(docs)-float64(n)+0.5)/(float64(n)+0.5))
}

// Doc is a retrieved message.
type Doc struct {
	Subject string
	Text    string
	// Trusted: the node vouches for the sender (mail/trust). Its span
	// wins over an equal or slightly better one from anyone else, so that
	// a look-alike's "Water Utility" bill does not answer "how much is the
	// water bill?" when the real one's mail answers it too.
	Trusted bool
}

// trustedBonus is what a trusted sender's span adds to its score, as a
// share of the question's whole weight: more than the cue word of a
// typed answer, less than holding what the question asks for.
const trustedBonus = 0.4

// Result is the chosen span.
type Result struct {
	Doc  int    // index into the docs given to Find
	Span string // one or two lines of the message, white space folded
	// Coverage is the idf-weighted share of the question's terms that
	// the message holds, 0 to 1.
	Coverage float64
}

// Thresholds below which Find says there is no answer. MinCoverage: the
// message holds at least half the question (by weight), so a question
// about a passport is not answered from a mail that only shares "my
// number"; a rare word the mail lacks is what the question is about.
const MinCoverage = 0.5

// Answerable reports whether any message could cover MinCoverage of the
// question, given how many messages hold each term (docFreq, by
// Term.Word): the words of a question that no message holds may weigh
// too much for any answer to be trusted.
func Answerable(q Question, idf map[string]float64, docFreq map[string]int) bool {
	var total, held float64
	for _, t := range q.Terms {
		total += idf[t.Word]
		if docFreq[t.Word] > 0 {
			held += idf[t.Word]
		}
	}
	return total > 0 && held/total >= MinCoverage
}

// Find picks the best answering span of docs, which come best first; idf
// weighs each Term.Word. maxRunes bounds the span. The caller leaves out
// tainted messages (tools.Source.Text says which); a span with a link or
// a sender's instructions is not used either.
func Find(q Question, idf map[string]float64, docs []Doc, maxRunes int) (Result, bool) {
	var total float64
	for _, t := range q.Terms {
		total += idf[t.Word]
	}
	if total <= 0 {
		return Result{}, false
	}
	var best Result
	bestScore := 0.0
	for di, d := range docs {
		subject := matched(q.Terms, d.Subject)
		units := split(d.Text, maxRunes)
		unitTerms := make([]termSet, len(units))
		docTerms := subject
		for i, u := range units {
			unitTerms[i] = matched(q.Terms, u)
			docTerms |= unitTerms[i]
		}
		coverage := docTerms.weight(q.Terms, idf) / total
		if coverage < MinCoverage {
			continue
		}
		for i := range units {
			for n := 1; n <= 2 && i+n <= len(units); n++ {
				span := strings.Join(units[i:i+n], " ")
				if utf8.RuneCountInString(span) > maxRunes {
					break
				}
				if n == 2 && !continues(units[i]) {
					break
				}
				terms := unitTerms[i]
				if n == 2 {
					terms |= unitTerms[i+1]
				}
				// A typed question ("how much is the water bill") is about
				// the message's subject; its lines differ in what they hold,
				// not in how many of its words they repeat.
				if q.Want != Anything {
					terms |= subject
				}
				score := terms.weight(q.Terms, idf)
				has := satisfies(q.Want, span)
				if q.Want != Anything && !has {
					continue
				}
				if score == 0 && !(has && subject != 0) {
					continue // a date in a mail about it, else nothing
				}
				if has && q.Want != Anything {
					score += 0.5 * total
					if cueRE[q.Want] != nil && cueRE[q.Want].MatchString(span) {
						score += 0.3 * total
					}
				}
				// Prefer the message that covers more of the question, and
				// within it what comes first: a mail states its point before
				// its footer.
				score += 0.5*coverage*total - 0.01*total*float64(min(i, 30)) - 0.001*float64(utf8.RuneCountInString(span))
				if d.Trusted {
					score += trustedBonus * total
				}
				if score > bestScore && !linkRE.MatchString(span) && !injection.Addressed(span) && q.typedOK(span) {
					bestScore = score
					best = Result{Doc: di, Span: span, Coverage: coverage}
				}
			}
		}
	}
	return best, best.Span != ""
}

// termSet is a bit set over a question's terms (at most maxTerms).
type termSet uint32

func (s termSet) weight(terms []Term, idf map[string]float64) float64 {
	var w float64
	for i, t := range terms {
		if s&(1<<i) != 0 {
			w += idf[t.Word]
		}
	}
	return w
}

// matched returns the terms that occur in s as whole words (or word
// prefixes, for prefix terms).
func matched(terms []Term, s string) termSet {
	var set termSet
	if s == "" {
		return 0
	}
	for _, w := range strings.Fields(places.Fold(s)) {
		for i, t := range terms {
			if w == t.Word || t.Prefix && strings.HasPrefix(w, t.Word) {
				set |= 1 << i
			}
		}
	}
	return set
}

// maxUnits bounds the lines of one message that are looked at: answers
// sit near the top, and the rest is footer.
const maxUnits = 400

// split cuts text into candidate spans: lines, and sentences of lines
// longer than maxRunes. Quoted replies are skipped: they are another
// message.
func split(text string, maxRunes int) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" || strings.HasPrefix(line, ">") {
			continue
		}
		if utf8.RuneCountInString(line) <= maxRunes {
			out = append(out, line)
		} else {
			for _, s := range sentenceRE.FindAllString(line, -1) {
				s = strings.TrimSpace(s)
				if s == "" {
					continue
				}
				if utf8.RuneCountInString(s) > maxRunes {
					s = string([]rune(s)[:maxRunes-1]) + "…"
				}
				out = append(out, s)
			}
		}
		if len(out) >= maxUnits {
			break
		}
	}
	return out
}

var sentenceRE = regexp.MustCompile(`[^.!?]+(?:[.!?]+(?:\s|$)|$)`)

// continues reports whether a line is a label whose value is on the next
// line: "Departure:" or a short heading.
func continues(line string) bool {
	return strings.HasSuffix(line, ":") || utf8.RuneCountInString(line) <= 24
}

var linkRE = regexp.MustCompile(`(?i)\b(?:https?://|www\.)`)

var (
	dateRE = regexp.MustCompile(`(?i)\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{1,2}\.\d{1,2}\.(?:\s|$)|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|` +
		`\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|januar|februar|marz|mai|juni|juli|okt|dez|janv|fevr|mars|avr|juin|juil|aout|sept|déc|ene|abr|ago|dic|gen|mag|giu|lug|ott|mei|okt)[a-z]*\.?\s+\d{1,2}\b|` +
		`\b\d{1,2}(?:st|nd|rd|th)?\.?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|januar|februar|marz|märz|mai|juni|juli|okt|dez|janv|fevr|févr|mars|avr|juin|juil|aout|août|sept|déc|ene|abr|ago|dic|gen|mag|giu|lug|ott|mei)[a-zé]*\b|` +
		`\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|morgen|heute)\b`)
	amountRE = regexp.MustCompile(`(?i)(?:[€$£]\s?\d|\b\d[\d.,']*\s?(?:€|eur|usd|gbp|chf|sek|nok|dkk|pln|czk|kč|kr)\b|\b(?:eur|usd|gbp|chf)\s?\d)`)
	refRE    = regexp.MustCompile(`\b[A-Z0-9]*\d[A-Z0-9-]{4,}\b|\b[A-Z]{5,8}\b|\b[A-Z0-9]{6}\b`)
	whereRE  = regexp.MustCompile(`(?i)\b\d{1,4}\s*[a-z]?\s+[a-zäöüß .-]+(?:street|st\.|road|rd\.|avenue|ave|straße|strasse|str\.|weg|platz|allee|rue|via|calle|laan|gracht|plein)\b|\b(?:street|straße|strasse|rue|via|calle)\s|\bgate\s+[a-z]?\d|\bplatform\s+\d|\bgleis\s+\d|\b\d{4,5}\s+[A-ZÄÖÜ][a-zäöüß]+|\b[A-Z]{3}\b`)
)

// cueRE holds the words that mark the line an answer of each kind is on:
// the total among amounts, the due date among dates.
var cueRE = map[Want]*regexp.Regexp{
	Amount: regexp.MustCompile(`(?i)\b(?:total|due|balance|amount|to pay|gesamt\w*|betrag|summe|zu zahlen|montant|importe|totale|bedrag|totaal)\b`),
	When:   regexp.MustCompile(`(?i)\b(?:date|due|on|at|um|am|le|el|il|op|departs?|arrives?|starts?|begins?|check-?in|abfahrt|ankunft|datum|fällig)\b`),
}

func satisfies(w Want, span string) bool {
	switch w {
	case When:
		return dateRE.MatchString(span)
	case Amount:
		return amountRE.MatchString(span)
	case Reference:
		return refRE.MatchString(span)
	case Where:
		return whereRE.MatchString(span)
	case Status:
		_, ok := StatusOf(span)
		return ok
	}
	return true
}
