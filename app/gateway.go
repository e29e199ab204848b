package app

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"mailnode/extract/answer"
	"net"
	netmail "net/mail"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/push"
	"mailnode/assets"
	"mailnode/extract"
	"mailnode/gateway"
	"mailnode/gateway/agentkeys"
	"mailnode/gateway/localca"
	"mailnode/gateway/oauth"
	"mailnode/gateway/phone"
	"mailnode/gateway/tools"
	"mailnode/mail/mime"
	"mailnode/mail/store"
	"mailnode/mail/trust"
)

// GatewayConfig is how the node serves agents.
type GatewayConfig struct {
	// Listen is the TCP address of the gateway, e.g. ":443" or
	// "127.0.0.1:8443". Empty: the node serves no agents.
	Listen string
	// Hostname is the node's public name as agents reach it: a hostname,
	// or host:port when agents connect to another port than 443.
	// Default: "localhost" and the port of Listen.
	Hostname string
	// Approvals tunes grant and approval lifetimes.
	Approvals approvals.Config
	// RateLimit bounds each agent's requests; zero: the gateway's
	// defaults.
	RateLimit gateway.RateLimit
	// HostingSuffixes are domains under which each name directly below
	// is a site of its own for every per-site limit and block (package
	// approvals/site), as a private entry of the Public Suffix List is.
	// The relay's agents zone is one without being named here: the node
	// adds agents.<zone> once it knows its relay.
	HostingSuffixes []string

	// DevAgentAddrs maps agent domains to fixed host:port addresses for
	// their key documents, bypassing DNS and the address checks.
	// Development and tests only; the node logs a warning when set.
	DevAgentAddrs map[string]string
	// DevAgentCAs are trusted for agents' key documents besides the system
	// roots. Development and tests only.
	DevAgentCAs []*x509.Certificate
	// DevAgentZones are a development relay's agents zones, whose hosted
	// agents' key documents are fetched through DevAgentDial (the relay's
	// development DNS and port) instead of public DNS, where a relay on
	// loopback is not. Development and tests only.
	DevAgentZones []string
	DevAgentDial  func(ctx context.Context, network, addr string) (net.Conn, error)

	// LANAddr picks the address phones on this computer's local network
	// reach it by, for pairing over this network (Node.SetLAN). Nil:
	// lanaddr.Pick, the default route's interface's address. Tests give
	// a second loopback address.
	LANAddr func() (netip.Addr, error)
}

// hostname returns the configured public name, or localhost with the
// listening port.
func (c GatewayConfig) hostname(ln net.Listener) string {
	if c.Hostname != "" {
		return strings.ToLower(c.Hostname)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if port == "443" {
		return "localhost"
	}
	return "localhost:" + port
}

// CAFile is the local CA certificate agents must trust to reach this node
// while it has no public certificate.
func (n *Node) CAFile() string { return filepath.Join(n.cfg.DataDir, "ca", localca.CAFile) }

// serveGateway serves agents and phones on the configured address until
// ctx is done; ready hears whether it could listen.
func (n *Node) serveGateway(ctx context.Context, c *components, ready func(error)) error {
	gc := n.cfg.Gateway
	ca, err := localca.Open(filepath.Dir(n.CAFile()), n.log, nil)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", gc.Listen)
	if err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	defer ln.Close()
	host := gc.hostname(ln)
	// agentkeys.New logs a warning when the development overrides are on.
	// The documents fetched are kept in the data directory, so that the
	// relay's queued envelopes from agents the node dealt with before a
	// restart are still verified without a fetch (docs/relay.md).
	// Only granted agents' documents are kept there, and a stranger's new
	// domains never push them out of the bounded cache.
	keys := agentkeys.New(agentkeys.Config{DevAddrs: gc.DevAgentAddrs, DevRootCAs: gc.DevAgentCAs,
		DevZones: gc.DevAgentZones, DevDial: gc.DevAgentDial,
		File: filepath.Join(n.cfg.DataDir, "agentkeys.json"), Keep: c.approvals.HoldsGrant}, n.log)
	if err := keys.Load(); err != nil {
		n.log.Warn("Cannot read the agent key documents kept; starting without them", "err", err)
	}
	// A grant makes its agent's document one to keep: it is written at
	// once, so that a restart before the agent's next call loses nothing.
	decisions, unsubscribe := c.approvals.Subscribe()
	defer unsubscribe()
	go func() {
		for e := range decisions {
			if e.Kind == "decided" {
				keys.KeepNow(e.Domain)
			}
		}
	}()
	// Web Push of prompts to phones whose app is closed (docs/phone.md,
	// "Notifications"). Push endpoints are checked by the agent key
	// documents' address rules, and the same development overrides
	// (--dev-agent, --dev-agent-ca) alone reach a stand-in on loopback.
	hostOnly, _, _ := strings.Cut(host, ":")
	pusher, err := push.New(push.Config{Phones: c.phones, Approvals: c.approvals, Subject: "https://" + hostOnly,
		DevAddrs: gc.DevAgentAddrs, DevRootCAs: gc.DevAgentCAs}, n.log)
	if err != nil {
		return err
	}
	pushCtx, stopPush := context.WithCancel(ctx)
	var pushing sync.WaitGroup
	pushing.Go(func() { pusher.Run(pushCtx) })
	defer pushing.Wait()
	defer stopPush()
	ph, err := phone.New(phone.Config{Phones: c.phones, Approvals: c.approvals, Nonces: c.nonces, App: assets.PhoneApp(), Push: pusher}, n.log)
	if err != nil {
		return err
	}
	catalog := tools.Catalog(mailSource{c: c}, composer{n, c}, nil)
	// The OAuth front door fetches client metadata documents with the
	// agent key fetcher: the same address rules, and the same development
	// overrides alone reach loopback.
	front, err := oauth.New(oauth.Config{Docs: keys, Approvals: c.approvals, File: c.oauthTables,
		Tiers: gateway.Tiers(catalog), Describe: gateway.ScopeText}, n.log)
	if err != nil {
		return err
	}
	srv, err := gateway.New(gateway.Config{
		Hostname:  host,
		Keys:      keys,
		QueueKeys: keys.Held(),
		Nonces:    c.nonces,
		Approvals: c.approvals,
		Tools:     catalog,
		Phone:     ph,
		OAuth:     front,
		RateLimit: gc.RateLimit,
		Sites:     n.sites,
	}, n.log)
	if err != nil {
		return err
	}
	hostname, _, _ := strings.Cut(host, ":")
	url := "https://" + host + "/mcp"
	n.log.Info("Serving agents", "url", url, "listen", ln.Addr().String(), "ca", n.CAFile())
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var extra sync.WaitGroup // listeners SetLAN adds
	tcp, _ := ln.Addr().(*net.TCPAddr)
	defer func() {
		n.gws.stopped()
		cancel()
		extra.Wait()
	}()
	// One certificate per name: the configured one, or the relay name
	// for agents arriving through the tunnel.
	tlsConfig := gateway.TLSConfig(func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		name := strings.TrimSuffix(strings.ToLower(hello.ServerName), ".")
		rn, acme := n.gws.relay()
		if name != "" && name == rn {
			if acme != nil {
				if c := acme.Certificate(); c != nil {
					return c, nil
				}
			}
			return ca.Leaf(rn)
		}
		// A phone pairing over this network dials the LAN address,
		// which sends no name: the certificate names the address.
		if ip := n.lanCertHost(hello); ip != "" {
			return ca.Leaf(ip)
		}
		return ca.Leaf(hostname)
	})
	n.gws.started("https://"+host+"/phone/", &gatewayHandle{ctx: sctx, srv: srv, tls: tlsConfig, wg: &extra,
		port: tcp.Port, wildcard: tcp.IP.IsUnspecified(), loopback: tcp.IP.IsLoopback()})
	n.update(func(s *Status) { s.Gateway.URL, s.Gateway.Listen = url, ln.Addr().String() })
	defer n.update(func(s *Status) { s.Gateway.URL, s.Gateway.Listen, s.Gateway.LANURL = "", "", "" })
	ready(nil)
	// The same handler serves the tunnel's streams: agents and phones
	// reach the node by its relay name from any network. Until a relay
	// service runs (at start or from StartRelay) no stream arrives.
	relayDone := make(chan error, 1)
	go func() { relayDone <- srv.Serve(sctx, n.relayLn.View(), tlsConfig) }()
	err = srv.Serve(sctx, ln, tlsConfig)
	cancel()
	if rerr := <-relayDone; err == nil {
		err = rerr
	}
	return err
}

// GatewayURL is the URL agents call, once the gateway listens; "" before.
func (n *Node) GatewayURL() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.status.Gateway.URL
}

// mailSource is the tools' view of the store and the facts. Its clock is
// the one the tools run by: messages' senders and facts' senders are
// judged trusted, and bills stale, as of the same now.
type mailSource struct {
	c   *components
	now func() time.Time // the clock senders' domains age and bills go stale by; nil: time.Now
}

func (s mailSource) clock() time.Time {
	if s.now == nil {
		return time.Now()
	}
	return s.now()
}

func (s mailSource) Trips(ctx context.Context, from, to time.Time, limit int) ([]json.RawMessage, error) {
	return s.c.facts.Trips(ctx, s.clock(), from, to, limit)
}

func (s mailSource) Orders(ctx context.Context, merchant string, limit int) ([]json.RawMessage, error) {
	return s.c.facts.Orders(ctx, s.clock(), merchant, limit)
}

func (s mailSource) BillsDue(ctx context.Context, before time.Time, limit int) ([]json.RawMessage, error) {
	return s.c.facts.BillsDue(ctx, s.clock(), before, limit)
}

func (s mailSource) About(ctx context.Context, terms []string, limit int) ([]json.RawMessage, error) {
	return s.c.facts.About(ctx, s.clock(), terms, limit)
}

func storeTerms(terms []answer.Term) []store.Term {
	st := make([]store.Term, len(terms))
	for i, t := range terms {
		st[i] = store.Term{Word: t.Word, Prefix: t.Prefix}
	}
	return st
}

func (s mailSource) TermStats(ctx context.Context, terms []answer.Term) (map[string]int, int, error) {
	st, err := s.c.store.TermStats(ctx, storeTerms(terms))
	return st.DocFreq, st.Docs, err
}

func (s mailSource) Retrieve(ctx context.Context, terms []answer.Term, docFreq map[string]int, docs, limit int) ([]tools.Message, error) {
	hits, err := s.c.store.Retrieve(ctx, storeTerms(terms), store.TermStats{DocFreq: docFreq, Docs: docs}, limit)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	auth, err := s.c.facts.Authenticated(ctx, ids)
	if err != nil {
		return nil, err
	}
	senders, err := s.c.store.Senders(ctx, ids)
	if err != nil {
		return nil, err
	}
	// A message that relays another writer's words (a share, a list
	// post, a seller's message) is no trusted sender's nor a
	// correspondent's, as the facts store reads it (mail/trust.Relayed).
	relayed, err := s.c.facts.Relayed(ctx, ids)
	if err != nil {
		return nil, err
	}
	for id := range relayed {
		if sd, ok := senders[id]; ok {
			sd.Relayed = true
			senders[id] = sd
		}
	}
	now := s.clock()
	out := make([]tools.Message, len(hits))
	for i, h := range hits {
		// Trusted needs Verified: a forged From of a correspondent is not
		// the correspondent (mail/trust).
		trusted := trust.Trusted(auth[h.ID], senders[h.ID], now)
		out[i] = tools.Message{ID: h.ID, Date: h.Date, From: h.From, Subject: h.Subject,
			Verified: auth[h.ID], Trusted: trusted,
			Correspondent: auth[h.ID] && trust.Corresponded(senders[h.ID])}
	}
	return out, nil
}

// Text reads a retrieved message once, for its text and its taint
// (extract.Tainted over its subject, its sender's name, its text and its
// HTML's text). The taint is worked out here rather than kept: the
// extractors look at mail with facts only (most mail has none), and the
// few messages a question reads cost about 0.1 ms each
// (BenchmarkTools20k).
func (s mailSource) Text(ctx context.Context, m tools.Message) (string, bool, error) {
	text, html, err := s.c.store.Text(ctx, m.ID)
	if err != nil {
		return "", false, err
	}
	msg := &mime.Message{Subject: m.Subject, Text: text, HTMLText: html}
	if a, err := netmail.ParseAddress(m.From); err == nil {
		msg.From = []mime.Address{{Name: a.Name, Address: a.Address}}
	}
	tainted := extract.Tainted(msg)
	if strings.TrimSpace(text) == "" {
		return html, tainted, nil
	}
	return text, tainted, nil
}

// Pending lists the approval requests waiting for the user.
func (n *Node) Pending(ctx context.Context) ([]approvals.Approval, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	m := c.approvals
	return m.Pending(ctx)
}

// Decide approves or denies a pending request, named by approval id or
// match code.
func (n *Node) Decide(ctx context.Context, idOrCode string, approve bool) (approvals.Approval, error) {
	c, err := n.comp()
	if err != nil {
		return approvals.Approval{}, err
	}
	m := c.approvals
	return m.Decide(ctx, idOrCode, approve)
}

// Grants lists the standing grants.
func (n *Node) Grants(ctx context.Context) ([]approvals.Grant, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	m := c.approvals
	return m.Grants(), nil
}

// Revoke removes an agent's grant for tier, or all its grants if tier is
// empty, and returns how many it removed.
func (n *Node) Revoke(ctx context.Context, agent string, tier approvals.Tier) (int, error) {
	c, err := n.comp()
	if err != nil {
		return 0, err
	}
	m := c.approvals
	return m.Revoke(ctx, strings.ToLower(agent), tier)
}

// Block refuses every call of an agent until Unblock; "*.name" blocks
// every agent of name's site (Site). It returns the block as Blocked
// lists it.
func (n *Node) Block(ctx context.Context, agent string) (string, error) {
	c, err := n.comp()
	if err != nil {
		return "", err
	}
	m := c.approvals
	key := m.BlockName(agent)
	return key, m.Block(ctx, key)
}

// Site is an agent domain's site, by the node's one notion of it: its
// registrable domain, or under a hosting suffix such as the relay's
// agents zone, the hosted name. A "block all of" blocks "*." and it.
func (n *Node) Site(domain string) string { return n.sites.Of(domain) }

// Unblock lets a blocked agent (or "*.name" site) ask again; grants it had
// are not brought back.
func (n *Node) Unblock(ctx context.Context, agent string) error {
	c, err := n.comp()
	if err != nil {
		return err
	}
	return c.approvals.Unblock(ctx, strings.ToLower(agent))
}

// Blocked lists the blocked agent domains, and "*.name" for each blocked
// site.
func (n *Node) Blocked(ctx context.Context) ([]string, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	m := c.approvals
	return m.Blocked(), nil
}

// Audit returns the newest entries of the agents' call log.
func (n *Node) Audit(ctx context.Context, limit int) ([]approvals.AuditEntry, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	m := c.approvals
	return m.Audit(ctx, limit)
}

// errNoGateway: the Gateway service needs an address to listen on.
var errNoGateway = errors.New("no gateway address configured")
