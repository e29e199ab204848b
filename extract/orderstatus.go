package extract

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// An order's state from text (orderStatusOf): the status phrases of
// every language (status.* in extract/lang/data) found in one pass, the
// subject first, then the text's first lines; deliveries today, ahead
// and in clauses about a time to come.

// orderStatusOf reads an order's state from the subject, else the text's
// first lines.
func orderStatusOf(subject, text string) string {
	// The subject speaks first, but a subject that only says "your order"
	// gives way to a body that says what happened to it.
	// A subject that only says the parcel is on its way gives way to a
	// body that says it comes today ("… är på väg" over "levereras i
	// kväll").
	// A subject that says a delivery failed ("We missed you") gives way
	// to a body that says where the parcel waits to be collected.
	status := ""
	for i, s := range []string{lower(subject), stepBarless(newestStep(lower(joinWrapped(firstTextLines(text, 12)))))} {
		st := statusIn(s)
		if st == "" && i == 0 && shipNotice.In(s) {
			// "Shipment Notification", "Versandbestätigung": a subject
			// that names the mail a shipping notice, and nothing else.
			st = StatusShipped
		}
		switch {
		case (st == StatusShipped || st == StatusProblem) && status == "":
			status = st
		case st == StatusOutForDelivery && status == StatusShipped:
			return st
		case status == StatusProblem && (st == StatusDelivered || st == StatusOutForDelivery):
			return st
		case status == StatusShipped || status == StatusProblem:
		case st != "" && st != StatusOrdered:
			return st
		case st != "" && status == "":
			status = st
		}
	}
	return status
}

// shipNotice are the names of a shipping notice (status.shipnotice),
// read in a subject only: a body's "we'll send you a shipping
// confirmation" tells of none yet.
var shipNotice = words.NewWholeSet(lang.Entries("status.shipnotice"))

// historyHeadings are the headings of a parcel's past steps
// (status.history: "History", "Historique", "Sendungsverlauf").
var historyHeadings = func() map[string]bool {
	m := map[string]bool{}
	for _, h := range lang.Entries("status.history") {
		m[h] = true
	}
	return m
}()

// newestStep is the part of lower-cased text s above a heading of the
// parcel's history when that part tells a state other than an order
// placed, else s: "Votre colis a été livré. Historique: - En cours de
// livraison" was delivered, though out for delivery outranks delivered
// elsewhere (statusOrder).
func newestStep(s string) string {
	at := 0
	for ln := range strings.Lines(s) {
		h := strings.TrimRight(strings.TrimLeft(ln, " \t-*•>#"), " \t\r\n:*")
		if at > 0 && historyHeadings[h] {
			if st := statusIn(s[:at]); st != "" && st != StatusOrdered {
				return s[:at]
			}
			return s
		}
		at += len(ln)
	}
	return s
}

// sentenceTail is the part of s after its last sentence's end
// (lastSentence's, or "? ", "; ", ": "): a condition in an earlier
// sentence ("If you paid by card, the amount will be refunded. Your order
// has been cancelled.") is none on a later one's state.
func sentenceTail(s string) string {
	s = lastSentence(s)
	for i := len(s) - 2; i >= 0; i-- {
		switch s[i] {
		case '?', ';', ':':
			if c := s[i+1]; c == ' ' || c == '\n' || c == '\t' {
				return s[i+1:]
			}
		}
	}
	return s
}

// statusIn reads an order's or parcel's state from lower-cased text by the
// status phrases of every language (extract/lang), the more particular
// state first: "will be delivered today" is out for delivery, not
// delivered.
func statusIn(s string) string {
	best := len(statusOrder)
	lost := sync.OnceValue(func() bool { return lostPhrases.In(s) })
	// willAhead looks back a few words for each phrase: only in a text
	// that holds a will-word at all (one pass).
	hasWill := sync.OnceValue(func() bool { return willSet.Any(s) })
	consider := func(phrase, end int) bool {
		// "We'll email you again when your order has been dispatched":
		// a state in a clause about a time to come is not the order's.
		// The clause is looked for in the line's last bytes before the
		// phrase (lineAround).
		start, _ := lineAround(s, end, clauseBytes, 0)
		before := s[start:max(start, end-len(statusPhrases[phrase]))]
		if whenWords.In(sentenceTail(before)) || inQuestion(s[end:]) {
			return true
		}
		// "Twoje zamówienie nie zostało jeszcze wysłane", "не изпратихме
		// поръчката", "has not been shipped", "has not been cancelled",
		// "wurde nicht storniert": a state denied is none, whichever it
		// is (the ninth outside review, M3: a shop's reassurance that an
		// order was not cancelled cancelled it). A problem's phrases
		// are a negation's own ("n'a pas pu être distribué").
		if statusOrder[statusRank[phrase]] != StatusProblem && (negatedBefore(before) || negatedAttached(before, s[end:])) {
			return true
		}
		// "Was reported as delivered, but you did not receive it",
		// "marked as delivered but never arrived": a delivery the same
		// sentence goes on to deny is none.
		if statusOrder[statusRank[phrase]] == StatusDelivered && deniedAfter(s[end:]) {
			return true
		}
		// "Will be dispatched within 2 working days": shipping to come.
		// "Are expected to be delivered": a parcel on its way.
		// The phrase may end a longer word ("sendt" in "afsendt").
		rank := statusRank[phrase]
		// "Your parcel was lost in transit … we've issued a full refund":
		// the money comes back, the parcel does not; a lost parcel's
		// notice is a problem, not a return (status.lost, status.refund).
		if statusOrder[rank] == StatusReturned && refundPhrases[statusPhrases[phrase]] && lost() {
			return true
		}
		// "Free returns within 30 days": a return's terms are none.
		if statusOrder[rank] == StatusReturned && inReturnPolicy(s, end) {
			return true
		}
		// "Return flight", "vol retour": a journey's way back, no
		// parcel's return (an airline's confirmation whose flights no
		// reader read is no shop's returned order).
		if statusOrder[rank] == StatusReturned && journeyBeside(before, s[end:]) {
			return true
		}
		// "One item in your order has been cancelled", "Cancelled
		// items:": a part's cancellation is not the order's (the tenth
		// outside review's MEDIUM-7; the rest still ships).
		if statusOrder[rank] == StatusCancelled && partCancelled(sentenceTail(before), s[end:]) {
			return true
		}
		if st := statusOrder[rank]; st == StatusShipped || st == StatusDelivered || st == StatusReturned {
			w := len(before)
			for w > 0 && words.In(before, w, true) {
				_, n := utf8.DecodeLastRuneInString(before[:w])
				w -= n
			}
			if endsWithWord(before[:w], willWords) || hasWill() && willAhead(before[:w]) {
				// "Or the item will be returned to the sender": a
				// return to come, if nothing is done, is none yet.
				if st == StatusShipped || st == StatusReturned {
					return true
				}
				rank = shippedRank
			}
		}
		best = min(best, rank)
		return best > 0 // nothing comes before out for delivery
	}
	// "Could not be delivered", "n'a pas pu être livré", "konnte nicht
	// zugestellt werden": a state's phrase inside a failed delivery's is
	// that failure's, not a delivery. The phrases are all found first, as
	// the failure's may end after the one inside it; a few failures are
	// enough to look inside (hostile text may hold thousands).
	type hit struct{ phrase, end int }
	var hits, problems []hit
	statusSet.EachAt(s, func(phrase, end int) bool {
		if phrase >= objectPhrase {
			if !objectNext(s, phrase, end) || sentAside(s, end) {
				return true
			}
		} else if phrase >= subjectPhrase && (!subjectBefore(s, phrase, end) || sentAside(s, end)) {
			return true
		}
		hits = append(hits, hit{phrase, end})
		if statusOrder[statusRank[phrase]] == StatusProblem && len(problems) < 8 {
			problems = append(problems, hit{phrase, end})
		}
		return true
	})
	inProblem := func(h hit) bool {
		start := h.end - len(statusPhrases[h.phrase])
		for _, p := range problems {
			if p != h && p.end >= h.end && p.end-len(statusPhrases[p.phrase]) <= start {
				return true
			}
		}
		return false
	}
	// "Report a Problem", "If you have any problems": a link's or a
	// help line's words about a problem that may come are none
	// (status.help); looked for only when a problem's phrase is there.
	var helps []hit
	if len(problems) > 0 {
		helpSet.EachAt(s, func(phrase, end int) bool {
			helps = append(helps, hit{phrase, end})
			return len(helps) < 8
		})
	}
	inHelp := func(h hit) bool {
		start := h.end - len(statusPhrases[h.phrase])
		for _, p := range helps {
			if p.end >= h.end && p.end-len(helpPhrases[p.phrase]) <= start {
				return true
			}
		}
		return false
	}
	// "Kargo firması tarafından teslim alındı", "a futár átvette": a
	// phrase inside a longer one of another state is that one's (the
	// courier took the parcel: shipped, not delivered). The longer phrase
	// ends at or after it, among the few hits around it (hits come by
	// their ends; of two that end together, the longer first).
	inLonger := func(i int) bool {
		h := hits[i]
		start := h.end - len(statusPhrases[h.phrase])
		for _, o := range hits[max(0, i-8):min(len(hits), i+9)] {
			if o != h && o.end >= h.end && o.end-len(statusPhrases[o.phrase]) <= start && statusRank[o.phrase] != statusRank[h.phrase] {
				return true
			}
		}
		return false
	}
	for i, h := range hits {
		if inProblem(h) || statusOrder[statusRank[h.phrase]] == StatusProblem && inHelp(h) || inLonger(i) {
			continue
		}
		if !consider(h.phrase, h.end) {
			break
		}
	}
	// "Is due to be delivered today", "wird heute … zugestellt", "kurier
	// doręczy ją dziś": a delivery today that no phrase list can spell out
	// in full is out for delivery unless its line says it is past.
	if best > 0 && deliveryToday(s) {
		return StatusOutForDelivery
	}
	// "Sera livré demain": a delivered phrase in a sentence about a day
	// to come is a parcel on its way.
	if best < len(statusOrder) && statusOrder[best] == StatusDelivered && deliveryAhead(s) {
		return StatusShipped
	}
	if best == len(statusOrder) {
		return ""
	}
	return statusOrder[best]
}

// joinWrapped joins the lines of a sentence that a plain-text part
// wrapped: a line break between two small letters, or after a comma
// before a small letter, is a space ("konnte nicht\nangetroffen", "will
// be\nreturned"), so that a state's phrase across it is found. The text
// keeps its length.
func joinWrapped(s string) string {
	if strings.IndexByte(s, '\n') < 0 {
		return s
	}
	b := []byte(s)
	for i := 1; i+1 < len(b); i++ {
		if b[i] != '\n' {
			continue
		}
		prev, _ := utf8.DecodeLastRune(b[:i])
		next, _ := utf8.DecodeRune(b[i+1:])
		if (unicode.IsLower(prev) || prev == ',') && unicode.IsLower(next) {
			b[i] = ' '
		}
	}
	return string(b)
}

// inQuestion reports whether the sentence a phrase ends in, rest being
// what follows the phrase, is a question: "Retourneren? Dat kan binnen
// 30 dagen", "Want to return something?" offer a state, they do not say
// one.
func inQuestion(rest string) bool {
	if i := strings.IndexAny(rest[:min(len(rest), 120)], ".!?\n"); i >= 0 {
		return rest[i] == '?'
	}
	return false
}

// clauseBytes bound what statusIn reads before a phrase for the words of
// a clause about a time to come: a sentence's worth.
const clauseBytes = 240

// The words of every language for today, for delivering (stems) and for
// a delivery that is over (extract/lang).
var (
	todayWords   = words.NewWholeSet(lang.Entries("status.today"))
	deliverWords = words.NewWholeSet(lang.Entries("status.deliver"))
	pastWords    = words.NewWholeSet(lang.Entries("status.past"))
	futureWords  = words.NewWholeSet(lang.Entries("status.future"))
	// whenWords open a clause about a time to come (status.when).
	whenWords = words.NewWholeSet(lang.Entries("status.when"))
	// willWords put the verb right after them in time to come
	// (status.will: "will be", "wird", "sera").
	willWords = lang.Entries("status.will")
	willSet   = words.NewSet(willWords)
)

// notWords deny the verb after them (status.not: "nie", "не", "not",
// "nicht", "nije").
var notWords = words.NewWholeSet(lang.Entries("status.not"))

// notGap is how many words before a state's phrase are read for a
// negation: "nie zostało jeszcze wysłane" puts two between.
const notGap = 3

// negatedBefore reports whether a negation (status.not) stands among the
// last notGap words of the clause that before, the text before a state's
// phrase, ends with; the clause ends at a sentence's end or a comma
// ("Not sure? Your order has shipped", "Keine Sorge, …").
func negatedBefore(before string) bool {
	s := sentenceTail(before)
	if i := strings.LastIndexAny(s, ",\n"); i >= 0 {
		s = s[i+1:]
	}
	ws := strings.Fields(s)
	for k := len(ws) - 1; k >= max(0, len(ws)-notGap); k-- {
		// "Order No. 4471 shipped", "commande n° 12 expédiée": with a
		// dot or before a number it is a number's sign.
		w := ws[k]
		if strings.HasSuffix(w, ".") || strings.ContainsRune(w, '°') || hasDigit(w) || k+1 < len(ws) && hasDigit(ws[k+1]) {
			continue
		}
		if notWords.In(w) {
			return true
		}
	}
	return false
}

// negatedAttached reports whether a state's phrase is denied by words
// written against it, as languages without spaces write them: right
// before it ("没有取消", "尚未取消": status.not.attached) or right after
// it ("キャンセルされていません", "취소되지 않았습니다": status.not.after).
func negatedAttached(before, after string) bool {
	b := strings.TrimRight(before, " ")
	for _, w := range notAttached {
		if strings.HasSuffix(b, w) {
			return true
		}
	}
	a := strings.TrimLeft(after, " ")
	for _, w := range notAfter {
		if strings.HasPrefix(a, w) {
			return true
		}
	}
	return false
}

// The words that deny a state's phrase written against it, before
// (status.not.attached) and after it (status.not.after).
var (
	notAttached = lang.Entries("status.not.attached")
	notAfter    = lang.Entries("status.not.after")
)

// deniedAfter reports whether the rest of a sentence, after a state's
// phrase, goes on to deny it: a contrast's word (status.but) and a
// negation (status.not) within its next denyGap words ("delivered, but you
// did not receive it", "geliefert, aber nicht angekommen"). The contrast
// is asked for since a negation's word of one language is another's
// preposition (Portuguese "no ponto": in the shop).
func deniedAfter(s string) bool {
	if i := strings.IndexAny(s, ".!?;\n"); i >= 0 {
		s = s[:i]
	}
	ws := strings.Fields(s)
	but, not := false, false
	for _, w := range ws[:min(len(ws), denyGap)] {
		w = strings.Trim(w, ",:()\"'")
		if not && (receivedWords.In(w) || youWords.In(w)) {
			return true
		}
		not = not || but && notWords.In(w)
		but = but || butWords.In(w)
	}
	return false
}

// receivedWords and youWords: what the denial is of, after its negation
// or before it ("but you did not receive it", "but never arrived",
// "aber nicht angekommen"): "delivered, but no signature was needed" is
// a delivery (status.received, injection.you).
var (
	receivedWords = words.NewWholeSet(lang.Entries("status.received"))
	youWords      = words.NewWholeSet(lang.Entries("injection.you"))
)

// butWords are the words of a contrast (status.but).
var butWords = words.NewWholeSet(lang.Entries("status.but"))

// denyGap is how many words after a state's phrase are read for a
// contrast and a negation that deny it.
const denyGap = 6

// willGap is how many words may stand between a will-word (status.will)
// and the participle it puts in time to come.
const willGap = 4

// willAhead reports whether a will-word (status.will) stands among the
// last willGap words of s's clause with no past word (status.past) after
// it: German puts the participle last ("Ihnen wird ein Paket
// zugestellt", "wird Ihre Sendung morgen geliefert"), English an adverb
// between ("will then be delivered"). The clause ends at a sentence's or
// a line's end.
func willAhead(s string) bool {
	for n := 0; n <= willGap; n++ {
		s = strings.TrimRight(s, " \t")
		i := strings.LastIndexAny(s, " \t.!?;:\n")
		if i >= 0 && strings.IndexByte(" \t", s[i]) < 0 {
			return false // the clause ends here
		}
		if n > 0 && endsWithWord(s, willWords) {
			return true
		}
		if pastWords.In(s[i+1:]) {
			return false
		}
		if i < 0 {
			return false
		}
		s = s[:i]
	}
	return false
}

// deliveryAhead reports whether s tells of a delivery to come and of none
// done.
func deliveryAhead(s string) bool {
	ahead := false
	for ln := range strings.Lines(s) {
		if pastWords.In(ln) {
			return false
		}
		ahead = ahead || futureWords.In(ln)
	}
	return ahead
}

// deliveryToday reports whether a line of s says the parcel is delivered
// today and none says it was: a line whose delivery is past, or that opens
// with the delivery as a status line does ("Delivered today at 11:42"),
// makes the whole text a delivery done.
func deliveryToday(s string) bool {
	opens := func(ln string) bool {
		t := strings.TrimSpace(ln)
		first, sep := t, byte(0)
		if i := strings.IndexAny(t, " \t:"); i >= 0 {
			first, sep = t[:i], t[i]
			if strings.HasPrefix(strings.TrimLeft(t[i:], " "), ":") {
				sep = ':' // French spaces its colon ("Livraison : …")
			}
		}
		if !deliverWords.In(first) {
			return false
		}
		// A noun for the delivery alone on its line, or before a colon
		// or a tab, labels the value below or beside it ("Lieferstatus"
		// over "Heute vor Ihrer Tür", "Delivery<tab>Our driver …"): no
		// delivery told as done, unless the word is one ("Delivered:
		// today 11:42").
		return sep == ' ' || deliveredWord(first)
	}
	today := false
	for ln := range strings.Lines(s) {
		if !deliverWords.In(ln) || failedIn(ln) {
			// A line that says the delivery failed tells of none today
			// ("konnte heute nicht zugestellt werden", "nie zastał Cię
			// dziś").
			continue
		}
		if pastWords.In(ln) || opens(ln) {
			return false
		}
		st := statements(ln)
		today = today || deliverWords.In(st) && todayWords.In(st)
	}
	return today
}

// statements is ln less its sentences that tell nothing of this parcel: a
// question ("Won't be at your door today?"), the answer to one ("Need it
// faster? With Express we're at your door today."), and a sentence with
// a negation (status.not) or a condition's word (clause.if, status.when:
// "if you order by noon, we're at your door today").
func statements(ln string) string {
	var b strings.Builder
	asked := false
	for rest := ln; rest != ""; {
		end := len(rest)
		for i := 0; i < len(rest); i++ {
			// A dot before a number is a number's sign ("Order No. 12").
			if strings.IndexByte(".!?", rest[i]) >= 0 && (i+1 == len(rest) || rest[i+1] == '\n' ||
				rest[i+1] == ' ' && !(rest[i] == '.' && i+2 < len(rest) && isDigitByte(rest[i+2]))) {
				end = i + 1
				break
			}
		}
		s := rest[:end]
		rest = rest[end:]
		question := strings.HasSuffix(s, "?")
		if !question && !asked && !negated(s) && !opensCondition(s) {
			b.WriteString(s)
		}
		asked = question
	}
	return b.String()
}

// negated reports whether sentence s holds a negation (status.not) that
// is no number's sign ("No. 12", "n° 4") nor part of a name
// ("Komplett.no").
func negated(s string) bool {
	ws := strings.Fields(s)
	for k, w := range ws {
		if strings.HasSuffix(w, ".") && k+1 < len(ws) || strings.ContainsRune(w, '°') || hasDigit(w) || k+1 < len(ws) && hasDigit(ws[k+1]) {
			continue
		}
		// A dot inside is a name's or an address's ("Komplett.no").
		if w = strings.Trim(w, ",.!?:;()\"'"); !strings.Contains(w, ".") && notWords.In(w) {
			return true
		}
	}
	return false
}

// opensCondition reports whether a clause of sentence s (apart by
// commas or colons: "Tip: if you …") opens with a condition's word (clause.if: "if", "should",
// "falls"; status.when: "when", "once"): "should" or "when" inside a
// clause ("should arrive today") opens none.
func opensCondition(s string) bool {
	for _, c := range strings.FieldsFunc(lower(s), func(r rune) bool { return r == ',' || r == ':' }) {
		c = strings.TrimLeft(c, " \t\"'(-*•>")
		w, _, _ := strings.Cut(c, " ")
		if conditionalOpen(c) || whenWords.In(w) {
			return true
		}
	}
	return false
}

// conditionalOpen reports whether lower-cased clause c opens with a
// condition's phrase (clause.if).
func conditionalOpen(c string) bool {
	for _, w := range conditionPhrases {
		if strings.HasPrefix(c, w) && !words.In(c, len(w), false) {
			return true
		}
	}
	return false
}

// deliveredWord reports whether lower-cased w holds a delivered
// state's phrase (status.delivered: "delivered", "zugestellt").
func deliveredWord(w string) bool {
	found := false
	statusSet.EachAt(w, func(phrase, _ int) bool {
		found = statusOrder[statusRank[phrase]] == StatusDelivered
		return !found
	})
	return found
}

// failedIn reports whether a line holds a failed delivery's phrase
// (status.problem).
func failedIn(ln string) bool {
	failed := false
	statusSet.EachAt(ln, func(phrase, _ int) bool {
		failed = statusOrder[statusRank[phrase]] == StatusProblem
		return !failed
	})
	return failed
}

// lostPhrases say a parcel is lost (status.lost, also a problem's);
// refundPhrases are the words for a return that a lost parcel's notice
// uses for the money sent back (status.refund).
var (
	lostPhrases   = words.NewWholeSet(lang.Entries("status.lost"))
	refundPhrases = wordSet("status.refund")
)

// orderedWords are the phrases of an order placed other than an
// order's id's label (status.ordered without status.order_id).
var orderedWords = words.NewSet(lang.Entries("status.ordered"))

// helpSet finds the help lines' phrases that hold a problem's word
// (status.help); helpPhrases are its phrases by index.
var (
	helpPhrases = lang.Entries("status.help")
	helpSet     = words.NewSet(helpPhrases)
)

// statusOrder is the order the states are tried in; shippedRank is
// shipped's place in it. A parcel held at customs (status.held) is a
// problem before it is shipped: "Votre colis, expédié depuis le
// Royaume-Uni, est retenu par la douane" says where it is now; a delay
// or a failed attempt (status.problem) comes after a shipping's words,
// which a notice of one often repeats.
var statusOrder = []string{StatusOutForDelivery, StatusDelivered, StatusCancelled, StatusReturned, StatusProblem, StatusShipped, StatusProblem, StatusOrdered}

var (
	shippedRank = slices.Index(statusOrder, StatusShipped)
	heldRank    = slices.Index(statusOrder, StatusProblem)
)

// statusSet finds every status phrase in one pass over the text;
// statusRank is each phrase's state's place in statusOrder.
var statusSet, statusRank, statusPhrases = func() (*words.Set, []int, []string) {
	var phrases []string
	var rank []int
	for i, st := range statusOrder {
		ps := lang.Entries("status." + st)
		switch {
		case i == heldRank:
			ps = lang.Entries("status.held")
		case st == StatusProblem:
			ps = append(ps, lang.Entries("status.lost")...)
		case st == StatusOrdered:
			ps = append(ps, lang.Entries("status.order_id")...)
		}
		for _, p := range ps {
			phrases, rank = append(phrases, p), append(rank, i)
		}
	}
	// The participles that are a shipping only with the order or the
	// parcel for their subject come last (subjectPhrase).
	for _, p := range lang.Entries("status.shipped.subject") {
		phrases, rank = append(phrases, p), append(rank, shippedRank)
	}
	// Then the verbs that are a shipping only with the order or the
	// parcel for their object (objectPhrase).
	for _, p := range lang.Entries("status.shipped.object") {
		phrases, rank = append(phrases, p), append(rank, shippedRank)
	}
	return words.NewSet(phrases), rank, phrases
}()

// subjectPhrase is where statusPhrases' participles that need a subject
// begin (status.shipped.subject): "Twoje zamówienie nr 4471 zostało
// wysłane" is shipped, "Potwierdzenie zamówienia zostało wysłane na Twój
// adres" (the confirmation, the order in the genitive) is not.
var subjectPhrase = objectPhrase - len(lang.Entries("status.shipped.subject"))

// subjectSet is the order's and the parcel's nouns as a sentence's
// subject (status.subject: "zamówienie", "objednávka", "narudžba").
var subjectSet = words.NewWholeSet(lang.Entries("status.subject"))

// subjectBefore reports whether an order's or a parcel's noun stands in
// the 64 bytes of its sentence before a participle that ends at end
// ("Dziękujemy za zamówienie. Potwierdzenie … wysłane": the thanks'
// order is no subject of the next sentence).
func subjectBefore(s string, phrase, end int) bool {
	start := end - len(statusPhrases[phrase])
	from, _ := lineAround(s, start, 64, 0)
	return subjectSet.In(lastSentence(s[from:start]))
}

// lastSentence is the end of s after its last sentence's end: a "!" or a
// dot after a word of four letters or more before a space ("nr. 4471",
// "č. 20931", "br. 55120" are abbreviations).
func lastSentence(s string) string {
	for i := len(s) - 2; i >= 0; i-- {
		if s[i+1] != ' ' || s[i] != '.' && s[i] != '!' {
			continue
		}
		n := 0
		for _, r := range s[max(0, i-16):i] {
			if n++; !unicode.IsLetter(r) {
				n = 0
			}
		}
		if s[i] == '!' || n >= 4 {
			return s[i+1:]
		}
	}
	return s
}

// partWords name a part of an order (status.part: "one item", "some
// items", "ein Artikel", "un article"); partAfter the parts a cancelled
// list is headed by ("items", "Artikel", "articles").
var (
	partWords = words.NewWholeSet(lang.Entries("status.part"))
	partAfter = words.NewWholeSet(lang.Entries("status.part.after"))
)

// partCancelled reports whether a cancellation's phrase is a part's: its
// sentence names a part before it ("One item in your order … has been
// cancelled"), or a part's word follows it right away ("Cancelled items:").
func partCancelled(before, after string) bool {
	if partWords.In(before) {
		return true
	}
	after = strings.TrimLeft(after, " ")
	w := after
	if i := strings.IndexFunc(after, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
		w = after[:i]
	}
	return w != "" && partAfter.In(w)
}
