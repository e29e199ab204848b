package mcpclients_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/approvals/phoneapi"
	"mailnode/gateway/phone/phoneclient"
	"mailnode/internal/npmtest"
)

// cimdHost serves the test's Client ID Metadata Document, reached by the
// node's development address override as agent key documents are.
const (
	cimdHost = "assistant.example"
	cimdURL  = "https://assistant.example/mcp-client.json"
	redirect = "http://127.0.0.1:9/oauth/callback"
)

// oauthStep is what oauth.mjs prints at each step.
type oauthStep struct {
	Authorize string `json:"authorize"`
	ClientID  string `json:"client_id"`
	Tools     int    `json:"tools"`
	Travel    *toolResult
	Excerpt   *toolResult
	Refreshed bool        `json:"refreshed"`
	After     *toolResult `json:"after_refresh"`
	Revoked   string      `json:"after_revoke"`
	Error     string      `json:"error"`
}

type toolResult struct {
	IsError    bool            `json:"is_error"`
	Text       map[string]any  `json:"text"`
	Structured json.RawMessage `json:"structured"`
}

// TestTypeScriptOAuthClient: the official TypeScript SDK's OAuth client
// (1.32's OAuthClientProvider and auth(), and the 2.x client's, which
// also checks the authorization response's issuer) connects to /oauth/mcp,
// straight and through the relay, once by a Client ID Metadata Document
// and once by Dynamic Client Registration: discovery from the 401, the
// consent page followed by the test as a browser, the reference phone
// approving the prompt with the page's code, PKCE and the token exchange,
// tools/list, a structured call, a get_excerpt the phone approves on its
// own, a refresh, and the person's revocation, after which the client is
// sent to authorize again.
func TestTypeScriptOAuthClient(t *testing.T) {
	node, npm := npmtest.Node(t, 20, "")
	if node == "" {
		t.Skip("Node.js and npm are not installed")
	}
	dir := npmtest.Install(t, "mcpclients", os.DirFS("testdata"), clientFiles, npm)
	// oauth.mjs imports from dir's node_modules; it is copied beside them
	// on every run (the install is named by the hash of clientFiles).
	script, err := os.ReadFile(filepath.Join("testdata", "oauth.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	scriptFile := filepath.Join(dir, fmt.Sprintf("oauth-%d.mjs", os.Getpid()))
	if err := os.WriteFile(scriptFile, script, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(scriptFile) })

	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	// The client's web host: its metadata document over TLS.
	cert, err := r.CA.Issue(cimdHost)
	if err != nil {
		t.Fatal(err)
	}
	docHost := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/mcp-client.json" {
			http.NotFound(w, req)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"client_id":%q,"client_name":"Example Assistant","redirect_uris":[%q],"token_endpoint_auth_method":"none"}`, cimdURL, redirect)
	}), TLSConfig: &tls.Config{Certificates: []tls.Certificate{*cert}}}
	dln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go docHost.ServeTLS(dln, "", "")
	t.Cleanup(func() { docHost.Close() })
	e := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentAddrs: map[string]string{cimdHost: dln.Addr().String()}})

	// The reference phone, paired through the relay.
	ctx := t.Context()
	offer, err := e.Node.Pair(ctx, app.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	phone, _, err := phoneclient.Pair(ctx, e.AgentHTTP(), offer.URL, "Reference phone")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Node.ConfirmPhone(ctx, phone.ID); err != nil {
		t.Fatal(err)
	}
	type arrival struct {
		text string
		at   time.Time
	}
	prompts := make(chan arrival, 64)
	// As a phone does, the test reconnects when the stream ends (a write
	// past its deadline on a loaded machine ends it); the node sends
	// every pending prompt first on each new stream.
	go func() {
		for ctx.Err() == nil {
			phone.Events(ctx, func(ev phoneapi.Event) error {
				if ev.Type == "prompt" {
					prompts <- arrival{ev.Prompt, time.Now()}
				}
				return nil
			})
			time.Sleep(100 * time.Millisecond)
		}
	}()
	approve := func(t *testing.T, code, agent string) time.Time {
		t.Helper()
		timeout := time.After(15 * time.Second)
		for {
			select {
			case a := <-prompts:
				p, err := phoneclient.ReadPrompt(a.text)
				if err != nil {
					t.Fatal(err)
				}
				if p.MatchCode != code {
					continue
				}
				if p.Agent != agent {
					t.Fatalf("the phone shows %s for agent %q, want %q", code, p.Agent, agent)
				}
				if _, err := phone.Decide(ctx, a.text, phoneapi.Approve); err != nil {
					t.Fatal(err)
				}
				return a.at
			case <-timeout:
				t.Fatalf("no prompt with code %s on the phone", code)
			}
		}
	}

	direct, err := url.Parse(e.Node.GatewayURL())
	if err != nil {
		t.Fatal(err)
	}
	straight := browser(straightHTTP(e, direct.Port()))
	targets := []struct {
		name, url, dial string
		browser         *http.Client
	}{
		{"straight", "https://" + direct.Host + "/oauth/mcp", "127.0.0.1:" + direct.Port(), straight},
		{"relay", "https://" + e.Host + "/oauth/mcp", r.Addr, browser(e.AgentHTTP())},
	}
	for _, tg := range targets {
		for _, tc := range []struct{ sdk, mode string }{{"v1", "cimd"}, {"v1", "dcr"}, {"v2", "cimd"}, {"v2", "dcr"}} {
			mode := tc.mode
			t.Run(tc.sdk+"/"+tg.name+"/"+mode, func(t *testing.T) {
				cimd := map[string]string{"cimd": cimdURL}[mode]
				cfg, _ := json.Marshal(map[string]string{"url": tg.url, "dial": tg.dial, "ca": string(e.CAPEM()),
					"cimd": cimd, "redirect": redirect, "sdk": tc.sdk})
				cfgFile := filepath.Join(t.TempDir(), "config.json")
				if err := os.WriteFile(cfgFile, cfg, 0o600); err != nil {
					t.Fatal(err)
				}
				cmd := exec.CommandContext(t.Context(), node, scriptFile, cfgFile)
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
				step := func() oauthStep {
					t.Helper()
					if !lines.Scan() {
						t.Fatalf("client printed nothing: %v\n%s", lines.Err(), stderr.String())
					}
					t.Logf("client: %.600s", lines.Bytes())
					var s oauthStep
					if err := json.Unmarshal(lines.Bytes(), &s); err != nil || s.Error != "" {
						t.Fatalf("client: %s", lines.Bytes())
					}
					return s
				}

				// 1. The browser follows the client to the node's page.
				s := step()
				au, err := url.Parse(s.Authorize)
				if err != nil || au.Host != strings.TrimPrefix(strings.TrimSuffix(tg.url, "/oauth/mcp"), "https://") ||
					au.Query().Get("code_challenge_method") != "S256" || au.Query().Get("resource") != tg.url {
					t.Fatalf("authorization URL %q", s.Authorize)
				}
				clientID := au.Query().Get("client_id")
				identity := clientID
				if mode == "cimd" {
					identity = cimdHost
					if clientID != cimdURL {
						t.Fatalf("client id %q, want the document's URL", clientID)
					}
				} else if !strings.HasPrefix(clientID, "dcr-") {
					t.Fatalf("client id %q, want a registered one", clientID)
				}
				asked := time.Now()
				page := get(t, tg.browser, s.Authorize)
				code := regexp.MustCompile(`class="code">([A-Z0-9]{3}-[A-Z0-9]{3})<`).FindSubmatch(page.body)
				poll := regexp.MustCompile(`url=(/oauth/authorize\?request=[a-z0-9-]+)"`).FindSubmatch(page.body)
				if page.status != 200 || code == nil || poll == nil {
					t.Fatalf("consent page = %d %s", page.status, page.body)
				}
				if mode == "dcr" {
					// A registered client's identity for the approvals is
					// the short form the page names it by.
					who := regexp.MustCompile(`registered client (dcr-[a-z0-9]+)<`).FindSubmatch(page.body)
					if who == nil {
						t.Fatalf("consent page names no registered client: %s", page.body)
					}
					identity = string(who[1])
				}
				at := approve(t, string(code[1]), identity)
				t.Logf("consent: authorization request to the phone's prompt in %v", at.Sub(asked))
				back := get(t, tg.browser, "https://"+au.Host+string(poll[1]))
				loc, _ := url.Parse(back.header.Get("Location"))
				if back.status != http.StatusFound || !strings.HasPrefix(loc.String(), redirect+"?") || loc.Query().Get("code") == "" {
					t.Fatalf("page after approval = %d %q", back.status, back.header.Get("Location"))
				}
				io.WriteString(stdin, loc.String()+"\n")

				// 2. Tools with the token.
				s = step()
				if s.Tools != 8 || s.ClientID != clientID {
					t.Errorf("tools %d, client id %q; want 8, %q", s.Tools, s.ClientID, clientID)
				}
				if s.Travel == nil || s.Travel.IsError || s.Travel.Text["trips"] == nil || len(s.Travel.Structured) < 3 {
					t.Fatalf("get_upcoming_travel = %+v", s.Travel)
				}
				if s.Excerpt == nil || s.Excerpt.Text["error"] != "approval_required" || s.Excerpt.Text["agent"] != identity {
					t.Fatalf("get_excerpt = %+v", s.Excerpt)
				}
				approve(t, s.Excerpt.Text["match_code"].(string), identity)
				io.WriteString(stdin, "approved\n")

				// 3. The approved excerpt, a refresh.
				s = step()
				if s.Excerpt == nil || s.Excerpt.IsError || s.Excerpt.Text["error"] != nil {
					t.Fatalf("get_excerpt after the phone approved = %+v", s.Excerpt)
				}
				if !s.Refreshed || s.After == nil || s.After.IsError {
					t.Fatalf("refresh: %v, then %+v", s.Refreshed, s.After)
				}

				// 4. The person revokes the client.
				if n, err := e.Node.Revoke(ctx, identity, ""); err != nil || n == 0 {
					t.Fatalf("Revoke(%s) = %d, %v", identity, n, err)
				}
				io.WriteString(stdin, "revoked\n")
				if s = step(); !strings.HasPrefix(s.Revoked, "authorize again") {
					t.Fatalf("after revocation: %q, want the client sent to authorize again", s.Revoked)
				}
			})
		}
	}
}

type page struct {
	status int
	header http.Header
	body   []byte
}

// get is the browser: it does not follow redirects (the client's
// redirect URI is the client's, not reached here).
func get(t *testing.T, hc *http.Client, u string) page {
	t.Helper()
	c := *hc
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return page{resp.StatusCode, resp.Header, b}
}

// browser is hc with a browser's cookies: the consent page binds the
// request to the browser that opened it.
func browser(hc *http.Client) *http.Client {
	jar, _ := cookiejar.New(nil)
	c := *hc
	c.Jar = jar
	return &c
}

// straightHTTP reaches the node on its loopback port, not through the
// relay, trusting the node's CA.
func straightHTTP(e *apptest.Relayed, port string) *http.Client {
	roots := x509.NewCertPool()
	roots.AddCert(e.NodeCA)
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13},
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "tcp", "127.0.0.1:"+port)
		}}}
}
