package relayserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/miekg/dns"

	"mailnode/relay/connlimit"
)

// The zone, answered authoritatively (RFC 1034 section 4.3.2): every name
// in it has the same A and AAAA (real node, decoy, unknown alike, so DNS
// tells nobody which names are real); _acme-challenge.<label> has TXT
// only while that node has set values through /v1/acme/challenge, and
// _acme-challenge.<API name> and _acme-challenge.agents.<zone> while the
// relay orders its own certificate (relay/relayacme); the
// apex has SOA and NS. Names outside the zone are refused: the relay is
// no resolver.

const (
	addressTTL = 300
	txtTTL     = 0
	soaTTL     = 3600
)

// maxUDPSize caps an answer over UDP to a client that offers more with
// EDNS0 (RFC 6891): the DNS flag day 2020 value, which fits a 1280-byte
// IPv6 packet unfragmented. A client without EDNS0 gets at most 512 bytes
// (RFC 1035 section 4.2.1). Past the size the answer goes out with TC=1
// and no records, and the resolver asks again over TCP; without this a
// node's four 255-byte challenge values made a 64-byte query's answer
// 1,320 bytes (outside attack).
const maxUDPSize = 1232

// dnsTCPIdle is how long a TCP connection to the DNS is kept for its
// next query (miekg/dns's default is 8 s); the first query has
// dnsTCPRead. A resolver that asks several questions on one connection
// sends them at once.
const (
	dnsTCPRead = 5 * time.Second
	dnsTCPIdle = 5 * time.Second
)

// ServeDNS answers the zone on a UDP packet connection and a TCP
// listener (either may be nil) until ctx ends. The TCP listener's
// connections are capped per client address (Limits.DNSTCPPerAddress)
// and together (Limits.DNSTCPConns), and its accept errors wait
// (capListener), as miekg/dns's own loop retries them at once.
func (s *Server) ServeDNS(ctx context.Context, pc net.PacketConn, ln net.Listener) error {
	h := dns.HandlerFunc(s.answerDNS)
	errc := make(chan error, 2)
	var servers []*dns.Server
	if pc != nil {
		srv := &dns.Server{PacketConn: pc, Handler: h}
		servers = append(servers, srv)
		go func() { errc <- srv.ActivateAndServe() }()
	}
	if ln != nil {
		ln = newCapListener(ln, s.log.With("service", "dns"), connlimit.NewPerAddress(s.cfg.Limits.DNSTCPPerAddress), s.cfg.Limits.DNSTCPConns)
		srv := &dns.Server{Listener: ln, Handler: h, ReadTimeout: dnsTCPRead, IdleTimeout: func() time.Duration { return dnsTCPIdle }}
		servers = append(servers, srv)
		go func() { errc <- srv.ActivateAndServe() }()
	}
	if len(servers) == 0 {
		return errors.New("relay dns: nothing to serve on")
	}
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	for _, srv := range servers {
		srv.Shutdown()
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("relay dns: %w", err)
	}
	return nil
}

func (s *Server) answerDNS(w dns.ResponseWriter, req *dns.Msg) {
	switch s.dnsLimit.check(w.RemoteAddr()) {
	case dnsDrop:
		return
	case dnsTruncate:
		// The header and question only: no larger than the query.
		m := new(dns.Msg)
		m.SetReply(req)
		m.Truncated = true
		w.WriteMsg(m)
		return
	}
	m := new(dns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	m.Compress = true
	if opt := req.IsEdns0(); opt != nil && opt.Version() != 0 {
		m.SetRcode(req, dns.RcodeBadVers) // RFC 6891 section 6.1.3
		writeDNS(w, req, m)
		return
	}
	if len(req.Question) != 1 || req.Opcode != dns.OpcodeQuery {
		m.SetRcode(req, dns.RcodeNotImplemented)
		writeDNS(w, req, m)
		return
	}
	q := req.Question[0]
	name := strings.ToLower(q.Name)
	zone := dns.Fqdn(s.cfg.Zone)
	if name != zone && !strings.HasSuffix(name, "."+zone) {
		m.Authoritative = false
		m.SetRcode(req, dns.RcodeRefused)
		writeDNS(w, req, m)
		return
	}
	soa := s.soa()
	switch {
	case strings.HasPrefix(name, "_acme-challenge."):
		if q.Qtype == dns.TypeTXT {
			if key, ok := s.challengeKey(strings.TrimPrefix(strings.TrimSuffix(name, "."), "_acme-challenge.")); ok {
				vals, err := s.store.Challenges(context.Background(), key)
				if err != nil {
					s.log.Error("Cannot read challenge", "err", err)
					m.SetRcode(req, dns.RcodeServerFailure)
					writeDNS(w, req, m)
					return
				}
				for _, v := range vals {
					m.Answer = append(m.Answer, &dns.TXT{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: txtTTL}, Txt: []string{v}})
				}
			}
		}
	case q.Qtype == dns.TypeSOA && name == zone:
		m.Answer = append(m.Answer, soa)
	case q.Qtype == dns.TypeNS && name == zone:
		for _, ns := range s.cfg.NameServers {
			m.Answer = append(m.Answer, &dns.NS{Hdr: dns.RR_Header{Name: zone, Rrtype: dns.TypeNS, Class: dns.ClassINET, Ttl: soaTTL}, Ns: dns.Fqdn(ns)})
		}
	case q.Qtype == dns.TypeA || q.Qtype == dns.TypeAAAA || q.Qtype == dns.TypeANY:
		for _, ip := range s.cfg.PublicIPs {
			hdr := dns.RR_Header{Name: q.Name, Class: dns.ClassINET, Ttl: addressTTL}
			if ip4 := ip.To4(); ip4 != nil && q.Qtype != dns.TypeAAAA {
				hdr.Rrtype = dns.TypeA
				m.Answer = append(m.Answer, &dns.A{Hdr: hdr, A: ip4})
			} else if ip.To4() == nil && q.Qtype != dns.TypeA {
				hdr.Rrtype = dns.TypeAAAA
				m.Answer = append(m.Answer, &dns.AAAA{Hdr: hdr, AAAA: ip})
			}
		}
	}
	if len(m.Answer) == 0 {
		m.Ns = append(m.Ns, soa) // NODATA (RFC 2308 section 2.2)
	}
	writeDNS(w, req, m)
}

// writeDNS sends m, the answer to req: with an OPT record if req had
// one (RFC 6891 section 6.1.1), and over UDP cut to the size req allows,
// at most maxUDPSize. An answer that does not fit goes out as its header
// and question with TC=1: a resolver discards a truncated answer's
// records and asks over TCP (RFC 2181 section 9), so records would only
// make the answer larger, for a forger to reflect.
func writeDNS(w dns.ResponseWriter, req, m *dns.Msg) {
	size := dns.MinMsgSize
	if opt := req.IsEdns0(); opt != nil {
		size = min(max(int(opt.UDPSize()), dns.MinMsgSize), maxUDPSize)
		m.SetEdns0(maxUDPSize, false)
	}
	if w.RemoteAddr().Network() != "tcp" {
		m.Truncate(size)
		if m.Truncated {
			m.Answer, m.Ns = nil, nil
			m.Extra = slices.DeleteFunc(m.Extra, func(rr dns.RR) bool { return rr.Header().Rrtype != dns.TypeOPT })
		}
	}
	w.WriteMsg(m)
}

// challengeKey is the store's key for the challenge values of domain: a
// node's label, or for the relay's own names (the API name and
// agents.<zone>, for its certificate by ACME, relay/relayacme) the name
// itself, which having dots is never a node's label.
func (s *Server) challengeKey(domain string) (string, bool) {
	if domain == s.cfg.APIName || domain == "agents."+s.cfg.Zone {
		return domain, true
	}
	return labelOf(domain, s.cfg.Zone)
}

func (s *Server) soa() *dns.SOA {
	zone := dns.Fqdn(s.cfg.Zone)
	return &dns.SOA{
		Hdr:    dns.RR_Header{Name: zone, Rrtype: dns.TypeSOA, Class: dns.ClassINET, Ttl: soaTTL},
		Ns:     dns.Fqdn(s.cfg.NameServers[0]),
		Mbox:   "hostmaster." + zone,
		Serial: 1, Refresh: 3600, Retry: 600, Expire: 86400, Minttl: 60,
	}
}
