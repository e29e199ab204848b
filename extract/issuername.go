package extract

import (
	"strings"
	"unicode"

	"mailnode/extract/places"
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
	"sa": "SA", "sas": "SAS", "sarl": "SARL", "srl": "SRL", "spa": "SpA", "sl": "SL",
	"bv": "BV", "nv": "NV", "ab": "AB", "oy": "Oy", "oyj": "Oyj", "aps": "ApS", "asa": "ASA",
}

// legalFormOf is w's legal form's spelling, "" when w is none: "GmbH",
// "LLC", "Inc." ("S.A." and "B.V." read without their dots).
func legalFormOf(w string) string {
	return legalForms[strings.ReplaceAll(places.FoldWords(strings.TrimRight(w, ",;")), ".", "")]
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
	}
	return name
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
	return ""
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
