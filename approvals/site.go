package approvals

import (
	"strings"
)

// Site is domain's site, by the node's one notion of it (package
// approvals/site: the registrable domain, or under a hosting suffix such
// as the relay's agents zone, the hosted name). Every per-site limit and
// block of the approvals, and the gateway's per-site rate bucket, count by
// it.
func (m *Manager) Site(domain string) string { return m.cfg.Sites.Of(domain) }

// sitePrefix marks a block of a whole site in the blocked list:
// "*.evil.example" blocks evil.example and every name under it.
const sitePrefix = "*."

// BlockName is the block Block(domain) makes, as Blocked lists it: the
// agent domain, or for "*." and any name, "*." and that name's site.
func (m *Manager) BlockName(domain string) string { return m.blockKey(domain) }

// blockKey normalises a Block argument: an agent domain, or "*." and any
// name, which stands for that name's site.
func (m *Manager) blockKey(domain string) string {
	domain = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	if rest, ok := strings.CutPrefix(domain, sitePrefix); ok {
		return sitePrefix + m.Site(rest)
	}
	return domain
}

// covers reports whether the block key covers the agent domain: key is
// the domain itself, or "*.name" with the domain name or under it. A site
// block is matched by name rather than by the site's current reckoning,
// so that a block never loosens by itself: "*.relay.example", made before
// the node knew agents.relay.example as a hosting suffix, still covers
// every hosted agent there until it is unblocked.
func covers(key, domain string) bool {
	if key == domain {
		return true
	}
	name, ok := strings.CutPrefix(key, sitePrefix)
	return ok && (domain == name || strings.HasSuffix(domain, "."+name))
}
