package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/approvals"
	"mailnode/gateway/tools"
)

// newMCP builds the MCP endpoint on the official SDK: one server, shared
// by all requests, in stateless mode (every request stands alone, as every
// request is signed on its own; no mcp-session-id is issued) with JSON
// responses.
func (s *Server) newMCP() http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mailnode", Version: "svc/1"}, &mcp.ServerOptions{
		Logger: s.log,
		// The SDK also speaks 2025-03-26 and 2024-11-05; the node serves
		// only these (versions.go).
		SupportedProtocolVersions: MCPVersions(),
	})
	for _, name := range s.toolList {
		t := s.tools[name]
		mt := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Annotations: annotations(t.Hints)}
		if t.OutputSchema != nil {
			mt.OutputSchema = t.OutputSchema
		}
		srv.AddTool(mt, s.runTool(t))
	}
	srv.AddReceivingMiddleware(s.gate)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       s.log,
		// Requests reach the SDK only after serveMCP verified a signature
		// over the configured hostname, which is a stronger check than the
		// SDK's Host-header guard against DNS rebinding on loopback.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        MaxBody,
	})
}

// gate is the SDK's receiving middleware. It sees every method as the SDK
// will dispatch it, so what is authorised is exactly what runs.
func (s *Server) gate(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		id, ok := identity(ctx)
		if !ok {
			// Cannot happen behind serveMCP; fail closed if it ever does.
			s.log.Error("MCP request without a verified identity", "method", method)
			return nil, errors.New("unauthenticated")
		}
		if method == "initialize" {
			if err := checkInitialize(req); err != nil {
				return nil, err
			}
		}
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		caller, refusal, err := s.gateCall(ctx, id, req)
		if err != nil {
			return nil, err
		}
		if refusal != nil && refusal.InputRequests != nil {
			return refusal, nil // input_required already
		}
		if refusal != nil {
			// The gate's own results are results like the tool's: a
			// stateless revision's resultType included.
			return complete(req, refusal), nil
		}
		return next(tools.WithCaller(ctx, caller), method, req)
	}
}

// gateCall decides a tools/call: the caller an allowed call runs for, or
// the tool payload that refuses it.
func (s *Server) gateCall(ctx context.Context, id verified, req mcp.Request) (tools.Caller, *mcp.CallToolResult, error) {
	// Nothing happens for a call until its nonce is on disk: a replay
	// after a crash then finds it, or the original never ran.
	if err := id.Durable(ctx); err != nil {
		s.log.Error("Cannot record nonce", "err", err)
		markQueuedRetry(ctx, id.Identity)
		return tools.Caller{}, toolError(&tools.Error{Code: "internal_error", Message: "the node could not record the request; try again later"}), nil
	}
	call, ok := req.(*mcp.CallToolRequest)
	if !ok || call.Params == nil {
		return tools.Caller{}, nil, errors.New("malformed tools/call")
	}
	t, known := s.tools[call.Params.Name]
	if !known {
		return tools.Caller{}, toolError(&tools.Error{Code: "unknown_tool", Message: "no tool named " + quoteName(call.Params.Name)}), nil
	}
	// An OAuth client calls the tiers of its token's scopes only: the
	// person consented to those.
	if id.OAuth != nil && !slices.Contains(id.OAuth.Tiers, t.Tier) {
		return tools.Caller{}, toolError(&tools.Error{Code: "insufficient_scope",
			Message: "this connection was not authorised for " + string(t.Tier) + "; connect again asking for it"}), nil
	}
	// Arguments two readers could read differently are refused
	// before anyone is asked about them.
	if err := tools.CheckArguments(call.Params.Arguments); err != nil {
		return tools.Caller{}, toolError(err), nil
	}
	caller, refusal, d := s.authorize(ctx, id, t, call.Params.Arguments)
	if refusal != nil && d.Outcome == approvals.ApprovalRequired {
		if r := s.elicitApproval(req, call, id, d.Approval); r != nil {
			return caller, r, nil
		}
	}
	return caller, refusal, nil
}

// annotations are a tool's hints as MCP says them. Every field is written
// out, defaults included, so that no client's default decides.
func annotations(h tools.Hints) *mcp.ToolAnnotations {
	destructive, openWorld := !h.ReadOnly && !h.Additive, !h.ClosedWorld
	a := &mcp.ToolAnnotations{ReadOnlyHint: h.ReadOnly, OpenWorldHint: &openWorld}
	if !h.ReadOnly {
		// Meaningful only for a tool that is not read-only.
		a.DestructiveHint = &destructive
	}
	return a
}

// runTool adapts a catalog tool to the SDK. It runs only after gate has
// authorised the call.
func (s *Server) runTool(t tools.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		out, err := t.Run(ctx, req.Params.Arguments)
		if err != nil {
			var te *tools.Error
			if errors.As(err, &te) {
				return toolError(te), nil
			}
			s.log.Error("Tool failed", "tool", t.Name, "err", err)
			return toolError(&tools.Error{Code: "internal_error", Message: "the node could not answer; try again later"}), nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			s.log.Error("Tool result not serialisable", "tool", t.Name, "err", err)
			return toolError(&tools.Error{Code: "internal_error", Message: "the node could not answer; try again later"}), nil
		}
		text := tools.Visible(b)
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}
		if t.OutputSchema != nil {
			// The same JSON, typed, for a client that reads the schema;
			// the text stays for one that does not (MCP 2025-06-18,
			// "Structured Content").
			res.StructuredContent = json.RawMessage(text)
		}
		return res, nil
	}
}

// toolError is an error-shaped tool payload: {"error", "message", ...} as
// JSON text, with isError set.
func toolError(payload any) *mcp.CallToolResult {
	b, _ := json.Marshal(payload)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}

// quoteName quotes a tool name from the request for an error message,
// cut short so that an agent cannot make the node echo a large payload.
func quoteName(n string) string {
	if len(n) > 64 {
		n = n[:64]
	}
	b, _ := json.Marshal(n)
	return string(b)
}
