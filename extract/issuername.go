package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// A company's name as its own papers print it: the legal form after it
// ("Apex Office Supplies LLC"), its data in a footer line of cells apart
// by "|" ("NORDWIND ELEKTRO GMBH | Hafenstraße 3 | 28217 Bremen"), and
// the initials a domain may spell ("Pacific Gas and Electric Company" at
// pge.com).

// legalForms are the words of a company's legal form, folded, each with
// the spelling a name in capitals is given back ("GMBH" is GmbH).
var legalForms = map[string]string{
	"company": "Company", "co": "Co.", "corp": "Corp.", "corporation": "Corporation", "inc": "Inc.", "incorporated": "Incorporated",
	"llc": "LLC", "llp": "LLP", "lp": "LP", "ltd": "Ltd", "limited": "Limited", "plc": "plc",
	"gmbh": "GmbH", "kg": "KG", "ag": "AG", "ohg": "OHG", "ug": "UG", "kgaa": "KGaA", "ek": "e.K.",
	"sa": "SA", "sas": "SAS", "sarl": "SARL", "srl": "SRL", "spa": "SpA", "sl": "SL", "sau": "SAU", "slu": "SLU", "sasu": "SASU",
	"bv": "BV", "nv": "NV", "ab": "AB", "oy": "Oy", "oyj": "Oyj", "aps": "ApS", "asa": "ASA",
}

// legalFormOf is w's legal form's spelling, "" when w is none: "GmbH",
// "LLC", "Inc." ("S.A." and "B.V." read without their dots).
func legalFormOf(w string) string {
	w = strings.TrimRight(w, ",;")
	// Dots between capitals go before folding, which reads them as
	// spaces; "a.G." (a mutual's "auf Gegenseitigkeit") is no AG.
	if d := strings.TrimSuffix(w, "."); strings.Contains(d, ".") {
		if strings.ToUpper(d) != d {
			return ""
		}
		w = strings.ReplaceAll(w, ".", "")
	}
	return legalForms[strings.ReplaceAll(places.FoldWords(w), ".", "")]
}

// acronymSkip are the words an acronym leaves out besides "and" and the
// legal forms: "Pacific Gas and Electric Company" is PGE.
var acronymSkip = map[string]bool{"of": true, "the": true, "for": true, "de": true, "des": true, "du": true, "la": true, "le": true,
	"der": true, "die": true, "das": true, "fur": true, "del": true, "di": true, "van": true, "voor": true}

// acronym is the initials of a name's folded words less words for
// "and", acronymSkip's, legal forms and role words ("Billing"), when
// three words or more give them; else "".
func acronym(ws []string) string {
	var b strings.Builder
	for _, w := range ws {
		if nameAndWords[w] || acronymSkip[w] || legalForms[w] != "" || domainRoleWords[w] {
			continue
		}
		r := []rune(w)[0]
		if !unicode.IsLetter(r) || r > unicode.MaxASCII {
			return ""
		}
		b.WriteRune(r)
	}
	if b.Len() < 3 {
		return ""
	}
	return b.String()
}

// brandWordOutside reports whether a name holds a word of a brand
// strangers imitate (brands.tsv) and org is none of that brand's
// domains: "Amazon Web Services" is aws.example's by no acronym.
func brandWordOutside(ws []string, org string) bool {
	for _, w := range ws {
		if domains, ok := brandDomains[w]; ok && !brandOwns(domains, org) {
			return true
		}
	}
	return false
}

// fullName is name followed by the legal form the text prints after it
// ("Apex Office Supplies" signs "Apex Office Supplies LLC"; "Pacific Gas
// and Electric" "Pacific Gas and Electric Company"), up to two words of
// it ("Co. KG"), else name.
func fullName(name, text string) string {
	if name == "" {
		return name
	}
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], name)
		if j < 0 {
			break
		}
		at := i + j
		i = at + len(name)
		if at > 0 && isNameRune(lastRune(text[:at])) {
			continue
		}
		// The two words after the name at most: a line of the name
		// repeated was split whole at every mention (quadratic; the
		// eleventh outside review, MEDIUM-6).
		line, _, _ := strings.Cut(text[i:min(len(text), i+40)], "\n")
		var forms []string
		for _, w := range strings.Fields(line) {
			if legalFormOf(w) == "" || len(forms) == 2 {
				break
			}
			forms = append(forms, strings.TrimRight(w, ",;"))
		}
		if len(forms) > 0 && (len(line) == 0 || line[0] == ' ') {
			return name + " " + strings.Join(forms, " ")
		}
		// A signature's line that is the name and a word or two more,
		// capitalised, alone on its line among the mail's last three
		// ("Sonny Bride" signs "Sonny Bride Security" over the clerk's
		// name): the name in full, unless the words are a department's
		// (sender.noise: "Acme Billing"). A product's line higher up
		// ("Uber Go") is no signature.
		if rest := strings.TrimSpace(line); rest != "" && (at == 0 || text[at-1] == '\n') && len(line) < 40 && line[0] == ' ' && signatureWords(rest) && lastLines(text[i:], 3) {
			return name + " " + rest
		}
	}
	return name
}

// lastLines reports whether after, the text after a line's start, holds
// at most n lines with words: the line is among the text's last n.
func lastLines(after string, n int) bool {
	k := 0
	for ln := range strings.Lines(after) {
		if strings.TrimSpace(ln) != "" {
			if k++; k > n {
				return false
			}
		}
	}
	return true
}

// signatureWords reports whether s is one or two capitalised words of
// letters, neither a department's (sender.noise).
func signatureWords(s string) bool {
	ws := strings.Fields(s)
	if len(ws) > 2 {
		return false
	}
	for _, w := range ws {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 || senderNoise[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

func isNameRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastRune(s string) rune {
	r := []rune(s[max(0, len(s)-4):])
	if len(r) == 0 {
		return 0
	}
	return r[len(r)-1]
}

// footerIssuer is the company a footer line of cells apart by "|" names
// in its first cell ("PETERSON KG WHOLESALE FOR BUILDING TECHNOLOGY |
// TECHNOLOGY STREET 9 | 12345 SPRINGFIELD | T +49 …"), up to its legal
// form when it has one, when the name agrees with org (namesDomain);
// else "". A line of three cells or more, one of them with a digit (a
// street, a postcode, a telephone): company data, not a menu's links.
func footerIssuer(text, org string) string {
	for ln := range strings.Lines(text) {
		cells := strings.Split(ln, " | ")
		if len(cells) < 3 || !hasDigit(ln) {
			continue
		}
		first := strings.Fields(strings.Trim(strings.TrimSpace(cells[0]), "*_#"))
		for i, w := range first {
			if legalFormOf(w) != "" && i > 0 {
				first = first[:i+1]
				break
			}
		}
		name := issuerName(strings.Join(first, " "))
		if name == "" || !namesDomain(name, org) {
			continue
		}
		return capsName(name)
	}
	return footerLinesIssuer(text, org)
}

// companyRegister marks a footer's company data beside a company's name
// (company.register: "Registergericht", "Registered office", "Siège
// social", "Domicilio social", "KvK").
var companyRegister = words.NewWholeSet(lang.Entries("company.register"))

// bankDetails are the words of a footer's bank details: the bank named
// there is the payee's, never the issuer.
var bankDetails = words.NewWholeSet([]string{"iban", "bic", "swift", "bank", "bankverbindung", "banque", "banco", "banca", "sparkasse",
	"bankgegevens", "coordonnées bancaires", "datos bancarios", "coordinate bancarie"})

// footerLinesIssuer is the company a footer printed as lines names: its
// name up to its legal form, alone on its line or before a comma or a
// full stop ("Deutsche Telekom AG" over "Friedrich-Ebert-Allee 140";
// "Vodafone Limited. Registered Office: …"), with company data beside
// it: an address's digits or a register's word (companyRegister) on its
// line or one of the three lines after. The name must agree with org
// (namesDomain); a line of bank details names the payee's bank, and a
// person is named with no legal form, so neither is read.
func footerLinesIssuer(text, org string) string {
	lines := strings.Split(text, "\n")
	for i, ln := range lines {
		t := strings.TrimSpace(strings.Trim(strings.TrimSpace(ln), "*_#>"))
		name, rest, ok := legalName(t)
		if !ok || bankDetails.In(strings.ToLower(t)) || (i > 0 && bankDetails.In(strings.ToLower(lines[i-1]))) {
			continue
		}
		data := hasDigit(rest) || companyRegister.In(strings.ToLower(rest))
		for j, n := i+1, 0; !data && j < len(lines) && n < 3; j++ {
			next := strings.TrimSpace(lines[j])
			if next == "" {
				continue
			}
			n++
			data = hasDigit(next) || companyRegister.In(strings.ToLower(next))
		}
		if data && namesDomain(withoutForm(name), org) {
			return capsName(name)
		}
	}
	return ""
}

// withoutForm is a name less the legal form it ends with, which
// namesDomain would read letter by letter when dotted ("Eneco
// Consumenten B.V.", "Endesa Energía, S.A.U.").
func withoutForm(name string) string {
	ws := strings.Fields(name)
	for len(ws) > 1 && (legalFormOf(ws[len(ws)-1]) != "" || ws[len(ws)-1] == "&") {
		ws = ws[:len(ws)-1]
	}
	return strings.TrimRight(strings.Join(ws, " "), ",")
}

// footerSeparators part a footer line's name from what follows it.
var footerSeparators = map[string]bool{"|": true, "-": true, "–": true, "·": true, "•": true}

// legalName is the company's name a line starts with, up to its legal
// form ("Mobile GmbH & Co. KG" whole; "Naturgy Iberia, S.A." without its
// form), and
// what follows it; ok only when the name ends there: the line's end, a
// comma, a full stop, a dash or "|" ("Orange SA, société anonyme …").
// A word before the form ending in ":" or "," (save the comma before a
// Spanish form) is a label's or a list's: no name.
func legalName(t string) (name, rest string, ok bool) {
	ws := strings.Fields(signedFor(t))
	for i, w := range ws {
		if i == 0 || legalFormOf(w) == "" {
			if strings.HasSuffix(w, ":") || (strings.HasSuffix(w, ",") && (i+1 >= len(ws) || legalFormOf(ws[i+1]) == "")) {
				return "", "", false
			}
			if i >= 6 {
				return "", "", false
			}
			continue
		}
		end := i + 1
		// A second form after the first ("GmbH & Co. KG").
		for end+1 < len(ws) && ws[end] == "&" && legalFormOf(ws[end+1]) != "" {
			end += 2
			for end < len(ws) && legalFormOf(ws[end]) != "" && !strings.HasSuffix(ws[end-1], ",") {
				end++
			}
		}
		last := ws[end-1]
		if end < len(ws) && !strings.HasSuffix(last, ",") && !strings.HasSuffix(last, ".") && !footerSeparators[ws[end]] {
			return "", "", false
		}
		ws[end-1] = strings.TrimRight(last, ",;")
		// The full stop that ends a sentence is not the form's ("Vodafone
		// Limited."; "S.A." and "Inc." keep theirs).
		if f := legalFormOf(ws[end-1]); strings.HasSuffix(ws[end-1], ".") && !strings.HasSuffix(f, ".") && !strings.Contains(strings.TrimSuffix(ws[end-1], "."), ".") {
			ws[end-1] = strings.TrimSuffix(ws[end-1], ".")
		}
		// A dotted form as the table spells it ("B.V." is BV): a name's
		// letters apart by dots are words to namesDomain, which a name
		// agreeing by one word may carry only one of.
		for k := i; k < end; k++ {
			if f := legalFormOf(ws[k]); strings.Contains(strings.TrimSuffix(ws[k], "."), ".") && !strings.Contains(f, ".") {
				ws[k] = f
			}
		}
		name = strings.Join(ws[:end], " ")
		// A form set apart by a comma ("Endesa Energía, S.A.U.") is left
		// out, as a bill's issuer is shown without what follows a comma.
		if strings.HasSuffix(ws[i-1], ",") {
			name = strings.TrimSuffix(strings.Join(ws[:i], " "), ",")
		}
		if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) || hasDigit(name) {
			return "", "", false
		}
		return name, strings.Join(ws[end:], " "), true
	}
	return "", "", false
}

// capsName is a name printed in capitals as a name is written: each word
// capitalised, a legal form as it is spelled ("NORDWIND ELEKTRO GMBH" is
// Nordwind Elektro GmbH); a name with a small letter is kept.
func capsName(name string) string {
	if strings.ToUpper(name) != name {
		return name
	}
	ws := strings.Fields(name)
	for i, w := range ws {
		if f := legalFormOf(w); f != "" && i > 0 {
			ws[i] = f
			continue
		}
		if w == "&" {
			continue
		}
		r := []rune(strings.ToLower(w))
		r[0] = unicode.ToUpper(r[0])
		ws[i] = string(r)
	}
	return strings.Join(ws, " ")
}

// registeredCompany is the company a line of its legal data opens with:
// its name, then a dash, "|" or a comma, then the company's register, its
// capital or its seat on the same line (company.register: "BOUYGUES
// TELECOM - Société Anonyme au capital de …", "SFR, 1 Square Bela Bartok
// 75015 Paris - … RCS Paris", "Enel Energia S.p.A. – … Sede Legale …").
// The name is one without digits or the register's own words, at most
// four words, or one up to its legal form (legalName); "" when no line
// is such, or the line is the payee's bank details.
func registeredCompany(text string) string {
	for ln := range strings.Lines(text) {
		t := strings.TrimSpace(strings.Trim(strings.TrimSpace(ln), "*_#>"))
		l := strings.ToLower(t)
		if len(t) < 12 || !companyRegister.In(l) || bankDetails.In(l) {
			continue
		}
		if name, _, ok := legalName(t); ok && !companyRegister.In(strings.ToLower(name)) {
			return capsName(name)
		}
		head := t
		for _, sep := range []string{" - ", " – ", " | ", ","} {
			if i := strings.Index(head, sep); i > 0 {
				head = head[:i]
			}
		}
		head = strings.TrimSpace(head)
		if head == t || len(strings.Fields(head)) > 4 || companyRegister.In(strings.ToLower(head)) || webAddressIn(head) {
			continue
		}
		if name := issuerName(head); name != "" && name == strings.TrimRight(head, ".!") {
			return acronymOrCaps(strings.TrimSpace(head))
		}
	}
	return ""
}

// webAddressIn reports whether a name holds a web address's word
// ("WWW.HALVORSEN-TOOLS.EXAMPLE", "Namecheap.com"; webName), which a
// legal form's dots ("S.r.l.", "S.p.A.") are not.
func webAddressIn(name string) bool {
	for _, w := range strings.Fields(name) {
		w = strings.ToLower(strings.TrimRight(w, ".,;"))
		if strings.HasPrefix(w, "www.") || strings.Contains(w, "://") || strings.Contains(w, "@") || webName(w) {
			return true
		}
	}
	return false
}

// acronymOrCaps is capsName's name, an acronym alone kept in capitals
// ("SFR", "EDF", "BT").
func acronymOrCaps(name string) string {
	if !strings.Contains(name, " ") && len(name) <= 4 {
		return name
	}
	return capsName(name)
}

// signedFor is a name less the words of an invoice's signature block
// before it ("For Bharti Airtel Limited" over the signatory's name, "For
// and on behalf of Acme Ltd"), when a legal form ends it; else t.
func signedFor(t string) string {
	for _, p := range []string{"For and on behalf of ", "For & on behalf of ", "For "} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			if f := strings.Fields(rest); len(f) > 1 && legalFormOf(f[len(f)-1]) != "" {
				return rest
			}
			break
		}
	}
	return t
}
