package mcpclients_test

import (
	"bufio"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"mailnode/app/apptest"
	"mailnode/internal/npmtest"
)

// clientFiles are what testdata holds for the clients: the lock file pins
// every package; client.mjs imports from beside node_modules.
var clientFiles = []string{"package.json", "package-lock.json", "client.mjs"}

// first and second are what client.mjs prints before and after the
// person approves.
type first struct {
	Version string `json:"version"`
	Tools   map[string]struct {
		Output      bool `json:"output"`
		Annotations *struct {
			ReadOnly    bool  `json:"readOnlyHint"`
			Destructive *bool `json:"destructiveHint"`
			OpenWorld   *bool `json:"openWorldHint"`
		} `json:"annotations"`
	} `json:"tools"`
	FirstIsError bool `json:"first_is_error"`
	First        struct {
		Error     string `json:"error"`
		MatchCode string `json:"match_code"`
		Agent     string `json:"agent"`
	} `json:"first"`
	Seen  [][2]string `json:"seen"`
	Error string      `json:"error"`
}

type second struct {
	IsError    bool            `json:"is_error"`
	Text       json.RawMessage `json:"text"`
	Structured json.RawMessage `json:"structured"`
	Seen       [][2]string     `json:"seen"`
	Error      string          `json:"error"`
}

// TestTypeScriptClients: the official TypeScript client 1.x (1.32:
// 2025-11-25; 1.22: 2025-06-18) and 2.x (2026-07-28), signing with http-message-signatures, straight to
// the node and through the relay: tools with their output schemas and
// hints, a call that waits for the person (approval_required, the match
// code), the person's approval, and the call again, typed.
func TestTypeScriptClients(t *testing.T) {
	// Debian's own Node.js may be 18: the 2.x client needs 20.
	node, npm := npmtest.Node(t, 20, "")
	if node == "" {
		t.Skip("Node.js and npm are not installed")
	}
	dir := npmtest.Install(t, "mcpclients", os.DirFS("testdata"), clientFiles, npm)

	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	e := apptest.StartNode(t, r, &log)
	direct, err := url.Parse(e.Node.GatewayURL())
	if err != nil {
		t.Fatal(err)
	}
	targets := []struct{ name, url, dial string }{
		{"straight", direct.String(), "127.0.0.1:" + direct.Port()},
		{"relay", "https://" + e.Host + "/mcp", r.Addr},
	}
	for _, sdk := range []struct{ name, want string }{{"v1", "2025-11-25"}, {"v1.22", "2025-06-18"}, {"v2", "2026-07-28"}} {
		for _, tg := range targets {
			t.Run(sdk.name+"/"+tg.name, func(t *testing.T) {
				domain, key := apptest.HostAgent(t, r)
				der, err := x509.MarshalPKCS8PrivateKey(key)
				if err != nil {
					t.Fatal(err)
				}
				cfg, _ := json.Marshal(map[string]string{"url": tg.url, "dial": tg.dial, "ca": string(e.CAPEM()),
					"keyid": domain + "#k1", "key": base64.StdEncoding.EncodeToString(der), "sdk": sdk.name})
				cfgFile := filepath.Join(t.TempDir(), "config.json")
				if err := os.WriteFile(cfgFile, cfg, 0o600); err != nil {
					t.Fatal(err)
				}
				cmd := exec.CommandContext(t.Context(), node, filepath.Join(dir, "client.mjs"), cfgFile)
				cmd.Dir = dir
				var stderr apptest.Buffer
				cmd.Stderr = &stderr
				stdin, _ := cmd.StdinPipe()
				stdout, _ := cmd.StdoutPipe()
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				defer func() {
					stdin.Close()
					if err := cmd.Wait(); err != nil {
						t.Errorf("client: %v\n%s", err, stderr.String())
					}
				}()
				lines := bufio.NewScanner(stdout)
				lines.Buffer(nil, 1<<20)
				line := func() []byte {
					t.Helper()
					if !lines.Scan() {
						t.Fatalf("client printed nothing: %v\n%s", lines.Err(), stderr.String())
					}
					t.Logf("client: %.600s", lines.Bytes())
					return lines.Bytes()
				}

				var f first
				if b := line(); json.Unmarshal(b, &f) != nil || f.Error != "" {
					t.Fatalf("client: %s", b)
				}
				if f.Version != sdk.want {
					t.Errorf("negotiated %q, want %q", f.Version, sdk.want)
				}
				checkSeen(t, f.Seen, sdk.want)
				if want := map[bool]string{true: "server/discover", false: "initialize"}[sdk.want == "2026-07-28"]; len(f.Seen) == 0 || f.Seen[0][0] != want {
					t.Errorf("first request %v, want %s", f.Seen, want)
				}
				if len(f.Tools) != 8 {
					t.Errorf("tools = %v, want the node's 8", f.Tools)
				}
				for name, tl := range f.Tools {
					structured := name == "get_upcoming_travel" || name == "order_status" || name == "bills_due"
					a := tl.Annotations
					if tl.Output != structured || a == nil || a.OpenWorld == nil {
						t.Errorf("%s: output schema %v, annotations %+v", name, tl.Output, a)
						continue
					}
					if name == "send_draft" && (a.ReadOnly || a.Destructive == nil || !*a.Destructive) {
						t.Errorf("send_draft: annotations %+v, want destructive", a)
					}
				}
				if !f.FirstIsError || f.First.Error != "approval_required" || f.First.MatchCode == "" || f.First.Agent != domain {
					t.Fatalf("first call = %+v, want approval_required for %s", f.First, domain)
				}

				if _, err := e.Node.Decide(t.Context(), f.First.MatchCode, true); err != nil {
					t.Fatal(err)
				}
				io.WriteString(stdin, "approved\n")
				var s second
				if b := line(); json.Unmarshal(b, &s) != nil || s.Error != "" {
					t.Fatalf("client: %s", b)
				}
				checkSeen(t, s.Seen, sdk.want)
				var text, structured struct {
					Trips []json.RawMessage `json:"trips"`
				}
				if s.IsError || json.Unmarshal(s.Text, &text) != nil || len(text.Trips) == 0 {
					t.Fatalf("call after approval = %s, want the demo's trips", s.Text)
				}
				if json.Unmarshal(s.Structured, &structured) != nil || len(structured.Trips) != len(text.Trips) {
					t.Errorf("structuredContent %s, want the text's JSON %s", s.Structured, s.Text)
				}
			})
		}
	}
}

// checkSeen checks the requests a client sent: a 2026-07-28 client sends
// no initialize and names its revision on every request; a 2025 one
// begins with initialize.
func checkSeen(t *testing.T, seen [][2]string, version string) {
	t.Helper()
	for i, s := range seen {
		method, header := s[0], s[1]
		switch {
		case version == "2026-07-28" && (method == "initialize" || header != version):
			t.Errorf("request %d: %s with Mcp-Protocol-Version %q, want none but 2026-07-28 ones", i, method, header)
		case version != "2026-07-28" && method != "initialize" && header != version && !slices.Contains([]string{"notifications/initialized"}, method):
			t.Errorf("request %d: %s with Mcp-Protocol-Version %q, want %q", i, method, header, version)
		}
	}
}
