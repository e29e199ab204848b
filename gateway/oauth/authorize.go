package oauth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"mailnode/approvals"
)

// authRequest is an authorization request as the node keeps it while the
// person decides.
type authRequest struct {
	id, clientID, domain, keyFP, redirectURI, state, challenge, scopes, resource, approvalID string
	// browser is the hash of the browser cookie's value the request
	// was started with (browserCookie).
	browser string
	expires int64
	issued  bool
}

// serveAuthorize is the authorization endpoint (RFC 6749 section 4.1.1
// with PKCE, RFC 7636, and resource indicators, RFC 8707). A new request
// opens the consent on the paired phones and answers the page; the page
// polls with ?request=<id> until the person decided, then sends the
// browser to the client's redirect URI.
//
// Every error before the person was asked is a page of the node's, never
// a redirect: until the client and its redirect URI are known to match
// exactly (RFC 6749 section 4.1.2.1), and after too, since anyone can
// register a redirect URI or publish a document naming one, and the
// node's address must not send a browser there unasked (RFC 9700 section
// 4.11.2). Only the answer to a consent the person was shown goes back
// to the client.
//
// The request is bound to the browser that started it (browserCookie):
// only that browser's reloads see the match code and get the code.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request, host string) {
	q := r.URL.Query()
	if r.Method != http.MethodGet {
		// A HEAD (a link preview, a crawler) must neither open a
		// prompt nor spend a request's code.
		w.Header().Set("Allow", http.MethodGet)
		s.errorPage(w, http.StatusMethodNotAllowed, "Open this address in a browser.")
		return
	}
	if id := q.Get(authorizeRequestParam); id != "" && len(q) == 1 {
		s.poll(w, r, host, id)
		return
	}
	// Whatever a request could be refused for is checked before it
	// spends its client's allowance (limiterKey), so that requests bound
	// to fail (another redirect URI, a made-up document path on the
	// client's host) cannot spend it silently: only a request that is
	// about to ask the person counts, and the person sees each.
	if !s.mayExist(r.Context(), q.Get("client_id")) {
		s.errorPage(w, http.StatusBadRequest, "This application is not known to this node.")
		return
	}
	invalid := func(code, desc string) {
		s.errorPage(w, http.StatusBadRequest, "This application's request is not valid ("+code+": "+desc+"). Start again from the application.")
	}
	switch {
	case q.Get("response_type") != "code":
		invalid("unsupported_response_type", "response_type must be code")
		return
	case q.Get("code_challenge_method") != "S256":
		invalid("invalid_request", "PKCE with code_challenge_method S256 is required")
		return
	case !isChallenge(q.Get("code_challenge")):
		invalid("invalid_request", "code_challenge must be a base64url SHA-256")
		return
	case q.Get("resource") != Resource(host):
		invalid("invalid_target", "resource must be "+Resource(host))
		return
	case len(q.Get("state")) > 512:
		invalid("invalid_request", "state is too long")
		return
	}
	tiers, ok := s.parseScope(q.Get("scope"))
	if !ok {
		invalid("invalid_scope", "scopes are tiers: "+strings.Join(s.scopes(), " "))
		return
	}
	grant := grantTiers(tiers)
	if len(grant) == 0 {
		invalid("invalid_scope", "ask for at least one of structured_read, free_form_read, compose")
		return
	}
	c, err := s.client(r.Context(), q.Get("client_id"))
	if err != nil {
		msg, status := "This application is not known to this node.", http.StatusBadRequest
		if errors.Is(err, errFetchRate) {
			w.Header().Set("Retry-After", "10")
			msg, status = "This application's site was asked for its documents too often; try again in a minute.", http.StatusServiceUnavailable
		} else if errors.Is(err, errBusy) {
			// Nothing is known about the document: say so, and that a
			// retry may do (the failure is not remembered).
			w.Header().Set("Retry-After", "5")
			msg, status = "The node is busy fetching other applications' documents; try again in a few seconds.", http.StatusServiceUnavailable
		} else if errors.Is(err, errBadDocument) {
			msg = "This application's client metadata document could not be used: the node fetches it only from a public address over https, without redirects, and its client_id must be its own address."
		} else if !errors.Is(err, errUnknownClient) {
			s.log.Error("Cannot look up client", "err", err)
			msg = "The node could not check this application; try again later."
		}
		s.errorPage(w, status, msg)
		return
	}
	redirect := q.Get("redirect_uri")
	if !contains(c.RedirectURIs, redirect) {
		s.errorPage(w, http.StatusBadRequest, "This application asked to return to an address it did not register.")
		return
	}
	key, shared := s.limiterKey(c)
	l := s.limiter(key, shared)
	if l == nil {
		s.errorPage(w, http.StatusServiceUnavailable, "The node is busy with many applications' requests; try again in a minute.")
		return
	}
	// The token is taken now and handed back unless a prompt opens: a
	// request the approvals refuse without asking (a blocked client, full
	// caps) must not spend what the person's own next request needs
	// (outside attack 43d, finding 1).
	now := s.cfg.Now()
	spent := l.ReserveN(now, 1)
	if !spent.OK() || spent.DelayFrom(now) > 0 {
		spent.CancelAt(now)
		msg := "This application has asked too often; wait a minute and try again."
		if shared {
			msg = "Applications registered with this node that you have not connected yet have asked too often (not only this one); wait a minute and try again."
		}
		s.errorPage(w, http.StatusTooManyRequests, msg)
		return
	}

	req := authRequest{id: newID("oar-"), clientID: c.ID, domain: c.Domain, redirectURI: redirect, state: q.Get("state"),
		challenge: q.Get("code_challenge"), scopes: joinTiers(tiers), resource: Resource(host)}
	req.keyFP = keyPrefix + req.id
	browser := s.browserOf(r.Context(), r)
	if browser == "" {
		key, err := s.registrationKey(r.Context())
		if err != nil {
			s.log.Error("Cannot read the registration key", "err", err)
			s.errorPage(w, http.StatusServiceUnavailable, "The node could not ask you; try again later.")
			return
		}
		browser = newBrowser(key)
	}
	req.browser = hash(browser)
	d, err := s.cfg.Approvals.Request(r.Context(), approvals.Call{
		Domain: c.Domain, KeyFP: req.keyFP, Tool: consentTool, Tier: grant[0], Also: grant[1:], Details: s.consentDetails(c, tiers),
		QuietRefusal: true, // outside attack 43e, finding 1
	})
	if err != nil || d.Outcome != approvals.ApprovalRequired {
		spent.CancelAt(now)
	}
	if err != nil {
		s.log.Error("Cannot ask for consent", "clientID", c.ID, "err", err)
		s.errorPage(w, http.StatusServiceUnavailable, "The node could not ask you; try again later.")
		return
	}
	switch d.Outcome {
	case approvals.ApprovalRequired:
	case approvals.AgentBlocked:
		s.errorPage(w, http.StatusForbidden, "You have blocked this application on this node.")
		return
	case approvals.TooManyPending, approvals.TooManyPrompts:
		msg := "Too many requests from this application are waiting for you; decide or let them lapse first."
		if d.NodeWide {
			// Other applications' prompts fill the node's room for
			// those the person has not let in yet: not this client's
			// doing, so not its blame.
			msg = "Too many requests from applications you have not connected yet are waiting for you on this node (not only this application's); decide them on your phone or let them lapse (10 minutes), then try again."
		}
		s.errorPage(w, http.StatusTooManyRequests, msg)
		return
	default:
		s.log.Error("Unexpected consent outcome", "outcome", d.Outcome)
		s.errorPage(w, http.StatusServiceUnavailable, "The node could not ask you; try again later.")
		return
	}
	req.approvalID, req.expires = d.Approval.ID, d.Approval.ExpiresAt.Unix()
	err = s.cfg.File.WriteTx(r.Context(), func(tx *sql.Tx) error {
		if err := s.pruneRequests(r.Context(), tx, s.cfg.Now()); err != nil {
			return err
		}
		if err := s.storeUsedClient(r.Context(), tx, c); err != nil {
			return err
		}
		_, err := tx.ExecContext(r.Context(), `INSERT INTO oauth_requests
			(id, client_id, domain, key_fp, redirect_uri, state, challenge, scopes, resource, approval_id, created_at, expires_at, browser_hash)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			req.id, req.clientID, req.domain, req.keyFP, req.redirectURI, req.state, req.challenge, req.scopes, req.resource,
			req.approvalID, s.cfg.Now().Unix(), req.expires, req.browser)
		return err
	})
	if err != nil {
		s.log.Error("Cannot store authorization request", "err", err)
		s.errorPage(w, http.StatusServiceUnavailable, "The node could not ask you; try again later.")
		return
	}
	s.keepPage(req.id, c, req.expires)
	if !c.Registered {
		s.markUsed(c.ID)
	}
	s.log.Info("Consent requested", "clientID", c.ID, "approvalID", d.Approval.ID)
	setBrowser(w, browser)
	s.consentPage(w, c, tiers, d.Approval.MatchCode, req.id)
}

// mayExist reports whether the client id can name a client before any
// fetch: a metadata document's URL (documentURL), or a registration the
// node holds. A failed look-up answers true: client reports it.
func (s *Server) mayExist(ctx context.Context, id string) bool {
	if strings.HasPrefix(id, "https://") {
		return documentURL(id)
	}
	if !strings.HasPrefix(id, clientIDPrefixDCR) || len(id) > maxClientIDLen {
		return false
	}
	if len(id) > legacyClientIDLen {
		key, err := s.registrationKey(ctx)
		if err != nil {
			return true
		}
		_, _, err = openRegistration(key, id)
		return err == nil
	}
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM oauth_clients WHERE id = ?", id).Scan(&n)
	return err != nil || n > 0
}

// poll answers the consent page's reload: the page again while the
// person has not decided, else the way back to the client.
func (s *Server) poll(w http.ResponseWriter, r *http.Request, host, id string) {
	ctx := r.Context()
	req, err := s.loadRequest(ctx, id)
	if errors.Is(err, sql.ErrNoRows) || err == nil && req.issued {
		s.errorPage(w, http.StatusBadRequest, "This request is finished. Start again from the application.")
		return
	}
	if err != nil {
		s.log.Error("Cannot look up authorization request", "err", err)
		s.errorPage(w, http.StatusServiceUnavailable, "The node could not check this request; try again later.")
		return
	}
	if !s.sameBrowser(ctx, r, req.browser) {
		// The page's address reached another browser (sent by whoever
		// started the request): it learns nothing, neither the match
		// code nor, once approved, the code.
		s.errorPage(w, http.StatusForbidden, "This request was started in another browser. If you did not start it, deny it on your phone; to connect an application, start again from the application.")
		return
	}
	back := func(v url.Values) { s.redirect(w, r, host, req.redirectURI, req.state, v) }
	if s.cfg.Approvals.HoldsGrantWith(req.domain, req.keyFP) {
		code := secret("mnc_")
		var n int64
		err := s.cfg.File.WriteTx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE oauth_requests SET code_hash = ?, code_expires = ? WHERE id = ? AND code_hash IS NULL`,
				hash(code), s.cfg.Now().Add(s.cfg.CodeTTL).Unix(), id)
			if err == nil {
				n, _ = res.RowsAffected()
			}
			return err
		})
		if err != nil || n != 1 {
			if err != nil {
				s.log.Error("Cannot issue authorization code", "err", err)
			}
			s.errorPage(w, http.StatusBadRequest, "This request is finished. Start again from the application.")
			return
		}
		back(url.Values{"code": {code}})
		return
	}
	a, err := s.cfg.Approvals.Get(ctx, req.approvalID)
	if err != nil {
		s.log.Error("Cannot look up consent", "err", err)
		s.errorPage(w, http.StatusServiceUnavailable, "The node could not check this request; try again later.")
		return
	}
	if a.State == approvals.Pending && s.cfg.Now().Unix() < req.expires {
		s.consentPage(w, s.pageClient(id, req.clientID, req.domain), splitTiers(req.scopes), a.MatchCode, id)
		return
	}
	s.forget(ctx, id)
	desc, page := "the person refused", "You refused this application on your phone. Nothing was shared with it; you can close this page."
	if a.State != approvals.Denied {
		desc, page = "the request was not approved in time", "This request was not approved in time, and nothing was shared. To connect the application, start again from it."
	}
	if !verifiedRedirect(req.clientID, req.redirectURI) {
		// A refusal sends the browser nowhere the person did not
		// choose: anyone can register a redirect URI (RFC 9700
		// section 4.11.2), and a phishing page that the person
		// recognised and refused must not be where the node's own
		// address takes them. The client learns nothing; it times out.
		s.errorPage(w, http.StatusForbidden, page)
		return
	}
	back(url.Values{"error": {"access_denied"}, "error_description": {desc}})
}

// verifiedRedirect reports whether a refusal may go back to redirectURI
// on its own: only a metadata document's client (whose document its
// host published) returning to that same host over https. A registered
// client's redirect URI, or a document's naming another host, is
// whatever its author wrote, so it is not verified (RFC 9700 section
// 4.11.2).
func verifiedRedirect(clientID, redirectURI string) bool {
	c, err1 := url.Parse(clientID)
	r, err2 := url.Parse(redirectURI)
	return err1 == nil && err2 == nil && c.Scheme == "https" && r.Scheme == "https" && c.Host != "" &&
		strings.EqualFold(c.Host, r.Host)
}

func (s *Server) loadRequest(ctx context.Context, id string) (authRequest, error) {
	var req authRequest
	var code sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT id, client_id, domain, key_fp, redirect_uri, state, challenge, scopes, resource,
		approval_id, expires_at, code_hash, browser_hash FROM oauth_requests WHERE id = ?`, id).Scan(
		&req.id, &req.clientID, &req.domain, &req.keyFP, &req.redirectURI, &req.state, &req.challenge, &req.scopes,
		&req.resource, &req.approvalID, &req.expires, &code, &req.browser)
	req.issued = code.Valid
	return req, err
}

// forget deletes a request that ended without a code.
func (s *Server) forget(ctx context.Context, id string) {
	err := s.cfg.File.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM oauth_requests WHERE id = ?", id)
		return err
	})
	if err != nil {
		s.log.Error("Cannot delete authorization request", "err", err)
	}
}

// redirect sends the browser to the client's checked redirect URI with
// the response's parameters, the state and the issuer (RFC 9207).
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, host, redirectURI, state string, v url.Values) {
	u, err := url.Parse(redirectURI)
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, "This application's return address is not usable.")
		return
	}
	q := u.Query()
	for k, vs := range v {
		q[k] = vs
	}
	if state != "" {
		q.Set("state", state)
	}
	q.Set("iss", Issuer(host))
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, u.String(), http.StatusFound)
}

// parseScope reads a scope parameter as tiers of the catalogue; empty
// asks for all of them.
func (s *Server) parseScope(scope string) ([]approvals.Tier, bool) {
	f := strings.Fields(scope)
	if len(f) == 0 {
		return s.cfg.Tiers, true
	}
	var out []approvals.Tier
	for _, t := range s.cfg.Tiers {
		if contains(f, string(t)) {
			out = append(out, t)
		}
	}
	for _, v := range f {
		if !contains(s.scopes(), v) {
			return nil, false
		}
	}
	return out, true
}

// grantTiers are the tiers of tiers that a consent grants: raw_read and
// send are never granted, each of their calls asks the phone.
func grantTiers(tiers []approvals.Tier) []approvals.Tier {
	var out []approvals.Tier
	for _, t := range tiers {
		if !t.PerCall() {
			out = append(out, t)
		}
	}
	return out
}

func joinTiers(ts []approvals.Tier) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, " ")
}

func splitTiers(s string) []approvals.Tier {
	var out []approvals.Tier
	for _, f := range strings.Fields(s) {
		out = append(out, approvals.Tier(f))
	}
	return out
}

// consentDetails is what the phone shows of a consent: built by the node
// from the client's checked identity, first, never the client's own text
// but its name (cleanName: one line), quoted as the client's claim and
// flagged if it mixes scripts (nameNote).
func (s *Server) consentDetails(c Client, tiers []approvals.Tier) string {
	var b strings.Builder
	name := "(no name)"
	if c.Name != "" {
		name = "\u201c" + c.Name + "\u201d"
	}
	if note := nameNote(c.Name, c.Domain); note != "" {
		name += " (" + note + ")"
	}
	fmt.Fprintf(&b, "OAuth client: %s\nCalls itself: %s\n", c.Label(), name)
	if !c.Registered {
		// A registered id carries its whole registration; its label
		// already names it by its short identity.
		fmt.Fprintf(&b, "Client id: %s\n", c.ID)
	}
	b.WriteString("\nIt asks to use, until you revoke it:\n")
	for _, t := range tiers {
		if t.PerCall() {
			fmt.Fprintf(&b, "- %s: %s (each call asks you again)\n", t, s.cfg.Describe(t))
		} else {
			fmt.Fprintf(&b, "- %s: %s\n", t, s.cfg.Describe(t))
		}
	}
	return b.String()
}

// isChallenge reports whether v is the base64url (unpadded) encoding of a
// SHA-256: RFC 7636 section 4.2 with S256.
func isChallenge(v string) bool {
	if len(v) != 43 {
		return false
	}
	return isUnreserved(v)
}

// isVerifier reports whether v is a code verifier: RFC 7636 section 4.1.
func isVerifier(v string) bool {
	return len(v) >= 43 && len(v) <= 128 && isUnreserved(v)
}

func isUnreserved(v string) bool {
	for _, c := range v {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
