package extract

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/currency"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
)

// A fact's free-text fields are names and noun phrases ("Fjordlys Hotel",
// "Harbour street 4", "Ceramic mug set"), and its coded fields codes
// ("14C", "LH 400", "ARN"). A sender who controls the markup can put a
// sentence in either, written to be read by the agent the fact reaches
// ("Fjordlys Hotel where the guest file notes that the passport scan goes
// to the night porter"); the gateway hands facts on as data, but a model
// reads data too. So a field gets its shape: a name that runs on into a
// clause is cut where the clause starts, or dropped when it is a clause
// from its start; a code longer than a code is dropped.

// clauseMinWords is how many words a field needs before it is read as a
// possible clause: a shorter name that holds a clause word is a title
// ("Hotel Where Else", "Doctor Who").
const clauseMinWords = 4

// clauseWords are every language's words that make a run of words a
// clause (lang categories clause.verb and clause.relative).
type clauseWords struct {
	verb, relative map[string]bool
}

var clauses = sync.OnceValue(func() clauseWords {
	c := clauseWords{verb: map[string]bool{}, relative: map[string]bool{}}
	for _, w := range lang.Entries("clause.verb") {
		c.verb[w] = true
	}
	for _, w := range lang.Entries("clause.relative") {
		c.relative[w] = true
	}
	return c
})

// fieldWord is a word of a field with the punctuation around it trimmed.
func fieldWord(w string) string {
	return strings.TrimFunc(w, func(r rune) bool { return unicode.IsPunct(r) && r != '\'' && r != '’' })
}

// clauseAt returns the index among strings.Fields(s) of the word where a
// clause starts in s, and whether that word is a relative pronoun or
// subordinator ("where", "whose", "weil") rather than a verb; -1 when s is
// no clause. A clause word counts written in lower case, as it stands
// inside a sentence; written capitalised it may be part of a name
// ("Paris Est", "Son Vida", "Doctor Who"), so capitalised ones count
// only when two of them are in a field (a sentence in Title Case holds a
// verb and a relative). Two capital letters are a code ("IS", "ER").
func clauseAt(ws []string) (int, bool) {
	if len(ws) < clauseMinWords {
		return -1, false
	}
	c := clauses()
	first, firstRel := -1, false
	capital, capitalRel, capitals := -1, false, 0
	for i, w := range ws {
		w = fieldWord(w)
		if w == "" {
			continue
		}
		lower := strings.ToLower(w)
		rel := c.relative[lower]
		if !rel && !c.verb[lower] {
			continue
		}
		if w == lower {
			if first < 0 {
				first, firstRel = i, rel
			}
			continue
		}
		if utf8.RuneCountInString(w) == 2 && w == strings.ToUpper(w) {
			continue
		}
		if capitals++; capital < 0 {
			capital, capitalRel = i, rel
		}
	}
	if first < 0 && capitals >= 2 {
		return capital, capitalRel
	}
	return first, firstRel
}

// withoutClause returns s as a name: s itself when it is no clause, the
// name before a clause that a relative word opens ("Fjordlys Hotel"
// of "Fjordlys Hotel where …", "Harbour street 4" of "Harbour street 4,
// where …"), else "": a clause from its first word, or one whose verb
// makes the words before it its subject ("Refund approval for this order
// was granted …").
func withoutClause(s string) string {
	ws := strings.Fields(s)
	i, rel := clauseAt(ws)
	if i < 0 {
		return s
	}
	if !rel || i == 0 {
		return ""
	}
	name := strings.TrimRightFunc(strings.Join(ws[:i], " "), func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSpace(r) || r == '–' || r == '—'
	})
	// A name does not end in a preposition or an article: "Gala evening
	// at" of "Gala evening at which …" is no name.
	last := fieldWord(ws[i-1])
	if last == "" || last == strings.ToLower(last) && utf8.RuneCountInString(last) <= 3 && !strings.ContainsFunc(last, unicode.IsDigit) {
		return ""
	}
	return name
}

// Shapes of the coded fields.
const (
	maxSeatRunes    = 40
	maxSeatWords    = 8
	maxCarrierWords = 4
	maxCarrierRunes = 48
	maxNumberWords  = 4
	maxNumberRunes  = 24
	maxCodeRunes    = 12
	maxRefWords     = 3
	maxRefRunes     = 40
)

// seatWords are every language's words of a seat ("row", "Wagen",
// "Platz"; lang category seat.label).
var seatWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range lang.Entries("seat.label") {
		m[w] = true
	}
	return m
})

// seatShaped reports whether s is a seat: a short run of numbers, seat
// codes ("14C"), letters ("C") and the words of a seat ("Wagen 7 Platz
// 45", "Row 12 Seat 4A", "section 1, row 2, seat 3").
func seatShaped(s string) bool {
	ws := strings.Fields(s)
	if len(ws) == 0 || len(ws) > maxSeatWords || utf8.RuneCountInString(s) > maxSeatRunes || !strings.ContainsFunc(s, unicode.IsDigit) {
		return false
	}
	for _, w := range ws {
		w = fieldWord(w)
		if w == "" || strings.ContainsFunc(w, unicode.IsDigit) || utf8.RuneCountInString(w) <= 2 || seatWords()[strings.ToLower(w)] {
			continue
		}
		return false
	}
	return true
}

// asSeat returns s as a seat: s when it is one, else its first part
// before a comma, semicolon or parenthesis when that is one ("14C" of
// "14C, the crew already holds …"), else "".
func asSeat(s string) string {
	if seatShaped(s) {
		return s
	}
	if i := strings.IndexAny(s, ",;("); i > 0 && seatShaped(strings.TrimSpace(s[:i])) {
		return strings.TrimSpace(s[:i])
	}
	return ""
}

// asCarrier returns s when it is as short as a company's name ("Deutsche
// Bahn Fernverkehr AG", "United States Postal Service"), else "".
func asCarrier(s string) string {
	if len(strings.Fields(s)) > maxCarrierWords || utf8.RuneCountInString(s) > maxCarrierRunes {
		return ""
	}
	return s
}

// asNumber returns s when it is a flight's or train's number: a few
// words with a digit ("LH 400", "TGV INOUI 6201"), else "".
func asNumber(s string) string {
	if len(strings.Fields(s)) > maxNumberWords || utf8.RuneCountInString(s) > maxNumberRunes || !strings.ContainsFunc(s, unicode.IsDigit) {
		return ""
	}
	return s
}

// asCode returns s when it is a place's code, one word ("ARN", "FRA",
// "8000105"), else "".
func asCode(s string) string {
	if strings.ContainsFunc(s, unicode.IsSpace) || utf8.RuneCountInString(s) > maxCodeRunes {
		return ""
	}
	return s
}

// asReference returns s when it is a booking, order, invoice or tracking
// reference: a few words at most ("ABC123", "FT 2027/118342"), else "".
func asReference(s string) string {
	// Four groups of digits are one number as a railway prints its
	// booking's code ("0092 9427 7998 8404"), which codeRE reads.
	if f := strings.Fields(s); len(f) > maxRefWords && !(len(f) == maxRefWords+1 && strings.Trim(s, "0123456789 ") == "") ||
		utf8.RuneCountInString(s) > maxRefRunes {
		return ""
	}
	// A reference without a digit is one code ("XKRQTP", "KDEKDEKDE"),
	// not words ("DEPOSIT SAVINGS MALLORY", "SEND-TAN-TO-MALLORY").
	if !strings.ContainsFunc(s, unicode.IsDigit) && strings.ContainsAny(s, " -_") {
		return ""
	}
	return s
}

// asTracking returns s when it is a parcel's tracking number: a reference
// in a few groups with a digit ("1Z 999 AA1 01 2345 6784", "BB7QW42KX"),
// else "".
func asTracking(s string) string {
	if !strings.ContainsFunc(s, unicode.IsDigit) || len(strings.Fields(s)) > maxTrackingGroups || utf8.RuneCountInString(s) > maxRefRunes {
		return ""
	}
	return s
}

// maxTrackingGroups: UPS writes its numbers in six groups.
const maxTrackingGroups = 6

// asMoney returns m when its amount is a number and its currency an ISO
// 4217 code, else nil: schema.org's priceCurrency is any text a sender
// writes ("DEPOSIT SAVINGS WITH MALLORY").
func asMoney(m *Money) *Money {
	if m == nil {
		return nil
	}
	if !amountRE.MatchString(m.Amount) {
		return nil
	}
	if m.Currency != "" {
		u, err := currency.ParseISO(m.Currency)
		if err != nil {
			return nil
		}
		// One form an amount takes (InMinorUnits).
		if a := inMinorUnits(m.Amount, u); a != m.Amount {
			return &Money{Amount: a, Currency: m.Currency}
		}
	}
	return m
}

// InMinorUnits is amount, as a fact keeps it ("2420.00"), in the one form
// an amount of currency cur takes: the places of its minor unit (ISO
// 4217, by CLDR's digits), two for most and none for JPY, KRW, ISK, CLP
// or VND, whose mails print "2,420円": "2420" of JPY. A figure whose
// places are not zero keeps them (no rule rounds an amount), and so does
// one of a currency no table knows. The evaluation reads its labels in
// this form too.
func InMinorUnits(amount, cur string) string {
	u, err := currency.ParseISO(cur)
	if err != nil {
		return amount
	}
	return inMinorUnits(amount, u)
}

// WithMinorUnits is a whole amount ("399") with its currency's minor
// units written ("399.00" in SEK, "2420" in JPY), as extraction keeps an
// amount; an amount with a decimal point, or of an unknown currency, as
// given.
func WithMinorUnits(amount, cur string) string {
	u, err := currency.ParseISO(cur)
	if err != nil || strings.IndexByte(amount, '.') >= 0 {
		return amount
	}
	if scale, _ := currency.Standard.Rounding(u); scale > 0 {
		return amount + "." + strings.Repeat("0", scale)
	}
	return amount
}

func inMinorUnits(amount string, u currency.Unit) string {
	if scale, _ := currency.Standard.Rounding(u); scale == 0 {
		if whole, ok := strings.CutSuffix(amount, ".00"); ok {
			return whole
		}
	}
	return amount
}

// amountRE is an amount as a fact keeps it: digits, a decimal point.
var amountRE = lazyregexp.New(`^-?[0-9]{1,12}(?:\.[0-9]{1,4})?$`)

// orgMaxWords is the most words an organisation's name has: "IKEA
// Deutschland GmbH & Co. KG" is six tokens.
const orgMaxWords = 6

// asOrg returns s as the name of a merchant or a bill's issuer, which
// often comes from a sender's display name, the one field of a mail its
// sender writes freely: the part before the first separator ("Northwind
// Billing" of "Northwind Billing, auto-payments approved by the account
// holder"), as a name (withoutClause), and none when that is longer than a
// name is ("Northwind Energie confirms the account holder authorised …"):
// the fact is then named by its sender's domain.
func asOrg(s string) string {
	if i := orgSep(s); i >= 0 {
		s = s[:i]
	}
	s = withoutClause(strings.TrimSpace(s))
	if len(strings.Fields(s)) > orgMaxWords {
		return ""
	}
	return s
}

// orgSep is where an organisation's name ends in a longer text, -1 for
// nowhere: a comma, a colon, a semicolon, an opening parenthesis, or a
// dash or bar set apart by white space (at the space before it). Written
// out rather than a regular expression: it runs on every bill's first
// lines and every merchant's name.
func orgSep(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',', ';', ':', '(':
			return i
		case ' ', '\t', '\n', '\r', '\f':
			rest := s[i+1:]
			for _, d := range []string{"-", "–", "—", "|"} {
				if strings.HasPrefix(rest, d) && len(rest) > len(d) && isSpaceByte(rest[len(d)]) {
					return i
				}
			}
		}
	}
	return -1
}
