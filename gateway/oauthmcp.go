package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/approvals"
	"mailnode/gateway/httpsig"
	"mailnode/gateway/jsonhttp"
	"mailnode/gateway/oauth"
)

// serveOAuth is POST /oauth/mcp, the front door (docs/protocol.md, "The
// OAuth front door"): the access token in place of a signature, then the
// same rate limits, the same MCP server and the same authorize as /mcp,
// with the OAuth client's identity and consent in place of an agent's
// domain and key. Without a valid token it is 401 with the challenge that
// names the resource metadata (RFC 9728 section 5.1), before the body is
// read.
func (s *Server) serveOAuth(w http.ResponseWriter, r *http.Request, host string) {
	token, ok := bearer(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", oauth.WWWAuthenticate(host, ""))
		jsonhttp.Error(w, http.StatusUnauthorized, "unauthorized", "an OAuth access token is required")
		return
	}
	p, err := s.cfg.OAuth.Verify(r.Context(), token, host)
	if err != nil {
		if !errors.Is(err, oauth.ErrInvalidToken) {
			s.log.Error("Cannot check access token", "err", err)
			jsonhttp.Error(w, http.StatusServiceUnavailable, "unavailable", "try again later")
			return
		}
		s.log.Debug("Refused request", "remote", r.RemoteAddr, "reason", "invalid access token")
		w.Header().Set("WWW-Authenticate", oauth.WWWAuthenticate(host, "invalid_token"))
		jsonhttp.Error(w, http.StatusUnauthorized, "invalid_token", "the access token is invalid, expired or revoked")
		return
	}
	if r.ContentLength > MaxBody {
		jsonhttp.Error(w, http.StatusRequestEntityTooLarge, "payload_too_large", "")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			jsonhttp.Error(w, http.StatusRequestEntityTooLarge, "payload_too_large", "")
			return
		}
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", "cannot read body")
		return
	}
	// The signed door's buckets: the client's identity as the agent
	// domain (and its site), its consent as the key.
	if s.verifier.Admit != nil {
		if err := s.verifier.Admit(httpsig.Identity{Domain: p.Domain, Key: []byte(p.KeyFP)}); err != nil {
			s.refuse(w, r, body, err)
			return
		}
	}
	s.serveIdentified(w, r, body, verified{Identity: httpsig.Identity{Domain: p.Domain}, KeyFP: p.KeyFP, OAuth: &p, Host: host})
}

// bearer returns the token of an Authorization: Bearer header (RFC 6750
// section 2.1), the only way the node takes one.
func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// elicitApproval is, for an OAuth client's call that waits for the phone,
// the MCP 2026-07-28 input_required result with a URL-mode elicitation
// that sends the person to the node's page for the request
// (oauth.ApprovalURL), where the client declared it can open one; nil
// otherwise, and then the approval_required payload answers as on /mcp.
// Only the first round asks: a retry that carries the client's answer is
// decided afresh like any call, as nothing the client answers approves
// anything, and gets approval_required while the phone has not approved.
func (s *Server) elicitApproval(req mcp.Request, call *mcp.CallToolRequest, id verified, a *approvals.Approval) *mcp.CallToolResult {
	if id.OAuth == nil || a == nil || len(call.Params.InputResponses) > 0 || !statelessMCP(requestVersion(req)) {
		return nil
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil || ss.InitializeParams() == nil {
		return nil
	}
	caps := ss.InitializeParams().Capabilities
	if caps == nil || caps.Elicitation == nil || caps.Elicitation.URL == nil {
		return nil
	}
	return inputRequired(&mcp.CallToolResult{InputRequests: mcp.InputRequestMap{a.ID: &mcp.ElicitParams{
		Mode:          "url",
		Message:       fmt.Sprintf("Approve %s (%s) on your paired phone; it shows the code %s.", a.Tool, a.Tier, a.MatchCode),
		URL:           oauth.ApprovalURL(id.Host, a.ID),
		ElicitationID: a.ID,
	}}})
}

// inputRequired marks a result the gate made as input_required, which the
// SDK sets only on the results of the handlers it runs (see complete).
func inputRequired(res *mcp.CallToolResult) *mcp.CallToolResult {
	b, err := json.Marshal(res)
	if err != nil || !bytes.HasPrefix(b, []byte("{")) {
		return nil
	}
	var out mcp.CallToolResult
	if err := json.Unmarshal(append([]byte(`{"resultType":"input_required",`), b[1:]...), &out); err != nil {
		return nil
	}
	return &out
}
