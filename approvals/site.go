package approvals

import (
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Site is the registrable domain (eTLD+1, by the public suffix list) of an
// agent domain, or the domain itself when it has none. Whoever controls
// evil.example can publish key documents at as many subdomains as they
// like, so blocks and limits that apply to one agent domain apply to its
// site as well.
func Site(domain string) string {
	domain = strings.ToLower(domain)
	if s, err := publicsuffix.EffectiveTLDPlusOne(domain); err == nil {
		return s
	}
	return domain
}

// sitePrefix marks a block of a whole registrable domain in the blocked
// list: "*.evil.example" blocks evil.example and every name under it.
const sitePrefix = "*."

// SiteBlock returns the Block argument that blocks domain's whole
// registrable domain.
func SiteBlock(domain string) string { return sitePrefix + Site(domain) }

// blockKey normalises a Block argument: an agent domain, or "*." and any
// name, which stands for that name's registrable domain.
func blockKey(domain string) string {
	domain = strings.ToLower(strings.TrimSpace(domain))
	if rest, ok := strings.CutPrefix(domain, sitePrefix); ok {
		return SiteBlock(rest)
	}
	return domain
}
