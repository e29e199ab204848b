package oauth_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"mailnode/approvals"
)

func (e *env) storedClients() int {
	e.t.Helper()
	var n int
	if err := e.file.DB().QueryRowContext(context.Background(), "SELECT count(*) FROM oauth_clients").Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// TestRegistrationDuringFlood: a registration stores nothing, so a flood
// of them neither fills a table nor (at the rate that once starved the
// person: one request every 3 s, after a burst) keeps the person's own
// registration out; the registration is stored once an authorization
// used it.
func TestRegistrationDuringFlood(t *testing.T) {
	e := newEnv(t, nil)
	for range 200 {
		if e.registerNamed("a", "https://evil.example/cb") == "" {
			t.Fatal("the flood's own registrations refused within the burst")
		}
	}
	const cb = "https://chatgpt.com/connector_platform_oauth_redirect"
	var mine string
	for i := range 100 {
		e.clock.add(3 * time.Second)
		e.registerNamed("a", "https://evil.example/cb")
		id := e.registerNamed("ChatGPT", cb)
		if id == "" {
			t.Fatalf("person's registration %d refused during the flood", i)
		}
		mine = id
	}
	if n := e.storedClients(); n != 0 {
		t.Errorf("%d registrations stored before any authorization, want 0", n)
	}
	if r := e.get("/oauth/authorize?" + authParams(mine, cb, newPKCE("m")).Encode()); r.status != http.StatusOK {
		t.Fatalf("authorize with the person's registration = %d", r.status)
	}
	if n := e.storedClients(); n != 1 {
		t.Errorf("%d registrations stored after one was used, want 1", n)
	}
}

// TestForgedClientIDRefused: a registered id is honoured only as this
// node made it: altered, cut short, or made by another node's key, it
// names no client, and its redirect URI is never trusted.
func TestForgedClientIDRefused(t *testing.T) {
	e := newEnv(t, nil)
	const cb = "https://claude.ai/api/mcp/auth_callback"
	id := e.register(cb)
	if !approvals.IsRegisteredClient(id) || len(id) > 1024 {
		t.Fatalf("registered id %q: want the registered prefix, no dot, at most 1024 characters", id)
	}
	other := newEnv(t, nil).register("https://evil.example/cb")
	flip := func(i int) string {
		b := []byte(id)
		if b[i] == 'a' {
			b[i] = 'b'
		} else {
			b[i] = 'a'
		}
		return string(b)
	}
	for name, forged := range map[string]string{
		"altered early":   flip(8),
		"altered middle":  flip(len(id) / 2),
		"altered MAC":     flip(len(id) - 3),
		"cut short":       id[:len(id)-5],
		"upper case":      strings.ToUpper(id[:4]) + id[4:],
		"another node's":  other,
		"longer":          id + "aaaaaaaa",
		"legacy unstored": "dcr-aaaaaaaaaaaaaaaaaaaaaaaa",
	} {
		for _, redirect := range []string{cb, "https://evil.example/cb"} {
			r := e.get("/oauth/authorize?" + authParams(forged, redirect, newPKCE("f")).Encode())
			if r.status != http.StatusBadRequest || !strings.Contains(r.body, "not known to this node") {
				t.Errorf("%s id with %s: authorize = %d, want 400 not known", name, redirect, r.status)
			}
		}
	}
	if p, _ := e.ap.Pending(context.Background()); len(p) != 0 {
		t.Errorf("forged ids opened %d prompts", len(p))
	}
	// The genuine id still works, and a code it got is redeemed by no
	// other id.
	p := newPKCE("g")
	v := authParams(id, cb, p)
	code := e.approveAndCode(v)
	resp, err := e.http.PostForm(e.node.URL+"/oauth/token", map[string][]string{"grant_type": {"authorization_code"},
		"code": {code}, "code_verifier": {p.verifier}, "client_id": {flip(len(id) - 3)}, "redirect_uri": {cb},
		"resource": {resource}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("code redeemed with an altered client id = %d %s, want 400", resp.StatusCode, b)
	}
}

// TestRegistrationTooLong: a registration whose id would be too long
// for URLs is refused as RFC 7591 says, not cut.
func TestRegistrationTooLong(t *testing.T) {
	e := newEnv(t, nil)
	var uris []string
	for i := range 10 {
		uris = append(uris, "https://app.example/"+strings.Repeat("x", 100)+string(rune('a'+i)))
	}
	if id := e.registerNamed("Long", uris...); id != "" {
		t.Errorf("registration with %d long redirect URIs = %q, want refused", len(uris), id)
	}
}
