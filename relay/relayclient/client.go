package relayclient

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/nacl/box"

	"mailnode/relay"
)

// CodeSource finds the relay's confirmation codes in the mailbox the node
// syncs: the codes in the subjects of mail that arrived since a time.
type CodeSource interface {
	RelayCodes(ctx context.Context, since time.Time) ([]string, error)
}

// Certificates obtains and renews the certificate of the node's relay
// name (ACME in acme.go); Ensure returns once a valid one is held, and is
// called again every RenewCheck to renew it in time.
type Certificates interface {
	Ensure(ctx context.Context, api *API, hostname string) error
}

// Config is the node's relay client. RelayURL, Address, KeysFile, Codes
// and Listener are required.
type Config struct {
	RelayURL string
	// Address is the e-mail address agents resolve to reach the node.
	Address  string
	KeysFile string // created 0600 if missing
	Codes    CodeSource
	Listener *Listener
	// Certificates, if set, is asked for the relay name's certificate
	// before the tunnel goes up and every RenewCheck after; nil leaves
	// that to the gateway (the local CA, for development).
	Certificates Certificates
	// RenewCheck is how often Certificates is asked again; default 12 h.
	// After a failure it is asked again sooner, from a minute up.
	RenewCheck time.Duration
	// HTTP calls the relay's API; TLS and Dial reach its tunnel port.
	HTTP *http.Client
	TLS  *tls.Config
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Queued, if set, is handed each request an agent left in the relay's
	// offline queue, opened with the node's box key: it returns the reply's
	// plaintext, which the client seals to the node's own box key for the
	// relay to hold (docs/relay.md, "The offline queue"). An error leaves
	// the envelope at the relay, to be delivered again.
	Queued func(ctx context.Context, env relay.Envelope) (reply []byte, err error)
	// OnStatus is told every change of Status.
	OnStatus func(Status)
	// CodePoll is how often the mailbox is looked at for the code;
	// default 2 s.
	CodePoll time.Duration
}

// Status is the client's state, for the node's status and the tray.
type Status struct {
	// State is "starting", "registering", "awaiting code",
	// "connecting", "connected" or "disconnected".
	State    string
	Hostname string
	Address  string
	Err      string
	// CertErr is why the relay name has no certificate from the CA yet
	// (the gateway serves its local CA's meanwhile); "" once it has.
	CertErr string
}

// Client is a node's relay client.
type Client struct {
	cfg Config
	log *slog.Logger

	mu     sync.Mutex // guards status
	status Status
}

// New returns a client. It does no I/O.
func New(cfg Config, logger *slog.Logger) (*Client, error) {
	if cfg.RelayURL == "" || cfg.Address == "" || cfg.KeysFile == "" || cfg.Codes == nil || cfg.Listener == nil {
		return nil, errors.New("relay client: relay URL, address, keys file, code source and listener are required")
	}
	if cfg.CodePoll == 0 {
		cfg.CodePoll = 2 * time.Second
	}
	if cfg.RenewCheck == 0 {
		cfg.RenewCheck = 12 * time.Hour
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Client{cfg: cfg, log: logger.With("component", "relayclient"), status: Status{State: "starting", Address: cfg.Address}}, nil
}

// Status is the client's current state.
func (c *Client) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

func (c *Client) set(f func(*Status)) {
	c.mu.Lock()
	f(&c.status)
	st := c.status
	c.mu.Unlock()
	if c.cfg.OnStatus != nil {
		c.cfg.OnStatus(st)
	}
}

// API returns the signed self-service client for keys.
func (c *Client) api(keys Keys) *API {
	return &API{BaseURL: c.cfg.RelayURL, Key: keys.Node, HTTP: c.cfg.HTTP}
}

// Run registers the node if the relay does not know it, confirms with the
// mailed code, gets the certificate, and keeps the tunnel up until ctx
// ends (nil). An error is for the supervisor to retry with back-off.
func (c *Client) Run(ctx context.Context) error {
	keys, err := LoadKeys(c.cfg.KeysFile)
	if err != nil {
		return err
	}
	api := c.api(keys)
	address := strings.ToLower(strings.TrimSpace(c.cfg.Address))
	for {
		st, err := api.Status(ctx)
		if IsCode(err, "not_registered") || err == nil && st.Address != address {
			st, err = c.register(ctx, api, keys, address)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			c.set(func(s *Status) { s.State, s.Err = "disconnected", err.Error() })
			return err
		}
		c.set(func(s *Status) { s.State, s.Hostname, s.Err = "connecting", st.Hostname, "" })
		tctx, stopRenew := context.WithCancel(ctx)
		if c.cfg.Certificates != nil {
			// A CA that cannot be reached does not keep the tunnel down:
			// agents that trust the node's local CA still get through,
			// and the certificate follows when the CA answers.
			first := make(chan struct{})
			go c.keepCertificate(tctx, api, st.Hostname, first)
			<-first
		}
		t := &Tunnel{Addr: st.Tunnel, Fallbacks: st.Tunnels, Key: keys.Node, TLS: c.cfg.TLS, Dial: c.cfg.Dial,
			Up: func(h string) {
				c.log.Info("Tunnel up", "hostname", h)
				c.set(func(s *Status) { s.State, s.Hostname, s.Err = "connected", h, "" })
			},
			Down: func(err error) {
				c.log.Debug("Tunnel down", "err", err)
				c.set(func(s *Status) { s.State, s.Err = "disconnected", err.Error() })
			},
			Queue: c.queued(keys),
		}
		err = t.Run(ctx, c.cfg.Listener)
		stopRenew()
		if !errors.Is(err, ErrNotRegistered) {
			return err
		}
		c.log.Warn("Relay no longer knows this node; registering again")
	}
}

// keepCertificate asks for the relay name's certificate at once (closing
// first after that try), then every RenewCheck, retrying a failure
// from a minute up, until ctx ends.
func (c *Client) keepCertificate(ctx context.Context, api *API, hostname string, first chan struct{}) {
	retry := time.Minute
	for {
		tctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		err := c.cfg.Certificates.Ensure(tctx, api, hostname)
		cancel()
		if first != nil {
			close(first)
			first = nil
		}
		if ctx.Err() != nil {
			return
		}
		wait := c.cfg.RenewCheck
		if err != nil {
			c.log.Warn("No certificate from the CA for the relay name yet", "hostname", hostname, "err", err, "retry_in", retry)
			c.set(func(s *Status) { s.CertErr = err.Error() })
			wait, retry = retry, min(retry*2, c.cfg.RenewCheck)
		} else {
			c.set(func(s *Status) { s.CertErr = "" })
			retry = time.Minute
		}
		if !sleep(ctx, wait) {
			return
		}
	}
}

// register asks for a code and confirms with the first right one found in
// the mailbox, asking for a new code when one expires.
func (c *Client) register(ctx context.Context, api *API, keys Keys, address string) (relay.NodeStatus, error) {
	for {
		c.set(func(s *Status) { s.State, s.Err = "registering", "" })
		since := time.Now().Add(-2 * time.Minute)
		p, err := api.Register(ctx, address, keys.BoxPublic())
		if IsCode(err, "rate_limited") {
			if !sleep(ctx, time.Minute) {
				return relay.NodeStatus{}, ctx.Err()
			}
			continue
		}
		if err != nil {
			return relay.NodeStatus{}, fmt.Errorf("register %s: %w", address, err)
		}
		c.log.Info("Relay mailed a confirmation code", "from", p.From)
		c.set(func(s *Status) { s.State = "awaiting code" })
		st, err := c.awaitCode(ctx, api, address, since, time.Unix(p.ExpiresAt, 0))
		if err == nil || !errors.Is(err, errCodeExpired) {
			return st, err
		}
	}
}

var errCodeExpired = errors.New("code expired")

func (c *Client) awaitCode(ctx context.Context, api *API, address string, since, expires time.Time) (relay.NodeStatus, error) {
	tried := map[string]bool{}
	tick := time.NewTicker(c.cfg.CodePoll)
	defer tick.Stop()
	for {
		codes, err := c.cfg.Codes.RelayCodes(ctx, since)
		if err != nil {
			c.log.Warn("Cannot look for the relay's code", "err", err)
		}
		for _, code := range codes {
			if tried[code] {
				continue
			}
			tried[code] = true
			st, err := api.Confirm(ctx, address, code)
			switch {
			case err == nil:
				c.log.Info("Registered with the relay", "hostname", st.Hostname)
				return st, nil
			case IsCode(err, "wrong_code"):
				continue // another mail with a code-like subject
			case IsCode(err, "not_found"):
				return relay.NodeStatus{}, errCodeExpired
			default:
				return relay.NodeStatus{}, fmt.Errorf("confirm %s: %w", address, err)
			}
		}
		if time.Now().After(expires) {
			return relay.NodeStatus{}, errCodeExpired
		}
		select {
		case <-ctx.Done():
			return relay.NodeStatus{}, ctx.Err()
		case <-tick.C:
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// CodeFromSubject returns the code in a subject of the relay's code mail,
// or "" if the subject is not one.
func CodeFromSubject(subject string) string {
	i := strings.Index(strings.ToLower(subject), strings.ToLower(relay.CodeSubject))
	if i < 0 {
		return ""
	}
	code := strings.TrimSpace(subject[i+len(relay.CodeSubject):])
	if len(code) < 6 || len(code) > 32 || strings.ContainsAny(code, " \t") {
		return ""
	}
	return code
}

// queued opens a delivered envelope with the box key and seals the
// handler's reply to the same key. An envelope that does not open, or
// whose plaintext is not a request, never will: it is acknowledged and
// dropped.
func (c *Client) queued(keys Keys) func(ctx context.Context, sealed []byte) ([]byte, error) {
	if c.cfg.Queued == nil {
		return nil
	}
	var pub, priv [32]byte
	copy(pub[:], keys.BoxPublic())
	copy(priv[:], keys.Box.Bytes())
	return func(ctx context.Context, sealed []byte) ([]byte, error) {
		plain, ok := box.OpenAnonymous(nil, sealed, &pub, &priv)
		if !ok {
			c.log.Info("Dropped a queued envelope that does not open with this node's box key")
			return nil, nil
		}
		var env relay.Envelope
		if err := json.Unmarshal(plain, &env); err != nil {
			c.log.Info("Dropped a queued envelope that holds no request", "err", err)
			return nil, nil
		}
		reply, err := c.cfg.Queued(ctx, env)
		if err != nil || reply == nil {
			return nil, err
		}
		return box.SealAnonymous(nil, reply, &pub, rand.Reader)
	}
}
