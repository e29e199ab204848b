package oauth_test

// Outside attack 43e (fifth round on the OAuth front door): the attacker's
// reproducers, kept as regression tests; each asserts the fixed behaviour
// (its finding E4, a trade-off, is in docs/gateway.md instead).

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/gateway/oauth"
)

// dbBytes is the node file's size in pages.
func (e *env) dbBytes() int64 {
	var pages, size int64
	e.file.DB().QueryRow("PRAGMA page_count").Scan(&pages)
	e.file.DB().QueryRow("PRAGMA page_size").Scan(&size)
	return pages * size
}

// agentCallLatency is the median time of a signed agent's waiting send
// call (found again under the approvals' lock) over n calls.
func agentCallLatency(t *testing.T, ap *approvals.Manager, n int) time.Duration {
	call := approvals.Call{Domain: "agent.example.org", KeyFP: "fp1", Tool: "send_draft", Tier: approvals.Send,
		Args: []byte(`{"draft_id":"d1"}`), Details: "To: a@example.org"}
	var ds []time.Duration
	for range n {
		start := time.Now()
		if _, err := ap.Request(context.Background(), call); err != nil {
			t.Fatal(err)
		}
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// serveDirect answers one GET on the front door without a TLS round trip
// (a stranger's plain HTTP client: no cookies needed).
func (e *env) serveDirect(path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "https://"+nodeHost+path, nil)
	e.srv.Serve(rec, req, nodeHost)
	return rec
}

// E1: since outside attack 43d's fix (D1) a request the approvals refuse
// without a prompt hands its allowance back. Nothing else bounds such
// requests: each one still reaches approvals.Request, which takes the
// approvals' one lock (m.slow) for the pending/hour queries and writes
// one audit row (no approval id, a new consent key every time: never
// merged), kept 90 days. The stranger names the person's client's public
// id (claude.ai stand-in), opens its 5 prompts, then sends any number of
// requests in the same instant: every one is a 429 page and an audit row.
func TestAttack43eRefusedConsentsFloodAudit(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	for i := range 5 {
		if r := e.serveDirect("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE(fmt.Sprint("a", i))).Encode()); r.Code != 200 {
			t.Fatalf("attacker consent %d = %d", i, r.Code)
		}
	}
	// One allowance token back (10 s): every refused request takes it
	// and hands it back.
	e.clock.add(10 * time.Second)
	quiet := agentCallLatency(t, e.ap, 50)
	var stop sync.WaitGroup
	done := make(chan struct{})
	for w := range 2 {
		stop.Add(1)
		go func() {
			defer stop.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				e.serveDirect("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE(fmt.Sprint("w", w, i))).Encode())
			}
		}()
	}
	busy := agentCallLatency(t, e.ap, 50)
	close(done)
	stop.Wait()
	t.Logf("a signed agent's waiting call: median %v quiet, %v while two stranger loops send refused consents", quiet, busy)
	before, _ := e.ap.Audit(ctx, 0)
	size0 := e.dbBytes()
	const n = 3000
	start := time.Now()
	codes := map[int]int{}
	for i := range n {
		r := e.serveDirect("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE(fmt.Sprint("f", i))).Encode())
		codes[r.Code]++
	}
	took := time.Since(start)
	after, _ := e.ap.Audit(ctx, 0)
	t.Logf("node file grew %d KiB for %d refused requests (%d bytes each)", (e.dbBytes()-size0)/1024, n, (e.dbBytes()-size0)/n)
	t.Logf("%d refused requests in one simulated instant (%v real, %.0f/s on this machine): answers %v; audit rows %d -> %d",
		n, took.Round(time.Millisecond), float64(n)/took.Seconds(), codes, len(before), len(after))
	if len(after) > 0 {
		a := after[0]
		t.Logf("newest audit row: agent=%s key=%s tool=%s decision=%s", a.Domain, a.KeyFP, a.Tool, a.Decision)
	}
	// The person's own attempt is still refused (their client's 5
	// consent places are the stranger's), but that is documented; what
	// is new is that nothing bounds the requests themselves.
	if len(after)-len(before) >= n/2 {
		t.Errorf("unbounded: %d refused requests wrote %d audit rows (kept 90 days) and each took the approvals' lock", n, len(after)-len(before))
	}
}

// E1 (blocked variant): the person does what docs/gateway.md says and
// blocks the stranger's registration; the stranger's requests naming the
// blocked id are 403 pages that spend nothing and each write an audit
// row "agent_blocked".
func TestAttack43eBlockedClientFloodsAudit(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	const cb = "https://evil.example/cb"
	x := e.registerAs("Helpful Tool", cb)
	if r := e.serveDirect("/oauth/authorize?" + authParams(x, cb, newPKCE("x0")).Encode()); r.Code != 200 {
		t.Fatalf("first consent = %d", r.Code)
	}
	p, _ := e.ap.Pending(ctx)
	e.ap.Decide(ctx, p[0].MatchCode, false)
	e.ap.Block(ctx, p[0].Domain)
	before, _ := e.ap.Audit(ctx, 0)
	const n = 3000
	codes := map[int]int{}
	for i := range n {
		codes[e.serveDirect("/oauth/authorize?"+authParams(x, cb, newPKCE(fmt.Sprint("b", i))).Encode()).Code]++
	}
	after, _ := e.ap.Audit(ctx, 0)
	t.Logf("%d requests naming a blocked registration: answers %v; audit rows %d -> %d", n, codes, len(before), len(after))
	if len(after)-len(before) >= n/2 {
		t.Errorf("unbounded: a blocked client's %d requests wrote %d audit rows", n, len(after)-len(before))
	}
}

// fastDocs answers the person's client's document and fails every other
// URL at once (a name that does not resolve), as the real fetcher does
// for made-up hosts.
type fastDocs struct{}

func (fastDocs) Document(ctx context.Context, u string) ([]byte, error) {
	if u == cimdID {
		return []byte(fmt.Sprintf(`{"client_id":%q,"client_name":"Claude","redirect_uris":[%q]}`, cimdID, redirect)), nil
	}
	return nil, errors.New("no such host")
}

// E2: the per-site fetch limiters (43d's fix for D3) live in a map of at
// most 4,096 (maxLimiters), and a limiter leaves it only once full again
// (6 s after its one fetch). A stranger naming 4,096 made-up sites (one
// valid-looking request each, no document needed, no prompt, no
// allowance) fills it; then every site without a limiter yet — the
// person's first connection of claude.ai — gets "the node is busy
// fetching" (503) until they refill, and the stranger renews it with
// 4,096 new names every 6 s (about 700 requests a second). The prune
// also scans all 4,096 under the front door's one mutex on every such
// request. docs/protocol.md says "there is deliberately no node-wide
// rate of first fetches: a stranger naming new sites would hold it, and
// with it the person's own first connection of a client": the map's
// bound is one.
func TestAttack43eFetchLimiterMapFull(t *testing.T) {
	e := newEnv(t, func(c *oauth.Config) { c.Docs = fastDocs{} })
	round := func(r int) time.Duration {
		var wg sync.WaitGroup
		start := time.Now()
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < 4096; i += 8 {
					id := fmt.Sprintf("https://s%d-%d.example/c", r, i)
					e.serveDirect("/oauth/authorize?" + authParams(id, "https://x.example/cb", newPKCE("x")).Encode())
				}
			}()
		}
		wg.Wait()
		return time.Since(start)
	}
	blocked := 0
	for r := range 3 {
		took := round(r)
		rec := e.serveDirect("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE(fmt.Sprint("me", r))).Encode())
		t.Logf("round %d: 4096 made-up sites in %v real; the person's first connection: %d %q", r, took.Round(time.Millisecond),
			rec.Code, between(rec.Body.String(), "<p>", "</p>"))
		if rec.Code == http.StatusServiceUnavailable {
			blocked++
		}
		e.clock.add(6 * time.Second) // every made-up site's limiter is full again
	}
	if blocked > 0 {
		t.Errorf("the person's first connection refused in %d of 3 rounds by made-up sites filling the fetch limiters", blocked)
	}
}

// E3: a consent page's reloads show the document kept in the cache
// (pageClient) without looking at its expiry, and a fresh fetch replaces
// it: the name the person reads can change under the open prompt (the
// phone keeps the first one). The stranger's document says "Mail
// Summary Helper" when the prompt opens, and "Your Mail Backup (safe to
// approve)" a while later.
func TestAttack43eReloadShowsChangedName(t *testing.T) {
	e := newEnv(t, func(c *oauth.Config) { c.DocumentTTL = time.Minute })
	doc := fmt.Sprintf(`{"client_id":%q,"client_name":"Mail Summary Helper","redirect_uris":[%q]}`, cimdID, redirect)
	e.doc.Store(&doc)
	_, poll := e.consent(authParams(cimdID, redirect, newPKCE("p")))
	doc2 := fmt.Sprintf(`{"client_id":%q,"client_name":"Your Mail Backup (safe to approve)","redirect_uris":[%q]}`, cimdID, redirect)
	e.doc.Store(&doc2)
	e.clock.add(2 * time.Minute)
	// Anyone's request naming the id refetches it (the cache entry expired).
	other := e.browser()
	e.clock.add(10 * time.Second)
	e.getIn(other, "/oauth/authorize?"+authParams(cimdID, redirect, newPKCE("q")).Encode())
	r := e.get(poll)
	p, _ := e.ap.Pending(context.Background())
	phone := ""
	for _, a := range p {
		phone += strings.ReplaceAll(a.Details, "\n", " / ") + " | "
	}
	t.Logf("reload: %d %q; phone: %s", r.status, between(r.body, `<span class="who">`, "asks to connect"), phone)
	if strings.Contains(r.body, "Your Mail Backup") {
		t.Errorf("the open consent's page now shows a name the prompt did not")
	}
}

// Cross-door check (held, logged): a signed agent on the host of the
// person's client (cimdHost) holding a grant keeps its per-call prompts
// while a stranger holds the client's five consent places and its hour;
// a new signed key there (a key rotation or the person's new agent) is a
// stranger and is refused while the stranger's consents are open.
func TestAttack43eCrossDoorSameHost(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	// The person's signed agent on cimdHost, granted structured_read.
	d, err := e.ap.Request(ctx, approvals.Call{Domain: cimdHost, KeyFP: "signed-k1", Tool: "search", Tier: approvals.StructuredRead, Args: []byte(`{}`)})
	if err != nil || d.Outcome != approvals.ApprovalRequired {
		t.Fatal(d.Outcome, err)
	}
	e.ap.Decide(ctx, d.Approval.MatchCode, true)
	attacker := e.browser()
	for i := range 5 {
		e.getIn(attacker, "/oauth/authorize?"+authParams(cimdID, redirect, newPKCE(fmt.Sprint("a", i))).Encode())
	}
	e.clock.add(10 * time.Second)
	r := e.getIn(attacker, "/oauth/authorize?"+authParams(cimdID, redirect, newPKCE("a6")).Encode())
	send, err := e.ap.Request(ctx, approvals.Call{Domain: cimdHost, KeyFP: "signed-k1", Tool: "send_draft", Tier: approvals.Send,
		Args: []byte(`{"draft_id":"d1"}`), Details: "To: x@example.org"})
	if err != nil {
		t.Fatal(err)
	}
	rot, err := e.ap.Request(ctx, approvals.Call{Domain: cimdHost, KeyFP: "signed-k2", Tool: "search", Tier: approvals.StructuredRead, Args: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stranger's 6th consent: %d; granted signed key's send: %s; new signed key: %s", r.status, send.Outcome, rot.Outcome)
	if send.Outcome != approvals.ApprovalRequired {
		t.Errorf("the granted signed agent's send prompt refused by a stranger's consents: %s", send.Outcome)
	}
}

// E5: a site's document fetches (10, one per 6 s) are spent before the
// fetcher's own URL checks, so an id the fetcher refuses without any
// network traffic (port 444, a trailing dot: agentkeys.checkDomain) still
// spends the site's fetch, and, being "refused without a fetch", is not
// remembered: one made-up id repeated spends the person's client's site
// allowance with no request ever reaching that site.
func TestAttack43eFetchAllowanceSpentWithoutFetch(t *testing.T) {
	e := newEnv(t, nil)
	for _, id := range []string{"https://" + cimdHost + ":444/c", "https://" + cimdHost + "./c"} {
		for range 6 {
			e.serveDirect("/oauth/authorize?" + authParams(id, redirect, newPKCE("x")).Encode())
		}
	}
	hits := e.hits.Load()
	r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("me")).Encode())
	t.Logf("12 requests naming two ids no fetch is made for: %d requests reached the client's host; the person's first connection: %d %q",
		hits, r.status, between(r.body, "<p>", "</p>"))
	if r.status == http.StatusServiceUnavailable {
		t.Errorf("the site's fetch allowance spent by ids that are never fetched")
	}
}
