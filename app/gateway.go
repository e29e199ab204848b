package app

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"mailnode/extract/answer"
	"net"
	"path/filepath"
	"strings"
	"time"

	"mailnode/approvals"
	"mailnode/assets"
	"mailnode/gateway"
	"mailnode/gateway/agentkeys"
	"mailnode/gateway/localca"
	"mailnode/gateway/nonces"
	"mailnode/gateway/phone"
	"mailnode/gateway/tools"
	"mailnode/mail/store"
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

	// DevAgentAddrs maps agent domains to fixed host:port addresses for
	// their key documents, bypassing DNS and the address checks.
	// Development and tests only; the node logs a warning when set.
	DevAgentAddrs map[string]string
	// DevAgentCAs are trusted for agents' key documents besides the system
	// roots. Development and tests only.
	DevAgentCAs []*x509.Certificate
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

// approvalsManager returns the node's approval state, opening the store
// and its tables on first use.
func (n *Node) approvalsManager(ctx context.Context) (*approvals.Manager, error) {
	st, _, err := n.open(ctx)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.approvals != nil {
		return n.approvals, nil
	}
	tables, err := st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		return nil, err
	}
	m, err := approvals.New(ctx, tables, n.cfg.Gateway.Approvals, n.log)
	if err != nil {
		return nil, err
	}
	phones, err := approvals.NewPhones(ctx, tables, n.log, nil)
	if err != nil {
		m.Close()
		return nil, err
	}
	n.approvals, n.phones = m, phones
	return m, nil
}

// serveGateway serves agents on the configured address until ctx is done.
// ready, if not nil, receives the gateway's URL once it listens.
func (n *Node) serveGateway(ctx context.Context, ready func(url string)) error {
	gc := n.cfg.Gateway
	st, _, err := n.open(ctx)
	if err != nil {
		return err
	}
	m, err := n.approvalsManager(ctx)
	if err != nil {
		return err
	}
	nt, err := st.Attach(ctx, "nonces", nonces.Migrations)
	if err != nil {
		return err
	}
	ns, err := nonces.New(ctx, nt, n.log, nil)
	if err != nil {
		return err
	}
	defer ns.Close()
	ca, err := localca.Open(filepath.Dir(n.CAFile()), n.log, nil)
	if err != nil {
		return err
	}
	// Facts first: after an extractor upgrade the node re-reads its mail
	// before it answers from it.
	if _, err := n.ReadFacts(ctx); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", gc.Listen)
	if err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	host := gc.hostname(ln)
	// agentkeys.New logs a warning when the development overrides are on.
	keys := agentkeys.New(agentkeys.Config{DevAddrs: gc.DevAgentAddrs, DevRootCAs: gc.DevAgentCAs}, n.log)
	ds, err := n.draftStore(ctx)
	if err != nil {
		ln.Close()
		return err
	}
	ph, err := phone.New(phone.Config{Phones: n.phones, Approvals: m, Nonces: ns, App: assets.PhoneApp()}, n.log)
	if err != nil {
		ln.Close()
		return err
	}
	srv, err := gateway.New(gateway.Config{
		Hostname:  host,
		Keys:      keys,
		Nonces:    ns,
		Approvals: m,
		Tools:     tools.Catalog(mailSource{st, n}, composer{n, st, ds}, nil),
		Phone:     ph,
		RateLimit: gc.RateLimit,
	}, n.log)
	if err != nil {
		ln.Close()
		return err
	}
	hostname, _, _ := strings.Cut(host, ":")
	url := "https://" + host + "/mcp"
	n.log.Info("Serving agents", "url", url, "listen", ln.Addr().String(), "ca", n.CAFile())
	n.mu.Lock()
	n.gatewayURL = url
	n.phoneBase = "https://" + host + "/phone/"
	n.mu.Unlock()
	if ready != nil {
		ready(url)
	}
	return srv.Serve(ctx, ln, gateway.TLSConfig(ca.GetCertificate(hostname)))
}

// GatewayURL is the URL agents call, once the gateway listens; "" before.
func (n *Node) GatewayURL() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.gatewayURL
}

// mailSource is the tools' view of the store and the facts.
type mailSource struct {
	st *store.Store
	n  *Node
}

func (s mailSource) Trips(ctx context.Context, from, to time.Time, limit int) ([]json.RawMessage, error) {
	return s.n.Trips(ctx, from, to, limit)
}

func (s mailSource) Orders(ctx context.Context, merchant string, limit int) ([]json.RawMessage, error) {
	return s.n.Orders(ctx, merchant, limit)
}

func (s mailSource) BillsDue(ctx context.Context, before time.Time, limit int) ([]json.RawMessage, error) {
	return s.n.BillsDue(ctx, before, limit)
}

func (s mailSource) About(ctx context.Context, terms []string, limit int) ([]json.RawMessage, error) {
	fs, err := s.n.factsStore(ctx)
	if err != nil {
		return nil, err
	}
	return fs.About(ctx, terms, limit)
}

func storeTerms(terms []answer.Term) []store.Term {
	st := make([]store.Term, len(terms))
	for i, t := range terms {
		st[i] = store.Term{Word: t.Word, Prefix: t.Prefix}
	}
	return st
}

func (s mailSource) TermStats(ctx context.Context, terms []answer.Term) (map[string]int, int, error) {
	st, err := s.st.TermStats(ctx, storeTerms(terms))
	return st.DocFreq, st.Docs, err
}

func (s mailSource) Retrieve(ctx context.Context, terms []answer.Term, docFreq map[string]int, docs, limit int) ([]tools.Message, error) {
	hits, err := s.st.Retrieve(ctx, storeTerms(terms), store.TermStats{DocFreq: docFreq, Docs: docs}, limit)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	fs, err := s.n.factsStore(ctx)
	if err != nil {
		return nil, err
	}
	auth, err := fs.Authenticated(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]tools.Message, len(hits))
	for i, h := range hits {
		out[i] = tools.Message{ID: h.ID, Date: h.Date, From: h.From, Subject: h.Subject, Verified: auth[h.ID]}
	}
	return out, nil
}

func (s mailSource) Text(ctx context.Context, id int64) (string, error) {
	text, html, err := s.st.Text(ctx, id)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(text) == "" {
		return html, nil
	}
	return text, nil
}

// Pending lists the approval requests waiting for the user.
func (n *Node) Pending(ctx context.Context) ([]approvals.Approval, error) {
	m, err := n.approvalsManager(ctx)
	if err != nil {
		return nil, err
	}
	return m.Pending(ctx)
}

// Decide approves or denies a pending request, named by approval id or
// match code.
func (n *Node) Decide(ctx context.Context, idOrCode string, approve bool) (approvals.Approval, error) {
	m, err := n.approvalsManager(ctx)
	if err != nil {
		return approvals.Approval{}, err
	}
	return m.Decide(ctx, idOrCode, approve)
}

// Grants lists the standing grants.
func (n *Node) Grants(ctx context.Context) ([]approvals.Grant, error) {
	m, err := n.approvalsManager(ctx)
	if err != nil {
		return nil, err
	}
	return m.Grants(), nil
}

// Revoke removes an agent's grant for tier, or all its grants if tier is
// empty, and returns how many it removed.
func (n *Node) Revoke(ctx context.Context, agent string, tier approvals.Tier) (int, error) {
	m, err := n.approvalsManager(ctx)
	if err != nil {
		return 0, err
	}
	return m.Revoke(ctx, strings.ToLower(agent), tier)
}

// Block refuses every call of an agent until Unblock; "*.name" blocks
// every agent under name's registrable domain.
func (n *Node) Block(ctx context.Context, agent string) error {
	m, err := n.approvalsManager(ctx)
	if err != nil {
		return err
	}
	return m.Block(ctx, strings.ToLower(agent))
}

// Blocked lists the blocked agent domains, and "*.name" for each blocked
// registrable domain.
func (n *Node) Blocked(ctx context.Context) ([]string, error) {
	m, err := n.approvalsManager(ctx)
	if err != nil {
		return nil, err
	}
	return m.Blocked(), nil
}

// Audit returns the newest entries of the agents' call log.
func (n *Node) Audit(ctx context.Context, limit int) ([]approvals.AuditEntry, error) {
	m, err := n.approvalsManager(ctx)
	if err != nil {
		return nil, err
	}
	return m.Audit(ctx, limit)
}

// errNoGateway is returned by Serve when no gateway address is configured.
var errNoGateway = errors.New("no gateway address configured")
