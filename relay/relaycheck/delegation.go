package relaycheck

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"

	"github.com/miekg/dns"
)

// The delegation (RFC 1034 section 4.2.2): the parent zone's servers
// must refer queries for the relay's zone to name servers whose addresses
// are the relay's public addresses, through glue (RFC 9471) when the name
// server's name is inside the zone, as ns.<zone>, the name the relay
// answers as its own NS, is. The checks ask the parent's servers
// themselves, not a resolver, whose cache could hide a change either way.

// resolverAddr is the recursive resolver the walk starts from.
func (c *checker) resolverAddr() (string, error) {
	if c.Resolver != "" {
		return c.Resolver, nil
	}
	conf, err := dns.ClientConfigFromFile("/etc/resolv.conf")
	if err != nil || len(conf.Servers) == 0 {
		return "", fmt.Errorf("no resolver in /etc/resolv.conf (give --resolver host:port): %v", err)
	}
	return net.JoinHostPort(conf.Servers[0], conf.Port), nil
}

// bare is a DNS name as people write it: lower case, no final dot.
func bare(name string) string { return strings.TrimSuffix(strings.ToLower(name), ".") }

// parentOf is the name one label up, "" above a top-level domain.
func parentOf(name string) string {
	_, p, ok := strings.Cut(name, ".")
	if !ok {
		return ""
	}
	return p
}

// lookup asks the recursive resolver for name's records of type qtype.
func (c *checker) lookup(ctx context.Context, resolver, name string, qtype uint16) ([]dns.RR, error) {
	r, err := c.exchange(ctx, "udp", resolver, query(name, qtype, true))
	if err != nil {
		return nil, fmt.Errorf("ask resolver %s for %s %s: %s", resolver, name, dns.TypeToString[qtype], plainErr(err))
	}
	if r.Rcode != dns.RcodeSuccess && r.Rcode != dns.RcodeNameError {
		return nil, fmt.Errorf("resolver %s answered %s for %s %s", resolver, dns.RcodeToString[r.Rcode], name, dns.TypeToString[qtype])
	}
	var rrs []dns.RR
	for _, rr := range r.Answer {
		if rr.Header().Rrtype == qtype {
			rrs = append(rrs, rr)
		}
	}
	return rrs, nil
}

// addresses looks up name's A, and AAAA, records.
func (c *checker) addresses(ctx context.Context, resolver, name string) ([]net.IP, error) {
	var ips []net.IP
	for _, t := range []uint16{dns.TypeA, dns.TypeAAAA} {
		rrs, err := c.lookup(ctx, resolver, name, t)
		if err != nil {
			return nil, err
		}
		ips = append(ips, addressesOf(rrs, name)...)
	}
	return ips, nil
}

func addressesOf(rrs []dns.RR, name string) []net.IP {
	var ips []net.IP
	for _, rr := range rrs {
		if !strings.EqualFold(rr.Header().Name, dns.Fqdn(name)) {
			continue
		}
		switch rr := rr.(type) {
		case *dns.A:
			ips = append(ips, rr.A)
		case *dns.AAAA:
			ips = append(ips, rr.AAAA)
		}
	}
	return ips
}

func (c *checker) isPublic(ip net.IP) bool {
	return slices.ContainsFunc(c.PublicIPs, ip.Equal)
}

func (c *checker) publicList() string {
	var s []string
	for _, ip := range c.PublicIPs {
		s = append(s, ip.String())
	}
	return strings.Join(s, ", ")
}

func ipList(ips []net.IP) string {
	var s []string
	for _, ip := range ips {
		s = append(s, ip.String())
	}
	return strings.Join(s, ", ")
}

// inZone reports whether name is the zone or below it.
func (c *checker) inZone(name string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	return name == c.zone || strings.HasSuffix(name, "."+c.zone)
}

func (c *checker) delegation(ctx context.Context) []Result {
	const name = "delegation"
	if len(c.PublicIPs) == 0 {
		return []Result{fail(name, "give the relay's public address with --public-ip, as to serve",
			"no --public-ip: the relay would answer no address for its names")}
	}
	resolver, err := c.resolverAddr()
	if err != nil {
		return []Result{fail(name, "", "%v", err)}
	}
	// The parent is the closest enclosing zone with name servers of its
	// own, not necessarily one label up.
	var parent string
	var servers []string
	for p := parentOf(c.zone); p != ""; p = parentOf(p) {
		rrs, err := c.lookup(ctx, resolver, p, dns.TypeNS)
		if err != nil {
			return []Result{fail(name, "check the resolver (--resolver) and this machine's outgoing DNS", "%v", err)}
		}
		for _, rr := range rrs {
			if ns, ok := rr.(*dns.NS); ok && strings.EqualFold(ns.Hdr.Name, dns.Fqdn(p)) {
				servers = append(servers, bare(ns.Ns))
			}
		}
		if len(servers) > 0 {
			parent = p
			break
		}
	}
	if parent == "" {
		return []Result{fail(name, "the zone must be below a domain you hold, e.g. relay.example.net under example.net",
			"found no parent zone with name servers above %s", c.zone)}
	}
	slices.Sort(servers)
	hint := fmt.Sprintf("at the registrar or DNS host of %s: %s NS ns.%s, and the glue ns.%s A/AAAA %s (docs/relay-deploy.md)",
		parent, c.zone, c.zone, c.zone, c.publicList())
	var problems []string
	var delegatedTo []string
	asked := 0
	for _, server := range servers {
		ips, err := c.addresses(ctx, resolver, server)
		if err != nil || len(ips) == 0 {
			problems = append(problems, fmt.Sprintf("%s's server %s has no address (%v)", parent, server, err))
			continue
		}
		addr := net.JoinHostPort(ips[0].String(), "53")
		r, err := c.exchange(ctx, "udp", addr, query(c.zone, dns.TypeNS, false))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s (%s) did not answer: %s", server, ips[0], plainErr(err)))
			continue
		}
		asked++
		nsNames, glue := c.referral(r)
		if len(nsNames) == 0 {
			problems = append(problems, fmt.Sprintf("%s does not delegate %s (it answered %s with no NS for it)",
				server, c.zone, dns.RcodeToString[r.Rcode]))
			continue
		}
		for _, ns := range nsNames {
			var nsIPs []net.IP
			if c.inZone(ns) {
				if nsIPs = addressesOf(glue, ns); len(nsIPs) == 0 {
					problems = append(problems, fmt.Sprintf("%s names %s as a name server of %s but gives no glue address for it", server, ns, c.zone))
					continue
				}
			} else if nsIPs, err = c.addresses(ctx, resolver, ns); err != nil || len(nsIPs) == 0 {
				problems = append(problems, fmt.Sprintf("name server %s (named by %s) has no address (%v)", ns, server, err))
				continue
			}
			for _, ip := range nsIPs {
				if !c.isPublic(ip) {
					what := "the glue"
					if !c.inZone(ns) {
						what = "the address"
					}
					problems = append(problems, fmt.Sprintf("%s of %s at %s is %s, not --public-ip %s", what, ns, server, ip, c.publicList()))
				}
			}
			delegatedTo = append(delegatedTo, fmt.Sprintf("%s (%s)", ns, ipList(nsIPs)))
		}
	}
	if asked == 0 && len(problems) == 0 {
		problems = append(problems, "no server of "+parent+" answered")
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return []Result{fail(name, hint, "%s", strings.Join(slices.Compact(problems), "; "))}
	}
	slices.Sort(delegatedTo)
	return []Result{pass(name, "%s's servers (%d) delegate %s to %s", parent, asked, c.zone, strings.Join(slices.Compact(delegatedTo), ", "))}
}

// referral returns the NS names for the zone in a parent's answer (in its
// authority section, or its answer section from a server authoritative
// for both) and the answer's additional records, the glue.
func (c *checker) referral(r *dns.Msg) (ns []string, glue []dns.RR) {
	for _, rr := range append(append([]dns.RR(nil), r.Answer...), r.Ns...) {
		if n, ok := rr.(*dns.NS); ok && strings.EqualFold(n.Hdr.Name, dns.Fqdn(c.zone)) {
			ns = append(ns, bare(n.Ns))
		}
	}
	slices.Sort(ns)
	return slices.Compact(ns), r.Extra
}

// soaAt asks addr for the zone's SOA over network and says what is wrong
// with the answer, if anything.
func (c *checker) soaAt(ctx context.Context, network, addr string) (*dns.SOA, error) {
	r, err := c.exchange(ctx, network, addr, query(c.zone, dns.TypeSOA, false))
	if err != nil {
		return nil, fmt.Errorf("no answer over %s: %s", strings.ToUpper(network), plainErr(err))
	}
	if r.Rcode != dns.RcodeSuccess {
		return nil, fmt.Errorf("answered %s over %s", dns.RcodeToString[r.Rcode], strings.ToUpper(network))
	}
	if !r.Authoritative {
		return nil, fmt.Errorf("answered over %s, but not authoritatively (a resolver or another server, not the relay)", strings.ToUpper(network))
	}
	for _, rr := range r.Answer {
		if soa, ok := rr.(*dns.SOA); ok && strings.EqualFold(soa.Hdr.Name, dns.Fqdn(c.zone)) {
			return soa, nil
		}
	}
	return nil, fmt.Errorf("answered over %s with no SOA for %s", strings.ToUpper(network), c.zone)
}

// publicDNS asks each public address on port 53, as the Internet's
// resolvers will, for the zone's SOA, and compares it with the one the
// relay's DNS listener answers here: the same record means the same relay.
func (c *checker) publicDNS(ctx context.Context) []Result {
	const name = "public DNS"
	if len(c.PublicIPs) == 0 {
		return nil // said by delegation
	}
	var want *dns.SOA
	if c.DNSListen != "" {
		if addr, err := local(c.DNSListen); err == nil {
			want, _ = c.soaAt(ctx, "udp", addr)
		}
	}
	var results []Result
	for _, ip := range c.PublicIPs {
		addr := net.JoinHostPort(ip.String(), "53")
		soa, err := c.soaAt(ctx, "udp", addr)
		if err != nil {
			results = append(results, fail(name, "the relay must answer its zone on port 53 of every --public-ip (--dns-listen :53; UDP and TCP 53 open in the firewall)",
				"%s %v", addr, err))
			continue
		}
		if want != nil && soa.String() != want.String() {
			results = append(results, fail(name, "another DNS server answers at "+addr+": stop it, or give the relay the address",
				"%s answers %s with an SOA other than the relay's on %s", addr, c.zone, c.DNSListen))
			continue
		}
		results = append(results, pass(name, "%s answers %s authoritatively (SOA %s)", addr, c.zone, bare(soa.Ns)))
	}
	return results
}
