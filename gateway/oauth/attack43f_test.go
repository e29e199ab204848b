package oauth_test

// Outside attack 43f (sixth round on the OAuth front door): the attacker's
// reproducers, kept as regression tests; each asserts the fixed behaviour.

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/gateway/oauth"
)

// validElsewhere serves the test's own client document as before, and for
// every other host a valid Client ID Metadata Document naming its own URL:
// the attacker's documents on sites of his own (free names under a private
// entry of the Public Suffix List, each its own site, 64 of them).
type validElsewhere struct{ oauth.Documents }

func (d validElsewhere) Document(ctx context.Context, u string) ([]byte, error) {
	if strings.HasPrefix(u, "https://"+cimdHost+"/") {
		return d.Documents.Document(ctx, u)
	}
	return []byte(fmt.Sprintf(`{"client_id":%q,"client_name":"x","redirect_uris":["https://evil.example/cb"]}`, u)), nil
}

// fillCache has 64 sites' 16 valid documents each fetched and kept (1,024,
// the cache's bound) with requests that name a redirect URI the document
// does not list: each is a fetch within its site's allowance and a 400
// page, no prompt, no authorization allowance spent.
func fillCache(e *env) {
	for round := range 2 {
		for s := range 64 {
			for p := range 8 {
				id := fmt.Sprintf("https://c.attacker%d.example/doc%d.json", s, round*8+p)
				r := e.serveDirect("/oauth/authorize?" + authParams(id, "https://not-listed.example/", newPKCE("z")).Encode())
				if r.Code != 400 {
					e.t.Fatalf("cache fill %s = %d", id, r.Code)
				}
			}
		}
		e.clock.add(60 * time.Second) // each site's fetch allowance (10, one per 6 s) back
	}
}

// F1: the cache holds at most 1,024 documents and never drops a valid one,
// so a stranger who fills it with valid documents of his own (a wrong
// redirect URI: no prompt, nothing shown to the person) makes every other
// client's document "used once, not kept", for an hour at a time. The
// person's client (claude.ai stand-in) is then fetched on every
// authorization, and the documented "a stranger naming many paths on
// claude.ai spends its fetches while its document is not kept" holds for
// good, also for a client the person connected before: ten requests
// naming made-up paths on claude.ai (404s, no prompt) and one more per 6 s
// make the person's every attempt a 503. Nothing reaches the phone, so
// there is nothing to deny or block.
func TestAttack43fCacheFullOfValidDocumentsKeepsClientOut(t *testing.T) {
	for _, fill := range []bool{false, true} {
		t.Run(fmt.Sprint("fill=", fill), func(t *testing.T) {
			e := newEnv(t, func(c *oauth.Config) { c.Docs = validElsewhere{c.Docs} })
			ctx := context.Background()
			// The person connected the client before: its document was
			// kept, and has since expired (an hour).
			if r := e.serveDirect("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("p0")).Encode()); r.Code != 200 {
				t.Fatalf("person's first authorize = %d", r.Code)
			}
			p, _ := e.ap.Pending(ctx)
			e.ap.Decide(ctx, p[0].MatchCode, false)
			e.clock.add(61 * time.Minute)
			if fill {
				before, _ := e.ap.Pending(ctx)
				fillCache(e)
				after, _ := e.ap.Pending(ctx)
				t.Logf("cache filled with 1,024 valid documents of 64 sites by 1,024 requests; prompts opened: %d", len(after)-len(before))
			}
			pending0, _ := e.ap.Pending(ctx)
			// The person connects again: works, but is it kept?
			h0 := e.hits.Load()
			r := e.serveDirect("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("p1")).Encode())
			h1 := e.hits.Load()
			t.Logf("person's authorize after expiry = %d (fetches %d)", r.Code, h1-h0)
			// The stranger: made-up paths on the person's client's host.
			for i := range 12 {
				e.serveDirect("/oauth/authorize?" + authParams(fmt.Sprintf("https://%s/made-up-%d", cimdHost, i), redirect, newPKCE("s")).Encode())
			}
			e.clock.add(20 * time.Second) // the client's authorization allowance back
			for i := range 5 {            // whatever came back meanwhile: a stranger loop at 1 per 6 s does it
				e.serveDirect("/oauth/authorize?" + authParams(fmt.Sprintf("https://%s/made-up-x%d", cimdHost, i), redirect, newPKCE("s")).Encode())
			}
			h2 := e.hits.Load()
			r = e.serveDirect("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("p2")).Encode())
			pending1, _ := e.ap.Pending(ctx)
			t.Logf("person's next authorize = %d %q (fetches %d); prompts open since the fill, the person's included: %d",
				r.Code, firstLine(r.Body.String()), e.hits.Load()-h2, len(pending1)-len(pending0))
			if fill && r.Code == 503 {
				t.Errorf("with the cache full of the stranger's valid documents, the person's client (connected before) is refused %d: its document is never kept, so made-up paths on its host spend its fetches for good", r.Code)
			}
			if !fill && r.Code != 200 {
				t.Errorf("baseline: person's authorize = %d", r.Code)
			}
		})
	}
}

func firstLine(body string) string {
	i := strings.Index(body, "<p>")
	if i < 0 {
		return ""
	}
	s := body[i+3:]
	if j := strings.Index(s, "</p>"); j >= 0 {
		s = s[:j]
	}
	return s
}

// F2: a name that names another site is flagged on the page and the phone
// (nameNote), and dots that look like dots count as dots (outside attack
// 43d, finding 5) — but only the twelve of the list. A document client at
// assistant.example.com (the attacker's host) calling itself "Claude
// (claude<dot>ai)" with a middle dot or bullet the list does not hold is
// shown unflagged, though U+00B7 and U+2219, which look the same, are.
func TestAttack43fDotLookAlikesNotFlagged(t *testing.T) {
	e := newEnv(t, nil)
	var missed []string
	for i, dot := range []string{
		"\u00b7", // in the list: the control
		"\u2022", // BULLET
		"\u2e31", // WORD SEPARATOR MIDDLE DOT
		"\u30fb", // KATAKANA MIDDLE DOT (also NFKC of U+FF65)
		"\uff65", // HALFWIDTH KATAKANA MIDDLE DOT
		"\ua78f", // LATIN LETTER SINOLOGICAL DOT (a Latin letter)
		"\u16eb", // RUNIC SINGLE PUNCTUATION
		"\u2981", // Z NOTATION SPOT
		"\u1427", // CANADIAN SYLLABICS FINAL MIDDLE DOT
		"\u0589", // ARMENIAN FULL STOP
		"\u05c5", // HEBREW MARK LOWER DOT (a mark: dropped? kept?)
	} {
		name := "Claude (claude" + dot + "ai) - official connector by Anthropic"
		doc := fmt.Sprintf(`{"client_id":%q,"client_name":%q,"redirect_uris":[%q],"token_endpoint_auth_method":"none"}`, cimdID, name, redirect)
		e.doc.Store(&doc)
		e.clock.add(2 * time.Hour)
		r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE(fmt.Sprint("d", i))).Encode())
		flagged := strings.Contains(r.body, "which is not where it comes from") || strings.Contains(r.body, "mixes")
		t.Logf("U+%04X: page %d, flagged %v: %s", []rune(dot)[0], r.status, flagged, firstLine(r.body))
		if !flagged {
			missed = append(missed, fmt.Sprintf("U+%04X", []rune(dot)[0]))
		}
	}
	if len(missed) > 0 {
		t.Errorf("names 'Claude (claude<dot>ai)' shown without a note for dots %v", missed)
	}
}

// F3: every registration is an Info line with its whole client id (up to
// 1,024 characters), and registrations are bounded only at 500 at once
// and 50 a second, all clients together: a stranger's loop writes about
// 55 KB a second of the node's log (4.7 GB a day), none of it about
// anything the person did, and while it runs the person's ChatGPT
// stand-in registers only within what the loop leaves of the 50 a second.
func TestAttack43fRegistrationsFillTheLog(t *testing.T) {
	var cfg oauth.Config
	newEnv(t, func(c *oauth.Config) { cfg = *c })
	var logged countingWriter
	srv, err := oauth.New(cfg, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	cb := "https://evil.example/" + strings.Repeat("a", 480)
	body := fmt.Sprintf(`{"client_name":%q,"redirect_uris":[%q]}`, strings.Repeat("x", 80), cb)
	const n = 500 // the burst; then 50 a second
	ok := 0
	for range n {
		rec := httptest.NewRecorder()
		srv.Serve(rec, httptest.NewRequest(http.MethodPost, "https://"+nodeHost+"/oauth/register", strings.NewReader(body)), nodeHost)
		if rec.Code != 201 && ok == 0 && logged.n == 0 {
			t.Logf("register = %d %s", rec.Code, rec.Body.String())
		}
		if rec.Code == 201 {
			ok++
		}
	}
	per := logged.n / int64(max(ok, 1))
	t.Logf("%d registrations: %d bytes of log, %d a registration; at 50 a second: %.1f KB/s, %.1f GB a day",
		ok, logged.n, per, float64(per*50)/1e3, float64(per*50*86400)/1e9)
	if per*50*86400 > 1e9 {
		t.Errorf("a stranger's registrations alone write %.1f GB of Info log a day", float64(per*50*86400)/1e9)
	}
}

type countingWriter struct {
	mu sync.Mutex
	n  int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.n += int64(len(p))
	w.mu.Unlock()
	return len(p), nil
}
