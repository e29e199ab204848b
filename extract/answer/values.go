package answer

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/injection"
	"mailnode/extract/lang"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// Value reads, from the span Find chose, the typed value a question asks
// for: the dates and times of a "when", the amount of a "how much", the
// reference of a "which number", the status of an order or a bill, or
// the place of a "where". Every value but a place is made of tokens a
// pattern admits (digits, month and weekday names, currency signs, a
// status from a fixed list), so no sentence of mail can pass through it;
// a place is a short line that must also pass injection.Instructive. ok is
// false when the span holds no such value: the caller then says so rather
// than quoting the span.
func Value(w Want, span string) (string, bool) {
	switch w {
	case When:
		return when(span)
	case Amount:
		return amount(span)
	case Reference:
		return reference(span)
	case Status:
		return StatusOf(span)
	case Where:
		return place(span)
	}
	return "", false
}

// whenRE finds the date and time tokens of a span: a clock time with its
// am/pm first, so that "7:30 pm" stays one token.
var whenRE = regexp.MustCompile(`(?i)\b\d{1,2}[:.]\d{2}\s?(?:[ap]\.?m\.?)(?:\W|$)|\b\d{1,2}\s?(?:[ap]\.?m\.?)(?:\W|$)|` +
	`\b\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2})?\b|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{1,2}\.\d{1,2}\.(?:\s|$|,)|\b\d{1,2}:\d{2}\b|` +
	`\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|januar|februar|märz|marz|mai|juni|juli|okt|dez|janv|févr|fevr|mars|avr|juin|juil|août|aout|sept|déc|ene|abr|ago|dic|gen|mag|giu|lug|ott|mei)[a-zé]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4}\b)?|` +
	`\b\d{1,2}(?:st|nd|rd|th)?\.?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|januar|februar|märz|marz|mai|juni|juli|okt|dez|janv|févr|fevr|mars|avr|juin|juil|août|aout|sept|déc|ene|abr|ago|dic|gen|mag|giu|lug|ott|mei)[a-zé]*\.?(?:\s+\d{4}\b)?|` +
	`\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|heute|morgen|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miércoles|jueves|viernes|sábado|domingo)\b`)

// maxValues bounds the tokens of one value: "Thursday, November 26,
// 2026, 7:00 PM" is three.
const maxValues = 4

func when(span string) (string, bool) {
	var out []string
	for _, m := range whenRE.FindAllString(span, -1) {
		m = strings.TrimRight(strings.TrimSpace(m), ",;)(")
		if m == "" || containsFold(out, m) {
			continue
		}
		out = append(out, m)
		if len(out) == maxValues {
			break
		}
	}
	return strings.Join(out, ", "), len(out) > 0
}

func containsFold(list []string, s string) bool {
	for _, l := range list {
		if strings.EqualFold(l, s) {
			return true
		}
	}
	return false
}

// amountValueRE is a whole amount: a currency sign or code and a number
// with its grouping and decimals.
var amountValueRE = regexp.MustCompile(`(?i)(?:[€$£]\s?\d{1,3}(?:[.,' ]?\d{3})*(?:[.,]\d{1,2})?|` +
	`\b\d{1,3}(?:[.,' ]?\d{3})*(?:[.,]\d{1,2})?\s?(?:€|eur\b|usd\b|gbp\b|chf\b|sek\b|nok\b|dkk\b|pln\b|czk\b|kč|kr\b)|` +
	`\b(?:eur|usd|gbp|chf|sek|nok|dkk|pln|czk)\s?\d{1,3}(?:[.,' ]?\d{3})*(?:[.,]\d{1,2})?)`)

// amount is the amount after the span's cue word (the total among
// several), else its first.
func amount(span string) (string, bool) {
	all := amountValueRE.FindAllStringIndex(span, -1)
	if len(all) == 0 {
		return "", false
	}
	pick := all[0]
	if cue := cueRE[Amount].FindStringIndex(span); cue != nil {
		for _, a := range all {
			if a[0] >= cue[1] {
				pick = a
				break
			}
		}
	}
	return strings.TrimSpace(span[pick[0]:pick[1]]), true
}

// labelledRefRE is a reference after its label: "order 1158340927",
// "booking code: X7K2PQ", "tracking number 00340434".
var labelledRefRE = regexp.MustCompile(`(?i)\b(?:number|no\.?|nr\.?|#|reference|ref\.?|booking|confirmation|order|tracking|invoice|pnr|code|nummer|numéro|numero|número|buchung|bestellung|rechnung|sendung)\b[\s:#.-]*([A-Z0-9][A-Z0-9-]{3,24})\b`)

func reference(span string) (string, bool) {
	if m := labelledRefRE.FindStringSubmatch(span); m != nil && strings.ContainsAny(m[1], "0123456789") || m != nil && isCaps(m[1]) {
		return m[1], true
	}
	if m := refRE.FindString(span); m != "" {
		return m, true
	}
	return "", false
}

func isCaps(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] == '-') {
			return false
		}
	}
	return s != ""
}

// statuses are the states a mail may say something is in, in the
// extractors' words of every language (package lang), and the node's own
// word for each. The first that the text holds wins, so a more specific
// state comes before a general one ("out for delivery" before "shipped",
// "refunded" before "delivered").
var statuses = []struct{ category, word string }{
	{"status.cancelled", "cancelled"},
	{"notice.payment_failed", "payment failed"},
	{"status.problem", "delivery problem"},
	{"status.returned", "returned or refunded"},
	{"status.out_for_delivery", "out for delivery"},
	{"status.delivered", "delivered"},
	{"status.shipped", "shipped"},
	{"bill.paid", "paid"},
}

var (
	statusOnce sync.Once
	statusSets []*words.WholeSet
)

// StatusOf returns the node's word for the state text says something is
// in, or false when it names none.
func StatusOf(text string) (string, bool) {
	statusOnce.Do(func() {
		for _, s := range statuses {
			statusSets = append(statusSets, words.NewWholeSet(lang.Entries(s.category)))
		}
	})
	f := places.Fold(text)
	for i, set := range statusSets {
		if set.In(f) {
			return statuses[i].word, true
		}
	}
	return "", false
}

// maxPlaceRunes bounds a place: an address or a venue fits a line.
const maxPlaceRunes = 100

// streetWords are the words an address or a venue line has.
const streetWords = `street|st\.|road|rd\.|avenue|ave\.?|boulevard|blvd|lane|drive|square|plaza|straße|strasse|str\.|weg|platz|allee|gasse|ring|rue|place|via|piazza|corso|calle|avenida|laan|gracht|plein|straat|kade|gate|platform|gleis|terminal|venue`

// streetRE finds a street word, a German compound street name
// ("Bergerstraße", "Hauptstr."), or a postcode and a town.
var streetRE = regexp.MustCompile(`(?i)\b(?:` + streetWords + `)(?:\s|$|[,.])|\p{L}(?:straße|strasse|str\.|weg|platz|allee|gasse)\b|\b\d{4,5}\s+\p{Lu}\p{Ll}+`)

// streetPhraseRE is an address inside a longer line: up to three
// capitalised words, a street word and a house number ("Berger Straße",
// "Platz der Einheit 2", "221B Baker Street", "gate B12"). It is made of
// names and numbers only, so it is a value, not a sentence.
var streetPhraseRE = regexp.MustCompile(`\b\d{1,5}[a-zA-Z]?\s+(?:` + nameWord + `\s+){1,3}(?:Street|St\.|Road|Rd\.|Avenue|Ave\.?|Boulevard|Lane|Drive|Square)|` +
	`(?:` + nameWord + `\s+){0,3}(?:Straße|Strasse|Str\.|Weg|Platz|Allee|Gasse|Street|Road|Avenue|Square|Rue|Via|Calle|Piazza|Plaza)(?:\s+(?:de[rsl]?|du|la|di|del)\s+` + nameWord + `)?(?:\s+\d{1,5}[a-z]?)?|` +
	`\p{Lu}\p{L}*(?:straße|strasse|str\.|weg|platz|allee|gasse)(?:\s+\d{1,5}[a-z]?)?|` +
	`\b\d{4,5}\s+\p{Lu}\p{Ll}+(?:[ -](?:am|an der|im|sur|upon)\s+\p{Lu}\p{Ll}+)?|` +
	`(?i:\b(?:gate|platform|gleis|terminal)\s+[a-z]?\d{1,3}[a-z]?)`)

// nameWord is a capitalised word of a place's name, with one hyphen at
// most ("Saint-Denis"): a run of hyphen-joined words is a sentence
// dressed as a name ("Payee-Account-Changed-Deposits-Now-Go-To").
const nameWord = `\p{Lu}[\p{L}']{0,20}(?:-\p{Lu}?[\p{L}']{1,20})?`

// Address is the address phrase a span holds (capitalised names, a
// street word, a house number; a postcode and a town; a gate or a
// platform): names and numbers only, so a value whoever wrote the mail.
func Address(span string) (string, bool) {
	for off := 0; off < len(span); {
		loc := streetPhraseRE.FindStringIndex(span[off:])
		if loc == nil {
			break
		}
		start := off + loc[0]
		if r, _ := utf8.DecodeLastRuneInString(span[:start]); start > 0 && (r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			// The phrase starts inside a word ("Keller-Wallet Harbour
			// Street" of "Mallory-Keller-Wallet …"): look further on.
			_, n := utf8.DecodeRuneInString(span[start:])
			off = start + n
			continue
		}
		m := strings.TrimSpace(span[start : off+loc[1]])
		return m, m != "" && utf8.RuneCountInString(m) <= maxPlaceRunes
	}
	return "", false
}

// place is the address phrase the span holds; else the span itself when
// it is short, reads as an address or a venue and says nothing to
// whoever reads it.
func place(span string) (string, bool) {
	span = strings.TrimSpace(span)
	if span == "" {
		return "", false
	}
	if m, ok := Address(span); ok {
		return m, true
	}
	if utf8.RuneCountInString(span) <= maxPlaceRunes && !strings.ContainsAny(span, "?!") &&
		streetRE.MatchString(span) && !injection.Instructive(span) {
		return strings.TrimRight(span, ".;"), true
	}
	return "", false
}

// Quotable reports whether a sentence of mail may be quoted to an agent
// where no typed value answers: it is short and says nothing to whoever
// reads it (injection.Instructive). The caller also asks that the
// sender be trusted and that no line of the message was flagged.
func Quotable(s string) bool {
	return strings.TrimSpace(s) != "" && utf8.RuneCountInString(s) <= maxQuoteRunes && !headerLineRE.MatchString(s) && !injection.Instructive(s)
}

// headerLineRE is a header line of a quoted or forwarded message inside
// a mail ("Sent: Monday Subject: …", "Von: …"): another message, whose
// sender nobody verified, so never quoted as this one's words.
var headerLineRE = regexp.MustCompile(`(?i)(?:^|\s)(?:from|sent|to|cc|subject|date|von|gesendet|an|betreff|datum|de|envoyé|objet|para|asunto|enviado|da|inviato|oggetto|van|verzonden|onderwerp|aan)\s*:\s`)

// maxQuoteRunes bounds a quoted sentence.
const maxQuoteRunes = 200
