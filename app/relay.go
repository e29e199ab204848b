package app

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	"mailnode/gateway"
	"mailnode/mail/imapsync"
	"mailnode/relay"
	"mailnode/relay/relayclient"
)

// RelayConfig is how the node reaches agents outside its network: a
// relay maps its address to a name and carries agents' TLS to it.
type RelayConfig struct {
	// URL is the relay's base URL; empty: no relay.
	URL string
	// Address is the e-mail address agents resolve; default the first
	// account's username when it is an address, else the sending From.
	Address string

	// ACME is the directory of the CA that certifies the node's relay
	// name (DNS-01 through the relay); empty: agents must trust the
	// node's local CA, as in development.
	ACME string
	// ACMEHTTP reaches a CA that is not on the public Internet (tests'
	// Pebble); nil: the system's roots.
	ACMEHTTP *http.Client

	// HTTP, TLS and Dial reach a relay that is not on the public
	// Internet (the demo's and tests' relay on loopback). Nil: the
	// system's DNS and roots.
	HTTP *http.Client
	TLS  *tls.Config
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Dev says HTTP, TLS and Dial come from development flags; the node
	// logs a warning. DevDNS and DevPort are those flags' relay DNS and
	// port, for what the node tells the person (the pairing note).
	Dev     bool
	DevDNS  string
	DevPort int
}

// relayAddress is the address the node registers.
func (n *Node) relayAddress(c *components, configured string) string {
	return registrationAddress(configured, c.accountsCopy(), c.outgoing(n.cfg.Outgoing).From)
}

// registrationAddress picks the address a node registers at its relay:
// the configured one, the first account username that
// is an address, else the address of the sending From. It may return a
// string that is no address; callers check.
func registrationAddress(configured string, accounts []imapsync.Config, from string) string {
	if configured != "" {
		return configured
	}
	for _, a := range accounts {
		if strings.Contains(a.Username, "@") {
			return a.Username
		}
	}
	if i, j := strings.LastIndexByte(from, '<'), strings.LastIndexByte(from, '>'); i >= 0 && j > i {
		from = from[i+1 : j]
	}
	return strings.TrimSpace(from)
}

// RelayAddress is the address a node of cfg registers at cfg.Relay.URL,
// or an error that says why there is none. A relay is reached by an
// address, and the registration code is mailed to it, so a node asked to
// use a relay without one must refuse at start rather than run without
// the relay: mailnode serve checks it before starting.
func RelayAddress(cfg Config) (string, error) {
	a := registrationAddress(cfg.Relay.Address, cfg.Accounts, cfg.Outgoing.From)
	if _, err := mail.ParseAddress(a); err != nil || !strings.Contains(a, "@") {
		users := make([]string, len(cfg.Accounts))
		for i, acct := range cfg.Accounts {
			users[i] = fmt.Sprintf("%q", acct.Username)
		}
		if cfg.Relay.Address != "" {
			return "", fmt.Errorf("relay: --relay-address %q is not an e-mail address", cfg.Relay.Address)
		}
		why := "there is no IMAP account"
		if len(users) > 0 {
			why = "the IMAP username (" + strings.Join(users, ", ") + ") is not an address"
		}
		return "", fmt.Errorf("relay: no e-mail address to register at %s: %s and no sending From is set; "+
			"give the address agents will know you by with --relay-address (or MAILNODE_RELAY_ADDRESS)", cfg.Relay.URL, why)
	}
	return a, nil
}

// StartRelay starts the relay service on a running node that has none,
// with cfg in place of the configured relay: the demo starts it after
// its local story, and the desktop app when the user turns it on.
func (n *Node) StartRelay(cfg RelayConfig) error {
	if cfg.URL == "" {
		return errors.New("relay: no URL")
	}
	c, err := n.comp()
	if err != nil {
		return err
	}
	n.mu.Lock()
	_, running := n.tokens["relay"]
	if !running {
		n.cfg.Relay = cfg
	}
	n.mu.Unlock()
	if running {
		return errors.New("relay: already running")
	}
	n.addRelayZone(cfg.URL)
	n.addService("relay", func(ctx context.Context) error { return n.runRelay(ctx, c) })
	return nil
}

// runRelay is the relay service: register, confirm with the code the
// relay mails (found in the synced mailbox), then keep the tunnel up.
func (n *Node) runRelay(ctx context.Context, c *components) error {
	n.mu.Lock()
	cfg := n.cfg.Relay
	n.mu.Unlock()
	address := n.relayAddress(c, cfg.Address)
	if !strings.Contains(address, "@") {
		return stopService{errors.New("relay: no e-mail address to register (set relay address in the settings)")}
	}
	n.update(func(s *Status) {
		s.Gateway.Relay = RelayStatus{URL: cfg.URL, State: "starting", Address: address}
	})
	if cfg.Dev {
		n.log.Warn("Development overrides: the relay is reached through a local DNS, port or CA", "relay", cfg.URL)
	}
	var certs relayclient.Certificates
	if cfg.ACME != "" {
		a := &relayclient.ACME{DirectoryURL: cfg.ACME, Dir: filepath.Join(n.cfg.DataDir, "relay", "acme"),
			HTTP: cfg.ACMEHTTP, Log: n.log.With("component", "acme")}
		n.gws.setRelayCert(a)
		certs = a
	}
	cl, err := relayclient.New(relayclient.Config{
		RelayURL:     cfg.URL,
		Address:      address,
		KeysFile:     filepath.Join(n.cfg.DataDir, "relay", "keys.json"),
		Codes:        &relayCodes{c: c},
		Listener:     n.relayLn,
		Certificates: certs,
		HTTP:         cfg.HTTP,
		TLS:          cfg.TLS,
		Dial:         cfg.Dial,
		OnStatus:     n.relayStatus,
		Queued:       n.serveQueued,
	}, n.log)
	if err != nil {
		return err
	}
	return cl.Run(ctx)
}

// addRelayZone makes the agents zone of the relay at relayURL a hosting
// suffix: the relay hosts key documents for agents without a domain at
// <label>.agents.<zone>, one label per key, and strangers' labels there
// are not one site. The relay's API name is its zone unless its operator
// chose otherwise; relayStatus adds the zone of the node's own relay name
// as well, which is always right. A zone that names no one's agents does
// no harm.
func (n *Node) addRelayZone(relayURL string) {
	u, err := url.Parse(relayURL)
	if relayURL == "" || err != nil || u.Hostname() == "" || net.ParseIP(u.Hostname()) != nil {
		return
	}
	n.addHostedZone(u.Hostname())
}

// addHostedZone makes agents.<zone> a hosting suffix.
func (n *Node) addHostedZone(zone string) {
	if err := n.sites.Add("agents." + zone); err != nil {
		n.log.Debug("No hosting suffix for the relay's zone", "zone", zone, "err", err)
	}
}

// relayStatus follows the relay client: the gateway answers for the
// relay name from the moment it is known.
func (n *Node) relayStatus(st relayclient.Status) {
	if _, zone, ok := strings.Cut(st.Hostname, "."); ok {
		// The node's relay name is <label>.<zone>.
		n.addHostedZone(zone)
	}
	n.gws.setRelayName(st.Hostname)
	n.update(func(s *Status) {
		r := &s.Gateway.Relay
		r.State, r.Hostname, r.LastError, r.CertError = st.State, st.Hostname, st.Err, st.CertErr
		if st.Hostname != "" {
			r.PublicURL = "https://" + st.Hostname + "/mcp"
		}
		s.Gateway.Reachable = "local"
		if st.State == "connected" {
			s.Gateway.Reachable = "relay"
		}
	})
}

// relayCodes finds candidates for the relay's confirmation code in the
// synced mail: every mail whose words include the live code's reference,
// whoever sent it and whatever its date (neither is ever read). The relay
// client keeps only a candidate whose hash the relay named, so forged mails
// cost a read each and never a try at the relay.
type relayCodes struct {
	c *components

	mu   sync.Mutex         // guards the fields below
	id   string             // the code the cache is for
	read map[int64][]string // message → its candidates, so a mail is read once
}

// maxCodeCandidates bounds the mails read for one code's reference: a
// forger would have to put more than this many mails naming it in the
// mailbox to hide the relay's from the search (the node would then find
// the next code's, after this one expires).
const maxCodeCandidates = 10000

func (r *relayCodes) RelayCodes(ctx context.Context, p relay.RegisterPending) ([]string, error) {
	hits, err := r.c.store.Search(ctx, p.CodeID, maxCodeCandidates)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.id != p.CodeID {
		r.id, r.read = p.CodeID, map[int64][]string{}
	}
	var codes []string
	for _, h := range hits {
		found, ok := r.read[h.ID]
		if !ok {
			if found, err = r.candidates(ctx, h.ID); err != nil {
				return codes, err
			}
			r.read[h.ID] = found
		}
		codes = append(codes, found...)
	}
	return codes, nil
}

// candidates are the code-like strings of one stored mail: its header and
// its text as the store parsed it.
func (r *relayCodes) candidates(ctx context.Context, id int64) ([]string, error) {
	raw, err := r.c.store.Raw(ctx, id)
	if err != nil {
		return nil, err
	}
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, nil // not a mail whose header parses: no candidates
	}
	text, _, err := r.c.store.Text(ctx, id)
	if err != nil {
		return nil, err
	}
	return relayclient.CodesInMail(m.Header, text), nil
}

// serveQueued answers a request an agent left in the relay's offline
// queue: the gateway checks it as a live call, except that it may be as
// old as the queue keeps requests, and only opens the approval prompt
// (docs/relay.md, "The offline queue"). The reply, the answer a live call
// would have had, is posted only for a call the person already allowed
// (gateway.QueuedReply.Allowed); any other envelope is acknowledged
// without one, so that the queue shows a stranger nothing a decoy's would
// not. A gateway that is not up, or a nonce store that cannot record,
// leaves the envelope at the relay for a later delivery.
func (n *Node) serveQueued(ctx context.Context, env relay.Envelope) ([]byte, error) {
	gw := n.gws.server()
	if gw == nil {
		return nil, errors.New("the gateway is not running")
	}
	rep := gw.ServeQueued(ctx, gateway.QueuedRequest{Method: env.Method, Path: env.Path, Headers: env.Headers, Body: env.Body},
		relay.QueueTTL)
	if rep.Retry || rep.Status == http.StatusServiceUnavailable {
		return nil, errors.New("the node cannot take the queued request now")
	}
	n.log.Info("Took a queued request", "status", rep.Status, "reply", rep.Allowed)
	if !rep.Allowed {
		return nil, nil
	}
	return json.Marshal(rep)
}
