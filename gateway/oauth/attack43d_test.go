package oauth_test

// Outside attack 43d (fourth round on the OAuth front door): the
// attacker's reproducers, kept as regression tests. Each comment says what
// the attack did; each test now checks it no longer works.

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/gateway/agentkeys"
	"mailnode/gateway/oauth"
)

// Report D1: the allowance is charged after the front door's own checks but
// BEFORE the approvals decide, so a request the approvals refuse without
// a prompt (the client is blocked, or its open prompts / hourly prompts
// are spent) still spends it. Every registered client holding no grant
// shares one allowance (20, then one per 2.5 s). A stranger registers a
// client, the person blocks it as docs/gateway.md advises ("deny them
// (block the dcr-... id)"), and from then on the stranger's requests
// naming the blocked id are 403 with no prompt, each spending the shared
// allowance: the person's ChatGPT-like client (registering dynamically,
// no grant yet) gets 429 for as long as the stranger keeps sending about
// one request every 2.5 s, and the phone shows nothing to deny.
func TestAttack43dFixedBlockedRegistrationDrainsSharedAllowance(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	attacker := e.browser()
	const cb = "https://evil.example/cb"
	x := e.registerAs("Helpful Tool", cb)
	if r := e.getIn(attacker, "/oauth/authorize?"+authParams(x, cb, newPKCE("x0")).Encode()); r.status != 200 {
		t.Fatalf("attacker's first consent = %d", r.status)
	}
	p, _ := e.ap.Pending(ctx)
	if len(p) != 1 {
		t.Fatalf("%d prompts", len(p))
	}
	// The person does what the docs say: deny and block the dcr id.
	if _, err := e.ap.Decide(ctx, p[0].MatchCode, false); err != nil {
		t.Fatal(err)
	}
	if err := e.ap.Block(ctx, p[0].Domain); err != nil {
		t.Fatal(err)
	}
	// The stranger spends the shared allowance with the blocked id.
	for i := range 25 {
		r := e.getIn(attacker, "/oauth/authorize?"+authParams(x, cb, newPKCE(fmt.Sprint("b", i))).Encode())
		if r.status != http.StatusForbidden && r.status != http.StatusTooManyRequests {
			t.Fatalf("blocked request %d = %d", i, r.status)
		}
	}
	// The person's ChatGPT stand-in: a fresh dynamic registration.
	const gptCB = "https://chatgpt.example/connector/oauth/callback"
	refused, attempts := 0, 0
	for i := range 120 { // six minutes
		e.clock.add(3 * time.Second)
		for j := range 2 { // 2 requests per 3 s cover the refill of 1 per 2.5 s
			e.getIn(attacker, "/oauth/authorize?"+authParams(x, cb, newPKCE(fmt.Sprint("s", i, j))).Encode())
		}
		if i%6 == 0 { // the person retries every 18 s
			gpt := e.registerAs("ChatGPT", gptCB)
			r := e.get("/oauth/authorize?" + authParams(gpt, gptCB, newPKCE(fmt.Sprint("p", i))).Encode())
			attempts++
			if r.status == http.StatusTooManyRequests {
				refused++
				if !strings.Contains(r.body, "not only this application") {
					t.Errorf("the person's attempt refused by an allowance: %q", between(r.body, "<p>", "</p>"))
				}
			}
			if i == 0 {
				t.Logf("the person's attempt: %d %q", r.status, between(r.body, "<p>", "</p>"))
			}
		}
	}
	p, _ = e.ap.Pending(ctx)
	t.Logf("the person's %d attempts over 6 minutes: %d refused 429; prompts on the phone: %d", attempts, refused, len(p))
	// Each attempt is a new registration: past the registered clients'
	// share of prompts (10) the node's cap refuses, and says so.
	if len(p) < 10 || refused > attempts-10 {
		t.Fatalf("the blocked registration's requests still spend the shared allowance: %d/%d refused, %d prompts", refused, attempts, len(p))
	}
}

// Report D1 (site variant): the same for a document client's site: once 5 prompts of the
// stranger's are open for the person's own claude.ai-like client (its
// public id and redirect URI), every further request is refused by the
// approvals' pending cap (no prompt) but spends claude.ai's allowance,
// so after the person denies the five, their own attempt is 429.
func TestAttack43dFixedPendingCapStillSpendsSiteAllowance(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	attacker := e.browser()
	for i := range 5 {
		if r := e.getIn(attacker, "/oauth/authorize?"+authParams(cimdID, redirect, newPKCE(fmt.Sprint("a", i))).Encode()); r.status != 200 {
			t.Fatalf("attacker consent %d = %d", i, r.status)
		}
	}
	// Allowance: burst 5 spent. Each 10 s the stranger's one request
	// meets the pending cap and spends the refill.
	for i := range 6 {
		e.clock.add(10 * time.Second)
		r := e.getIn(attacker, "/oauth/authorize?"+authParams(cimdID, redirect, newPKCE(fmt.Sprint("c", i))).Encode())
		if r.status != http.StatusTooManyRequests {
			t.Fatalf("capped request = %d", r.status)
		}
	}
	p, _ := e.ap.Pending(ctx)
	n := len(p)
	for _, a := range p {
		e.ap.Decide(ctx, a.MatchCode, false) // the person denies all five
	}
	e.clock.add(9 * time.Second)
	r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("me")).Encode())
	p, _ = e.ap.Pending(ctx)
	t.Logf("%d prompts denied; the person's own attempt then: %d %q; prompts now %d", n, r.status, between(r.body, "<p>", "</p>"), len(p))
	if r.status != http.StatusOK || len(p) != 1 {
		t.Fatalf("the person's attempt after denying = %d with %d prompts, want the consent page", r.status, len(p))
	}
}

// Report D5: nameNote looks at only the first 4 domain-like strings of a name;
// four that are the client's own identity (or a parent of it) come
// first, and "claude.ai" after them is not flagged. Also a look-alike
// dot (U+00B7, U+2024 is folded by NFKC, U+00B7 is not) is no domain to
// the regexp.
func TestAttack43dFixedNameNoteBypass(t *testing.T) {
	e := newEnv(t, nil)
	for i, name := range []string{
		"example.com example.com example.com example.com · Claude (claude.ai)",
		"Claude (claude\u00b7ai) official connector",
	} {
		doc := fmt.Sprintf(`{"client_id":%q,"client_name":%q,"redirect_uris":[%q]}`, cimdID, name, redirect)
		e.doc.Store(&doc)
		e2 := e
		if i > 0 {
			e2 = newEnv(t, nil)
			e2.doc.Store(&doc)
		}
		r := e2.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE(fmt.Sprint("n", i))).Encode())
		frag := between(r.body, `<span class="who">`, "asks to connect")
		p, _ := e2.ap.Pending(context.Background())
		t.Logf("page: %q", frag)
		if len(p) == 1 {
			t.Logf("phone: %q", strings.SplitN(p[0].Details, "\n", 3)[:2])
		}
		if r.status != 200 || !strings.Contains(r.body, "its name names claude.ai, which is not where it comes from") {
			t.Fatalf("not flagged: %d %q", r.status, frag)
		}
	}
}

// docHost is a TLS server answering as both the person's client's host
// (cimdHost, its document at cimdID) and the stranger's evilHost: any
// path /v-* of evilHost is a valid document whose client_id is its URL,
// /slow-* stalls for 5 s, /big-* is 64 KiB of junk, anything else 404.
type docHost struct {
	srv                        *httptest.Server
	personHits, evilHits, slow atomic.Int64
}

// evilHost is on another site than cimdHost: the site's fetches are
// counted together.
const evilHost = "evil.example.net"

func newDocHost(t *testing.T) *docHost {
	d := &docHost{}
	d.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if host == cimdHost {
			d.personHits.Add(1)
			if r.URL.Path == "/oauth/client.json" {
				fmt.Fprintf(w, `{"client_id":%q,"client_name":"Claude","redirect_uris":[%q]}`, cimdID, redirect)
				return
			}
			http.NotFound(w, r)
			return
		}
		d.evilHits.Add(1)
		switch {
		case strings.HasPrefix(r.URL.Path, "/v-"):
			json.NewEncoder(w).Encode(map[string]any{"client_id": "https://" + evilHost + r.URL.Path, "client_name": "x",
				"redirect_uris": []string{"https://" + evilHost + "/cb"}})
		case strings.HasPrefix(r.URL.Path, "/l-"):
			json.NewEncoder(w).Encode(map[string]any{"client_id": "https://" + evilHost + r.URL.Path, "client_name": "x",
				"redirect_uris": []string{"https://" + evilHost + "/cb"}, "logo_uri": "https://" + evilHost + "/logo-" + r.URL.Path[3:] + ".png"})
		case strings.HasPrefix(r.URL.Path, "/logo-"):
			b := make([]byte, 64<<10)
			copy(b, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
			for i := 16; i < len(b); i++ {
				b[i] = byte(i*7 + len(r.URL.Path))
			}
			w.Write(b)
		case strings.HasPrefix(r.URL.Path, "/slow-"):
			d.slow.Add(1)
			select {
			case <-time.After(6 * time.Second):
			case <-r.Context().Done():
			}
		case strings.HasPrefix(r.URL.Path, "/big-"):
			w.Write(make([]byte, 64<<10))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *docHost) tweak(c *oauth.Config) {
	addr := d.srv.Listener.Addr().String()
	c.Docs = agentkeys.New(agentkeys.Config{DevAddrs: map[string]string{evilHost: addr, cimdHost: addr},
		DevRootCAs: []*x509.Certificate{d.srv.Certificate()}}, nil)
}

// Report D3 (a): since the allowance moved behind every check, the document fetch
// (one of those checks) happens before any allowance is spent: the node
// fetches a client id's document for every request naming a new path,
// with no per-host rate at all (docs/protocol.md still says "after the
// identity's rate (5 at once, one per 10 s for one host), so a stranger
// can have the node fetch from a host it names at that rate and no
// faster"). Here 300 requests in one (simulated) instant make the node
// fetch 300 times from one third-party host, 64 KiB each.
func TestAttack43dFixedFetchesUnbounded(t *testing.T) {
	d := newDocHost(t)
	e := newEnv(t, d.tweak)
	start := time.Now()
	for i := range 300 {
		id := fmt.Sprintf("https://%s/big-%d", evilHost, i)
		if r := e.get("/oauth/authorize?" + authParams(id, "https://"+evilHost+"/cb", newPKCE("x")).Encode()); r.status != http.StatusBadRequest && r.status != http.StatusServiceUnavailable {
			t.Fatalf("request %d = %d", i, r.status)
		}
	}
	t.Logf("300 requests in one simulated instant (%v real): the node fetched %d times from %s (about %d MiB)",
		time.Since(start).Round(time.Millisecond), d.evilHits.Load(), evilHost, d.evilHits.Load()*64/1024)
	if d.evilHits.Load() > 10 {
		t.Fatalf("%d fetches from one site in an instant, want at most its 10", d.evilHits.Load())
	}
}

// Report D3 (b): the same unbounded fetches fill the document cache (1,024) with
// valid documents of the stranger's one host in seconds (each request
// answered 400 at its redirect URI: no prompt, no allowance); a full
// cache never drops a valid document, so for the next hour the person's
// own client's document is never kept: every reload of the consent page
// fetches it again, and while the stranger stalls the 4 fetch places the
// person's consent page, with the prompt open on the phone, turns into
// "This application is no longer usable." and stops reloading.
func TestAttack43dFixedCacheFullThenStall(t *testing.T) {
	d := newDocHost(t)
	e := newEnv(t, d.tweak)
	for i := range 1024 {
		id := fmt.Sprintf("https://%s/v-%d", evilHost, i)
		if r := e.get("/oauth/authorize?" + authParams(id, "https://"+evilHost+"/other", newPKCE("x")).Encode()); r.status != http.StatusBadRequest && r.status != http.StatusServiceUnavailable {
			t.Fatalf("fill %d = %d %s", i, r.status, between(r.body, "<p>", "</p>"))
		}
		if i%100 == 99 {
			e.clock.add(time.Minute) // ten more of the site's fetches a minute
		}
	}
	if n := d.evilHits.Load(); n > 10+10*10 {
		t.Errorf("%d fetches from the stranger's site over ten minutes, want at most 110", n)
	}
	_, poll := e.consent(authParams(cimdID, redirect, newPKCE("me")))
	before := d.personHits.Load()
	for range 3 {
		e.clock.add(2 * time.Second)
		if r := e.get(poll); r.status != 200 {
			t.Fatalf("poll = %d", r.status)
		}
	}
	if n := d.personHits.Load() - before; n != 0 {
		t.Errorf("3 reloads of the consent page fetched the person's document %d times, want none (kept, or not needed)", n)
	}
	// With the document gone from the cache, a reload still shows the
	// page, without a fetch.
	e.clock.add(2 * time.Hour)
	if r := e.get(poll); r.status != http.StatusBadRequest && !strings.Contains(r.body, cimdHost) {
		t.Errorf("reload after the document expired = %d %q", r.status, between(r.body, "<p>", "</p>"))
	}
}

// Report D3 (c): each of those 1,024 kept documents may carry a logo on its own
// host, fetched with it (a second fetch) and kept in the cache as a
// data: URL: 64 KiB of PNG-looking bytes become ~87 KB of base64, so one
// stranger's host pins ~90 MB of the node's memory for an hour, in
// seconds, with requests that open no prompt and spend no allowance.
func TestAttack43dFixedCacheLogosPinMemory(t *testing.T) {
	d := newDocHost(t)
	e := newEnv(t, d.tweak)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	start := time.Now()
	for i := range 1024 {
		id := fmt.Sprintf("https://%s/l-%d", evilHost, i)
		if r := e.get("/oauth/authorize?" + authParams(id, "https://"+evilHost+"/other", newPKCE("x")).Encode()); r.status != http.StatusBadRequest && r.status != http.StatusServiceUnavailable {
			t.Fatalf("fill %d = %d", i, r.status)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	held := int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
	t.Logf("1024 documents with logos in %v (%d fetches): heap grew by %d MB and stays so",
		time.Since(start).Round(time.Millisecond), d.evilHits.Load(), held>>20)
	if held > 8<<20 {
		t.Fatalf("heap grew by %d bytes, want the site's few documents and no large logo", held)
	}
}

// Report D4: the fresh share (the last 10 of the strangers' 50) is only for a
// site that opened no prompt in the last hour. A stranger names the
// person's client's public id once (one prompt, which the person denies)
// and its site is no longer fresh for an hour; with the other 40 places
// held as docs/gateway.md says a stranger can (two registrations, five
// free hosted names, one paid domain), the person's first connection of
// that client is refused, while a client no one named this hour gets
// through. Control: without the one request, the person's gets through.
func TestAttack43dFixedFreshShareSpoiledByNamingClient(t *testing.T) {
	run := func(spoil bool) reply {
		e := newEnv(t, nil)
		ctx := context.Background()
		attacker := e.browser()
		if spoil {
			if r := e.getIn(attacker, "/oauth/authorize?"+authParams(cimdID, redirect, newPKCE("spoil")).Encode()); r.status != 200 {
				t.Fatalf("spoil = %d", r.status)
			}
			p, _ := e.ap.Pending(ctx)
			e.ap.Decide(ctx, p[0].MatchCode, false)
		}
		const cb = "https://evil.example/cb"
		for i := range 2 {
			x := e.registerAs(fmt.Sprint("r", i), cb)
			for j := range 5 {
				if r := e.getIn(attacker, "/oauth/authorize?"+authParams(x, cb, newPKCE(fmt.Sprint(i, j))).Encode()); r.status != 200 {
					t.Fatalf("registered %d/%d = %d", i, j, r.status)
				}
			}
		}
		ask := func(domain string, j int) {
			d, err := e.ap.Request(ctx, approvals.Call{Domain: domain, KeyFP: fmt.Sprint("k-", domain, j), Tool: fmt.Sprint("t", j), Tier: approvals.StructuredRead,
				Args: []byte(fmt.Sprintf(`{"n":%d}`, j))})
			if err != nil || d.Outcome != approvals.ApprovalRequired {
				t.Fatalf("%s: %v %v", domain, d.Outcome, err)
			}
		}
		for i := range 5 {
			for j := range 5 {
				ask(fmt.Sprintf("agent%d.github.io", i), j)
			}
		}
		for j := range 5 {
			ask("a.paid-evil.net", j)
		}
		p, _ := e.ap.Pending(ctx)
		t.Logf("spoil=%v: %d strangers' prompts open", spoil, len(p))
		e.clock.add(30 * time.Second)
		return e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("me")).Encode())
	}
	ctl := run(false)
	r := run(true)
	t.Logf("control (nobody named the client this hour): %d; after one request naming it: %d %q", ctl.status, r.status, between(r.body, "<p>", "</p>"))
	if ctl.status != 200 || r.status != 200 {
		t.Fatalf("control %d, after one denied request naming the client %d: want both 200", ctl.status, r.status)
	}
}

// Report D6: the client id of a document client still reaches the phone
// verbatim apart from invisible characters: wide blank characters that
// are not "invisible" (U+3000 IDEOGRAPHIC SPACE, U+00A0) pass unmarked,
// and a text view with pre-wrap/break-word wraps a run of them into
// blank lines (not verified in a browser here).
func TestAttack43dFixedClientIDWideBlanks(t *testing.T) {
	d := newDocHost(t)
	e := newEnv(t, d.tweak)
	id := "https://" + evilHost + "/v-" + strings.Repeat("\u3000", 150) + "x"
	r := e.get("/oauth/authorize?" + authParams(id, "https://"+evilHost+"/cb", newPKCE("w")).Encode())
	p, _ := e.ap.Pending(context.Background())
	if r.status != http.StatusBadRequest || len(p) != 0 {
		t.Fatalf("a client id with blanks = %d with %d prompts, want refused (a URI is printable ASCII)", r.status, len(p))
	}
}

// Report D2: a stranger's consent prompts for the person's CONNECTED client
// (its public id and redirect URI) count against that client's own
// identity in the approvals: 5 open ones make the connected client's
// per-call approvals (send, raw_read) too_many_pending, and 30 in an
// hour make them too_many_prompts. The person cannot block the stranger
// without blocking their own client; denying frees a place the
// stranger refills within 10 s.
func TestAttack43dFixedConsentsStarveConnectedClientsCalls(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	pk := newPKCE("person")
	code := e.approveAndCode(authParams(cimdID, redirect, pk))
	access, _ := e.tokens(e.exchange(code, cimdID, redirect, pk.verifier))
	pr, err := e.srv.Verify(ctx, access, nodeHost)
	if err != nil {
		t.Fatal(err)
	}
	send := func(n int) approvals.Decision {
		d, err := e.ap.Request(ctx, approvals.Call{Domain: pr.Domain, KeyFP: pr.KeyFP, Tool: "send_draft", Tier: approvals.Send,
			Args: []byte(fmt.Sprintf(`{"draft_id":"d%d"}`, n)), Bind: fmt.Sprint("h", n)})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := send(0); d.Outcome != approvals.ApprovalRequired {
		t.Fatalf("control send = %v", d.Outcome)
	}
	p, _ := e.ap.Pending(ctx)
	for _, a := range p {
		e.ap.Decide(ctx, a.ID, false)
	}
	// The stranger: five consents naming the connected client.
	attacker := e.browser()
	for i := range 5 {
		e.clock.add(10 * time.Second)
		if r := e.getIn(attacker, "/oauth/authorize?"+authParams(cimdID, redirect, newPKCE(fmt.Sprint("a", i))).Encode()); r.status != 200 {
			t.Fatalf("attacker consent %d = %d %s", i, r.status, between(r.body, "<p>", "</p>"))
		}
	}
	d := send(1)
	t.Logf("the connected client's send_draft while the stranger holds 5 consents: %v", d.Outcome)
	if d.Outcome != approvals.ApprovalRequired {
		t.Fatalf("the connected client's send_draft with a stranger's 5 consents open = %v, want approval_required", d.Outcome)
	}
	// Over the hour: the person denies each as it comes; the stranger
	// refills. After 30 prompts of the domain this hour, too_many_prompts.
	for i := 0; i < 30; i++ {
		p, _ := e.ap.Pending(ctx)
		for _, a := range p {
			e.ap.Decide(ctx, a.ID, false)
		}
		e.clock.add(10 * time.Second)
		e.getIn(attacker, "/oauth/authorize?"+authParams(cimdID, redirect, newPKCE(fmt.Sprint("b", i))).Encode())
	}
	p, _ = e.ap.Pending(ctx)
	for _, a := range p {
		e.ap.Decide(ctx, a.ID, false)
	}
	d = send(2)
	t.Logf("after the person denied every stranger's prompt, the connected client's send_draft: %v (retry after %v)", d.Outcome, d.RetryAfter)
	if d.Outcome != approvals.ApprovalRequired {
		t.Fatalf("the connected client's send_draft after a stranger's 30 consents this hour = %v, want approval_required", d.Outcome)
	}
}
