package oauth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"mailnode/approvals"
	"mailnode/gateway/jsonhttp"
)

// tokenError is an RFC 6749 section 5.2 error.
type tokenError struct{ code, desc string }

func (e *tokenError) Error() string { return e.code + ": " + e.desc }

var (
	errInvalidGrant = &tokenError{"invalid_grant", "the code or refresh token is invalid, expired, spent or not this client's"}
	errUnavailable  = &tokenError{"temporarily_unavailable", "try again later"}
)

// issued is a token response.
type issued struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// grantRow is what tokens are issued for.
type grantRow struct {
	family, clientID, domain, keyFP, scopes, resource string
}

// serveToken is the token endpoint (RFC 6749 section 3.2) for public
// clients: the authorization_code grant with its PKCE verifier, and the
// refresh_token grant, which rotates.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request, host string) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		tokenFail(w, &tokenError{"invalid_request", "the request must be a form"})
		return
	}
	f := r.PostForm
	var out issued
	var err error
	switch f.Get("grant_type") {
	case "authorization_code":
		out, err = s.redeemCode(r.Context(), f.Get("code"), f.Get("code_verifier"), f.Get("client_id"), f.Get("redirect_uri"), f.Get("resource"))
	case "refresh_token":
		out, err = s.refresh(r.Context(), f.Get("refresh_token"), f.Get("client_id"), f.Get("resource"), f.Get("scope"))
	default:
		err = &tokenError{"unsupported_grant_type", "grant types are authorization_code and refresh_token"}
	}
	if err != nil {
		var te *tokenError
		if !errors.As(err, &te) {
			s.log.Error("Cannot issue tokens", "err", err)
			te = errUnavailable
		}
		tokenFail(w, te)
		return
	}
	w.Header().Set("Pragma", "no-cache")
	jsonhttp.Write(w, http.StatusOK, out)
}

func tokenFail(w http.ResponseWriter, e *tokenError) {
	status := http.StatusBadRequest
	if e == errUnavailable {
		status = http.StatusServiceUnavailable
	}
	w.Header().Set("Pragma", "no-cache")
	jsonhttp.Write(w, status, map[string]string{"error": e.code, "error_description": e.desc})
}

// redeemCode exchanges a code once. The code is spent by the first
// attempt whatever its outcome, so that a wrong verifier cannot be
// retried; a second redemption also deletes the tokens the first one got
// (RFC 6749 section 4.1.2).
func (s *Server) redeemCode(ctx context.Context, code, verifier, clientID, redirectURI, resource string) (issued, error) {
	if !strings.HasPrefix(code, "mnc_") || clientID == "" {
		return issued{}, errInvalidGrant
	}
	var req authRequest
	var codeExpires int64
	var replay bool
	err := s.cfg.File.WriteTx(ctx, func(tx *sql.Tx) error {
		var used bool
		err := tx.QueryRowContext(ctx, `SELECT id, client_id, domain, key_fp, redirect_uri, challenge, scopes, resource, code_expires, code_used
			FROM oauth_requests WHERE code_hash = ?`, hash(code)).Scan(&req.id, &req.clientID, &req.domain, &req.keyFP,
			&req.redirectURI, &req.challenge, &req.scopes, &req.resource, &codeExpires, &used)
		if err != nil {
			return err
		}
		if used {
			replay = true
			_, err = tx.ExecContext(ctx, "DELETE FROM oauth_tokens WHERE family = ?", req.id)
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE oauth_requests SET code_used = 1 WHERE id = ?", req.id)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return issued{}, errInvalidGrant
	}
	if err != nil {
		return issued{}, fmt.Errorf("redeem code: %w", err)
	}
	if replay {
		s.log.Warn("Authorization code redeemed twice; its tokens are revoked", "clientID", req.clientID)
		return issued{}, errInvalidGrant
	}
	sum := sha256.Sum256([]byte(verifier))
	switch {
	case clientID != req.clientID, redirectURI != req.redirectURI, s.cfg.Now().Unix() >= codeExpires:
		return issued{}, errInvalidGrant
	case !isVerifier(verifier) ||
		subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(req.challenge)) != 1:
		return issued{}, &tokenError{"invalid_grant", "the code verifier does not match the challenge"}
	case resource != "" && resource != req.resource:
		return issued{}, &tokenError{"invalid_target", "the resource is not the one authorized"}
	case !s.cfg.Approvals.HoldsGrantWith(req.domain, req.keyFP):
		return issued{}, errInvalidGrant
	}
	return s.issue(ctx, grantRow{family: req.id, clientID: req.clientID, domain: req.domain, keyFP: req.keyFP, scopes: req.scopes, resource: req.resource}, "")
}

// refresh rotates a refresh token: the old one is spent, a new pair is
// issued in its family. A spent one presented again, or one presented by
// another client, is a stolen one's sign: the family is deleted.
func (s *Server) refresh(ctx context.Context, token, clientID, resource, scope string) (issued, error) {
	if !strings.HasPrefix(token, "mnr_") {
		return issued{}, errInvalidGrant
	}
	var g grantRow
	var expires int64
	var spent bool
	err := s.db.QueryRowContext(ctx, `SELECT family, client_id, domain, key_fp, scopes, resource, expires_at, spent
		FROM oauth_tokens WHERE hash = ? AND kind = 'refresh'`, hash(token)).Scan(
		&g.family, &g.clientID, &g.domain, &g.keyFP, &g.scopes, &g.resource, &expires, &spent)
	if errors.Is(err, sql.ErrNoRows) {
		return issued{}, errInvalidGrant
	}
	if err != nil {
		return issued{}, fmt.Errorf("refresh: %w", err)
	}
	if spent || clientID != g.clientID {
		s.log.Warn("Refresh token reused or presented by another client; its family is revoked", "clientID", g.clientID)
		if err := s.revokeFamily(ctx, g.family); err != nil {
			return issued{}, err
		}
		return issued{}, errInvalidGrant
	}
	if s.cfg.Now().Unix() >= expires {
		return issued{}, errInvalidGrant
	}
	if resource != "" && resource != g.resource {
		return issued{}, &tokenError{"invalid_target", "the resource is not the one authorized"}
	}
	if scope != "" {
		for _, v := range strings.Fields(scope) {
			if !contains(strings.Fields(g.scopes), v) {
				return issued{}, &tokenError{"invalid_scope", "a refresh cannot widen the scopes"}
			}
		}
		g.scopes = scope
	}
	if !s.cfg.Approvals.HoldsGrantWith(g.domain, g.keyFP) {
		if err := s.revokeFamily(ctx, g.family); err != nil {
			return issued{}, err
		}
		return issued{}, errInvalidGrant
	}
	return s.issue(ctx, g, hash(token))
}

// issue stores and returns a new access and refresh token for g; spend,
// if set, is the hash of the refresh token they replace, which must still
// be unspent (two refreshes racing: the second finds it spent).
func (s *Server) issue(ctx context.Context, g grantRow, spend string) (issued, error) {
	now := s.cfg.Now()
	out := issued{AccessToken: secret("mna_"), TokenType: "Bearer", ExpiresIn: int64(s.cfg.AccessTTL.Seconds()),
		RefreshToken: secret("mnr_"), Scope: g.scopes}
	var raced bool
	err := s.cfg.File.WriteTx(ctx, func(tx *sql.Tx) error {
		if spend != "" {
			res, err := tx.ExecContext(ctx, "UPDATE oauth_tokens SET spent = 1 WHERE hash = ? AND spent = 0", spend)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				raced = true
				_, err := tx.ExecContext(ctx, "DELETE FROM oauth_tokens WHERE family = ?", g.family)
				return err
			}
		}
		for _, t := range []struct {
			kind, value string
			expires     int64
		}{
			{"access", out.AccessToken, now.Add(s.cfg.AccessTTL).Unix()},
			{"refresh", out.RefreshToken, now.Add(s.cfg.RefreshTTL).Unix()},
		} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO oauth_tokens (hash, kind, family, client_id, domain, key_fp, scopes, resource, expires_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, hash(t.value), t.kind, g.family, g.clientID, g.domain, g.keyFP, g.scopes, g.resource, t.expires); err != nil {
				return err
			}
		}
		// Housekeeping: what can no longer be used goes.
		if _, err := tx.ExecContext(ctx, "DELETE FROM oauth_tokens WHERE expires_at < ?", now.Unix()); err != nil {
			return err
		}
		return s.pruneRequests(ctx, tx, now)
	})
	if err != nil {
		return issued{}, fmt.Errorf("store tokens: %w", err)
	}
	if raced {
		return issued{}, errInvalidGrant
	}
	return out, nil
}

// revokeFamily deletes every token of an authorization.
func (s *Server) revokeFamily(ctx context.Context, family string) error {
	err := s.cfg.File.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM oauth_tokens WHERE family = ?", family)
		return err
	})
	if err != nil {
		return fmt.Errorf("revoke tokens: %w", err)
	}
	return nil
}

// serveRevoke is RFC 7009 for public clients: a token of the client
// named by client_id is revoked with its whole family (the refresh
// token's access tokens too, section 2.1). The answer is 200 whatever
// the token was (section 2.2).
func (s *Server) serveRevoke(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		tokenFail(w, &tokenError{"invalid_request", "the request must be a form"})
		return
	}
	token, clientID := r.PostForm.Get("token"), r.PostForm.Get("client_id")
	var family, owner string
	err := s.db.QueryRowContext(r.Context(), "SELECT family, client_id FROM oauth_tokens WHERE hash = ?", hash(token)).Scan(&family, &owner)
	if err == nil && owner == clientID {
		if err := s.revokeFamily(r.Context(), family); err != nil {
			s.log.Error("Cannot revoke tokens", "err", err)
			tokenFail(w, errUnavailable)
			return
		}
		s.log.Info("Tokens revoked by their client", "clientID", clientID)
	} else if err != nil && !errors.Is(err, sql.ErrNoRows) {
		s.log.Error("Cannot look up token", "err", err)
		tokenFail(w, errUnavailable)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}

// Principal is who a valid access token speaks for.
type Principal struct {
	ClientID string
	// Domain and KeyFP are the client's identity and consent for the
	// approvals: its calls are decided as a signed agent's with that
	// domain and key fingerprint.
	Domain, KeyFP string
	// Tiers are its scopes: the tiers whose tools it may call.
	Tiers []approvals.Tier
}

// ErrInvalidToken: the bearer token is unknown, expired, for another
// resource, or its consent was revoked (RFC 6750 invalid_token).
var ErrInvalidToken = errors.New("invalid access token")

// Verify returns who the access token speaks for at the node's name
// host's /oauth/mcp. A token whose consent no longer holds a grant
// (revoked, blocked, expired) is deleted with its family.
func (s *Server) Verify(ctx context.Context, token, host string) (Principal, error) {
	if !strings.HasPrefix(token, "mna_") || len(token) > 128 {
		return Principal{}, ErrInvalidToken
	}
	var p Principal
	var family, scopes, resource string
	var expires int64
	err := s.db.QueryRowContext(ctx, `SELECT family, client_id, domain, key_fp, scopes, resource, expires_at
		FROM oauth_tokens WHERE hash = ? AND kind = 'access'`, hash(token)).Scan(
		&family, &p.ClientID, &p.Domain, &p.KeyFP, &scopes, &resource, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return Principal{}, ErrInvalidToken
	}
	if err != nil {
		return Principal{}, fmt.Errorf("verify access token: %w", err)
	}
	if s.cfg.Now().Unix() >= expires || resource != Resource(host) {
		return Principal{}, ErrInvalidToken
	}
	if !s.cfg.Approvals.HoldsGrantWith(p.Domain, p.KeyFP) {
		if err := s.revokeFamily(ctx, family); err != nil {
			return Principal{}, err
		}
		return Principal{}, ErrInvalidToken
	}
	p.Tiers = splitTiers(scopes)
	return p, nil
}

// pruneRequests deletes the authorization requests that can no longer be
// used: lapsed past RequestTTL, without a code still to redeem. Both
// ways a request ends call it (a token issued, a request started), so
// that requests nobody decides or reloads, as a stranger's are, do not
// pile up.
func (s *Server) pruneRequests(ctx context.Context, tx *sql.Tx, now time.Time) error {
	_, err := tx.ExecContext(ctx, "DELETE FROM oauth_requests WHERE expires_at < ? AND (code_expires IS NULL OR code_expires < ?)",
		now.Add(-s.cfg.RequestTTL).Unix(), now.Unix())
	return err
}
