package gateway

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/gateway/jsonhttp"
)

// The MCP revisions the node serves on /mcp, newest first. 2026-07-28 is
// stateless (no initialize, server/discover, the protocol version and
// client capabilities in every request's _meta, Mcp-Method and Mcp-Name
// headers); 2025-11-25 and 2025-06-18 begin with initialize. 2025-03-26
// and older are refused: they allow JSON-RPC batches, which the node
// refuses, and nothing mailnode's agents or the SDKs in use need them.
const (
	mcp20260728 = "2026-07-28"
	mcp20251125 = "2025-11-25"
	mcp20250618 = "2025-06-18"
)

// MCPVersions returns the MCP revisions the node serves, newest first:
// the discovery document's mcp_versions and what a refusal of another
// revision names.
func MCPVersions() []string { return []string{mcp20260728, mcp20251125, mcp20250618} }

// statelessMCP reports whether v is 2026-07-28 or later, the revisions
// without initialize.
func statelessMCP(v string) bool { return v >= mcp20260728 }

// unsupportedVersion is the JSON-RPC error data that names the revisions
// served (the shape the SDK and the 2026-07-28 revision use).
func unsupportedVersion(requested string) json.RawMessage {
	if len(requested) > 32 {
		requested = requested[:32] // not an echo chamber for the client's bytes
	}
	b, _ := json.Marshal(mcp.UnsupportedProtocolVersionData{Supported: MCPVersions(), Requested: requested})
	return b
}

// checkVersionHeader refuses a request whose Mcp-Protocol-Version header
// names a revision the node does not serve, before the SDK sees it: with
// HTTP 400, as the Streamable HTTP transport says (2025-06-18 and later),
// and a JSON-RPC error that names the revisions served, which a client
// can fall back on. The SDK's own refusal is plain text. A request
// without the header is the contract's (docs/protocol.md names no such
// header) and goes on. It reports whether the request was refused.
func checkVersionHeader(w http.ResponseWriter, r *http.Request, body []byte) bool {
	v := r.Header.Get("Mcp-Protocol-Version")
	if v == "" || slices.Contains(MCPVersions(), v) {
		return false
	}
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	json.Unmarshal(body, &msg)
	if len(msg.ID) == 0 {
		msg.ID = json.RawMessage("null")
	}
	jsonhttp.Write(w, http.StatusBadRequest, map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{
		"code":    mcp.CodeUnsupportedProtocolVersion,
		"message": "unsupported MCP protocol version; this node serves " + strings.Join(MCPVersions(), ", "),
		"data":    unsupportedVersion(v),
	}})
	return true
}

// checkInitialize refuses an initialize that asks for a revision older
// than the oldest served: the lifecycle's error (2025-06-18, "Error
// Handling"), code -32602 with the revisions served. A client that asks
// for 2026-07-28 or later by initialize (which those revisions no longer
// have) is answered by the SDK's negotiation, with 2025-11-25.
func checkInitialize(req mcp.Request) error {
	p, ok := req.GetParams().(*mcp.InitializeParams)
	if !ok || p == nil {
		return nil
	}
	v := p.ProtocolVersion
	if slices.Contains(MCPVersions(), v) || statelessMCP(v) {
		return nil
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Unsupported protocol version", Data: unsupportedVersion(v)}
}

// complete marks a tools/call result the gate made itself (a refusal, an
// approval_required) with resultType "complete" when the request is of a
// stateless revision, which requires it on every result. The SDK marks
// the results of the tool handlers it runs, not those of a middleware,
// and keeps the field unexported: a JSON round trip sets it.
func complete(req mcp.Request, res *mcp.CallToolResult) *mcp.CallToolResult {
	if !statelessMCP(requestVersion(req)) {
		return res
	}
	b, err := json.Marshal(res)
	if err != nil || !bytes.HasPrefix(b, []byte("{")) {
		return res
	}
	var out mcp.CallToolResult
	if err := json.Unmarshal(append([]byte(`{"resultType":"complete",`), b[1:]...), &out); err != nil {
		return res
	}
	return &out
}

// requestVersion is the MCP revision of a request as the SDK validated it:
// for a stateless revision, its _meta's (which the SDK has checked equals
// the Mcp-Protocol-Version header); otherwise "".
func requestVersion(req mcp.Request) string {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return ""
	}
	if p := ss.InitializeParams(); p != nil {
		return p.ProtocolVersion
	}
	return ""
}
