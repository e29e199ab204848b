// Package trust decides whether the node vouches for a message's sender,
// which is more than whether the sender was authenticated. DKIM and DMARC
// prove only that mail came from its From domain; anyone can own a domain
// that passes them, registered yesterday, or an address at a free-mail
// provider. A sender is trusted when its domain was authenticated and the
// user has written to it, or when its domain was authenticated, is no
// free-mail provider's and was first seen at least NewDomainAge ago.
//
// An untrusted sender's mail is treated as an unauthenticated one's where
// it matters most: no way to contact it (addresses, phone numbers) and no
// instruction of it is passed to an agent, and its facts are listed apart.
// The rules are in docs/extract.md ("Trust").
package trust

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
	"time"

	"mailnode/mail/mime"
	"mailnode/mail/store"
)

// NewDomainAge is how long after mail from a domain first arrived the
// domain counts as new. Look-alike domains are mostly used within days of
// their registration, and taken down within weeks; two weeks of mail from
// a domain before its word counts makes such a domain no use.
const NewDomainAge = 14 * 24 * time.Hour

//go:embed freemail.txt
var freeMailList string

//go:embed shared.txt
var sharedList string

// domainTable is a list of domains parsed: registrable domains, and
// labels that name a provider under any public suffix ("hotmail.*").
type domainTable struct {
	domains, labels map[string]bool
}

var (
	freeMail = sync.OnceValue(func() domainTable { return parseDomains(freeMailList) })
	shared   = sync.OnceValue(func() domainTable { return parseDomains(sharedList) })
)

func parseDomains(list string) domainTable {
	t := domainTable{domains: map[string]bool{}, labels: map[string]bool{}}
	for _, line := range strings.Split(list, "\n") {
		line = strings.ToLower(strings.TrimSpace(line))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if label, ok := strings.CutSuffix(line, ".*"); ok {
			t.labels[label] = true
		} else {
			t.domains[line] = true
		}
	}
	return t
}

// has reports whether the registrable domain of domain (any host name) is
// in t.
func (t domainTable) has(domain string) bool {
	org := store.OrgDomain("@" + domain)
	if org == "" {
		return false
	}
	if t.domains[org] {
		return true
	}
	label, _, _ := strings.Cut(org, ".")
	return t.labels[label]
}

// FreeMail reports whether domain (any host name; its registrable domain
// is looked up) belongs to a free-mail or consumer mailbox provider, where
// anyone can have an address, or is Shared.
func FreeMail(domain string) bool { return freeMail().has(domain) || Shared(domain) }

// Shared reports whether domain (any host name) is one where one address,
// or one registrable domain, speaks for many writers (shared.txt): a
// service that sends its account holders' words under its own domain, a
// relay mask, a platform whose customers send from its subdomains.
func Shared(domain string) bool { return shared().has(domain) }

// New reports whether a sender's domain was first seen less than
// NewDomainAge before now; never seen counts as new.
func New(s store.Sender, now time.Time) bool {
	return s.FirstSeen.IsZero() || now.Sub(s.FirstSeen) < NewDomainAge
}

// Corresponded reports whether the user has written to the sender: to
// its domain, or at a free-mail provider, to its very address (writing to
// one Gmail user vouches for no other).
func Corresponded(s store.Sender) bool {
	if s.Domain == "" || s.Relayed {
		return false
	}
	if FreeMail(s.Domain) {
		return s.WroteToAddress
	}
	return s.WroteToDomain
}

// Trusted decides whether the node vouches for a sender whose domain was
// authenticated (verified) or not. Authentication is required in every
// case: a forged From of a correspondent's address is not the
// correspondent. A message that relays another writer's words
// (s.Relayed) and a domain that imitates another
// (mime.ConfusableDomain) are never trusted. Having written to the sender vouches for it whatever its
// domain's kind or age; otherwise its domain must be no free-mail
// provider's and not new.
func Trusted(verified bool, s store.Sender, now time.Time) bool {
	if !verified || s.Domain == "" || s.Relayed || mime.ConfusableDomain(s.Domain) {
		return false
	}
	if Corresponded(s) {
		return true
	}
	return !FreeMail(s.Domain) && !New(s, now)
}

// SenderKey is who sent message msg from sender s, when the facts store
// tells the senders of one thing apart (extract.Record.Sender): its
// registrable domain, since a company's mail comes from many addresses
// there; at a free-mail provider, where anyone can have an address, the
// address itself; at a Shared domain, where an address speaks for many
// writers, or for a message that relays another writer's words
// (Relayed), the message alone. A sender without a domain is its address.
func SenderKey(s store.Sender, msg int64) string {
	switch {
	case s.Domain != "" && Shared(s.Domain), s.Relayed:
		return s.Address + "#" + strconv.FormatInt(msg, 10)
	case s.Domain == "" || FreeMail(s.Domain):
		return s.Address
	}
	return s.Domain
}
