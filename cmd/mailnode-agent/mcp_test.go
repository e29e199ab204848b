package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/app/apptest"
)

// TestMain lets a test run this command as its own process: with
// MAILNODE_AGENT_MAIN=1 the test binary is mailnode-agent.
func TestMain(m *testing.M) {
	if os.Getenv("MAILNODE_AGENT_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestMCPThroughRelay: an agent without a domain has the relay host its
// key document (keygen --relay); an MCP client launches `mailnode-agent
// mcp` over stdio, lists the node's tools and calls one through the
// relay. The first call comes back at once with the match code, the
// same call again merges into the same approval, and once the person
// approves it runs.
func TestMCPThroughRelay(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	_, port, _ := net.SplitHostPort(r.Addr)
	relayCA := filepath.Join(dir, "relay-ca.pem")
	if err := os.WriteFile(relayCA, (&apptest.Relayed{Relay: r, NodeCA: r.CA.Cert}).CAPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	dev := []string{"--ca", relayCA, "--dev-dns", r.DNSAddr, "--dev-port", port}
	keyFile := filepath.Join(dir, "agent.key")

	var out, errb bytes.Buffer
	if code := run(append([]string{"keygen", "--relay", r.URL, "--key-file", keyFile}, dev...), &out, &errb); code != 0 {
		t.Fatalf("keygen --relay = %d: %s", code, errb.String())
	}
	m := regexp.MustCompile(`Agent domain: (\S+)`).FindStringSubmatch(out.String())
	if m == nil || !strings.HasSuffix(m[1], ".agents.relay.test") {
		t.Fatalf("keygen --relay printed %q, want the hosted agent domain", out.String())
	}
	domain := m[1]
	// Hosting is idempotent: the same key offered again gets the same domain.
	out.Reset()
	if code := run(append([]string{"keygen", "--relay", r.URL, "--key-file", keyFile}, dev...), &out, &errb); code != 0 || !strings.Contains(out.String(), domain) {
		t.Fatalf("second keygen --relay = %d, %q", code, out.String())
	}

	e := apptest.StartNode(t, r, &log, domain)
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, e.CAPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	dev[1] = caFile

	cmd := exec.Command(os.Args[0], append([]string{"mcp", "--relay", r.URL, "--address", "alex.morgan@demo-mail.example",
		"--domain", domain, "--key", keyFile}, dev...)...)
	cmd.Env = append(os.Environ(), "MAILNODE_AGENT_MAIN=1")
	cmd.Stderr = &log
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	// The tools appear once the proxy has listed them at the node.
	var names []string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		lt, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		names = names[:0]
		for _, tl := range lt.Tools {
			names = append(names, tl.Name)
			// The node's typed results and hints are passed on.
			switch a := tl.Annotations; tl.Name {
			case "get_upcoming_travel":
				if tl.OutputSchema == nil || a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || !*a.OpenWorldHint {
					t.Errorf("get_upcoming_travel: outputSchema %v, annotations %+v", tl.OutputSchema, a)
				}
			case "send_draft":
				if tl.OutputSchema != nil || a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
					t.Errorf("send_draft: outputSchema %v, annotations %+v", tl.OutputSchema, a)
				}
			}
		}
		if len(names) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if !contains(names, "get_upcoming_travel") || !contains(names, "ask") {
		t.Fatalf("tools = %v, want the node's", names)
	}
	// The proxy speaks 2026-07-28 with the node.
	if !strings.Contains(log.String(), "mcpVersion=2026-07-28") {
		t.Errorf("the proxy did not say it speaks MCP 2026-07-28 with the node: %s", log.String())
	}

	var structured any
	callTravel := func() (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_upcoming_travel", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		structured = res.StructuredContent
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	text, isErr := callTravel()
	code := regexp.MustCompile(`match code (\S+)\.`).FindStringSubmatch(text)
	if !isErr || code == nil || !strings.Contains(text, "open mailnode on their phone or at the node and approve") || !strings.Contains(text, domain) {
		t.Fatalf("first call = %v %q, want the approval prompt with agent and match code", isErr, text)
	}
	again, _ := callTravel()
	if !strings.Contains(again, code[1]) {
		t.Fatalf("repeated call = %q, want the same approval (match code %s)", again, code[1])
	}
	if p := apptest.WaitPending(e.Node, 1); p != 1 {
		t.Fatalf("pending approvals = %d after two identical calls, want 1", p)
	}
	if _, err := e.Node.Decide(ctx, code[1], true); err != nil {
		t.Fatal(err)
	}
	text, isErr = callTravel()
	var travel struct {
		Trips []json.RawMessage `json:"trips"`
	}
	if isErr || json.Unmarshal([]byte(text), &travel) != nil || len(travel.Trips) == 0 {
		t.Fatalf("call after approval = %v %q, want the demo's trips", isErr, text)
	}
	if m, _ := structured.(map[string]any); m == nil || m["trips"] == nil {
		t.Errorf("call after approval: structuredContent %v, want the trips", structured)
	}

	// The client's argument bytes reach the node as they are: a key given
	// twice is refused there, not silently merged here.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_upcoming_travel", Arguments: json.RawMessage(`{"from":"2026-01-01T00:00:00Z","from":"2030-01-01T00:00:00Z"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if txt := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(txt, "invalid_arguments") || !strings.Contains(txt, "twice") {
		t.Fatalf("call with keys differing in case = %v %q, want invalid_arguments", res.IsError, txt)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
