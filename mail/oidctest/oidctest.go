// Package oidctest runs an OpenID Connect provider others wrote and
// certify, the npm package oidc-provider (9.x), on loopback HTTPS for the
// sign-in tests: a test's node signs in to it exactly as to Google or
// Microsoft, and Dovecot and the test's SMTP server check the node's
// tokens against its introspection endpoint (RFC 7662).
//
// The package is installed with npm ci from npm/package-lock.json into the
// user's cache, once per lock file (internal/npmtest); MAILNODE_TEST_OIDC=1
// (make test) turns a missing Node.js or npm, or a failed install, into a
// failure.
//
// The provider's own pages (its development login and consent pages, its
// device code pages) are driven by plain HTTP requests with a cookie jar:
// a Browser fills in the forms as a person would.
package oidctest

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mailnode/internal/loopback"
	"mailnode/internal/npmtest"
	"mailnode/internal/selfsigned"
	"mailnode/mail/imaptest"
)

// EnvRequire, when "1", turns a missing Node.js or npm into a failure.
const EnvRequire = "MAILNODE_TEST_OIDC"

//go:embed npm/package.json npm/package-lock.json npm/provider.mjs
var npmFiles embed.FS

// The clients registered with the provider.
const (
	// ClientID is the node: a native public client (no secret), code
	// with PKCE, the device grant and refresh tokens, the loopback
	// redirect on any port.
	ClientID = "mailnode-test"
	// OtherClientID is another program registered the same way, whose
	// ID tokens are not for the node.
	OtherClientID = "another-program"
	// IntrospectionID and IntrospectionSecret are the mail servers'
	// client: it only introspects tokens.
	IntrospectionID     = "mailserver"
	IntrospectionSecret = "mailserver-secret-0123456789"
)

// Options change the provider; the zero value is the default.
type Options struct {
	// AccessTokenTTL is the access tokens' lifetime; default an hour.
	AccessTokenTTL time.Duration
}

// Provider is a running oidc-provider.
type Provider struct {
	Issuer string // https://127.0.0.1:port
	// CAFile is the PEM of the certificate the provider serves (its own
	// root), for a mail server that calls it (Dovecot's tls_ca_cert_file).
	CAFile string
	// TLS trusts the provider and nothing else.
	TLS *tls.Config
	dir string
	cmd *exec.Cmd
	log *strings.Builder
}

// HTTPClient is a client that trusts the provider, for the node's
// sign-in and for the test's own requests.
func (p *Provider) HTTPClient() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: p.TLS.Clone()}}
}

// Start runs the provider until the test ends.
func Start(t testing.TB, o Options) *Provider {
	t.Helper()
	// oidc-provider 9 supports the current LTS releases; Debian's Node.js
	// may be older.
	node, npm := npmtest.Node(t, 22, EnvRequire)
	if node == "" {
		t.Skip("Node.js and npm are not installed")
	}
	src, _ := fs.Sub(npmFiles, "npm")
	modules := npmtest.Install(t, "oidc-provider", src, []string{"package.json", "package-lock.json"}, npm)
	p, err := start(node, modules, o)
	if err != nil {
		t.Fatalf("start oidc-provider: %v", err)
	}
	t.Cleanup(func() {
		p.Close()
		if t.Failed() {
			t.Logf("oidc-provider's output:\n%s", p.log.String())
		}
	})
	return p
}

func start(node, modules string, o Options) (*Provider, error) {
	// Not t.TempDir: Dovecot's processes, run unprivileged, read CAFile.
	dir, err := os.MkdirTemp("", "mailnode-oidc-")
	if err != nil {
		return nil, err
	}
	os.Chmod(dir, 0o755)
	cert, err := selfsigned.New("mailnode test OpenID provider", "127.0.0.1")
	if err == nil {
		err = cert.WriteFiles(dir)
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	tc := cert.ClientConfig()
	script, _ := fs.ReadFile(npmFiles, "npm/provider.mjs")
	// The script imports oidc-provider from beside node_modules.
	sum := sha256.Sum256(script)
	scriptPath := filepath.Join(modules, "provider-"+hex.EncodeToString(sum[:8])+".mjs")
	if err := os.WriteFile(scriptPath, script, 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	port, err := loopback.FreePort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	issuer := "https://127.0.0.1:" + strconv.Itoa(port)
	native := func(id string) map[string]any {
		return map[string]any{
			"client_id": id, "application_type": "native", "token_endpoint_auth_method": "none",
			"redirect_uris":  []string{"http://127.0.0.1/signin/callback"},
			"grant_types":    []string{"authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"},
			"response_types": []string{"code"},
		}
	}
	clients, _ := json.Marshal([]any{native(ClientID), native(OtherClientID), map[string]any{
		"client_id": IntrospectionID, "client_secret": IntrospectionSecret,
		"token_endpoint_auth_method": "client_secret_basic",
		"grant_types":                []string{}, "response_types": []string{}, "redirect_uris": []string{},
	}})
	ttl := o.AccessTokenTTL
	if ttl <= 0 {
		ttl = time.Hour
	}
	cmd := exec.Command(node, scriptPath)
	cmd.Dir = modules
	cmd.Env = append(os.Environ(), "OIDC_ISSUER="+issuer, "OIDC_PORT="+strconv.Itoa(port),
		"OIDC_CERT="+filepath.Join(dir, "cert.pem"), "OIDC_KEY="+filepath.Join(dir, "key.pem"),
		"OIDC_CLIENTS="+string(clients), "OIDC_ACCESS_TTL="+strconv.Itoa(int(ttl.Seconds())), "NODE_ENV=test")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start node: %w", err)
	}
	p := &Provider{Issuer: issuer, CAFile: filepath.Join(dir, "cert.pem"), TLS: tc, dir: dir, cmd: cmd, log: &strings.Builder{}}
	ready := make(chan struct{})
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		sc := bufio.NewScanner(out)
		once := false
		for sc.Scan() {
			p.log.WriteString(sc.Text() + "\n")
			if !once && sc.Text() == "listening" {
				once = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-logged:
		p.Close()
		return nil, fmt.Errorf("oidc-provider exited:\n%s", p.log.String())
	case <-time.After(30 * time.Second):
		p.Close()
		return nil, fmt.Errorf("oidc-provider did not start in 30s:\n%s", p.log.String())
	}
	return p, nil
}

// Close stops the provider and removes its files.
func (p *Provider) Close() {
	if p.cmd != nil && p.cmd.Process != nil {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	os.RemoveAll(p.dir)
}

// Dovecot starts a Dovecot whose own oauth2 passdb checks the access
// tokens of user at this provider's introspection endpoint, offering the
// token mechanisms named (Dovecot's names, "xoauth2 oauthbearer" when
// none). A Dovecot that cannot start fails the test where
// imaptest.EnvRequireDovecot is "1" (make test) and skips it elsewhere.
func (p *Provider) Dovecot(t testing.TB, user string, mechanisms ...string) *imaptest.Dovecot {
	t.Helper()
	d, err := imaptest.StartDovecotWith(imaptest.DovecotOptions{OAuth2: &imaptest.OAuth2{
		User: user, IntrospectionURL: p.IntrospectionURL(), UsernameAttribute: "sub", CAFile: p.CAFile,
		Mechanisms: strings.Join(mechanisms, " "),
	}})
	if err != nil {
		if os.Getenv(imaptest.EnvRequireDovecot) == "1" {
			t.Fatalf("start Dovecot (required by %s=1): %v", imaptest.EnvRequireDovecot, err)
		}
		t.Skipf("Dovecot not available: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// IntrospectionURL is the introspection endpoint with the mail servers'
// client credentials in it, as Dovecot's introspection_url takes them.
func (p *Provider) IntrospectionURL() string {
	u, _ := url.Parse(p.Issuer + "/token/introspection")
	u.User = url.UserPassword(IntrospectionID, IntrospectionSecret)
	return u.String()
}

// Introspection is the part of an RFC 7662 answer the tests read.
type Introspection struct {
	Active   bool   `json:"active"`
	Subject  string `json:"sub"`
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
}

// Introspect asks the provider about a token as a mail server does (the
// test's SMTP server).
func (p *Provider) Introspect(ctx context.Context, token string) (Introspection, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.Issuer+"/token/introspection",
		strings.NewReader(url.Values{"token": {token}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(IntrospectionID, IntrospectionSecret)
	resp, err := p.HTTPClient().Do(req)
	if err != nil {
		return Introspection{}, err
	}
	defer resp.Body.Close()
	var in Introspection
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return in, fmt.Errorf("introspection: %s: %s", resp.Status, b)
	}
	return in, json.NewDecoder(resp.Body).Decode(&in)
}

// Revoke revokes a token (RFC 7009) as the node's client, as a person
// removing the app's access at the provider does.
func (p *Provider) Revoke(ctx context.Context, token string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.Issuer+"/token/revocation",
		strings.NewReader(url.Values{"token": {token}, "client_id": {ClientID}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := p.HTTPClient().Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New("revocation: " + resp.Status)
	}
	return nil
}
