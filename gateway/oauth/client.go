package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"mailnode/gateway/agentkeys"
	"mailnode/gateway/jsonhttp"
)

// Client is an OAuth client as the node knows it.
type Client struct {
	// ID is the client id: an https URL (a Client ID Metadata Document)
	// or a registered id ("dcr-…").
	ID string
	// Domain is its identity for the approvals: the id URL's host, or the
	// registered id.
	Domain string
	// Name is the client_name it gave, cleaned; "" if none.
	Name         string
	RedirectURIs []string
	// Registered: identified by Dynamic Client Registration, not a
	// metadata document.
	Registered bool
	// Logo is the client's logo as a data: URL, for the consent page; ""
	// if none (see documentClient).
	Logo string
}

// Label is how the consent page and the phone name the client's
// identity: the host of its client id, or "registered client <identity>"
// (its short form of the registered id, Domain), so
// that a registered client, which proved nothing about any domain, is
// never taken for one.
func (c Client) Label() string {
	if c.Registered {
		return "registered client " + c.Domain
	}
	return c.Domain
}

// cachedClient is a metadata document's client, or the failure to get
// it, until expires.
type cachedClient struct {
	client  Client
	err     error
	expires time.Time
	site    string // whose share of the cache it takes (maxSiteDocuments)
	used    bool   // a request naming it opened a prompt (markUsed)
}

// staleUse is how long past its life a used document is still served
// when its site's fetches are spent or busy.
const staleUse = 24 * time.Hour

// keptPage is a consent page's client, kept until its request lapses.
type keptPage struct {
	client  Client
	expires int64
}

// Errors of client resolution.
var (
	errUnknownClient = errors.New("unknown client")
	errBadDocument   = errors.New("client metadata document unusable")
	// errNotDocumentURL: the id is refused as it is, without a fetch.
	errNotDocumentURL = fmt.Errorf("%w: client id is not a document URL", errBadDocument)
	// errBusy: no place was free to fetch the document; try again.
	errBusy = errors.New("client metadata document fetches busy")
	// errFetchRate: the site's documents were fetched too often; its
	// failure is not remembered either.
	errFetchRate = fmt.Errorf("%w: the site's documents were fetched too often", errBusy)
)

// client resolves a client id.
func (s *Server) client(ctx context.Context, id string) (Client, error) {
	if strings.HasPrefix(id, "https://") {
		return s.documentClient(ctx, id)
	}
	if !strings.HasPrefix(id, clientIDPrefixDCR) || len(id) > maxClientIDLen {
		return Client{}, errUnknownClient
	}
	return s.registeredClient(ctx, id)
}

// documentClient is the client a Client ID Metadata Document describes,
// fetched under the rules of agent key documents (Config.Docs) and kept
// for DocumentTTL, or its host's failure for a minute. What says nothing
// about the document is not kept: an id refused before any fetch (which
// anyone can make up by the thousand, and which would push out the
// person's clients), a fetch that found no free place (errBusy) or was
// cancelled.
//
// A kept document is protected only once it was used: a request naming
// it opened a prompt (markUsed). Anyone can have the node fetch and keep
// valid documents by the thousand with requests that fail later (another
// redirect URI), from free hosted sites, so a full cache drops what has
// expired, then failures, then documents never used, and never a used
// one (outside attack 43f, finding 1). A used document whose life ran
// out is still served, for a day, when its site's fetches are spent, so
// that a stranger naming made-up paths on that site cannot keep the
// person's connected client out.
func (s *Server) documentClient(ctx context.Context, id string) (Client, error) {
	now := s.cfg.Now()
	s.mu.Lock()
	c, ok := s.docs[id]
	s.mu.Unlock()
	if ok && now.Before(c.expires) {
		return c.client, c.err
	}
	if !documentURL(id) {
		return Client{}, errNotDocumentURL
	}
	u, _ := url.Parse(id)
	site := s.cfg.Approvals.Site(strings.ToLower(u.Hostname()))
	stale := ok && c.used && c.err == nil && now.Before(c.expires.Add(staleUse))
	// A site's fetch is taken now and handed back unless the node
	// fetched (outside attack 43e, finding 5).
	spent := s.fetchLimiter(site).ReserveN(now, 1)
	if !spent.OK() || spent.DelayFrom(now) > 0 {
		spent.CancelAt(now)
		if stale {
			return c.client, nil
		}
		return Client{}, errFetchRate
	}
	cl, err := s.fetchClient(ctx, id)
	ttl := s.cfg.DocumentTTL
	switch {
	case errors.Is(err, errBusy) || ctx.Err() != nil:
		spent.CancelAt(now)
		if stale && ctx.Err() == nil {
			return c.client, nil
		}
		return cl, err
	case errors.Is(err, errNotDocumentURL):
		spent.CancelAt(now)
		return cl, err
	case err != nil:
		ttl = time.Minute
		s.log.Info("Cannot use client metadata document", "clientID", id, "err", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.docs[id]; !ok && (len(s.docs) >= maxCachedDocuments || s.siteDocsLocked(site) >= maxSiteDocuments) {
		s.pruneDocsLocked(now, site)
		if len(s.docs) >= maxCachedDocuments || s.siteDocsLocked(site) >= maxSiteDocuments {
			return cl, err
		}
	}
	// A document used before stays protected when it is fetched again.
	s.docs[id] = cachedClient{client: cl, err: err, expires: now.Add(ttl), site: site, used: ok && c.used && err == nil}
	return cl, err
}

// markUsed protects the kept document of a client id: a request naming
// it opened a prompt.
func (s *Server) markUsed(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.docs[id]; ok && c.err == nil {
		c.used = true
		s.docs[id] = c
	}
}

// siteDocsLocked counts the cached entries of site. s.mu is held.
func (s *Server) siteDocsLocked(site string) int {
	n := 0
	for _, v := range s.docs {
		if v.site == site {
			n++
		}
	}
	return n
}

// pageClient is the client a consent page's reload shows: the client as
// the request that opened the prompt saw it (keepPage), so that a
// document changed since cannot show the person another name than the
// phone's prompt (outside attack 43e, finding 3), and reloads never fetch
// (outside attack 43d, finding 3); after a restart, its identity alone.
func (s *Server) pageClient(requestID, id, domain string) Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.pages[requestID]; ok {
		return p.client
	}
	return Client{ID: id, Domain: domain, Registered: !strings.HasPrefix(id, "https://")}
}

// keepPage keeps c for the consent page of request id until expires
// (Unix seconds), and drops what has expired.
func (s *Server) keepPage(id string, c Client, expires int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now().Unix()
	for k, p := range s.pages {
		if p.expires < now {
			delete(s.pages, k)
		}
	}
	s.pages[id] = keptPage{client: c, expires: expires}
}

// pruneDocsLocked makes room for a document of site: it drops what has
// expired (a used document a day after), then failures, then documents
// never used (site's own first when site is at its share); never a used
// document still valid. s.mu is held.
func (s *Server) pruneDocsLocked(now time.Time, site string) {
	for k, v := range s.docs {
		if !now.Before(v.expires) && (!v.used || !now.Before(v.expires.Add(staleUse))) {
			delete(s.docs, k)
		}
	}
	room := func() bool { return len(s.docs) < maxCachedDocuments && s.siteDocsLocked(site) < maxSiteDocuments }
	for _, drop := range []func(cachedClient) bool{
		func(v cachedClient) bool { return v.err != nil },
		func(v cachedClient) bool { return !v.used && v.site == site },
		func(v cachedClient) bool { return !v.used },
		func(v cachedClient) bool { return !now.Before(v.expires) },
	} {
		if room() {
			return
		}
		for k, v := range s.docs {
			if drop(v) {
				delete(s.docs, k)
				if room() {
					return
				}
			}
		}
	}
}

// fetchClient fetches and checks a metadata document: its client_id must
// be its URL exactly, it must list its redirect URIs, and it must be a
// public client (token_endpoint_auth_method "none").
func (s *Server) fetchClient(ctx context.Context, id string) (Client, error) {
	if !documentURL(id) {
		return Client{}, errNotDocumentURL
	}
	u, _ := url.Parse(id)
	body, err := s.cfg.Docs.Document(ctx, id)
	switch {
	case errors.Is(err, agentkeys.ErrBusy):
		return Client{}, fmt.Errorf("%w: %w", errBusy, err)
	case errors.Is(err, agentkeys.ErrNotDocumentURL):
		return Client{}, fmt.Errorf("%w: %w", errNotDocumentURL, err)
	case err != nil:
		return Client{}, fmt.Errorf("%w: %w", errBadDocument, err)
	}
	var doc struct {
		ClientID     string   `json:"client_id"`
		ClientName   string   `json:"client_name"`
		RedirectURIs []string `json:"redirect_uris"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
		LogoURI      string   `json:"logo_uri"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return Client{}, fmt.Errorf("%w: %w", errBadDocument, err)
	}
	if doc.ClientID != id {
		return Client{}, fmt.Errorf("%w: its client_id is not its URL", errBadDocument)
	}
	if doc.AuthMethod != "" && doc.AuthMethod != "none" {
		return Client{}, fmt.Errorf("%w: token_endpoint_auth_method %q (public clients only)", errBadDocument, doc.AuthMethod)
	}
	if err := checkRedirectURIs(doc.RedirectURIs); err != nil {
		return Client{}, fmt.Errorf("%w: %w", errBadDocument, err)
	}
	c := Client{ID: id, Domain: strings.ToLower(u.Hostname()), Name: cleanName(doc.ClientName), RedirectURIs: doc.RedirectURIs}
	c.Logo = s.logo(ctx, c.Domain, doc.LogoURI)
	return c, nil
}

// documentURL reports whether id can be a Client ID Metadata Document's
// URL, as the CIMD draft has it: https, with a path, no query, fragment
// or user.
func documentURL(id string) bool {
	u, err := url.Parse(id)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Path != "" && u.Path != "/" && u.RawQuery == "" &&
		u.Fragment == "" && u.User == nil && len(id) <= 512 && printableASCII(id) && agentkeys.CheckDocumentURL(id) == nil
}

// printableASCII reports whether s is printable ASCII without spaces, as
// a URI is (RFC 3986): the phone shows the id, and blanks or separators
// in it would shape the prompt's lines (outside attack 43d, finding 6).
func printableASCII(s string) bool {
	for i := range len(s) {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// logo fetches a document client's logo_uri for the consent page, which
// loads nothing from elsewhere: only from the client id's own host (the
// one the document proved), under the same rules as the document, and
// only a PNG, JPEG, GIF or WebP image by its bytes (never SVG, which can
// carry script). Anything else is no logo, not an error.
func (s *Server) logo(ctx context.Context, host, uri string) string {
	u, err := url.Parse(uri)
	if uri == "" || err != nil || u.Scheme != "https" || !strings.EqualFold(u.Hostname(), host) {
		return ""
	}
	b, err := s.cfg.Docs.Document(ctx, uri)
	if err != nil {
		s.log.Debug("Cannot fetch client logo", "clientHost", host, "err", err)
		return ""
	}
	if len(b) > maxLogoBytes {
		return ""
	}
	switch t := http.DetectContentType(b); t {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return "data:" + t + ";base64," + base64.StdEncoding.EncodeToString(b)
	}
	return ""
}

// checkRedirectURIs accepts https URLs and http on a loopback address
// (OAuth 2.1 section 2.3.1 for native clients), without fragments.
func checkRedirectURIs(uris []string) error {
	if len(uris) == 0 || len(uris) > maxRedirectURIs {
		return fmt.Errorf("1 to %d redirect_uris are required", maxRedirectURIs)
	}
	for _, v := range uris {
		u, err := url.Parse(v)
		if err != nil || u.Fragment != "" || u.Host == "" || len(v) > 512 {
			return fmt.Errorf("redirect URI %q is not an absolute URL without fragment", v)
		}
		switch h := u.Hostname(); {
		case u.Scheme == "https":
		case u.Scheme == "http" && (h == "localhost" || h == "127.0.0.1" || h == "::1"):
		default:
			return fmt.Errorf("redirect URI %q is neither https nor loopback http", v)
		}
	}
	return nil
}

// serveRegister is Dynamic Client Registration (RFC 7591 section 3): a
// public client with redirect URIs, authorization_code and refresh_token.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if !s.register.AllowN(s.cfg.Now(), 1) {
		w.Header().Set("Retry-After", "10")
		jsonhttp.Error(w, http.StatusTooManyRequests, "rate_limited", "too many registrations")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRegistrationBytes))
	if err != nil {
		regError(w, "invalid_client_metadata", "the registration is too large")
		return
	}
	var req struct {
		RedirectURIs  []string `json:"redirect_uris"`
		ClientName    string   `json:"client_name"`
		AuthMethod    string   `json:"token_endpoint_auth_method"`
		GrantTypes    []string `json:"grant_types"`
		ResponseTypes []string `json:"response_types"`
		LogoURI       string   `json:"logo_uri"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		regError(w, "invalid_client_metadata", "the registration is not a JSON object")
		return
	}
	if err := checkRedirectURIs(req.RedirectURIs); err != nil {
		regError(w, "invalid_redirect_uri", "redirect URIs must be https, or http on a loopback address, without fragments")
		return
	}
	if req.AuthMethod != "" && req.AuthMethod != "none" {
		regError(w, "invalid_client_metadata", "only public clients (token_endpoint_auth_method none) are registered")
		return
	}
	for _, g := range req.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			regError(w, "invalid_client_metadata", "grant types are authorization_code and refresh_token")
			return
		}
	}
	for _, t := range req.ResponseTypes {
		if t != "code" {
			regError(w, "invalid_client_metadata", "the response type is code")
			return
		}
	}
	if req.LogoURI != "" {
		if u, err := url.Parse(req.LogoURI); err != nil || u.Scheme != "https" || u.Host == "" || len(req.LogoURI) > 512 {
			regError(w, "invalid_client_metadata", "logo_uri must be an https URL")
			return
		}
	}
	key, err := s.registrationKey(r.Context())
	if err != nil {
		s.log.Error("Cannot register client", "err", err)
		jsonhttp.Error(w, http.StatusServiceUnavailable, "temporarily_unavailable", "try again later")
		return
	}
	now := s.cfg.Now()
	reg := registration{Issued: now, Name: cleanName(req.ClientName), LogoURI: req.LogoURI, RedirectURIs: req.RedirectURIs}
	id, domain := registeredID(key, reg)
	if len(id) > maxClientIDLen {
		// The id carries the registration and travels in URLs.
		regError(w, "invalid_client_metadata", fmt.Sprintf("the redirect URIs, name and logo URI together are too long for a client id of at most %d characters", maxClientIDLen))
		return
	}
	c := Client{ID: id, Domain: domain, Name: reg.Name, RedirectURIs: reg.RedirectURIs, Registered: true}
	// Debug and the short identity: registrations are free, up to 50 a
	// second, and an id is up to 1,024 characters (outside attack 43f,
	// finding 3).
	s.log.Debug("Client registered", "client", c.Domain)
	grants := req.GrantTypes
	if len(grants) == 0 {
		grants = []string{"authorization_code", "refresh_token"}
	}
	if !slices.Contains(grants, "authorization_code") {
		grants = append(grants, "authorization_code")
	}
	out := map[string]any{
		"client_id":                  c.ID,
		"client_id_issued_at":        now.Unix(),
		"client_name":                c.Name,
		"redirect_uris":              c.RedirectURIs,
		"token_endpoint_auth_method": "none",
		"grant_types":                grants,
		"response_types":             []string{"code"},
	}
	if reg.LogoURI != "" {
		out["logo_uri"] = reg.LogoURI
	}
	jsonhttp.Write(w, http.StatusCreated, out)
}

func regError(w http.ResponseWriter, code, desc string) {
	jsonhttp.Write(w, http.StatusBadRequest, map[string]string{"error": code, "error_description": desc})
}
