package extract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// Amounts of money in text: a labelled amount, an amount in a sentence,
// the currency from its symbol, code or the sender's country ("kr",
// "Rs"); IBANs checked by their mod-97 digits.

var moneyBaseRE = lazyregexp.New(`(?i)(?:(€|\$|£|euros?|lei|EUR|USD|GBP|CHF|CZK|SEK|DKK|NOK|PLN|HUF|RON|RUB|UAH|BGN|RSD|MKD|kr\.?|zł|INR|₹|Rs\.?|¥|￥|₩|JPY|KRW|CNY|RMB|₽|₺|₴)(?::[ \t]?|[ \t]{0,3})(-?\d{1,3}(?:[.,' \x{00a0}\x{202f}]\d{3})*(?:[.,]\d{1,2})?|-?\d+(?:[.,]\d{1,2})?)(?:\b|[^\d]|$))|(?:(-?\d{1,3}(?:[.,' \x{00a0}\x{202f}]\d{3})*(?:[.,]\d{1,2}|,-)?|-?\d+(?:[.,]\d{1,2})?)\s?(€|\$|£|euros?|EUR|USD|GBP|CHF|CZK|SEK|DKK|NOK|PLN|HUF|RON|RUB|UAH|BGN|INR|Kč|Kc|kr\.?|zł|zl|Ft|lei|₹|JPY|KRW|CNY|RMB|円|원|元|₽|руб\.?|₺|TL|₴|грн\.?|лв\.?|RSD|dinara|din\.|динара|дин\.|MKD|денари|ден\.)(?:\b|$|[^\p{L}]|[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]))`)

// moneyISORE is moneyRE's form for the currencies of isoCodes and the
// symbols no other reader knows, with the same groups: apart, since one
// expression of both is too large for the regexp package's backtracker
// and ran every amount line 12 % slower.
//
// A code may take a dot before its figure, as billing systems print a
// currency's prefix ("NGN.750.00", WHMCS's).
var moneyISORE = lazyregexp.New(`(?:(₪|₱|₫|฿|₦|\bRp\.?|\bRM|(?:` + isoCodes + `)\.?)[ \t]{0,3}(-?\d{1,3}(?:[.,' \x{00a0}\x{202f}]\d{3})*(?:[.,]\d{1,2})?|-?\d+(?:[.,]\d{1,2})?)(?:\b|[^\d]|$))|(?:(-?\d{1,3}(?:[.,' \x{00a0}\x{202f}]\d{3})*(?:[.,]\d{1,2}|,-)?|-?\d+(?:[.,]\d{1,2})?)\s?(₪|₫|฿|` + isoCodes + `)(?:\b|$|[^\p{L}]))`)

// moneyRE finds amounts of money: moneyBaseRE's, and moneyISORE's in a
// line that holds one of its currencies (hasISOCurrency), in the order
// they stand.
var moneyRE moneyFinder

type moneyFinder struct{}

func (moneyFinder) FindStringSubmatchIndex(s string) []int {
	if ms := moneyRE.FindAllStringSubmatchIndex(s, 1); len(ms) > 0 {
		return ms[0]
	}
	return nil
}

func (moneyFinder) FindStringIndex(s string) []int {
	if m := moneyRE.FindStringSubmatchIndex(s); m != nil {
		return m[:2]
	}
	return nil
}

// FindAllStringSubmatchIndex is the regexp method's, over both
// expressions: their matches by their start, none overlapping an earlier
// one; n < 0 for all.
func (moneyFinder) FindAllStringSubmatchIndex(s string, n int) [][]int {
	base := moneyBaseRE.FindAllStringSubmatchIndex(s, n)
	if slices.ContainsFunc(base, func(m []int) bool { return gluedCurrency(s, m) }) {
		base = slices.DeleteFunc(moneyBaseRE.FindAllStringSubmatchIndex(s, -1), func(m []int) bool { return gluedCurrency(s, m) })
		if n >= 0 && len(base) > n {
			base = base[:n]
		}
	}
	if !hasISOCurrency(s) {
		return inDigitRun(s, base)
	}
	out := append(base, moneyISORE.FindAllStringSubmatchIndex(s, n)...)
	slices.SortStableFunc(out, func(a, b []int) int { return a[0] - b[0] })
	kept := out[:0]
	for _, m := range out {
		if len(kept) > 0 && m[0] < kept[len(kept)-1][1] {
			continue
		}
		kept = append(kept, m)
	}
	if n >= 0 && len(kept) > n {
		kept = kept[:n]
	}
	return inDigitRun(s, kept)
}

// inDigitRun reads again each match of ms that begins inside a run of
// digits, from the run's end: a year before an amount grouped by a space
// ("prélevé le 18 décembre 2022 241,16 €") had lent the amount its last
// digits ("022 241,16": 22,241.16).
func inDigitRun(s string, ms [][]int) [][]int {
	for k := 0; k < len(ms); k++ {
		m := ms[k]
		if m[0] == 0 || !isDigitByte(s[m[0]-1]) {
			continue
		}
		j := m[0]
		for j < m[1] && isDigitByte(s[j]) {
			j++
		}
		again := moneyRE.FindStringSubmatchIndex(s[j:m[1]])
		if again == nil {
			ms = slices.Delete(ms, k, k+1)
			k--
			continue
		}
		for g := range again {
			if again[g] >= 0 {
				again[g] += j
			}
		}
		ms[k] = again
	}
	return ms
}

// gluedCurrency reports whether moneyBaseRE's match m in s is a
// currency written before its figure in letters that end a word: "mars
// 2026" holds no rupees ("Rs 2026"), "Zeurs 12" no euros.
func gluedCurrency(s string, m []int) bool {
	if m[2] <= 0 {
		return false
	}
	c := s[m[2]]
	if c < 'A' || c > 'Z' && c < 'a' || c > 'z' {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:m[2]])
	return unicode.IsLetter(r)
}

// isoCodes are the ISO 4217 codes of currencies moneyRE reads only as
// codes, in capitals: as words in any case they are English's ("try",
// "pen", "mad", "cop", "all"), and a lower-case "try 3 times" is no
// Turkish lira. The currencies with words or symbols of their own are in
// moneyRE's lists (EUR, kr, zł …). holdsCurrency finds these in a line.
const isoCodes = `AUD|CAD|NZD|SGD|HKD|TWD|MXN|BRL|ARS|CLP|COP|PEN|UYU|PYG|GTQ|DOP|ZAR|NGN|KES|GHS|EGP|MAD|TND|DZD|AED|SAR|QAR|KWD|BHD|OMR|JOD|ILS|LBP|IQD|THB|MYR|IDR|PHP|VND|PKR|LKR|BDT|NPR|ISK|TRY|KZT|GEL|AZN|MDL|CNH`

// isoCodeSet holds isoCodes, for holdsCurrency's scan.
var isoCodeSet = func() map[string]bool {
	m := map[string]bool{}
	for c := range strings.SplitSeq(isoCodes, "|") {
		m[c] = true
	}
	return m
}()

// holdsCurrency reports whether a line (ln, and l, it lower-cased) names
// a currency moneyRE reads: one of currencyWords, or a code of isoCodes
// in capitals as a word of its own.
func holdsCurrency(ln, l string) bool {
	return currencyWords.Any(l) || hasISOCurrency(ln)
}

// hasISOCurrency reports whether s holds a code of isoCodes in capitals
// as a word of its own, or a symbol only moneyISORE reads.
func hasISOCurrency(s string) bool {
	for i := 0; i+3 <= len(s); i++ {
		if !isUpperByte(s[i]) || i > 0 && inWord(s[i-1]) {
			continue
		}
		if isUpperByte(s[i+1]) && isUpperByte(s[i+2]) && (i+3 == len(s) || !inWord(s[i+3])) && isoCodeSet[s[i:i+3]] {
			return true
		}
	}
	return strings.ContainsAny(s, "₪₱₫฿₦") || symbolBefore(s, "Rp") || symbolBefore(s, "RM")
}

// symbolBefore reports whether s writes an amount after a two-letter
// sign, Indonesia's "Rp" ("Rp 589,000", "Rp61.416", "Rp. 25.000") or
// Malaysia's ringgit "RM" ("RM 125.40", "RM161.53"): the sign as a word
// of its own, in its own case, before a digit, a space or a dot.
func symbolBefore(s, sign string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], sign)
		if j < 0 {
			return false
		}
		i += j
		if (i == 0 || !inWord(s[i-1])) && i+2 < len(s) && (s[i+2] == ' ' || s[i+2] == '.' || isDigitByte(s[i+2])) {
			return true
		}
		i += 2
	}
}

func isUpperByte(b byte) bool { return b >= 'A' && b <= 'Z' }

// inWord reports whether b is part of a word: an ASCII letter, or a byte
// of a character beyond ASCII.
func inWord(b byte) bool { return b >= 0x80 || b|0x20 >= 'a' && b|0x20 <= 'z' }

// threePlaces are the currencies of three decimal places (ISO 4217):
// "KWD 12.500" is twelve dinars and a half, not twelve thousand five
// hundred.
var threePlaces = map[string]bool{"KWD": true, "BHD": true, "OMR": true, "JOD": true, "TND": true, "IQD": true, "LYD": true}

// currencyWords are what moneyRE's currencies hold, lower case: a line
// with none of them is passed over before the expression runs.
// Turkish "TL" only right after a digit: as two letters anywhere
// ("title", "settle") it would let the expression run on most lines.
var currencyWords = words.NewSet([]string{"€", "$", "£", "₹", "₪", "₱", "₫", "฿", "₦", "eur", "usd", "gbp", "chf", "czk", "sek", "dkk", "nok",
	"pln", "huf", "ron", "inr", "kr", "zł", "kč", "ft", "lei", "rs", "¥", "￥", "₩", "円", "원", "元", "jpy", "krw", "cny", "rmb",
	"rub", "uah", "bgn", "₽", "руб", "₺", "₴", "грн", "лв", "rsd", "din.", "dinara", "дин.", "динара", "mkd", "денари", "ден.",
	// Czech and Polish written without their marks ("1 284,00 Kc",
	// "143,97 zl"), after an amount only.
	"0 kc", "1 kc", "2 kc", "3 kc", "4 kc", "5 kc", "6 kc", "7 kc", "8 kc", "9 kc", "0kc", "-kc",
	"0 zl", "1 zl", "2 zl", "3 zl", "4 zl", "5 zl", "6 zl", "7 zl", "8 zl", "9 zl", "0zl", "1zl", "2zl", "3zl", "4zl", "5zl", "6zl", "7zl", "8zl", "9zl",
	"0tl", "1tl", "2tl", "3tl", "4tl", "5tl", "6tl", "7tl", "8tl", "9tl", "0 tl", "1 tl", "2 tl", "3 tl", "4 tl", "5 tl", "6 tl", "7 tl", "8 tl", "9 tl"})

var currencySymbols = map[string]string{"€": "EUR", "euro": "EUR", "euros": "EUR", "$": "USD", "£": "GBP", "kč": "CZK", "kc": "CZK", "zł": "PLN", "zl": "PLN", "ft": "HUF", "lei": "RON", "₹": "INR",
	"円": "JPY", "원": "KRW", "₩": "KRW", "元": "CNY", "rmb": "CNY",
	"₽": "RUB", "руб": "RUB", "руб.": "RUB", "₺": "TRY", "tl": "TRY", "₴": "UAH", "грн": "UAH", "грн.": "UAH", "лв": "BGN", "лв.": "BGN",
	"din.": "RSD", "dinara": "RSD", "дин.": "RSD", "динара": "RSD", "денари": "MKD",
	"₪": "ILS", "₱": "PHP", "₫": "VND", "฿": "THB", "₦": "NGN", "rp": "IDR", "rp.": "IDR", "rm": "MYR"}

// validIBAN reports whether s is an IBAN: two letters, two check digits
// and up to 30 letters and digits whose ISO 7064 mod 97 is 1.
func validIBAN(s string) bool {
	if len(s) < 15 || len(s) > 34 || !isUpper(s[:2]) || s[2]-'0' > 9 || s[3]-'0' > 9 {
		return false
	}
	r := 0
	for _, ch := range s[4:] + s[:4] {
		switch {
		case ch >= '0' && ch <= '9':
			r = (r*10 + int(ch-'0')) % 97
		case ch >= 'A' && ch <= 'Z':
			r = (r*100 + int(ch-'A'+10)) % 97
		default:
			return false
		}
	}
	return r == 1
}

// netPhrases say an amount is before tax, in every language (extract/lang).
var netPhrases = lang.Entries("amount.net")

// netAmount reports whether the text right after an amount label says the
// amount is before tax, or one word after it, the label's own noun
// ("Total amount before taxes", "Total price excl. VAT").
func netAmount(rest string) bool {
	l := strings.ToLower(strings.TrimLeft(rest, " \t(:（："))
	if netPrefix(l) {
		return true
	}
	w, after, ok := strings.Cut(l, " ")
	return ok && w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" && netPrefix(strings.TrimLeft(after, " \t("))
}

// netPrefix reports whether lower-cased l starts with a net phrase: a
// whole word, or a Japanese or Chinese phrase, which runs on into the
// next word unspaced ("合計（税抜き）").
func netPrefix(l string) bool {
	for _, p := range netPhrases {
		if strings.HasPrefix(l, p) && (!words.In(l, len(p), false) || unspacedScript(p)) {
			return true
		}
	}
	return false
}

// rupees are the countries that pay in a rupee, and which.
var rupees = map[string]string{"IN": "INR", "PK": "PKR", "LK": "LKR", "NP": "NPR", "MU": "MUR"}

// rupee is the currency an "Rs" amount is in: the sender's country's
// rupee, India's when the country does not say.
func (c *msgContext) rupee() string {
	if r, ok := rupees[c.senderCountry]; ok {
		return r
	}
	return "INR"
}

// rupeeGraveRE is the rupee's sign as the text of a PDF set in the fonts
// that gave the sign before Unicode did (Rupee Foradian, 2010, on the
// grave accent's key) reads it: a column's "(`)", a figure's "` 0.00".
var rupeeGraveRE = lazyregexp.New(`\(\s?` + "`" + `\s?\)|` + "`" + `\s?\d`)

// rupeeWordsRE is an amount in words, as Indian invoices print it
// ("Six Hundred Sixty Three Rupees and Seventy Seven Paise Only").
var rupeeWordsRE = lazyregexp.New(`(?i)\brupees\b`)

// rupeeUnsigned reports whether a bill whose figures carry no currency
// says it is in rupees another way: the font's grave accent for the sign,
// or the amount in words.
func rupeeUnsigned(text string) bool {
	return rupeeGraveRE.MatchString(text) || rupeeWordsRE.MatchString(text)
}

// krona is the currency a "kr" amount is in: the sender's country's, else
// the language's; "" when neither tells.
func (c *msgContext) krona(text string) string {
	switch c.senderCountry {
	case "DK", "GL", "FO":
		return "DKK"
	case "NO":
		return "NOK"
	case "SE":
		return "SEK"
	case "IS":
		return "ISK"
	}
	switch lang.Detect(text) {
	case "da":
		return "DKK"
	case "nb":
		return "NOK"
	case "sv":
		return "SEK"
	}
	return ""
}

// Symbols that more than one currency writes. "$" is the US dollar unless
// the mail says which other dollar (or peso, or real) it is: a prefix on
// the amount ("CA$ 70", "A$70", "R$ 70"), else the one dollar code the
// text names ("CAD", "AUD"; two different ones tell nothing), else the
// sender's country (a .ca sender's $ is CAD, a .com.au sender's AUD, a
// .cl sender's Chilean pesos, and so a "co." host's under .com Colombian
// pesos); a .com sender's or any other's "$" with none of that is USD.
// "£" is always GBP and "€" EUR. ("kr" and "Rs" are read by krona and
// rupee; "¥" by yen.)

// dollarPrefixes are the letters before "$" that name a dollar, longest
// first.
var dollarPrefixes = []struct{ prefix, code string }{
	{"CAD", "CAD"}, {"AUD", "AUD"}, {"USD", "USD"}, {"NZD", "NZD"}, {"MXN", "MXN"}, {"COP", "COP"}, {"COL", "COP"},
	{"CLP", "CLP"}, {"ARS", "ARS"}, {"UYU", "UYU"}, {"DOP", "DOP"}, {"TWD", "TWD"},
	{"US", "USD"}, {"CA", "CAD"}, {"AU", "AUD"}, {"NZ", "NZD"}, {"SG", "SGD"}, {"HK", "HKD"}, {"MX", "MXN"},
	{"NT", "TWD"}, {"RD", "DOP"}, {"C", "CAD"}, {"A", "AUD"}, {"S", "SGD"}, {"R", "BRL"},
}

// dollarCodes are the currencies written "$" whose code a text may name,
// and dollarByCountry the one each country's "$" means.
var (
	dollarCodeRE    = lazyregexp.New(`\b(USD|CAD|AUD|NZD|SGD|HKD|MXN|BRL|COP|CLP|ARS|UYU|DOP|TWD)\b`)
	dollarByCountry = map[string]string{"CA": "CAD", "AU": "AUD", "NZ": "NZD", "SG": "SGD", "HK": "HKD", "MX": "MXN", "BR": "BRL",
		"CO": "COP", "CL": "CLP", "AR": "ARS", "UY": "UYU", "DO": "DOP", "TW": "TWD"}
)

// dollarCurrency reports whether a currency's code is one written "$".
func dollarCurrency(code string) bool {
	if code == "USD" {
		return true
	}
	for _, c := range dollarByCountry {
		if c == code {
			return true
		}
	}
	return false
}

// dollar is the currency of a "$" amount: before is the text before the
// symbol on its piece of text, text the whole mail's.
func (c *msgContext) dollar(before, text string) string {
	// A prefix written against the symbol: "CA$", "A$", "US$".
	for _, p := range dollarPrefixes {
		if b, ok := strings.CutSuffix(before, p.prefix); ok {
			if r, _ := utf8.DecodeLastRuneInString(b); b == "" || !unicode.IsLetter(r) {
				return p.code
			}
		}
	}
	codes := map[string]bool{}
	for _, m := range dollarCodeRE.FindAllString(firstLines(text, 80), 8) {
		codes[m] = true
	}
	if len(codes) == 1 {
		for k := range codes {
			return k
		}
	}
	// None, or two that contradict each other: the sender's country.
	if cur, ok := dollarByCountry[c.senderCountry]; ok {
		return cur
	}
	if cur, ok := dollarByCountry[hostCountry(c.senderDomain)]; ok {
		return cur
	}
	return "USD"
}

// hostCountry is the country a sender's host name gives by a label of
// two letters first under a generic domain: a company's mail for one
// country from "co.example.com" ("co" for Colombia), as its domain's last
// label would say under a country's own domain. "" for any other.
func hostCountry(d string) string {
	first, rest, ok := strings.Cut(d, ".")
	if !ok || len(first) != 2 || strings.Count(rest, ".") < 1 || tldCountry(rest) != "" {
		return ""
	}
	if first[0] < 'a' || first[0] > 'z' || first[1] < 'a' || first[1] > 'z' {
		return ""
	}
	return strings.ToUpper(first)
}

// markupMoney is an amount from markup: money(amount, currency), the
// currency from a symbol the amount is written with when the markup
// gives none ("price": "$70.00"; a "$" by its prefix and the sender's
// country alone, as markup has no text around it).
func (c *msgContext) markupMoney(amount, currency string) *Money {
	a := strings.TrimSpace(amount)
	prefix, num, dollar := strings.Cut(a, "$")
	if !dollar {
		num = a
	}
	m := money(num, currency)
	if m == nil || m.Currency != "" {
		return m
	}
	switch {
	case strings.HasPrefix(a, "€"), strings.HasSuffix(a, "€"):
		m.Currency = "EUR"
	case strings.HasPrefix(a, "£"), strings.HasSuffix(a, "£"):
		m.Currency = "GBP"
	case dollar:
		m.Currency = c.dollar(prefix, "")
	}
	return m
}

// payableLabels label what a bill asks to be paid (amount.payable:
// "Amount due", "Total payable"); not a balance left on an account
// ("Remaining balance: €10.01" after a purchase).
var payableLabels = numericLabels(lang.Entries("amount.payable")...)

// labelledAmount finds the amount after an amount label: the first, but
// that a label of what is payable names another, not zero, in the same
// currency further down ("Total Charges Rs. 119.96" over "Total Payable
// Rs. 153.34", a statement's charges over its amount due).
func (c *msgContext) labelledAmount(text string) *Money {
	first := c.labelledWith(amountLabels, text)
	if first == nil {
		return nil
	}
	if due := c.labelledWith(payableLabels, text); due != nil && due.Amount != "0.00" && due.Currency == first.Currency {
		return due
	}
	return first
}

// labelledWith finds the amount after the first of labels ls that has
// one.
func (c *msgContext) labelledWith(ls labelSet, text string) *Money {
	var zero *Money // the first amount of nothing, for want of another
	for _, v := range c.afterNext(ls, text) {
		// The amount on the label's line, else alone on the next line.
		line, next, _ := strings.Cut(v, "\n")
		if netAmount(line) {
			continue // "Total HT", "Summe netto": before tax, not what is due
		}
		m := moneyRE.FindStringSubmatchIndex(line)
		if m != nil && figureRun(line[m[1]:]) {
			// "Bedrag in EUR 72,00 144,00 69,68 69,68 82,39": a column's
			// heading over its figures, a printed table run into one
			// line, not a label beside its value.
			continue
		}
		if m != nil && m[0] > 30 {
			// The day it is debited or due between the label and the
			// amount ("MONTANT TTC prélevé le 18 décembre 2022 241,16
			// €"), as a printed bill's summary row gives it.
			t := strings.TrimSpace(line)
			if rest := afterDueClause(t); rest != t {
				if m2 := moneyRE.FindStringSubmatchIndex(rest); m2 != nil && m2[0] == 0 {
					if mo := c.moneyAt(rest, m2, text); mo != nil {
						return mo
					}
				}
			}
		}
		if bareFigureRE.MatchString(line) {
			// "Valor a Pagar (R$)" over "141,73": the label's aside,
			// which the label reader passed over, names the currency of
			// the figure alone under it.
			if mo := c.labelSignAmount(text, line); mo != nil {
				return mo
			}
		}
		if m == nil || m[0] > 30 {
			if m = moneyRE.FindStringSubmatchIndex(next); m == nil || m[0] != 0 || m[1] != len(next) {
				// "Total in CHF" over "53,00", "Total (EUR)   53,00": the
				// currency in the label, the figure bare.
				if mo := labelCurrencyAmount(line, next); mo != nil {
					return mo
				}

				if mo := c.amountOpensRowUnder(line, v, text); mo != nil {
					return mo
				}
				continue
			}
			v = next
		}
		// "opłata za wezwanie do zapłaty 0,00 zł": a fee's empty row
		// under the label's word, not what the bill asks, when a later
		// label gives an amount.
		if mo := c.moneyAt(v, m, text); mo != nil {
			if !zeroMoney(mo) {
				return mo
			}
			if zero == nil {
				zero = mo
			}
		}
	}
	return zero
}

// zeroMoney reports whether an amount is nothing ("0,00 zł").
func zeroMoney(m *Money) bool { return strings.Trim(m.Amount, "0.") == "" }

// amountOpensRowUnder is the amount that opens the next line with words
// under a label's row of column headings, when the label's line holds no
// amount: the first column's figure ("Total a pagar Periodo 1 Periodo 1",
// a blank line, "215,25€ 3000": a bill's summary beside a chart, as a
// PDF's text sets them). v is the text after the label, line its line.
func (c *msgContext) amountOpensRowUnder(line, v, text string) *Money {
	if len(line) > 40 || !hasLetter(line) || moneyRE.FindStringSubmatchIndex(line) != nil {
		return nil // the label alone on its line heads no row of headings
	}
	rest := v[len(line):]
	for i := 0; i < 3; i++ {
		var ln string
		ln, rest, _ = strings.Cut(strings.TrimPrefix(rest, "\n"), "\n")
		rest = "\n" + rest
		t := strings.TrimSpace(ln)
		if t == "" {
			continue
		}
		if m := moneyRE.FindStringSubmatchIndex(t); m != nil && m[0] == 0 && !hasLetter(t[m[1]:]) {
			// Only figures after it: the row's other columns. Words
			// after it are an item's row under a table's header
			// ("19,99 € T-Shirt"), not the total.
			return c.moneyAt(t, m, text)
		}
		return nil
	}
	return nil
}

// bareTotal is a total printed without its currency, on a row that
// begins with an amount label: the row's amount alone ("Grand Total
// 319.00", "Gesamtbetrag   1.234,56"), or the last of a table's row of
// numbers ("TOTAL   3   214,00   44,94   258,94"). Of such rows, the
// last: a document's grand total follows its subtotals. A label in a
// table's header ("Total (EUR)" over the items) heads no row of its own.
func bareTotal(text string) string {
	total := ""
	for ln := range strings.Lines(firstLines(text, 200)) {
		t := strings.TrimSpace(ln)
		if n := len(t); n < 4 || !isDigitByte(t[n-1]) || !isDigitByte(t[n-2]) || t[n-3] != '.' && t[n-3] != ',' {
			continue // most lines: no amount with cents at their end
		}
		m := amountLabels.re.FindStringIndex(t)
		if m == nil || m[0] > 0 || netAmount(t[m[1]:]) || netAside(t[m[0]:m[1]]) != "" {
			continue
		}
		rest := strings.TrimSpace(strings.TrimLeft(t[m[1]:], " \t:"))
		rest = afterDueClause(rest)
		cells := strings.Fields(rest)
		if bareAmountRE.MatchString(rest) {
			total = rest
			continue
		}
		if len(cells) < 2 || len(cells) > 8 || !bareAmountRE.MatchString(cells[len(cells)-1]) {
			continue
		}
		row := true
		for _, cell := range cells {
			if !numberCellRE.MatchString(cell) {
				row = false
				break
			}
		}
		if row {
			total = cells[len(cells)-1]
		}
	}
	return total
}

// afterDueClause is rest, what follows a total's label on its row, less
// the day it is due or debited on, when the row names one between its
// label and its figures ("Montant prélevé le 6 décembre 2022   14,99",
// "Total amount due by 28 May 2026   37.80", "Importo da pagare entro il
// 29/03/2022   67,75"): a printed bill's summary row. The words before
// the day must be a due day's label or word (due, due.after) and hold no
// digit; else rest as it is.
func afterDueClause(rest string) string {
	if len(rest) < 12 || !hasDigit(rest) {
		return rest
	}
	ds := findDates(rest, false)
	if len(ds) == 0 || !ds[0].hasYear || ds[0].start == 0 {
		return rest
	}
	before := rest[:ds[0].start]
	if hasDigit(before) || len(strings.Fields(before)) > 5 || dueLabels.re.FindStringIndex(before) == nil && dueAfterRE.FindStringIndex(before) == nil {
		return rest
	}
	return strings.TrimSpace(rest[ds[0].end:])
}

// numberCellRE is a table cell of a row of numbers: a count, an amount,
// a rate.
var numberCellRE = lazyregexp.New(`^-?\d[\d.,']*%?$`)

// bareAmountRE is an amount with its cents and nothing else.
var bareAmountRE = lazyregexp.New(`^(?:\d{1,3}(?:[,.' ]\d{3})+|\d+)[.,]\d{2}$`)

// billAmountBare is a bill's total printed without its currency
// ("Grand Total    319.00"): printed invoices write the currency once,
// in a column's header, a discount's line or the terms, and the total
// bare. The currency is the one every amount the text writes with a
// currency is in; none, or two, and the amount is not taken.
func (c *msgContext) billAmountBare(text string) *Money {
	bare := bareTotal(text)
	if bare == "" {
		return nil
	}
	cur := ""
	for ln := range strings.Lines(firstLines(text, 200)) {
		if !hasDigit(ln) || !holdsCurrency(ln, lowerLine(ln)) {
			continue
		}
		for _, m := range moneyRE.FindAllStringSubmatchIndex(ln, 8) {
			mo := c.moneyAt(ln, m, text)
			if mo == nil || mo.Currency == "" || cur != "" && mo.Currency != cur {
				return nil
			}
			cur = mo.Currency
		}
	}
	if cur == "" {
		// No amount written with its currency: the one currency code the
		// text names, in a column's header or the label's aside ("Amount
		// Due (USD)", "Gesamt (EUR)").
		for _, code := range currencyCodeRE.FindAllString(text, 16) {
			if cur != "" && code != cur {
				return nil
			}
			cur = code
		}
		if r, ok := rupees[c.senderCountry]; cur == "" && ok && rupeeUnsigned(text) {
			cur = r
		}
		if cur == "" {
			return nil
		}
	}
	return money(bare, cur)
}

// currencyCodeRE is an ISO 4217 code of the currencies the readers know,
// as a word.
var currencyCodeRE = lazyregexp.New(`\b(?:EUR|USD|GBP|CHF|CZK|SEK|DKK|NOK|PLN|HUF|RON|RUB|UAH|BGN|INR|` + isoCodes + `)\b`)

// moneyAt is the amount of moneyRE's match m in v, a piece of text.
func (c *msgContext) moneyAt(v string, m []int, text string) *Money {
	cur, num := "", ""
	if m[2] >= 0 {
		cur, num = v[m[2]:m[3]], v[m[4]:m[5]]
	} else {
		num, cur = v[m[6]:m[7]], v[m[8]:m[9]]
	}
	if m[2] >= 0 && strings.EqualFold(cur, "lei") && !c.romanian(text) {
		// "lei 38,17": a Romanian statement's column of units before
		// its values. Elsewhere "Lei" before a figure is Italian's
		// "you" ("a Lei 3 volte").
		return nil
	}
	if len(cur) == 4 && cur[3] == '.' && isoCodeSet[cur[:3]] {
		cur = cur[:3] // "NGN.750.00"
	}
	if cur == "$" {
		cur = c.dollar(v[:m[0]], text)
	} else if sym, ok := currencySymbols[strings.ToLower(cur)]; ok {
		cur = sym
	} else if strings.EqualFold(strings.TrimSuffix(cur, "."), "kr") {
		cur = c.krona(text)
	} else if strings.EqualFold(strings.TrimSuffix(cur, "."), "rs") {
		cur = c.rupee()
	} else if cur == "¥" || cur == "￥" {
		if cur = yen(text); cur == "" {
			return nil
		}
	} else if cur == "ден." {
		// Macedonian denars, in a Macedonian text only: "за 1 ден." is
		// Bulgarian's "for 1 day".
		if !strings.ContainsAny(text, "ѓќѕЃЌЅ") {
			return nil
		}
		cur = "MKD"
	}
	num = strings.TrimSuffix(num, ",-") // "1.234,- Kč": whole crowns
	if threePlaces[strings.ToUpper(cur)] {
		return moneyThree(strings.TrimPrefix(num, "-"), strings.ToUpper(cur))
	}
	return money(strings.TrimPrefix(num, "-"), cur)
}

// moneyThree is an amount of a currency of three decimal places: the
// last separator before exactly three digits is its decimal point when it
// is a point, or the other separator comes before it ("1.250,500"):
// "12.500", "1,250.500" and "1.250,500" are 12.500 and 1250.500; "1,250"
// alone is a thousand two hundred and fifty, as English writes it.
func moneyThree(num, cur string) *Money {
	i := strings.LastIndexAny(num, ".,")
	if i < 0 || len(num)-i-1 != 3 || num[i] == ',' && !strings.Contains(num[:i], ".") {
		m := money(num, cur)
		if m != nil {
			m.Amount += "0"
		}
		return m
	}
	whole, ok := normaliseAmount(num[:i])
	if !ok {
		return nil
	}
	return &Money{Amount: strings.TrimSuffix(whole, ".00") + "." + num[i+1:], Currency: cur}
}

// sentenceAmount is the amount a bill's own sentence gives without a
// label ("Din faktura 55120931 på 349 kr förfaller den 28 januari 2030",
// "la bolletta n. 3001128 di 78,50 € scade il 25/01/2030"): the one
// amount of a line among the first that names the bill by a bill's
// word (bill.topic). cond: the amount it would give is in a clause a
// conditional opens ("if your statement shows a past due balance of
// $86.40, please pay by …": conditionalClause), which states no bill.
func (c *msgContext) sentenceAmount(text string) (_ *Money, cond bool) {
	// The bill's words first, by the phrase automaton: most mail that
	// speaks of bills has many lines with digits and no amount on them.
	prev := ""
	for ln := range strings.Lines(firstLines(text, 30)) {
		before := prev
		prev = ln
		if !hasDigit(ln) {
			continue
		}
		l := lowerLine(ln)
		if !holdsCurrency(ln, l) {
			continue
		}
		topic := billTopic.Any(l)
		if !topic && !payWords.In(l) {
			continue
		}
		// "Get $20.00 off your next bill when you pay by October 14":
		// an offer's amount, no bill's.
		if billOffers.In(l) {
			continue
		}
		ms := moneyRE.FindAllStringSubmatchIndex(ln, 4)
		if netAmount(ln) {
			continue
		}
		// The amount a verb asks to pay by a day ("Please pay $70.00 by
		// March 25 to avoid a $5 late fee"; "Pay $10 less with AutoPay"
		// asks for nothing), else the line's one amount when it names
		// the bill.
		// A price per unit of what was used ("₱ 10.57 per kWh", "0,32
		// €/kWh") is a rate the bill explains, never its amount.
		ms = slices.DeleteFunc(ms, func(m []int) bool { return unitRateRE.MatchString(ln[m[1]:]) })
		for _, m := range ms {
			if w := dueAfterRE.FindStringIndex(ln[m[1]:]); w != nil && w[0] <= 3 && afterPayWord(ln[:m[0]]) {
				return c.moneyAt(ln, m, text), conditionalClause(strings.TrimRight(before, "\r\n") + " " + ln[:m[0]])
			}
		}
		if !topic || len(ms) != 1 || figureRun(ln[ms[0][1]:]) {
			continue
		}
		return c.moneyAt(ln, ms[0], text), conditionalClause(strings.TrimRight(before, "\r\n") + " " + ln[:ms[0][0]])
	}
	return nil, false
}

// unitRateRE is the text after an amount that makes it a price per unit
// of energy, gas, water or data: a slash or a short word ("per", "pro",
// "par", "je") and the unit.
var unitRateRE = lazyregexp.New(`^[ \t]*(?:/|\p{L}{2,4}[ \t]+)[ \t]*(?i:kwh|mwh|kw|m3|m³|therms?|ccf|gb|mb)(?:[^\p{L}\p{N}]|$)`)

// The words that ask to pay an amount right after them, every
// language's (bill.pay), longest first.
var (
	payPhrases = longestFirst(lang.Entries("bill.pay"))
	payWords   = words.NewWholeSet(lang.Entries("bill.pay"))
)

// afterPayWord reports whether before, the text before an amount on its
// line, ends with a word that asks to pay it.
func afterPayWord(before string) bool {
	b := strings.ToLower(strings.TrimRight(before, " \t"))
	for _, p := range payPhrases {
		if strings.HasSuffix(b, p) && !words.In(b, len(b)-len(p), true) {
			return true
		}
	}
	return false
}

// money normalises an amount ("1,234.50", "12.5", 12.5) to a dot decimal
// with two places.
func money(amount, currency string) *Money {
	a, ok := normaliseAmount(amount)
	if !ok {
		return nil
	}
	return &Money{Amount: a, Currency: strings.ToUpper(strings.TrimSpace(currency))}
}

func normaliseAmount(s string) (string, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "$€£ ")
	if s == "" {
		return "", false
	}
	lastDot, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	dec := -1
	switch {
	case lastDot > lastComma && len(s)-lastDot-1 <= 2:
		dec = lastDot
	case lastComma > lastDot && len(s)-lastComma-1 <= 2:
		dec = lastComma
	}
	var intPart, frac strings.Builder
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			if dec >= 0 && i > dec {
				frac.WriteRune(r)
			} else {
				intPart.WriteRune(r)
			}
		case r == '.' || r == ',' || r == ' ' || r == '\'' || r == '\u00a0' || r == '\u202f':
		default:
			return "", false
		}
	}
	if intPart.Len() == 0 && frac.Len() == 0 {
		return "", false
	}
	var n int64
	if intPart.Len() > 0 {
		var err error
		if n, err = strconv.ParseInt(intPart.String(), 10, 64); err != nil || n > 1e13 {
			return "", false
		}
	}
	f := frac.String()
	for len(f) < 2 {
		f += "0"
	}
	return fmt.Sprintf("%d.%s", n, f), true
}

// labelCurrencyRE is what follows an amount's label that names the
// currency ("in CHF", "(EUR)", "EUR:"), and the figure after it on its
// line, if any, perhaps with the currency's sign; bareFigureRE is a
// figure with its cents alone.
var (
	labelCurrencyRE = lazyregexp.New(`^[ \t]*(?:in[ \t]+)?\(?(EUR|USD|GBP|CHF|CZK|SEK|DKK|NOK|PLN|HUF|RON|BGN|RSD|` + isoCodes + `)\)?[ \t]*:?[ \t]*([$€£]?)[ \t]*(\d{1,3}(?:['’.,]\d{3})*[.,]\d{2})?[ \t]*\*{0,2}[ \t]*$`)
	bareFigureRE    = lazyregexp.New(`^[ \t]*(\d{1,3}(?:['’.,]\d{3})*[.,]\d{2})[ \t]*$`)
)

// labelCurrencyAmount is the amount of a label that names its currency
// and a figure with its cents after it on its line, or alone on the next
// ("Total in CHF" / "53,00"), else nil.
func labelCurrencyAmount(line, next string) *Money {
	m := labelCurrencyRE.FindStringSubmatch(line)
	if m == nil || m[2] != "" && m[3] == "" {
		return nil
	}
	// A sign before the figure that is the label's currency's ("Total in
	// CAD: $102.73*", a footnote's star after it); another currency's
	// sign makes the line no amount of the label's.
	if sign := m[2]; sign != "" && !(sign == "$" && dollarCurrency(m[1]) || currencySymbols[sign] == m[1]) {
		return nil
	}
	fig := m[3]
	if fig == "" {
		n := bareFigureRE.FindStringSubmatch(next)
		if n == nil {
			return nil
		}
		fig = n[1]
	}
	return money(strings.NewReplacer("'", "", "’", "").Replace(fig), m[1])
}

// figureRunRE is two figures with cents or more, apart by spaces, at the
// start of a text.
var figureRunRE = lazyregexp.New(`^[ \t]+\d{1,3}(?:[.,]\d{3})*[.,]\d{2}[ \t]+\d{1,3}(?:[.,]\d{3})*[.,]\d{2}(?:[ \t]|$)`)

// figureRun reports whether rest, what follows an amount on its line,
// opens with two more bare figures: the amount is the first of a column's
// figures run into one line.
func figureRun(rest string) bool {
	return len(rest) > 8 && figureRunRE.MatchString(rest)
}

// labelSignRE is a currency's sign in parentheses at a label's end
// ("Valor a Pagar (R$)", "Betrag (€)", "Kwota (zł)").
var labelSignRE = lazyregexp.New(`\(([^\s\d()]{1,4})\)[ \t]*:?[ \t]*$`)

// labelSignAmount is the amount of fig, a figure alone on its line
// (bareFigureRE), under a label whose aside names its currency by its
// sign ("Valor a Pagar (R$)" over "141,73", a Brazilian bill's box): the
// sign and the figure read as one amount, the sign before or after it as
// moneyRE reads it, so that "R$" is the real and "zł" the złoty as
// anywhere else. The label reader passes over such an aside and gives
// the figure alone; the line above it in text holds the sign.
func (c *msgContext) labelSignAmount(text, fig string) *Money {
	n := bareFigureRE.FindStringSubmatch(fig)
	if n == nil {
		return nil
	}
	for i := 0; ; {
		j := strings.Index(text[i:], fig)
		if j < 0 {
			return nil
		}
		k := i + j
		i = k + len(fig)
		if k == 0 || text[k-1] != '\n' {
			continue
		}
		prev := text[strings.LastIndexByte(text[:k-1], '\n')+1 : k-1]
		m := labelSignRE.FindStringSubmatch(prev)
		if m == nil {
			continue
		}
		for _, s := range []string{m[1] + " " + n[1], n[1] + " " + m[1]} {
			if x := moneyRE.FindStringSubmatchIndex(s); x != nil && x[0] <= len(m[1]) && x[1] == len(s) {
				return c.moneyAt(s, x, text)
			}
		}
		return nil
	}
}

// hasLetter reports whether s holds a letter.
func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// romanian reports whether the mail is Romanian: its sender's country,
// or a letter only Romanian writes (ă, ș, ț, and ş, ţ as older systems
// write them).
func (c *msgContext) romanian(text string) bool {
	return c.senderCountry == "RO" || strings.ContainsAny(text, "ăĂșȘțȚşŞţŢ")
}
