package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/gateway/tools"
)

// newMCP builds the MCP endpoint on the official SDK: one server, shared
// by all requests, in stateless mode (every request stands alone, as every
// request is signed on its own; no mcp-session-id is issued) with JSON
// responses.
func (s *Server) newMCP() http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mailnode", Version: "svc/1"}, &mcp.ServerOptions{
		Logger: s.log,
	})
	for _, name := range s.toolList {
		t := s.tools[name]
		srv.AddTool(&mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}, s.runTool(t))
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
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		// Nothing happens for a call until its nonce is on disk: a replay
		// after a crash then finds it, or the original never ran.
		if err := id.Durable(ctx); err != nil {
			s.log.Error("Cannot record nonce", "err", err)
			markQueuedRetry(ctx, id)
			return toolError(&tools.Error{Code: "internal_error", Message: "the node could not record the request; try again later"}), nil
		}
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || call.Params == nil {
			return nil, errors.New("malformed tools/call")
		}
		t, known := s.tools[call.Params.Name]
		if !known {
			return toolError(&tools.Error{Code: "unknown_tool", Message: "no tool named " + quoteName(call.Params.Name)}), nil
		}
		// Arguments two readers could read differently are refused
		// before anyone is asked about them.
		if err := tools.CheckArguments(call.Params.Arguments); err != nil {
			return toolError(err), nil
		}
		caller, refusal := s.authorize(ctx, id, t, call.Params.Arguments)
		if refusal != nil {
			return refusal, nil
		}
		return next(tools.WithCaller(ctx, caller), method, req)
	}
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
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(tools.Visible(b))}}}, nil
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
