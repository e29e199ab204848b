package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"regexp"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/agent"
)

// mcpCommand is a stdio MCP server for MCP clients that cannot sign
// requests (all mainstream ones): it lists the node's tools as its own and
// forwards each call to the node, signed with the agent's key. It keeps
// one session with the node, so a repeated call after the person approves
// is merged by the node into the same approval and runs.
func mcpCommand(args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	fs := flag.NewFlagSet("mailnode-agent mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf nodeFlags
	nf.register(fs)
	verbose := fs.Bool("v", false, "log every forwarded call to stderr")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := nf.check(); err != nil || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "mailnode-agent mcp: give --domain, --key, and either --node or --relay with --address")
		return 2
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	// stdout is the protocol; everything else goes to stderr, which MCP
	// clients show in their logs.
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	sess, err := nf.session(ctx, "mailnode-agent-mcp")
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-agent:", err)
		return 1
	}
	p := &proxy{sess: sess, log: log}
	opts := &mcp.ServerOptions{
		Instructions: "Tools of the user's mailnode: fields extracted from their mail, never whole mails. " +
			"When a tool answers that the user must approve, tell the user the match code, wait until they say " +
			"they approved (on their phone, or at their node), then call the same tool again with the same arguments.",
	}
	if *verbose {
		opts.Logger = log // the SDK's own session log
	}
	p.srv = mcp.NewServer(&mcp.Implementation{Name: "mailnode", Version: "1"}, opts)
	p.srv.AddReceivingMiddleware(p.wholeList)
	// MCP clients want tools at once; a node that is offline now gets its
	// tools added (and announced) when it is back.
	go p.listTools(ctx)
	if err := p.srv.Run(ctx, &mcp.IOTransport{Reader: stdin, Writer: stdout}); err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "mailnode-agent mcp:", err)
		return 1
	}
	return 0
}

type proxy struct {
	sess *agent.Session
	srv  *mcp.Server
	log  *slog.Logger
	// adding is held while the node's tools are added, one AddTool each:
	// a tools/list in between waits for it rather than answer with part
	// of the node's tools (CI saw a client get two of them).
	adding sync.RWMutex
}

// wholeList makes a tools/list wait while the node's tools are being
// added.
func (p *proxy) wholeList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" {
			p.adding.RLock()
			defer p.adding.RUnlock()
		}
		return next(ctx, method, req)
	}
}

// listTools initializes the session with the node, retrying with back-off
// while it is unreachable, and registers the node's tools.
func (p *proxy) listTools(ctx context.Context) {
	wait := time.Second
	for {
		err := p.sess.Initialize(ctx)
		if err == nil {
			break
		}
		p.log.Warn("Cannot list the node's tools yet", "err", err, "retry_in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
	n := 0
	p.adding.Lock()
	defer p.adding.Unlock()
	for _, t := range p.sess.Tools() {
		if err := checkTool(t); err != nil {
			p.log.Warn("Skipping a tool of the node", "tool", t.Name, "err", err)
			continue
		}
		mt := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Annotations: toolAnnotations(t)}
		if isObject(t.OutputSchema) {
			// The node's typed result, passed on with its schema; the
			// text stays beside it (forward).
			mt.OutputSchema = t.OutputSchema
		}
		p.srv.AddTool(mt, p.forward(t.Name, mt.OutputSchema != nil))
		n++
	}
	p.log.Info("Serving the node's tools", "tools", n, "mcpVersion", p.sess.Version())
}

var toolName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// checkTool refuses what the SDK's AddTool would panic on.
func checkTool(t agent.Tool) error {
	if !toolName.MatchString(t.Name) {
		return errors.New("invalid tool name")
	}
	var schema struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(t.InputSchema, &schema) != nil || schema.Type != "object" {
		return errors.New("input schema is not an object schema")
	}
	return nil
}

// toolAnnotations are the node's hints for t, passed on; nil when it
// sends none or ones that do not parse.
func toolAnnotations(t agent.Tool) *mcp.ToolAnnotations {
	if !isObject(t.Annotations) {
		return nil
	}
	var a mcp.ToolAnnotations
	if json.Unmarshal(t.Annotations, &a) != nil {
		return nil
	}
	return &a
}

// isObject reports whether b is a JSON object.
func isObject(b json.RawMessage) bool {
	var m map[string]json.RawMessage
	return len(b) > 0 && json.Unmarshal(b, &m) == nil && m != nil
}

// forward sends a call to the node with the client's argument bytes as
// they came (the node decodes them once, and refuses duplicate keys) and
// turns the node's answer into a result the person can read; for a tool
// with an output schema (structured), the answer is also its
// structuredContent, as the node gave it.
func (p *proxy) forward(name string, structured bool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args any = map[string]any{}
		if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
			args = raw
		}
		out, err := p.sess.Call(ctx, name, args)
		p.log.Debug("Forwarded a call", "tool", name, "err", err)
		res := callResult(out, err)
		if structured && err == nil && isObject(out) {
			res.StructuredContent = out
		}
		return res, nil
	}
}

// callResult is the MCP result for the node's answer: the tool's JSON, or
// what the person must do.
func callResult(out json.RawMessage, err error) *mcp.CallToolResult {
	var (
		ar *agent.ApprovalRequired
		qe *agent.QueuedError
		te *agent.ToolError
	)
	text := func(s string, isError bool) *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: isError, Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	switch {
	case err == nil:
		return text(string(out), false)
	case errors.As(err, &ar):
		payload, _ := json.Marshal(ar.ApprovalRequired)
		return text(fmt.Sprintf("Waiting for the user's approval. Ask them to open mailnode %s and approve %s (%s) "+
			"for the agent %s, checking that it shows the match code %s. Once they have approved, call %s again "+
			"with the same arguments; it then runs. The request expires at %s.\n%s",
			ar.Where(), ar.Tool, ar.Tier, ar.Agent, ar.MatchCode, ar.Tool,
			time.Unix(ar.ExpiresAt, 0).UTC().Format(time.RFC3339), payload), true)
	case errors.As(err, &qe):
		return text(fmt.Sprintf("The user's node is offline. The call was left, sealed, in the relay's queue as %s "+
			"until %s; call the same tool again later for the answer.",
			qe.RequestID, time.Unix(qe.ExpiresAt, 0).UTC().Format(time.RFC3339)), true)
	case errors.As(err, &te):
		payload, _ := json.Marshal(te)
		return text(string(payload), true)
	}
	return text("mailnode: "+err.Error(), true)
}
