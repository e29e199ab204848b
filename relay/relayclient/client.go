package relayclient

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/mail"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/nacl/box"

	"mailnode/relay"
)

// CodeSource finds candidates for the relay's confirmation code in the
// mailbox the node syncs: the strings CodesInMail finds in the mails that
// name p.CodeID. Anyone can send a mail naming it; the client confirms
// only a candidate whose hash is the one the relay gave (p.CodeHash), so
// a forged mail never costs a try, whatever its date or subject.
type CodeSource interface {
	RelayCodes(ctx context.Context, p relay.RegisterPending) ([]string, error)
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
	// relay to hold (docs/relay.md, "The offline queue"), or nil to
	// acknowledge it without a reply. An error leaves the envelope at the
	// relay, to be delivered again.
	Queued func(ctx context.Context, env relay.Envelope) (reply []byte, err error)
	// OnStatus is told every change of Status.
	OnStatus func(Status)
	// CodePoll is how often the mailbox is looked at for the code;
	// default 2 s.
	CodePoll time.Duration
	// CodeRecheck is how often the client asks the relay again while it
	// waits for the code mail, in case the code changed (its mail failed
	// and was taken back); default a minute. Asking again mails nothing
	// while the code lives.
	CodeRecheck time.Duration
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
	if cfg.CodeRecheck == 0 {
		cfg.CodeRecheck = time.Minute
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
		t := &Tunnel{Addr: st.Tunnel, Fallbacks: st.Tunnels, ServerName: relayName(c.cfg.RelayURL), Key: keys.Node, TLS: c.cfg.TLS, Dial: c.cfg.Dial,
			Up: func(h string) {
				c.log.Info("Tunnel up", "hostname", h)
				c.set(func(s *Status) { s.State, s.Hostname, s.Err = "connected", h, "" })
			},
			Down: func(err error) {
				c.log.Debug("Tunnel down", "err", err)
				c.set(func(s *Status) { s.State, s.Err = "disconnected", err.Error() })
			},
			Queue: c.queued(keys), Log: c.log,
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

// register asks for the address's live code and confirms with it once
// its mail is in the mailbox, asking again when it expires or changes.
func (c *Client) register(ctx context.Context, api *API, keys Keys, address string) (relay.NodeStatus, error) {
	var last string
	for {
		c.set(func(s *Status) { s.State, s.Err = "registering", "" })
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
		hash, err := checkPending(p, address)
		if err != nil {
			return relay.NodeStatus{}, fmt.Errorf("register %s: %w", address, err)
		}
		if p.CodeID != last {
			c.log.Info("Awaiting the relay's confirmation code", "from", p.From, "codeID", p.CodeID)
			last = p.CodeID
		}
		c.set(func(s *Status) { s.State = "awaiting code" })
		st, err := c.awaitCode(ctx, api, p, hash)
		if err == nil || !errors.Is(err, errAskAgain) {
			return st, err
		}
	}
}

// checkPending checks the relay's answer to a registration and returns
// the code's hash.
func checkPending(p relay.RegisterPending, address string) ([]byte, error) {
	hash, err := base64.RawURLEncoding.DecodeString(p.CodeHash)
	if err != nil || len(hash) != sha256.Size || !validCodeID(p.CodeID) {
		return nil, errors.New("the relay's answer names no code (a relay older than this node?)")
	}
	if p.Address != address {
		return nil, fmt.Errorf("the relay answered for %q", p.Address)
	}
	return hash, nil
}

// validCodeID: the relay's code references are 16 characters of a-z2-7,
// one word for a full-text search.
func validCodeID(id string) bool {
	if len(id) != 16 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '2' && r <= '7') {
			return false
		}
	}
	return true
}

// errAskAgain: the code expired or changed, or it is time to check; ask
// the relay again.
var errAskAgain = errors.New("ask the relay again")

// awaitCode confirms with the first candidate whose hash is the live
// code's; nothing else is ever sent to the relay.
func (c *Client) awaitCode(ctx context.Context, api *API, p relay.RegisterPending, hash []byte) (relay.NodeStatus, error) {
	tick := time.NewTicker(c.cfg.CodePoll)
	defer tick.Stop()
	recheck := time.Now().Add(c.cfg.CodeRecheck)
	expires := time.Unix(p.ExpiresAt, 0)
	untied := map[string]bool{} // candidates that are not the code: never sent
	for {
		codes, err := c.cfg.Codes.RelayCodes(ctx, p)
		if err != nil {
			c.log.Warn("Cannot look for the relay's code", "err", err)
		}
		for _, code := range codes {
			if subtle.ConstantTimeCompare(relay.CodeHash(p.Address, code), hash) != 1 {
				untied[code] = true
				continue
			}
			st, err := api.Confirm(ctx, p.Address, code)
			switch {
			case err == nil:
				c.log.Info("Registered with the relay", "hostname", st.Hostname, "untiedCandidates", len(untied))
				return st, nil
			case IsCode(err, "not_found"):
				return relay.NodeStatus{}, errAskAgain
			default:
				return relay.NodeStatus{}, fmt.Errorf("confirm %s: %w", p.Address, err)
			}
		}
		if now := time.Now(); now.After(expires) || now.After(recheck) {
			return relay.NodeStatus{}, errAskAgain
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

// CodesInMail returns the strings of a mail that may be the relay's
// code: the values of its relay.HeaderRelayCode headers and the word after
// each "Code:" in its text, at most 16. The mail may be anyone's; the
// client tells the relay's code by its hash.
func CodesInMail(header mail.Header, text string) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if len(out) < 16 && len(s) >= 6 && len(s) <= 64 && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, v := range header[textproto.CanonicalMIMEHeaderKey(relay.HeaderRelayCode)] {
		add(v)
	}
	for line := range strings.Lines(text) {
		_, rest, ok := strings.Cut(line, "Code:")
		if !ok {
			continue
		}
		if f := strings.Fields(rest); len(f) > 0 {
			add(f[0])
		}
	}
	return out
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

// relayName is the host of the relay's URL: its API name, which is also
// the TLS name of its tunnels.
func relayName(relayURL string) string {
	u, err := url.Parse(relayURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
