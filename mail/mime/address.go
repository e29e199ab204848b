package mime

import (
	"mime"
	"strings"
	"unicode"
	"unicode/utf8"
)

// salvageAddress reads an address field net/mail refuses, as a reader
// does: the first address in angle brackets whose domain is a domain
// (IsDomain), with the display name before it, its encoded words
// decoded; else the first word of the field that is such an address.
// Words after the address are no part of it: a folded From with a stray
// encoded word after "<a@b.example>" is still from a@b.example. ok is
// false when the field holds no such address.
func salvageAddress(v string) (a Address, ok bool) {
	// A field that holds more than one address is refused whole: which
	// one a provider's DMARC judged is not ours to guess, and a quoted
	// name holding the person's own address ("\"Alex <alex@home>\"
	// <x@attacker> junk") would make a stranger's mail the person's (the
	// eleventh outside review, HIGH-1).
	if strings.Count(v, "@") != 1 {
		return Address{}, false
	}
	if i := strings.IndexByte(v, '<'); i >= 0 {
		if j := strings.IndexByte(v[i:], '>'); j > 0 {
			if addr := v[i+1 : i+j]; isAddress(addr) {
				name := strings.Trim(strings.TrimSpace(v[:i]), `"`)
				if dec, err := new(mime.WordDecoder).DecodeHeader(name); err == nil {
					name = dec
				}
				return Address{Name: sanitize(strings.TrimSpace(name)), Address: asciiDomain(strings.ToLower(addr))}, true
			}
		}
	}
	for _, w := range strings.Fields(v) {
		if w = strings.Trim(w, `<>"',;`); isAddress(w) {
			return Address{Address: asciiDomain(strings.ToLower(w))}, true
		}
	}
	return Address{}, false
}

// isAddress reports whether s is local@domain with a local part of
// printable characters and a domain that IsDomain.
func isAddress(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || strings.ContainsAny(local, " \t\r\n<>@") {
		return false
	}
	return IsDomain(domain)
}

// IsDomain reports whether d has a domain name's shape: two labels or
// more apart by dots, each of letters (any script, for an
// internationalised name), digits and inner hyphens, at most 63 bytes,
// the whole at most 253. A sender's domain names its company, checks its
// authentication and keys its facts: text that is not a domain
// ("example> =?utf-8?q?…?=") must never be taken for one.
func IsDomain(d string) bool {
	d = strings.TrimSuffix(d, ".")
	if d == "" || len(d) > 253 {
		return false
	}
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) || r == utf8.RuneError {
				return false
			}
		}
	}
	return true
}
