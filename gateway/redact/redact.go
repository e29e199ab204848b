// Package redact removes from mail text what must not leave the node in a
// free-form answer: links, payment card numbers, IBANs, and one-time,
// verification and pickup codes.
//
// Each kind is recognised by its check, not by its look alone, so that the
// numbers an answer is usually about (order numbers, flight numbers,
// amounts, dates) survive:
//   - a card number is 13 to 19 digits that pass the Luhn check, written
//     without separators or in the groups cards are printed in;
//   - an IBAN is a country code, two check digits and up to 30 letters and
//     digits that pass the ISO 13616 mod-97 check, or that have exactly the
//     registered length of their country, or that follow the word IBAN;
//   - a code is a short token with a digit (or an all-capital token) near a
//     word that announces a code, in the languages the extractors read;
//   - a link is anything with a scheme, www., or a host name followed by a
//     path.
package redact

import (
	"regexp"
	"strings"

	"mailnode/mail/invisible"
)

// Placeholders put where something was removed. They carry no digits, so
// redacting twice changes nothing.
const (
	Link = "[link]"
	Card = "[card number]"
	IBAN = "[IBAN]"
	Code = "[code]"
)

// Text returns s with links, card numbers, IBANs and codes replaced by
// placeholders.
func Text(s string) string {
	// Characters nobody sees go first: they hide text from the rules
	// below and from the person who reads it, not from a model.
	s = invisible.Strip(s)
	s = linkRE.ReplaceAllString(s, Link)
	s = replaceIBANs(s)
	s = replaceCards(s)
	s = replaceCodes(s)
	return s
}

// Strict is Text for text from a message that announces a secret code
// (see AnnouncesCode): there every code-like token goes, wherever it
// stands, because a code set apart from its announcement ("Your code is
// below." … "731-055") is still the code.
func Strict(s string) string {
	s = Text(s)
	return replaceSpans(s, codesIn(s, 0, len(s)))
}

// replaceSpans puts Code in place of each of spans.
func replaceSpans(s string, spans [][2]int) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range mergeSpans(spans) {
		b.WriteString(s[last:sp[0]])
		b.WriteString(Code)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// AnnouncesCode reports whether text (a message's subject and body) is
// about a secret code: a one-time, verification, login or pickup code, a
// PIN, TAN or password.
func AnnouncesCode(text string) bool {
	return announceRE.MatchString(text)
}

var announceRE = regexp.MustCompile(`(?i)\b(?:` + strings.Join([]string{
	`one[- ]time`, `verification`, `verify`, `confirmation code`, `security code`, `login code`, `sign[- ]?in code`,
	`access code`, `otp`, `passcode`, `pin`, `tan`, `m-?tan`, `2fa`, `mfa`, `pickup code`, `pick-up code`, `collection code`,
	`locker code`, `passwords?`, `passwort`, `kennwort`, `bestätigungscode`, `sicherheitscode`, `einmal\w*`, `abholcode`,
	`zugangscode`, `freischaltcode`, `prüfcode`, `code de (?:vérification|confirmation|retrait|sécurité)`, `mot de passe`,
	`código de (?:verificación|seguridad|confirmación)`, `contraseña`, `codice (?:di verifica|otp|di sicurezza)`,
	`verificatiecode`, `wachtwoord`, `ophaalcode`, `ověřovací kód`, `heslo`, `bekræftelseskode`, `adgangskode`,
}, "|") + `)\b`)

var linkRE = regexp.MustCompile(`(?i)(?:\b(?:https?|ftp|file|data|javascript|mailto|tel):[^\s<>"'\]\)]+|\bwww\.[^\s<>"'\]\)]+|\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}(?::\d+)?/[^\s<>"'\]\)]*)`)

// Cards.

// digitGroupsRE finds runs of digit groups joined by one space or dash.
var digitGroupsRE = regexp.MustCompile(`\d+(?:[ \-]\d+)*`)

func replaceCards(s string) string {
	return digitGroupsRE.ReplaceAllStringFunc(s, func(run string) string {
		groups, seps := splitGroups(run)
		// Try every window of consecutive groups: a card number may sit
		// between a date and an amount in the same run.
		for i := range groups {
			n := 0
			for j := i; j < len(groups); j++ {
				n += len(groups[j])
				if n > 19 {
					break
				}
				if n >= 13 && cardGrouping(groups[i:j+1], seps[i:j]) && luhn(strings.Join(groups[i:j+1], "")) {
					before := joinGroups(groups[:i], seps)
					after := joinGroups(groups[j+1:], seps[min(j+1, len(seps)):])
					out := before
					if before != "" {
						out += seps[i-1]
					}
					out += Card
					if after != "" {
						out += seps[j] + after
					}
					return out
				}
			}
		}
		return run
	})
}

func splitGroups(run string) (groups, seps []string) {
	start := 0
	for i := 0; i < len(run); i++ {
		if run[i] == ' ' || run[i] == '-' {
			groups = append(groups, run[start:i])
			seps = append(seps, run[i:i+1])
			start = i + 1
		}
	}
	return append(groups, run[start:]), seps
}

func joinGroups(groups, seps []string) string {
	var b strings.Builder
	for i, g := range groups {
		if i > 0 {
			b.WriteString(seps[i-1])
		}
		b.WriteString(g)
	}
	return b.String()
}

// cardGrouping reports whether groups are how a card number is written:
// one block, fours (the last may be shorter, for 19 digits), or the
// 4-6-5 and 4-6-4 of American Express and Diners. Order numbers such as
// Amazon's 3-7-7 do not qualify, whatever their check digit.
func cardGrouping(groups, seps []string) bool {
	if len(groups) == 1 {
		return true
	}
	for _, s := range seps {
		if s != seps[0] {
			return false
		}
	}
	if len(groups) == 3 && len(groups[0]) == 4 && len(groups[1]) == 6 && (len(groups[2]) == 5 || len(groups[2]) == 4) {
		return true
	}
	for i, g := range groups {
		if len(g) != 4 && !(i == len(groups)-1 && len(g) >= 1 && len(g) <= 4) {
			return false
		}
	}
	return true
}

// luhn reports whether a digit string passes the Luhn check.
func luhn(digits string) bool {
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// IBANs.

// ibanRE finds a country code, check digits and groups of up to four
// letters or digits, with or without single spaces between groups.
var ibanRE = regexp.MustCompile(`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,8}\b`)

var ibanLabelRE = regexp.MustCompile(`(?i)\biban\b\W{0,6}$`)

func replaceIBANs(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range ibanRE.FindAllStringIndex(s, -1) {
		cand := s[m[0]:m[1]]
		end, ok := ibanPrefix(cand, ibanLabelRE.MatchString(s[max(0, m[0]-12):m[0]]))
		if !ok {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(IBAN)
		last = m[0] + end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// ibanPrefix returns the length of the longest prefix of cand, ending at
// a group boundary, that is an IBAN: it passes mod-97 or has its country's
// registered length; labelled says the word IBAN comes just before, and
// then any IBAN-shaped string counts.
func ibanPrefix(cand string, labelled bool) (int, bool) {
	for end := len(cand); end > 4; end-- {
		if end < len(cand) && cand[end] != ' ' {
			continue
		}
		compact := strings.ReplaceAll(cand[:end], " ", "")
		if len(compact) < 15 || len(compact) > 34 {
			continue
		}
		if mod97(compact) || ibanLengths[compact[:2]] == len(compact) {
			return end, true
		}
	}
	if labelled {
		return len(cand), true
	}
	return 0, false
}

// mod97 is the ISO 13616 check: move the first four characters to the
// end, letters to numbers (A=10), and the remainder modulo 97 must be 1.
func mod97(iban string) bool {
	r := 0
	for _, c := range iban[4:] + iban[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = (r*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			r = (r*100 + int(c-'A'+10)) % 97
		default:
			return false
		}
	}
	return r == 1
}

// ibanLengths is the IBAN length of each country in the SWIFT IBAN
// registry.
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
	"IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
	"LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
	"NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
	"SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
	"TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}

// Codes.

// codeWordRE finds words that announce a code. A code is redacted when it
// follows such a word closely, or precedes a phrase like "is your code".
var codeWordRE = regexp.MustCompile(`(?i)\b(?:` + strings.Join([]string{
	`codes?`, `passcodes?`, `pass codes?`, `otp`, `pins?`, `tans?`, `m-?tan`, `one[- ]time`, `2fa`, `mfa`,
	`verification`, `verify`, `verif\w*`, `security`, `authentication`, `auth`, `login`, `sign-?in`,
	`passwords?`, `passwort`, `kennwort`, `token`, `pickup`, `pick-up`, `collection`, `locker`,
	`abholcode`, `abholnummer`, `abholung`, `bestätigungscode`, `sicherheitscode`, `einmalcode`,
	`einmalpasswort`, `zugangscode`, `freischaltcode`, `prüfcode`, `retrait`, `vérification`,
	`mot de passe`, `código`, `codigo`, `contraseña`, `clave`, `codice`, `verifica`, `ritiro`,
	`wachtwoord`, `ophaalcode`, `kód`, `heslo`, `adgangskode`, `kode`,
}, "|") + `)\b`)

// codeTokenRE is a token that may be a code: letters and digits, maybe
// split once by a dash or space ("123-456", "G-482913", "482 913").
var codeTokenRE = regexp.MustCompile(`\b[A-Za-z0-9]{1,10}(?:[- ][A-Za-z0-9]{1,10})?\b`)

// codeWindow is how far after a code word (and before one) a code may
// stand: "Your verification code for signing in to Example is: 482913".
const (
	codeAfter  = 64
	codeBefore = 48
)

func replaceCodes(s string) string {
	words := codeWordRE.FindAllStringIndex(s, -1)
	if len(words) == 0 {
		return s
	}
	var spans [][2]int
	for _, w := range words {
		// Codes after the word, up to the end of the sentence that holds
		// the first: "code: 482913", "PIN 4821", "one-time code:\n\n
		// 731 904", "code for order 12345 is 482913".
		end := min(len(s), w[1]+codeAfter)
		if after := codesIn(s, w[1], end); len(after) > 0 {
			if i := sentenceEndRE.FindStringIndex(s[after[0][1]:end]); i != nil {
				end = after[0][1] + i[0]
			}
			for _, sp := range after {
				if sp[1] <= end {
					spans = append(spans, sp)
				}
			}
		}
		// A code before it, in the same sentence and joined by a verb:
		// "482913 is your login code", "G-482913 ist Ihr Code".
		from := max(0, w[0]-codeBefore)
		if i := strings.LastIndexAny(s[from:w[0]], ".!?\n"); i >= 0 {
			from += i + 1
		}
		for _, sp := range codesIn(s, from, w[0]) {
			if linkVerbRE.MatchString(s[sp[1]:w[0]]) {
				spans = append(spans, sp)
			}
		}
	}
	return replaceSpans(s, spans)
}

var sentenceEndRE = regexp.MustCompile(`[.!?](?:\s|$)|\n\s*\n`)

// linkVerbRE joins a code to the word after it: "is your", "ist Ihr",
// "est votre", "es tu", "è il".
var linkVerbRE = regexp.MustCompile(`(?i)^\s*(?:is|ist|est|es|è|=|:|-|–)\s`)

// codesIn returns the code-like tokens in s[from:to], moved to whole
// tokens so a window edge never cuts one.
func codesIn(s string, from, to int) [][2]int {
	for from > 0 && from < len(s) && isAlnum(s[from-1]) && isAlnum(s[from]) {
		from--
	}
	for to < len(s) && to > 0 && isAlnum(s[to-1]) && isAlnum(s[to]) {
		to++
	}
	var out [][2]int
	for _, m := range codeTokenRE.FindAllStringIndex(s[from:to], -1) {
		tok := s[from+m[0] : from+m[1]]
		// "123 456" is one code, "code 482913" is a word then a code.
		if i := strings.IndexAny(tok, " -"); i >= 0 && !(codeLike(tok[:i]) && codeLike(tok[i+1:])) && !(len(tok[:i]) == 1 && isUpper(tok[0])) {
			for _, part := range []struct{ a, b int }{{m[0], m[0] + i}, {m[0] + i + 1, m[1]}} {
				if codeLike(s[from+part.a:from+part.b]) && !numberInContext(s, from+part.a, from+part.b) {
					out = append(out, [2]int{from + part.a, from + part.b})
				}
			}
			continue
		}
		if numberInContext(s, from+m[0], from+m[1]) {
			continue
		}
		if codeLike(strings.NewReplacer("-", "", " ", "").Replace(tok)) {
			out = append(out, [2]int{from + m[0], from + m[1]})
		}
	}
	return out
}

// numberInContext reports whether s[i:j] is part of a date, a time or an
// amount ("12.12.2026", "10:05", "€150", "150,00", "150 EUR"): codes are
// not written that way, and these are what answers are about.
func numberInContext(s string, i, j int) bool {
	if i > 0 && strings.ContainsRune("/.,$£+", rune(s[i-1])) {
		return true
	}
	if strings.HasSuffix(s[:i], "€") || strings.HasSuffix(s[:i], "€ ") {
		return true
	}
	if j+1 < len(s) && strings.ContainsRune("/.,", rune(s[j])) && s[j+1] >= '0' && s[j+1] <= '9' {
		return true
	}
	rest := strings.TrimLeft(s[j:min(len(s), j+5)], " ")
	for _, c := range []string{"EUR", "USD", "GBP", "CHF", "€", "$", "£", "kr", "Kč"} {
		if strings.HasPrefix(rest, c) {
			return true
		}
	}
	before := strings.TrimRight(s[max(0, i-5):i], " ")
	for _, c := range []string{"EUR", "USD", "GBP", "CHF"} {
		if strings.HasSuffix(before, c) {
			return true
		}
	}
	return false
}

// codeLike reports whether a token could be a code: three to ten letters
// and digits with at least one digit, or five to ten capitals. Words such
// as "CODE" or "PIN" are the announcement, not the code.
func codeLike(tok string) bool {
	if len(tok) < 3 || len(tok) > 12 {
		return false
	}
	digits, upper, lower := 0, 0, 0
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case c >= '0' && c <= '9':
			digits++
		case isUpper(c):
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		default:
			return false
		}
	}
	switch {
	case digits > 0:
		return digits >= 3 || len(tok) >= 5
	case lower == 0 && upper >= 5:
		return !codeWordRE.MatchString(tok) && !commonCaps[tok]
	}
	return false
}

// commonCaps are capitalised words that appear next to codes but are not
// codes.
var commonCaps = map[string]bool{"EMAIL": true, "PHONE": true, "ORDER": true, "LOGIN": true, "NOTICE": true, "SECURITY": true, "ENTER": true}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// mergeSpans sorts spans and joins the overlapping ones.
func mergeSpans(spans [][2]int) [][2]int {
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j][0] < spans[j-1][0]; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	out := spans[:1]
	for _, sp := range spans[1:] {
		if l := &out[len(out)-1]; sp[0] <= l[1] {
			l[1] = max(l[1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}
