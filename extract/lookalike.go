package extract

import (
	_ "embed"
	"strings"

	"golang.org/x/net/publicsuffix"
)

//go:embed brands.tsv
var brandsTSV string

// brandDomains are the brands strangers imitate, by word, and the
// registrable domains each mails from (brands.tsv); a "word.*" entry is
// kept as "word.*".
var brandDomains = func() map[string][]string {
	m := map[string][]string{}
	for _, ln := range strings.Split(brandsTSV, "\n") {
		word, domains, ok := strings.Cut(ln, "\t")
		if !ok || strings.HasPrefix(ln, "#") {
			continue
		}
		m[word] = strings.Fields(domains)
	}
	return m
}()

// lookAlikeFillers are words a look-alike domain writes beside a brand's
// word besides the role words (domainRoleWords): myamazon, paypal-login.
var lookAlikeFillers = map[string]bool{"my": true, "the": true, "get": true, "login": true, "signin": true, "verify": true,
	"verification": true, "update": true, "alert": true, "security": true, "auth": true, "app": true, "id": true, "pay": true,
	"de": true, "us": true, "uk": true, "eu": true, "usa": true, "intl": true, "global": true, "official": true}

// lookAlike reports whether org (a registrable domain) reads as a brand's
// of brands.tsv without being one of the brand's: its label is the
// brand's word alone under a suffix the brand does not own (amazon.top),
// or the word with only role words beside it, hyphenated or not
// (amazon-orders.shop, myamazon.shop). The ninth outside review seeded
// such a domain a year ahead: "Amazon" agreed with it by its word and its
// order was shown as Amazon's. A shop that only holds a common word
// ("pineapple-shop", "x-kom") is no brand's look-alike.
func lookAlike(org string) bool {
	label, _, _ := strings.Cut(org, ".")
	label = strings.ToLower(label)
	compact := strings.ReplaceAll(label, "-", "")
	for word, domains := range brandDomains {
		i := strings.Index(compact, word)
		if i < 0 {
			continue
		}
		if !fillersOnly(compact[:i]) || !fillersOnly(compact[i+len(word):]) {
			continue
		}
		return !brandOwns(domains, org)
	}
	return false
}

// LookAlike reports whether org, a registrable domain, reads as a look-alike
// of a brand strangers imitate (lookAlike), for the merchant lookup in
// extract/facts, which must not find such a domain by the brand's name.
func LookAlike(org string) bool { return lookAlike(org) }

// fillersOnly reports whether s is made of role words and look-alike
// fillers written together ("orders", "securelogin"), or is empty.
func fillersOnly(s string) bool {
	if s == "" {
		return true
	}
	for i := len(s); i >= 2; i-- {
		if w := s[:i]; (domainRoleWords[w] || lookAlikeFillers[w]) && fillersOnly(s[i:]) {
			return true
		}
	}
	return false
}

// brandOwns reports whether org is one of domains: a domain itself, or
// "word.*" for word under .com, .net, .org or a country's suffix.
func brandOwns(domains []string, org string) bool {
	for _, d := range domains {
		if d == org {
			return true
		}
		word, ok := strings.CutSuffix(d, ".*")
		if !ok {
			continue
		}
		label, suffix, _ := strings.Cut(org, ".")
		if label != word {
			continue
		}
		if suffix != "edu" && suffix != "gov" && comOrCountry(org) {
			return true
		}
	}
	return false
}

// establishedSuffix reports whether a registrable domain is under .com,
// .net, .org, .edu, .gov or a country's suffix (two letters last: "de",
// "co.uk", "com.au") that is not sold as a generic one
// (genericCountrySuffixes): not one of the suffixes (.shop, .top, .help,
// .io, .me) where any short label is still to be had.
func establishedSuffix(org string) bool {
	if !comOrCountry(org) {
		return false
	}
	return !genericCountrySuffixes[org[strings.LastIndexByte(org, '.')+1:]]
}

// comOrCountry reports whether a registrable domain is under .com, .net,
// .org, .edu, .gov or a country's suffix: a brand's "word.*" in
// brands.tsv (amazon.de, paypal.me).
func comOrCountry(org string) bool {
	_, suffix, _ := strings.Cut(org, ".")
	switch suffix {
	case "com", "net", "org", "edu", "gov":
		return true
	}
	if ps, icann := publicsuffix.PublicSuffix(org); icann && ps == suffix {
		return len(suffix[strings.LastIndexByte(suffix, '.')+1:]) == 2
	}
	return false
}

// genericCountrySuffixes are countries' suffixes sold to anyone as
// generic ones (.me, .ai, .io, .co, .tv ...), where a short label is
// still had this week as under a new suffix (the twelfth outside review:
// ssa.me, hmrc.ai).
var genericCountrySuffixes = map[string]bool{"me": true, "ai": true, "io": true, "co": true, "tv": true, "cc": true, "ws": true,
	"to": true, "fm": true, "am": true, "ly": true, "gg": true, "sh": true, "ac": true, "la": true, "vc": true, "nu": true,
	"tk": true, "ml": true, "ga": true, "cf": true, "gq": true, "so": true, "st": true, "gl": true, "im": true, "is": true,
	"bz": true, "mu": true, "sc": true, "cx": true, "pw": true, "re": true, "ms": true, "lc": true, "ag": true, "fo": true, "ps": true}
