package mcpclients_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mailnode/app/apptest"
	"mailnode/internal/npmtest"
)

// inspectorFiles pin the MCP Inspector (testdata/inspector).
var inspectorFiles = []string{"package.json", "package-lock.json"}

// TestInspectorCLI: the MCP Inspector's CLI mode (1.0.3, pinned; it
// declares Node.js 22, which the test installs from the npm registry's
// node package when the machine's is older) lists the tools of /oauth/mcp
// and calls one, with an access token the test obtained through the
// front door as a browser and the person would (the Inspector's CLI has
// no OAuth flow of its own); without a token, and after the person
// revoked the client, it is refused.
func TestInspectorCLI(t *testing.T) {
	node, npm := npmtest.Node(t, 22, "")
	if node == "" {
		t.Skip("Node.js and npm are not installed")
	}
	dir := npmtest.Install(t, "inspector", os.DirFS(filepath.Join("testdata", "inspector")), inspectorFiles, npm)

	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	e := apptest.StartNode(t, r, &log)
	direct, err := url.Parse(e.Node.GatewayURL())
	if err != nil {
		t.Fatal(err)
	}
	base := "https://" + direct.Host
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, e.CAPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	browser := browser(straightHTTP(e, direct.Port()))

	// A registered client's token, approved with `mailnode approvals`'s
	// call (no phone is paired here).
	const back = "http://127.0.0.1:9/cb"
	resp, err := browser.Post(base+"/oauth/register", "application/json",
		strings.NewReader(`{"client_name":"MCP Inspector","redirect_uris":["`+back+`"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()
	verifier := strings.Repeat("inspector-", 5)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {back},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"resource": {base + "/oauth/mcp"}, "scope": {"structured_read"}}
	pg := get(t, browser, base+"/oauth/authorize?"+q.Encode())
	code := regexp.MustCompile(`class="code">([A-Z0-9]{3}-[A-Z0-9]{3})<`).FindSubmatch(pg.body)
	poll := regexp.MustCompile(`url=(/oauth/authorize\?request=[a-z0-9-]+)"`).FindSubmatch(pg.body)
	// A registered client's identity for the approvals is the short form
	// the page names it by, not its whole id.
	who := regexp.MustCompile(`registered client (dcr-[a-z0-9]+)<`).FindSubmatch(pg.body)
	if code == nil || poll == nil || who == nil {
		t.Fatalf("consent page = %d %s", pg.status, pg.body)
	}
	if _, err := e.Node.Decide(t.Context(), string(code[1]), true); err != nil {
		t.Fatal(err)
	}
	loc, _ := url.Parse(get(t, browser, base+string(poll[1])).header.Get("Location"))
	resp, err = browser.PostForm(base+"/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")},
		"client_id": {reg.ClientID}, "redirect_uri": {back}, "code_verifier": {verifier}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if tok.AccessToken == "" {
		t.Fatal("no access token")
	}

	var stderr apptest.Buffer
	inspector := func(t *testing.T, token string, args ...string) ([]byte, error) {
		t.Helper()
		argv := append([]string{filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "cli", "build", "cli.js"),
			"--cli", base + "/oauth/mcp", "--transport", "http"}, args...)
		if token != "" {
			argv = append(argv, "--header", "Authorization: Bearer "+token)
		}
		cmd := exec.CommandContext(t.Context(), node, argv...)
		cmd.Dir = dir
		// The Inspector runs its CLI with the node on PATH: this one.
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"),
			"NODE_EXTRA_CA_CERTS="+caFile)
		stderr = apptest.Buffer{}
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		t.Logf("inspector %s: %.800s%.400s", strings.Join(args, " "), out, stderr.String())
		return out, err
	}

	out, err := inspector(t, tok.AccessToken, "--method", "tools/list")
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err != nil || json.Unmarshal(out, &list) != nil || len(list.Tools) != 8 {
		t.Fatalf("tools/list = %v, %s", err, out)
	}
	out, err = inspector(t, tok.AccessToken, "--method", "tools/call", "--tool-name", "get_upcoming_travel")
	var call struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Trips []json.RawMessage `json:"trips"`
		} `json:"structuredContent"`
	}
	if err != nil || json.Unmarshal(out, &call) != nil || call.IsError || len(call.StructuredContent.Trips) == 0 {
		t.Fatalf("tools/call get_upcoming_travel = %v, %s", err, out)
	}
	if out, err := inspector(t, "", "--method", "tools/list"); err == nil || !strings.Contains(stderr.String(), `"error":"unauthorized"`) {
		t.Fatalf("tools/list without a token = %v, %s, want refused unauthorized", err, out)
	}
	if _, err := e.Node.Revoke(context.Background(), string(who[1]), ""); err != nil {
		t.Fatal(err)
	}
	if out, err := inspector(t, tok.AccessToken, "--method", "tools/list"); err == nil || !strings.Contains(stderr.String(), `"error":"invalid_token"`) {
		t.Fatalf("tools/list after revocation = %v, %s, want refused invalid_token", err, out)
	}
}
