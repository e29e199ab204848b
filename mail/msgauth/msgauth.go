// Package msgauth decides whether a message's From domain is genuine:
// by the user's own provider's Authentication-Results (RFC 8601), or by
// the node's own DKIM check (RFC 6376), with DMARC's relaxed alignment.
// Extraction takes its verdict; it never reads these headers itself, so
// mail text cannot vouch for itself.
package msgauth

import (
	"bytes"
	"strings"

	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"
	"golang.org/x/net/publicsuffix"

	"mailnode/mail/mime"
)

// Verdict says whether a message's From domain is authenticated, and how.
type Verdict struct {
	Authenticated bool   `json:"authenticated"`
	Method        string `json:"method,omitempty"` // "dmarc", "dkim" (provider's verdict) or "dkim-node"
	Domain        string `json:"domain,omitempty"` // the From domain
	// Failed: not authenticated, and the provider's own topmost
	// Authentication-Results field says a check of the message failed
	// (dmarc, dkim or spf "fail"): a From that is likely forged, as
	// opposed to one that no check spoke for (a Sent copy, a provider
	// that writes no such field).
	Failed bool `json:"failed,omitempty"`
}

// Methods of authentication.
const (
	DMARC    = "dmarc"
	DKIM     = "dkim"
	DKIMNode = "dkim-node"
)

// Checker authenticates messages for one user.
type Checker struct {
	// AuthServIDs are the authserv-ids of the user's own mail provider
	// (e.g. "mx.google.com"): only Authentication-Results fields it wrote
	// are believed.
	AuthServIDs []string
	// LookupTXT, when set, lets the node verify DKIM signatures itself.
	// It is the only network access of the package, and tests replace it.
	LookupTXT func(name string) ([]string, error)
}

// Check is the verdict on m, whose raw bytes raw are needed only for
// the node's own DKIM check and may be nil.
func (c Checker) Check(m *mime.Message, raw []byte) Verdict {
	domain := ""
	if len(m.From) > 0 {
		if _, d, ok := strings.Cut(m.From[0].Address, "@"); ok {
			domain = strings.ToLower(strings.TrimSuffix(d, ">"))
		}
	}
	return authenticate(domain, m.AuthResults, raw, c.AuthServIDs, c.LookupTXT)
}

// authenticate decides whether the From domain of a message is
// authenticated. It trusts, in order:
//
//  1. The topmost Authentication-Results field (RFC 8601) whose authserv-id
//     is one of the user's provider's: a dmarc=pass for the From domain,
//     or a dkim=pass whose signing domain aligns with it (relaxed alignment,
//     RFC 7489 section 3.1.1: same organisational domain). Fields further
//     down, or from other authserv-ids, may have been written by the
//     sender and are ignored.
//  2. The node's own DKIM verification (RFC 6376) when lookupTXT is set,
//     with the same alignment rule.
//
// lookupTXT is the DNS seam: the node passes a resolver, tests pass a map.
func authenticate(fromDomain string, fields []string, raw []byte, servIDs []string, lookupTXT func(string) ([]string, error)) Verdict {
	a := Verdict{Domain: fromDomain}
	if fromDomain == "" {
		return a
	}
	for _, f := range fields {
		id, results, err := authres.Parse(f)
		if err != nil {
			id = fieldServID(f)
		}
		if !trustedID(id, servIDs) {
			// Another host of the provider (mx2 beside the configured
			// mx) wrote the topmost field: what lies below it may be
			// the sender's own, planted to be believed.
			if providerHost(id, servIDs) {
				break
			}
			continue
		}
		// Only the topmost field of the provider counts, whether it
		// parses or not: a sender who makes it unreadable (an envelope
		// address holding ";" that the provider quotes) must not have a
		// field of its own below it believed (the tenth outside review).
		// DMARC is the stronger verdict: it already includes alignment.
		// Unreadable, it is no pass, and counts as a fail: the forged
		// From it may hide must not pass for the person's own mail,
		// which a message neither authenticated nor failed does for
		// the facts' senders (the eleventh outside review, HIGH-2).
		if err != nil {
			a.Failed = true
			break
		}
		for _, r := range results {
			if r, ok := r.(*authres.DMARCResult); ok && r.Value == authres.ResultPass && strings.EqualFold(strings.TrimSpace(r.From), fromDomain) {
				a.Authenticated, a.Method = true, DMARC
				return a
			}
		}
		for _, r := range results {
			r, ok := r.(*authres.DKIMResult)
			if !ok {
				continue
			}
			d := r.Domain
			if d == "" && r.Identifier != "" {
				_, d, _ = strings.Cut(r.Identifier, "@")
			}
			if r.Value == authres.ResultPass && aligned(d, fromDomain) {
				a.Authenticated, a.Method = true, DKIM
				return a
			}
		}
		a.Failed = failed(results)
		break
	}
	if lookupTXT != nil && len(raw) > 0 {
		// Past five signatures the rest are ignored (and reported as an
		// error); the five verified still count.
		verifs, _ := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookupTXT, MaxVerifications: 5})
		for _, v := range verifs {
			if v.Err == nil && aligned(v.Domain, fromDomain) {
				a.Authenticated, a.Method, a.Failed = true, DKIMNode, false
				return a
			}
		}
	}
	return a
}

// failed reports whether results hold a dmarc, dkim or spf "fail".
func failed(results []authres.Result) bool {
	for _, r := range results {
		switch r := r.(type) {
		case *authres.DMARCResult:
			if r.Value == authres.ResultFail {
				return true
			}
		case *authres.DKIMResult:
			if r.Value == authres.ResultFail {
				return true
			}
		case *authres.SPFResult:
			if r.Value == authres.ResultFail {
				return true
			}
		}
	}
	return false
}

// fieldServID is the authserv-id of an Authentication-Results field that
// authres cannot parse: its first word, before any comment or ";".
func fieldServID(f string) string {
	head, _, _ := strings.Cut(f, ";")
	head, _, _ = strings.Cut(head, "(")
	if fs := strings.Fields(head); len(fs) > 0 {
		return fs[0]
	}
	return ""
}

// providerHost reports whether id is a host of the same organisation as
// one of the provider's configured authserv-ids (mx2.provider.example
// beside mx.provider.example), though not itself configured.
func providerHost(id string, servIDs []string) bool {
	id = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(id), "."))
	if !strings.Contains(id, ".") {
		return false
	}
	for _, s := range servIDs {
		if strings.Contains(s, ".") && aligned(s, id) {
			return true
		}
	}
	return false
}

func trustedID(id string, servIDs []string) bool {
	for _, s := range servIDs {
		if strings.EqualFold(strings.TrimSpace(id), s) {
			return true
		}
	}
	return false
}

// aligned reports relaxed DMARC alignment: both domains have the same
// organisational domain (registrable domain by the public suffix list).
func aligned(signer, from string) bool {
	signer, from = strings.ToLower(strings.TrimSuffix(signer, ".")), strings.ToLower(from)
	if signer == "" || from == "" {
		return false
	}
	if signer == from {
		return true
	}
	a, err1 := publicsuffix.EffectiveTLDPlusOne(signer)
	b, err2 := publicsuffix.EffectiveTLDPlusOne(from)
	return err1 == nil && err2 == nil && a == b
}
