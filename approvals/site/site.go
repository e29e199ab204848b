// Package site says which agent domains are one site: the unit that every
// per-site limit, quota and block on the node counts by (the gateway's
// per-site rate bucket, the approvals' per-site pending cap and prompts per
// hour, a "block all of" block). There is exactly one notion of site, Of.
//
// A site is a registrable domain (eTLD+1) by the Public Suffix List:
// whoever owns evil.example can publish key documents at a.evil.example,
// b.evil.example, ..., so those share one site. Names under a hosting
// suffix are the exception: a relay hosts key documents for agents
// without a domain of their own at <label>.agents.<relay zone>, one label
// per key, and strangers' labels there must not share limits or blocks.
// A hosting suffix is a private entry of the Public Suffix List (as
// github.io is) that the node adds itself: the relay's hosted zone once a
// relay is configured, and any suffix the user names. As in the list, the
// most specific rule wins.
//
// An OAuth client (a later door than RFC 9421 agents) gets its site from
// its client id by this same function, so that one set of limits covers
// every door.
package site

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/net/publicsuffix"
)

// Sites is the node's hosting suffixes. A nil *Sites has none: sites are
// registrable domains by the Public Suffix List alone. Its methods are
// safe for concurrent use; Add takes effect for the next Of.
type Sites struct {
	mu       sync.Mutex // serialises Add
	suffixes atomic.Pointer[[]string]
}

// New returns Sites with the given hosting suffixes (see ParseSuffix).
func New(suffixes ...string) (*Sites, error) {
	s := &Sites{}
	for _, sfx := range suffixes {
		if err := s.Add(sfx); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Add makes suffix a hosting suffix: every name directly under it is a
// site of its own. Adding one twice is harmless.
func (s *Sites) Add(suffix string) error {
	sfx, err := ParseSuffix(suffix)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var old []string
	if p := s.suffixes.Load(); p != nil {
		old = *p
	}
	if slices.Contains(old, sfx) {
		return nil
	}
	next := append(slices.Clone(old), sfx)
	slices.Sort(next)
	s.suffixes.Store(&next)
	return nil
}

// Suffixes lists the hosting suffixes, sorted.
func (s *Sites) Suffixes() []string {
	if s == nil {
		return nil
	}
	if p := s.suffixes.Load(); p != nil {
		return slices.Clone(*p)
	}
	return nil
}

// Of is domain's site: the most specific of its registrable domain by the
// Public Suffix List and, under a hosting suffix, the name one label below
// the suffix (x.y.agents.relay.example is y.agents.relay.example's). A
// domain that is itself a public or hosting suffix, or has no registrable
// domain, is its own site. Of is case-insensitive and ignores a trailing
// dot; its result is lower case and Of(Of(d)) == Of(d).
func (s *Sites) Of(domain string) string {
	domain = strings.TrimRight(strings.ToLower(domain), ".")
	site, err := publicsuffix.EffectiveTLDPlusOne(domain)
	if err != nil {
		site = domain
	}
	if s == nil {
		return site
	}
	p := s.suffixes.Load()
	if p == nil {
		return site
	}
	for _, sfx := range *p {
		hosted, ok := under(domain, sfx)
		if ok && len(hosted) > len(site) {
			site = hosted
		}
	}
	return site
}

// Hosted reports whether domain's site is one of many that a host hands
// out, one to whoever asks: a name under one of the node's hosting
// suffixes, or under a private entry of the Public Suffix List
// (agent.github.io); the suffix itself is not. Such sites cost a stranger nothing each, so the
// approvals let all of them together hold only part of what strangers
// may; a registrable domain of the public part of the list costs a
// registration each.
func (s *Sites) Hosted(domain string) bool {
	site := s.Of(domain)
	for _, sfx := range s.Suffixes() {
		if _, ok := under(site, sfx); ok && site != sfx {
			return true
		}
	}
	// For a top-level domain the list does not know, PublicSuffix
	// answers its last label, not private: only a private entry of the
	// list has a dot.
	ps, icann := publicsuffix.PublicSuffix(site)
	return !icann && strings.Contains(ps, ".") && site != ps
}

// under returns the name one label below sfx that domain is or lies
// under; domain itself when it is sfx.
func under(domain, sfx string) (string, bool) {
	if domain == sfx {
		return domain, true
	}
	rest, ok := strings.CutSuffix(domain, "."+sfx)
	if !ok || rest == "" {
		return "", false
	}
	return rest[strings.LastIndexByte(rest, '.')+1:] + "." + sfx, true
}

// ParseSuffix checks a hosting suffix and returns it in lower case
// without a trailing dot. It must be a DNS name of at least two labels
// (a whole top-level domain is the Public Suffix List's business), with
// no wildcard.
func ParseSuffix(suffix string) (string, error) {
	sfx := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(suffix)), ".")
	if err := checkName(sfx); err != nil {
		return "", fmt.Errorf("hosting suffix %q: %w", suffix, err)
	}
	return sfx, nil
}

func checkName(name string) error {
	if name == "" {
		return errors.New("empty")
	}
	if len(name) > 253 {
		return errors.New("longer than 253 characters")
	}
	labels := strings.Split(name, ".")
	if len(labels) < 2 {
		return errors.New("a hosting suffix has at least two labels, as agents.relay.example")
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return errors.New("not a DNS name")
		}
		for _, c := range []byte(l) {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return errors.New("not a DNS name (letters, digits and hyphens; punycode for others)")
			}
		}
	}
	return nil
}
