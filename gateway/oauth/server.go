package oauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"mailnode/approvals"
	"mailnode/gateway/jsonhttp"
)

// Migrations are the front door's tables (sql/NNNN_name.sql), for
// store.Attach.
//
//go:embed sql/*.sql
var Migrations embed.FS

// Paths the front door serves, besides ResourcePath which the gateway
// serves with the tools.
const (
	ResourcePath         = "/oauth/mcp"
	ResourceMetadataPath = "/.well-known/oauth-protected-resource" + ResourcePath
	ServerMetadataPath   = "/.well-known/oauth-authorization-server"
	AuthorizePath        = "/oauth/authorize"
	TokenPath            = "/oauth/token"
	RegisterPath         = "/oauth/register"
	RevokePath           = "/oauth/revoke"
	// ApprovalPath is the page a tool call's URL-mode elicitation points
	// to (ApprovalURL).
	ApprovalPath         = "/oauth/approval"
	consentTool          = "oauth_connect"
	keyPrefix            = approvals.OAuthKeyPrefix
	maxFormBytes         = 16 << 10
	maxRegistrationBytes = 16 << 10
	maxRedirectURIs      = 10
	maxClientNameRunes   = 80
	clientIDPrefixDCR    = approvals.RegisteredClientPrefix
	// unusedClientTTL is how long a registration an authorization
	// request used is kept once it holds no token and no request.
	unusedClientTTL = 24 * time.Hour
	// maxCachedDocuments bounds the client metadata documents kept, and
	// maxSiteDocuments those of one site among them, so that one
	// stranger's host cannot fill the cache (outside attack 43d,
	// finding 3).
	maxCachedDocuments = 1024
	maxSiteDocuments   = 16
	// maxLogoBytes bounds a logo kept with its document (as a data:
	// URL in memory); a larger one is no logo.
	maxLogoBytes = 16 << 10
	// fetchEvery and fetchBurst bound the document fetches (cache
	// misses) of one site.
	fetchEvery            = 6 * time.Second
	fetchBurst            = 10
	authorizeRequestParam = "request"
)

// Documents fetches a Client ID Metadata Document; *agentkeys.Fetcher's
// Document does, under the rules of agent key documents. Its errors
// agentkeys.ErrBusy (no free place: the node is busy, nothing is wrong
// with the document) and agentkeys.ErrNotDocumentURL (refused without a
// fetch) are not remembered for the client id.
type Documents interface {
	Document(ctx context.Context, url string) ([]byte, error)
}

// Approvals is what the front door asks of the approvals; *approvals.Manager
// is the node's.
type Approvals interface {
	Request(ctx context.Context, call approvals.Call) (approvals.Decision, error)
	Get(ctx context.Context, id string) (approvals.Approval, error)
	HoldsGrantWith(domain, key string) bool
	HoldsGrant(domain string) bool
	Site(domain string) string
}

// File is the node's SQLite file as store.Attach hands it to a component.
type File interface {
	DB() *sql.DB
	WriteTx(ctx context.Context, f func(*sql.Tx) error) error
}

// Config is what the front door needs. Docs, Approvals, File and Tiers
// are required; zero durations mean the defaults.
type Config struct {
	Docs      Documents
	Approvals Approvals
	File      File
	// Tiers are the tiers of the tool catalogue, which are the scopes,
	// in the order the metadata lists them.
	Tiers []approvals.Tier
	// Describe says what a tier allows, for the consent's prompt and
	// page; nil: the tier's name.
	Describe func(approvals.Tier) string
	// AccessTTL is how long an access token works. Default 1 h.
	AccessTTL time.Duration
	// RefreshTTL is how long a refresh token works if unused. Default 30 days.
	RefreshTTL time.Duration
	// CodeTTL is how long an issued code may be redeemed. Default 60 s.
	CodeTTL time.Duration
	// RequestTTL is how long an authorization request is kept past its
	// prompt's expiry (the approvals' PendingTTL, which is how long it
	// waits for the person) before it is deleted. Default 10 min.
	RequestTTL time.Duration
	// DocumentTTL is how long a client's metadata document is used
	// before it is fetched again; a failed fetch is remembered for a
	// minute. Default 1 h.
	DocumentTTL time.Duration
	// AuthorizeEvery and AuthorizeBurst bound the authorization requests
	// of one client identity (its id's host, or its registered id), so
	// that a client cannot make the node open prompts in a loop.
	// Default one per 10 s, 5 at once.
	AuthorizeEvery time.Duration
	AuthorizeBurst int
	// RegisterEvery and RegisterBurst bound registrations, all clients
	// together. A registration stores nothing and costs a MAC
	// (registration.go), so the bound is loose: it only keeps a flood
	// from spending the node's processor. Default 50 a second, 500 at
	// once.
	RegisterEvery time.Duration
	RegisterBurst int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func (c *Config) setDefaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.AccessTTL, time.Hour)
	def(&c.RefreshTTL, 30*24*time.Hour)
	def(&c.CodeTTL, time.Minute)
	def(&c.RequestTTL, 10*time.Minute)
	def(&c.DocumentTTL, time.Hour)
	def(&c.AuthorizeEvery, 10*time.Second)
	def(&c.RegisterEvery, 20*time.Millisecond)
	if c.AuthorizeBurst <= 0 {
		c.AuthorizeBurst = 5
	}
	if c.RegisterBurst <= 0 {
		c.RegisterBurst = 500
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Describe == nil {
		c.Describe = func(t approvals.Tier) string { return string(t) }
	}
}

// Server is the front door. Its methods are safe for concurrent use.
type Server struct {
	cfg Config
	db  *sql.DB
	log *slog.Logger

	register *rate.Limiter

	keyMu  sync.Mutex // guards regKey
	regKey []byte     // the registration key, once read

	mu        sync.Mutex // guards the fields below
	docs      map[string]cachedClient
	authorize map[string]*rate.Limiter
	fetches   map[string]*rate.Limiter // by site: document fetches
	pages     map[string]keptPage      // by request id: what its consent page shows
}

// New returns the front door. It does no I/O.
func New(cfg Config, logger *slog.Logger) (*Server, error) {
	if cfg.Docs == nil || cfg.Approvals == nil || cfg.File == nil || len(cfg.Tiers) == 0 {
		return nil, errors.New("oauth: documents, approvals, file and tiers are required")
	}
	cfg.setDefaults()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Server{
		cfg: cfg, db: cfg.File.DB(), log: logger.With("component", "oauth"),
		register:  rate.NewLimiter(rate.Every(cfg.RegisterEvery), cfg.RegisterBurst),
		docs:      map[string]cachedClient{},
		authorize: map[string]*rate.Limiter{},
		fetches:   map[string]*rate.Limiter{},
		pages:     map[string]keptPage{},
	}, nil
}

// Issuer is the authorization server's identifier for the node's name
// host (host, or host:port off 443): RFC 8414 section 2.
func Issuer(host string) string { return "https://" + host }

// Resource is the protected resource, the only audience of the node's
// tokens, for the node's name host: RFC 8707 and RFC 9728 section 2.
func Resource(host string) string { return Issuer(host) + ResourcePath }

// Serve answers the front door's paths for the node's name host, and
// reports whether r was one of them.
func (s *Server) Serve(w http.ResponseWriter, r *http.Request, host string) bool {
	switch r.URL.Path {
	case ResourceMetadataPath, "/.well-known/oauth-protected-resource":
		// The second is where clients that do not insert the resource's
		// path look (RFC 9728 section 3.1 inserts it); the node has one
		// protected resource, so both name it.
		if onlyGet(w, r) {
			s.resourceMetadata(w, host)
		}
	case ServerMetadataPath:
		if onlyGet(w, r) {
			s.serverMetadata(w, host)
		}
	case AuthorizePath:
		if onlyGet(w, r) {
			s.serveAuthorize(w, r, host)
		}
	case TokenPath:
		if onlyPost(w, r) {
			s.serveToken(w, r, host)
		}
	case RegisterPath:
		if onlyPost(w, r) {
			s.serveRegister(w, r)
		}
	case RevokePath:
		if onlyPost(w, r) {
			s.serveRevoke(w, r)
		}
	case ApprovalPath:
		if onlyGet(w, r) {
			s.serveApproval(w, r)
		}
	default:
		return false
	}
	return true
}

func onlyGet(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	jsonhttp.Error(w, http.StatusMethodNotAllowed, "method_not_allowed", "GET only")
	return false
}

func onlyPost(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodPost {
		return true
	}
	w.Header().Set("Allow", http.MethodPost)
	jsonhttp.Error(w, http.StatusMethodNotAllowed, "method_not_allowed", "POST only")
	return false
}

// scopes lists the catalogue's tiers as scope names.
func (s *Server) scopes() []string {
	out := make([]string, len(s.cfg.Tiers))
	for i, t := range s.cfg.Tiers {
		out[i] = string(t)
	}
	return out
}

// resourceMetadata is RFC 9728 section 3's document for /oauth/mcp.
func (s *Server) resourceMetadata(w http.ResponseWriter, host string) {
	jsonhttp.Write(w, http.StatusOK, map[string]any{
		"resource":                 Resource(host),
		"authorization_servers":    []string{Issuer(host)},
		"scopes_supported":         s.scopes(),
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "mailnode",
	})
}

// serverMetadata is RFC 8414 section 2's document, with the Client ID
// Metadata Document extension's flag.
func (s *Server) serverMetadata(w http.ResponseWriter, host string) {
	iss := Issuer(host)
	jsonhttp.Write(w, http.StatusOK, map[string]any{
		"issuer":                                         iss,
		"authorization_endpoint":                         iss + AuthorizePath,
		"token_endpoint":                                 iss + TokenPath,
		"registration_endpoint":                          iss + RegisterPath,
		"revocation_endpoint":                            iss + RevokePath,
		"scopes_supported":                               s.scopes(),
		"response_types_supported":                       []string{"code"},
		"response_modes_supported":                       []string{"query"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"token_endpoint_auth_methods_supported":          []string{"none"},
		"revocation_endpoint_auth_methods_supported":     []string{"none"},
		"code_challenge_methods_supported":               []string{"S256"},
		"client_id_metadata_document_supported":          true,
		"authorization_response_iss_parameter_supported": true,
	})
}

// WWWAuthenticate is the challenge /oauth/mcp answers 401 with: RFC 9728
// section 5.1, naming the resource metadata; err is an RFC 6750 error
// code or "".
func WWWAuthenticate(host, err string) string {
	v := `Bearer resource_metadata="` + Issuer(host) + ResourceMetadataPath + `"`
	if err != "" {
		v += `, error="` + err + `"`
	}
	return v
}

// secret returns a new random value after prefix, which says what it is
// ("mna_" an access token, "mnr_" a refresh token, "mnc_" a code).
func secret(prefix string) string {
	var b [32]byte
	rand.Read(b[:])
	return prefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// hash is what the store keeps of a code or token.
func hash(v string) string {
	sum := sha256.Sum256([]byte(v))
	return hex.EncodeToString(sum[:])
}

// newID returns a random id after prefix, in lower case letters and
// digits only (a registered client's id is an agent domain for the
// approvals, which compare them in lower case).
func newID(prefix string) string {
	var b [15]byte
	rand.Read(b[:])
	return prefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// maxLimiters bounds the authorization limiters kept at once, one per
// limiterKey.
const maxLimiters = 4096

// sharedKey is the limiterKey of every registered client that holds no
// grant.
const sharedKey = "registered clients"

// limiterKey is whose allowance of authorization requests a client's
// request spends, and whether that allowance is shared: every registered
// client that holds no grant shares one (anyone makes registrations by
// the thousand, and each would otherwise be a bucket of its own), any
// other client spends its site's (Approvals.Site of its identity: a
// document host's registrable domain, whose subdomains are free to
// whoever holds it; a registered client the person connected, its own).
func (s *Server) limiterKey(c Client) (key string, shared bool) {
	if c.Registered && !s.cfg.Approvals.HoldsGrant(c.Domain) {
		return sharedKey, true
	}
	return s.cfg.Approvals.Site(c.Domain), false
}

// limiter returns the authorization limiter of key, or nil when the
// node keeps maxLimiters that all have requests counted against them.
// The shared one (limiterKey) is four times as large and fast as a
// client's. Only a full bucket is forgotten, which is worth no more than
// a new one: forgetting others would hand their keys a fresh burst, so
// that many made-up ones could reset the bucket of the one a loop wants
// (the approvals' caps still bound it).
func (s *Server) limiter(key string, shared bool) *rate.Limiter {
	every, burst := s.cfg.AuthorizeEvery, s.cfg.AuthorizeBurst
	if shared {
		every, burst = every/4, 4*burst
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limiterLocked(s.authorize, key, every, burst)
}

// fetchLimiter returns the limiter of document fetches of a site, so
// that naming new paths on a host, each a cache miss, makes the node
// fetch from it at that rate and no faster; it is spent only by a fetch
// that happens. When maxLimiters sites have fetches counted, one of them
// is forgotten rather than the new site refused (outside attack 43e,
// finding 2: made-up sites would otherwise hold every first fetch): a
// forgotten site gets at most fetchBurst fetches more, for thousands of
// requests naming other sites.
func (s *Server) fetchLimiter(site string) *rate.Limiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.limiterLocked(s.fetches, site, fetchEvery, fetchBurst); l != nil {
		return l
	}
	for k := range s.fetches {
		delete(s.fetches, k)
		break
	}
	return s.limiterLocked(s.fetches, site, fetchEvery, fetchBurst)
}

// limiterLocked is m's limiter of key, made with every and burst, or nil
// when m holds maxLimiters that all have something counted against
// them. s.mu is held.
func (s *Server) limiterLocked(m map[string]*rate.Limiter, key string, every time.Duration, burst int) *rate.Limiter {
	if l := m[key]; l != nil {
		return l
	}
	if len(m) >= maxLimiters {
		now := s.cfg.Now()
		for k, v := range m {
			if v.TokensAt(now) >= float64(v.Burst()) {
				delete(m, k)
			}
		}
		if len(m) >= maxLimiters {
			return nil
		}
	}
	l := rate.NewLimiter(rate.Every(every), burst)
	m[key] = l
	return l
}
