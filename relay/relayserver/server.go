package relayserver

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"mailnode/relay"
	"mailnode/relay/connlimit"
	"mailnode/relay/relaystore"
)

// Version is reported by /v1/health.
const Version = "mailnode-relay/1"

// Config is what a relay needs. Zone and Store are required.
type Config struct {
	// Zone is the DNS zone the relay answers for; nodes are
	// <label>.<Zone>, hosted agents <label>.agents.<Zone>.
	Zone string
	// APIName is the relay's own name, where agents call the API and
	// nodes dial their tunnels; default Zone.
	APIName string
	// PublicIPs are the A/AAAA answers for every name in the zone.
	PublicIPs []net.IP
	// NameServers are the zone's NS names; default ns.<Zone>.
	NameServers []string
	// TunnelAddr is host:port that nodes dial; default APIName:443.
	TunnelAddr string
	// QueueEndpoint is the resolve result's queue_endpoint; default
	// https://<APIName>/v1/queue.
	QueueEndpoint string
	Store         relaystore.Store
	// Mailer sends confirmation codes; nil refuses registrations.
	Mailer Mailer
	// Certificate serves TLS for APIName and the hosted agents' names.
	// Nil serves no TLS of its own (the API on HTTPListen only).
	Certificate func(*tls.ClientHelloInfo) (*tls.Certificate, error)
	// Limits bound requests; zero fields take defaults.
	Limits Limits
	// StallTimeout is how long a connection for a name with no live
	// tunnel is held before it is closed; default 60 s.
	StallTimeout time.Duration
	// KeepAlive is how often every tunnel is pinged, and how long a ping
	// may go unanswered before the tunnel is closed; default
	// relay.TunnelKeepAlive. A node gone silent (power cut, NAT state
	// lost) frees its name within two periods.
	KeepAlive time.Duration
	// Mesh, if set, joins this instance to the others that share Store:
	// connections for nodes tunnelled elsewhere are forwarded there.
	Mesh *MeshConfig
	// OtherTunnelAddrs are the other instances' tunnel addresses, given
	// to nodes so that one whose instance dies reconnects to another.
	OtherTunnelAddrs []string
	// ExpireEvery is how often Maintain deletes what has expired (codes,
	// pending registrations, queued envelopes); default one minute.
	// Reads already skip what expired, so this bounds how long expired
	// records are kept, not what anyone sees.
	ExpireEvery time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Limits are the relay's request limits. Zero means the default.
type Limits struct {
	ClientRate  float64 // per client address, requests/s; default 10
	ClientBurst int     // default 100
	// NetworkRate is what one client network (an IPv4 /24, an IPv6 /48)
	// gets, all its clients together, requests/s; default four times
	// ClientRate (40), so that one home's IPv6 /56 or a few hundred
	// addresses of one /24 cannot spend GlobalRate. Behind a proxy
	// every client is the proxy's network, as every client is its
	// address.
	NetworkRate  float64
	NetworkBurst int // default four times ClientBurst (400)
	// ProviderRate is what one provider (an IPv6 /32, what a registry
	// allocates to an ISP or a tunnel broker) gets, all its networks
	// together, requests/s; default a tenth of GlobalRate (200), or
	// NetworkRate if that is more, so that one provider's space (a
	// routed /42 of 64 /48s, a tunnel broker's /48s) cannot spend
	// GlobalRate. IPv4 clients have no provider level (docs/relay.md
	// "Request limits" says why). Behind an IPv6 proxy every client is
	// the proxy's provider: raising NetworkRate raises it too.
	ProviderRate  float64
	ProviderBurst int     // default a tenth of GlobalBurst (400), or NetworkBurst if that is more
	GlobalRate    float64 // every client together; default 2000
	GlobalBurst   int     // default 4000
	// AgentsPerHour bounds new hosted agent key documents; default 1000.
	AgentsPerHour int
	// AgentsPerNetwork is one client network's (an IPv4 /24, an IPv6
	// /56) share of AgentsPerHour; default 50. Behind a proxy every
	// client is the proxy's network: raise it to AgentsPerHour there.
	AgentsPerNetwork int
	// CodeMailsPerNetwork bounds the confirmation code mails the relay
	// sends in 24 hours at the asking of one client network, whatever
	// the addresses; default 20. Behind a proxy, raise it likewise.
	CodeMailsPerNetwork int
	// MaxStalled bounds connections held for names with no live tunnel;
	// default 10,000.
	MaxStalled int
	// QueueShare is how many of a name's relay.MaxQueued places in the
	// offline queue one client network (an IPv4 /24, an IPv6 /56) may
	// hold; default relay.QueueShare. Behind a proxy every client is the
	// proxy's network: raise it to relay.MaxQueued there.
	QueueShare int
	// MaxPendingPerAddress bounds the connections one client address
	// (an IPv4 address, an IPv6 /64) holds on the TLS port before they
	// are established: before the hand-off to a node or the end of the
	// relay's own handshake, stalled ones included. Default
	// connlimit.DefaultPerAddress (256); a relay behind a TCP proxy sees
	// one address and needs more.
	MaxPendingPerAddress int
	// MaxSplicedPerAddress bounds the connections one client address
	// holds to one node's name, spliced to its tunnel; default
	// connlimit.DefaultPerAddressName (256).
	MaxSplicedPerAddress int
	// DNSRate is how many DNS responses over UDP per second one client
	// network (an IPv4 /24, an IPv6 /56) gets, in bursts of twice that;
	// past it one in two is sent truncated, to retry over TCP, and the
	// others dropped (dnsrrl.go). Default 20; negative: no limit (a
	// relay behind a DNS proxy that limits itself). TCP is not limited.
	DNSRate float64
	// DNSTCPPerAddress bounds the connections one client address (an
	// IPv4 address, an IPv6 /64) holds open to the DNS over TCP; one
	// past it is closed at accept. Default 16: a resolver asks over TCP
	// only after a truncated answer, one question per connection or a
	// few, and closes it or lets the relay close it idle (5 s).
	DNSTCPPerAddress int
	// DNSTCPConns bounds the connections to the DNS over TCP from
	// everyone together, so that strangers with many addresses cannot
	// spend the descriptors the TLS port needs on it; default 1024.
	DNSTCPConns int
	// HTTPConns bounds the connections open on the plain HTTP listener
	// (Listeners.HTTP) together; one past it is closed at accept.
	// Default 4096. There is no cap per address: behind a
	// TLS-terminating proxy every client has the proxy's address.
	HTTPConns int
}

func (l *Limits) defaults() {
	if l.ClientRate == 0 {
		l.ClientRate = 10
	}
	if l.ClientBurst == 0 {
		l.ClientBurst = 100
	}
	if l.NetworkRate == 0 {
		l.NetworkRate = 4 * l.ClientRate
	}
	if l.NetworkBurst == 0 {
		l.NetworkBurst = 4 * l.ClientBurst
	}
	if l.GlobalRate == 0 {
		l.GlobalRate = 2000
	}
	if l.GlobalBurst == 0 {
		l.GlobalBurst = 4000
	}
	if l.ProviderRate == 0 {
		l.ProviderRate = max(l.GlobalRate/10, l.NetworkRate)
	}
	if l.ProviderBurst == 0 {
		l.ProviderBurst = max(l.GlobalBurst/10, l.NetworkBurst)
	}
	if l.AgentsPerHour == 0 {
		l.AgentsPerHour = 1000
	}
	if l.AgentsPerNetwork <= 0 {
		l.AgentsPerNetwork = 50
	}
	if l.CodeMailsPerNetwork <= 0 {
		l.CodeMailsPerNetwork = 20
	}
	if l.MaxStalled == 0 {
		l.MaxStalled = 10000
	}
	if l.QueueShare <= 0 {
		l.QueueShare = relay.QueueShare
	}
	if l.MaxPendingPerAddress == 0 {
		l.MaxPendingPerAddress = connlimit.DefaultPerAddress
	}
	if l.MaxSplicedPerAddress == 0 {
		l.MaxSplicedPerAddress = connlimit.DefaultPerAddressName
	}
	if l.DNSRate == 0 {
		l.DNSRate = 20
	}
	if l.DNSTCPPerAddress <= 0 {
		l.DNSTCPPerAddress = 16
	}
	if l.DNSTCPConns <= 0 {
		l.DNSTCPConns = 1024
	}
	if l.HTTPConns <= 0 {
		l.HTTPConns = 4096
	}
}

// Server is a relay. Its HTTP API is Handler; ServeTLS, ServeDNS run the
// listeners.
type Server struct {
	cfg    Config
	log    *slog.Logger
	store  relaystore.Store
	decoys *decoys
	queue  queueKeys
	limits *limiter
	counts counters
	// dnsLimit limits UDP responses per client network; nil: no limit.
	dnsLimit *dnsLimiter
	nonces   *nonceCache
	tunnels  *tunnels
	mesh     *mesh // nil for a relay on its own
	mux      *http.ServeMux
	stalled  chan struct{} // a slot per stalled connection
	closed   chan struct{} // closed by Close: late queue kicks do nothing
	close1   sync.Once
	pending  *connlimit.PerAddress // connections not yet established, per address
	spliced  *connlimit.PerAddress // connections spliced to a node, per address and node
}

// New returns a relay. It reads its decoy secret from the store.
func New(ctx context.Context, cfg Config, logger *slog.Logger) (*Server, error) {
	if cfg.Zone == "" || cfg.Store == nil {
		return nil, errors.New("relay: zone and store are required")
	}
	cfg.Zone = strings.TrimSuffix(strings.ToLower(cfg.Zone), ".")
	if cfg.APIName == "" {
		cfg.APIName = cfg.Zone
	}
	cfg.APIName = strings.ToLower(cfg.APIName)
	if len(cfg.NameServers) == 0 {
		cfg.NameServers = []string{"ns." + cfg.Zone}
	}
	if cfg.TunnelAddr == "" {
		cfg.TunnelAddr = net.JoinHostPort(cfg.APIName, "443")
	}
	if cfg.QueueEndpoint == "" {
		cfg.QueueEndpoint = "https://" + cfg.APIName + relay.PathQueue
	}
	if cfg.StallTimeout == 0 {
		cfg.StallTimeout = 60 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ExpireEvery <= 0 {
		cfg.ExpireEvery = time.Minute
	}
	cfg.Limits.defaults()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	secret, err := cfg.Store.Secret(ctx, "decoy")
	if err != nil {
		return nil, err
	}
	queueSecret, err := cfg.Store.Secret(ctx, "queue")
	if err != nil {
		return nil, err
	}
	s := &Server{
		queue:    queueKeys{secret: queueSecret},
		cfg:      cfg,
		log:      logger.With("component", "relay"),
		store:    cfg.Store,
		decoys:   newDecoys(secret),
		limits:   newLimiter(cfg.Limits, cfg.Now),
		dnsLimit: newDNSLimiter(cfg.Limits.DNSRate, cfg.Now),
		nonces:   newNonceCache(),
		stalled:  make(chan struct{}, cfg.Limits.MaxStalled),
		closed:   make(chan struct{}),
		pending:  connlimit.NewPerAddress(cfg.Limits.MaxPendingPerAddress),
		spliced:  connlimit.NewPerAddress(cfg.Limits.MaxSplicedPerAddress),
	}
	s.tunnels = newTunnels(s.log, cfg.KeepAlive)
	if cfg.Mesh != nil {
		if s.mesh, err = newMesh(s, *cfg.Mesh); err != nil {
			return nil, err
		}
		s.tunnels.onDown = func(label string) {
			// The directory forgets the tunnel, unless another
			// instance has claimed the name since.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := s.store.ReleaseTunnel(ctx, label, s.mesh.id); err != nil {
				s.log.Warn("Cannot release a tunnel in the directory", "label", label, "err", err)
			}
		}
	}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET "+relay.PathHealth, s.health)
	s.mux.HandleFunc("GET "+relay.PathTransparency, s.transparency)
	s.mux.HandleFunc("GET "+relay.PathMetrics, s.metrics)
	s.mux.HandleFunc("POST "+relay.PathResolve, s.resolve)
	s.mux.HandleFunc("POST "+relay.PathQueue+"/{hostname}", s.enqueue)
	s.mux.HandleFunc("GET "+relay.PathQueueReply+"/{request_id}", s.queueReply)
	s.mux.HandleFunc("POST "+relay.PathRegister, s.nodeCall(s.register))
	s.mux.HandleFunc("POST "+relay.PathRegisterConfirm, s.nodeCall(s.confirm))
	s.mux.HandleFunc("GET "+relay.PathNodeStatus, s.nodeCall(s.nodeStatus))
	s.mux.HandleFunc("POST "+relay.PathNodeKeys, s.nodeCall(s.rotateKeys))
	s.mux.HandleFunc("DELETE "+relay.PathNode, s.nodeCall(s.deleteNode))
	s.mux.HandleFunc("POST "+relay.PathACMEChallenge, s.nodeCall(s.acmeChallenge))
	s.mux.HandleFunc("POST "+relay.PathAgentKeys, s.nodeCall(s.agentKeys))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such endpoint")
	})
	return s, nil
}

// Handler is the relay's HTTP API: the agent endpoints, the nodes'
// self-service, and hosted agent key documents by Host.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil && v != http.ErrAbortHandler {
				s.log.Error("Panic serving request", "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				writeError(w, http.StatusInternalServerError, "internal", "internal error")
			}
		}()
		if label, ok := s.agentLabel(r.Host); ok {
			s.serveAgentDocument(w, r, label)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		s.mux.ServeHTTP(w, r)
	})
}

// Hostname is the full name of a label in the zone.
func (s *Server) Hostname(label string) string { return label + "." + s.cfg.Zone }

// ConnectedNodes is how many nodes have a live tunnel.
func (s *Server) ConnectedNodes() int { return s.tunnels.count() }

// Close ends every tunnel and mesh link.
func (s *Server) Close() {
	s.close1.Do(func() { close(s.closed) })
	s.tunnels.closeAll()
	if s.mesh != nil {
		s.mesh.close()
	}
}

// InstanceID is this instance's name in the tunnel directory; "" without
// a mesh.
func (s *Server) InstanceID() string {
	if s.mesh == nil {
		return ""
	}
	return s.mesh.id
}

// writeError answers with the relay's error body.
func writeError(w http.ResponseWriter, status int, code, detail string) {
	writeJSON(w, status, relay.Error{Code: code, Detail: detail})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal","detail":"internal error"}`)
	}
	b = append(b, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// rateLimited is the one answer of every limiter: it never says which.
func (s *Server) rateLimited(w http.ResponseWriter) {
	s.counts.rateLimited.Add(1)
	w.Header().Set("Retry-After", "60")
	writeError(w, http.StatusTooManyRequests, "rate_limited", "too many requests")
}

func newLogLogger(l *slog.Logger) *log.Logger {
	return slog.NewLogLogger(l.Handler(), slog.LevelDebug)
}

// Maintain expires codes, pending registrations and queued envelopes at
// once and then every Config.ExpireEvery, until ctx ends. Run runs it; a
// failed round is logged and retried at the next.
func (s *Server) Maintain(ctx context.Context) error {
	t := time.NewTicker(s.cfg.ExpireEvery)
	defer t.Stop()
	for {
		if err := s.store.Expire(ctx, s.cfg.Now()); err != nil && ctx.Err() == nil {
			s.log.Warn("Cannot expire registrations", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
