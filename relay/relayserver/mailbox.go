package relayserver

import (
	"strings"
	"unicode"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

// The relay mails a code to whatever address a stranger names, so it must
// know when two addresses are one mailbox: otherwise each spelling has its
// own daily limit, and a mailbox spelled 2^n ways (quoted, escaped) or with
// any +tag gets 2^n times the mail. Registration takes only plain
// spellings, and the limit counts per mailbox (docs/relay.md,
// "Registration").

// maxLocalPart is RFC 5321's bound on a local part, in octets.
const maxLocalPart = 64

// registrable checks an address for registration beyond resolve's
// NormalizeAddress: a dot-atom local part (RFC 5322 section 3.2.3) with no
// quotes, backslashes, comments or routing characters ('%', '!'), in
// Unicode NFC, and a domain of letters, digits and hyphens. It returns the
// normalised address and its mailbox key, or a detail for the client.
func registrable(a string) (address, mailbox, detail string) {
	address, ok := NormalizeAddress(a)
	if !ok {
		return "", "", "address must look like local@domain.tld"
	}
	local, domain, _ := strings.Cut(address, "@")
	if len(local) > maxLocalPart {
		return "", "", "the local part of the address is longer than 64 octets"
	}
	if !norm.NFC.IsNormalString(address) {
		return "", "", "address must be in Unicode normalisation form C"
	}
	for _, atom := range strings.Split(local, ".") {
		if atom == "" {
			return "", "", "the local part must not begin or end with a dot, nor have two in a row"
		}
		for _, r := range atom {
			if !atext(r) {
				return "", "", "the local part may hold only letters, digits and . _ - + = ' # $ & * / ? ^ ` { | } ~ (no quotes, backslashes, spaces, % or !)"
			}
		}
	}
	if !norm.NFKC.IsNormalString(local) {
		// Fullwidth and other compatibility forms of letters: a
		// provider may fold them, so they could spell one mailbox many
		// ways.
		return "", "", "the local part must not hold compatibility forms of characters (fullwidth letters and the like)"
	}
	for _, label := range strings.Split(domain, ".") {
		for _, r := range label {
			if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.M, r) {
				return "", "", "the domain may hold only letters, digits and hyphens"
			}
		}
	}
	// One spelling per domain: IDNA's mapping (UTS #46) folds fullwidth
	// and look-alike letters ("ｅxample.com", "ℯxample.com") into the
	// same domain, and an IDN has an A-label (xn--) and a U-label form.
	// Each spelling would have its own live code while they share the
	// mailbox's six mails a day, so a stranger could spend them on
	// spellings and lock the owner out (an outside review did, with six).
	// Only the domain's canonical Unicode form registers.
	ascii, err := idna.Lookup.ToASCII(domain)
	if err != nil {
		return "", "", "the domain is not a valid domain name"
	}
	if u, err := idna.Lookup.ToUnicode(ascii); err != nil || u != domain {
		return "", "", "give the domain in its canonical form (" + u + ")"
	}
	return address, mailboxOf(local, domain), ""
}

// atext is a character of a dot-atom's atoms: RFC 5322's atext without
// '%' and '!' (old source routes, which some servers still follow to
// another host), and the letters, digits and marks RFC 6531 adds.
func atext(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		return true
	case r < 0x80:
		return strings.ContainsRune("#$&'*+-/=?^_`{|}~", r)
	default:
		return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
	}
}

// mailboxOf is what the daily limit of code mails counts under. The
// domain is in its ASCII form (an IDN's two spellings are one). A local
// part with a +tag (subaddress, RFC 5233) counts under its part before the
// '+' and a '+': every owner+x@ spelling shares one limit, whatever x.
// The plain address keeps a limit of its own, so a stranger spending the
// tagged spellings' mails does not stop the owner registering owner@.
func mailboxOf(local, domain string) string {
	if d, err := idna.Lookup.ToASCII(domain); err == nil {
		domain = d
	}
	if i := strings.IndexByte(local, '+'); i > 0 {
		return local[:i] + "+@" + domain
	}
	return local + "@" + domain
}
