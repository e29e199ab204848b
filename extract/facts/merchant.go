package facts

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract"
	"mailnode/extract/places"
	"mailnode/mail/store"
)

// Merchants by name (issue 46, class 7): order_status is asked with the
// shop's name as a person says it ("Acme Home & Co"), and an order names
// its shop by what Merge shows (the mail's name for an authenticated
// sender whose domain it agrees with, else the registrable domain) and by
// its domain. Both sides are read the same way: folded (case, accents,
// punctuation), "&" read as "and" and "and" then left out, so that "Acme
// Home & Co" and "ACME Home and Co." are one name; a domain by its
// registrable part only, its hyphens left out ("service-mail.zalando.de"
// is zalando.de; "acmehomeandco-shop.com" is not acmehomeandco.shop). A
// name matches a shop when it is a run of whole words of the shop's name
// or domain, or when, written together, it is the domain's name: with its
// "and" ("acmehomeandco"), without it, or without the words of a legal
// form or a shop's kind at its end while two words stay ("Acme Home & Co"
// for acmehome.com; "Acme Co" is not acme.com's by its domain), the
// name spelled as extract.NameForms spells it for a domain: umlauts
// spelled out and "&" as the shop's language's word for "and" ("Müller &
// Söhne" is muellerundsoehne.de, "Dupont & Fils" dupont-et-fils.fr); a
// name's words for "and" are left out as "&" is ("Müller und Söhne"). These
// compare with the domain's name alone, never with the words of a name:
// "Acme Home & Co" does not find "Acme Tools". A shown name finds its
// fact only when it agrees with its domain more closely than Merge asks
// (nameMatchable), so that a look-alike's borrowed name finds nothing; a
// shop's name on a commerce platform's domain (extract.CommercePlatform:
// "Divora" from t.shopifyemail.com), which Merge shows only when it claims
// no imitated brand, finds its orders by itself.
//
// Matching only selects among the facts the store holds; what the tools
// return of them, and under which heading, is decided as before (gateway
// tools' apart: unverified senders' orders apart, named by their domain).

// domainMark marks the domain's name in a fact's match: no folded word
// of a question or a name starts with it.
const domainMark = "@"

// merchantMatch is what a merchant's or issuer's fact is found by: its
// shown name's words, when it is not the domain itself, then its
// registrable domain's words and its domain's name marked.
func merchantMatch(name, domain string) string {
	org := registrable(domain)
	var parts []string
	if n := strings.ToLower(strings.TrimSpace(name)); n != "" && n != org && n != strings.ToLower(domain) && (org == "" || nameMatchable(name, org) || extract.CommercePlatform(org)) {
		if w := nameWords(name); w != "" {
			parts = append(parts, w)
		}
	}
	if d := places.FoldWords(strings.ReplaceAll(org, "-", "")); d != "" {
		parts = append(parts, d)
		label, _, _ := strings.Cut(org, ".")
		if l := compact(label); l != "" {
			parts = append(parts, domainMark+l)
			// A shop's name with digits after it, as a free domain
			// name was had ("saeedghani1888.com" is Saeed Ghani's).
			if t := strings.TrimRight(l, "0123456789"); t != l && len(t) >= 3 {
				parts = append(parts, domainMark+t)
			}
			// A brand's name with a verb before it, as the short
			// domain was taken ("getpebble.com" is Pebble's,
			// "trycaviar.com" Caviar's), but never a look-alike of a
			// brand strangers imitate ("getamazon.com").
			if t := unprefixed(l); t != "" && !extract.LookAlike(org) {
				parts = append(parts, domainMark+t)
			}
		}
	}
	return " " + strings.Join(parts, " ") + " "
}

// brandVerbs are the verbs a brand writes before its name in a domain
// when the name alone was taken: get, try, join, use, buy, shop.
var brandVerbs = []string{"get", "try", "join", "use", "buy", "shop"}

// unprefixed is a domain's name without a brand verb before it
// ("getpebble" gives "pebble"), when four letters or more stay, else "".
func unprefixed(label string) string {
	for _, v := range brandVerbs {
		if t, ok := strings.CutPrefix(label, v); ok && len(t) >= 4 {
			return t
		}
	}
	return ""
}

// orderMatch is what an order is found by: its merchant's name and
// domain, and for a carrier's notice (extract leaves its domain empty:
// the sender is the carrier, not the shop) its parcels' carriers' names.
// The person asks for "my DHL parcel", and without them order_status
// found such an order by no name at all when the notice names no shipper
// (USPS's and DHL's notices; the end-to-end test in app found three). A shop's own
// order is not found by its carrier's name, so "Amazon" never lists
// other shops' parcels carried by Amazon Logistics.
func orderMatch(o extract.OrderState) string {
	m := merchantMatch(o.Merchant, o.Domain)
	if o.Domain != "" {
		return m
	}
	return withCarriers(m, o)
}

// withCarriers is m with the names of o's parcels' carriers.
func withCarriers(m string, o extract.OrderState) string {
	for _, s := range o.Shipments {
		if w := nameWords(s.Carrier); w != "" && !strings.Contains(m, " "+w+" ") {
			m += w + " "
		}
	}
	return m
}

// merchantPatterns are what a merchant asked for is looked up by: first
// its words as a run (a LIKE pattern before escaping), then its forms
// written together as a domain's name, each one word with domainMark
// before it. A merchant written as a domain is its registrable domain's
// words alone.
func merchantPatterns(merchant string) []string {
	m := strings.TrimSpace(merchant)
	if !strings.ContainsAny(m, " \t") && strings.Contains(m, ".") && !strings.HasSuffix(m, ".") {
		if d := places.FoldWords(strings.ReplaceAll(registrable(m), "-", "")); d != "" {
			return []string{d}
		}
	}
	words := nameWords(m)
	if words == "" {
		return nil
	}
	out := []string{words}
	// A shop's Latin name run into its kind's word in Japanese or
	// Chinese ("DMM通販": DMM's mail order, sending from dmm.com) is its
	// domain's name too.
	if latin := latinHead(m); latin != "" {
		out = append(out, domainMark+latin)
	}
	for _, ws := range extract.NameForms(m) {
		// "acmehomeandcoltd", then less each legal form at its end while
		// two words stay: "acmehomeandco", "acmehome".
		for n := len(ws); n >= 1; n-- {
			if n < len(ws) && !(legalForms[ws[n]] && n >= 2 || regionWords[ws[n]] && n == len(ws)-1 && len(strings.Join(ws[:n], "")) >= 4) {
				break
			}
			if extract.AndWord(ws[n-1]) {
				continue
			}
			// Two letters from two words or more ("H&M" is hm.com's).
			if c := strings.Join(ws[:n], ""); (len(c) >= 3 || len(c) == 2 && n >= 2) && !slices.Contains(out, domainMark+c) {
				out = append(out, domainMark+c)
			}
		}
		// A domain that cuts an inflected word of the name to its stem
		// ("Hurtownia Detailingowa Pro" for detailingpro.pl), a word for
		// a shop before it left off.
		if len(ws) > 1 && extract.ShopNoun(ws[0]) {
			ws = ws[1:]
		}
		for _, c := range stemForms(ws) {
			if !slices.Contains(out, domainMark+c) {
				out = append(out, domainMark+c)
			}
		}
	}
	return out
}

// stemForms are a name's words written together with one or more of them
// cut to its stem (stemRun's cuts), for a name of two to four words: the
// forms a domain writes an inflected name in.
func stemForms(ws []string) []string {
	if len(ws) < 2 || len(ws) > 4 {
		return nil
	}
	var out []string
	var build func(j int, acc string, cut bool)
	build = func(j int, acc string, cut bool) {
		if j == len(ws) {
			if cut && len(acc) >= 5 {
				out = append(out, acc)
			}
			return
		}
		w := ws[j]
		build(j+1, acc+w, cut)
		for k := len(w) - 1; k >= extract.StemLen(w); k-- {
			build(j+1, acc+w[:k], true)
		}
	}
	build(0, "", false)
	return out
}

// latinHead is the lower-case run of three or more ASCII letters a name
// opens with when a Chinese, Japanese or Korean character follows it
// straight away ("DMM通販" gives "dmm"), else "".
func latinHead(name string) string {
	i := 0
	for i < len(name) && (name[i] >= 'a' && name[i] <= 'z' || name[i] >= 'A' && name[i] <= 'Z') {
		i++
	}
	if i < 3 || i == len(name) {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(name[i:])
	if !unicode.Is(unicode.Han, r) && !unicode.Is(unicode.Hiragana, r) && !unicode.Is(unicode.Katakana, r) && !unicode.Is(unicode.Hangul, r) {
		return ""
	}
	return strings.ToLower(name[:i])
}

// together is each of a name's forms (extract.NameForms) written
// together.
func together(name string) []string {
	var out []string
	for _, ws := range extract.NameForms(name) {
		out = append(out, strings.Join(ws, ""))
	}
	return out
}

// nameMatchable reports whether a fact's shown name may find it, beside
// its domain: a name Merge shows agrees with its domain by a word of it
// in the domain's name, and so would "Acme Home & Co" from the look-alike
// acmehomeandc0.shop. A name finds its fact when, written together, it
// holds the domain's name ("Acme Home & Co" for acmehomeandco.shop,
// "Deutsche Telekom" for telekom.de), starts it ("Marriott" for
// marriottbonvoy.com), or a word of it is a part of the domain's name
// between hyphens ("Hausverwaltung Berger" for berger-immobilien.de); a
// domain's name of two letters only by the whole name ("H&M", hm.com).
func nameMatchable(name, org string) bool {
	label, _, _ := strings.Cut(org, ".")
	lc := compact(label)
	if len(lc) == 2 {
		// A domain's name of two letters only as the whole name, as
		// Merge shows it ("H&M" for hm.com).
		return slices.Contains(together(name), lc)
	}
	if len(lc) < 3 {
		return false
	}
	for _, c := range together(name) {
		if len(c) >= 3 && (strings.Contains(c, lc) || strings.HasPrefix(lc, c)) {
			return true
		}
	}
	f := strings.Fields(places.FoldWords(strings.ReplaceAll(name, "&", " and ")))
	for _, ws := range extract.NameForms(name) {
		if stemRun(ws, lc) {
			return true
		}
	}
	for _, part := range strings.Split(label, "-") {
		if p := compact(part); len(p) >= 3 && slices.Contains(f, p) {
			return true
		}
	}
	return false
}

// stemRun reports whether a domain's name, written together, is a run of
// a name's words each whole or cut to its stem (extract.StemLen letters
// at least, as Merge's agreement cuts it), to the domain name's end: "Hurtownia
// Detailingowa Pro" for detailingpro.pl, an inflected adjective's stem
// and a word, as Polish, Czech or German shops write their names. The
// run must spell the whole of the domain's name, so a look-alike's
// (detailingpr0.pl) finds nothing by the name.
func stemRun(words []string, label string) bool {
	// A word and a place in the label that failed once fail again: a
	// hostile name of many like words ("aaaaaaa aaaaaaa …") against a
	// label of its letters would otherwise try every way of cutting.
	failed := map[[2]int]bool{}
	var from func(j int, rest string) bool
	from = func(j int, rest string) bool {
		if rest == "" {
			return true
		}
		if j == len(words) || failed[[2]int{j, len(rest)}] {
			return false
		}
		w := words[j]
		for k := len(w); k >= extract.StemLen(w); k-- {
			if strings.HasPrefix(rest, w[:k]) && from(j+1, rest[k:]) {
				return true
			}
		}
		failed[[2]int{j, len(rest)}] = true
		return false
	}
	for i := range words {
		if from(i, label) {
			return true
		}
	}
	return false
}

// nameWords is a name's folded words, "&" and the words for "and" left
// out ("Müller und Söhne" is "Müller & Söhne"), and the letters no
// accent's removal folds written as a keyboard without them writes them
// ("Koło" is "kolo", "Bjørn" "bjorn", "Straße" "strasse"), so that a
// shop's name asked either way finds it.
func nameWords(s string) string {
	return strings.Join(extract.WithoutAnd(strings.Fields(plainLetters.Replace(places.FoldWords(strings.ReplaceAll(s, "&", " and "))))), " ")
}

// plainLetters writes the letters that do not decompose into a letter
// and an accent (places.FoldWords keeps them) in plain Latin letters.
var plainLetters = strings.NewReplacer("ł", "l", "ø", "o", "đ", "d", "ħ", "h", "ı", "i", "ß", "ss", "æ", "ae", "œ", "oe", "þ", "th", "ð", "d")

// registrable is a domain's registrable part, lower case.
func registrable(domain string) string {
	d := strings.TrimSpace(domain)
	if d == "" {
		return ""
	}
	return store.OrgDomain("@" + d)
}

// compact is a domain's name folded and written together.
func compact(label string) string {
	return strings.ReplaceAll(places.FoldWords(label), " ", "")
}

// regionWords are the words after a shop's name that say which country's
// shop it is ("Topps UK" at topps.com, "Zalando DE", "Boots Europe"): the
// last word only, and the name left is a domain's name of four letters or
// more, so "Topps UK" finds @topps as "Topps" does.
var regionWords = map[string]bool{"uk": true, "us": true, "usa": true, "eu": true, "europe": true, "de": true, "fr": true,
	"es": true, "it": true, "nl": true, "be": true, "at": true, "ch": true, "au": true, "nz": true, "ca": true, "ie": true,
	"in": true, "jp": true, "pl": true, "se": true, "no": true, "dk": true, "fi": true, "pt": true, "br": true, "mx": true,
	"international": true, "intl": true, "global": true}

// legalForms are the words at a shop's name's end that name its legal
// form or its kind, not the shop ("Acme Home & Co", "Nordlicht GmbH",
// "Acme Home Store").
var legalForms = map[string]bool{"co": true, "company": true, "inc": true, "ltd": true, "llc": true, "plc": true,
	"corp": true, "gmbh": true, "ag": true, "kg": true, "sa": true, "sas": true, "sarl": true, "srl": true, "spa": true,
	"bv": true, "nv": true, "ab": true, "as": true, "aps": true, "oy": true, "sro": true, "shop": true, "store": true,
	"online": true}
