package oauth_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"mailnode/approvals"
)

// registerAs registers a client named name and returns its id, "" when
// the registration was refused.
func (e *env) registerAs(name string, redirects ...string) string {
	e.t.Helper()
	b, _ := json.Marshal(map[string]any{"client_name": name, "redirect_uris": redirects})
	resp, err := e.http.Post(e.node.URL+"/oauth/register", "application/json", strings.NewReader(string(b)))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	id, _ := m["client_id"].(string)
	return id
}

// TestRegistrationsCannotFillPrompts (outside attack 43, finding 2):
// anonymous registrations, each asking 5 times, used to fill the node's
// 50 open prompts of strangers, so that the person's own new client was
// refused (blamed on "this application") and the phone showed 50
// prompts, renewed as they lapsed. Registered clients together now hold
// a fifth of it; a client proving a domain still asks, and so does a
// client the person connected before, even with the strangers' room
// full; a refusal by the node-wide cap says so.
func TestRegistrationsCannotFillPrompts(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	const evilCB = "https://evil.example/cb"
	flood := func(round string) (opened int) {
		for i := range 20 {
			e.clock.add(3 * time.Second)
			id := e.registerAs(fmt.Sprintf("Claude %d", i), evilCB)
			if id == "" {
				continue
			}
			for j := range 5 {
				r := e.get("/oauth/authorize?" + authParams(id, evilCB, newPKCE(fmt.Sprint(round, i, j))).Encode())
				switch {
				case r.status == http.StatusOK:
					opened++
				case r.status == http.StatusTooManyRequests && j == 0 && i >= 2 && !strings.Contains(r.body, "not only this application"):
					t.Errorf("refused by the registered clients' share: %q, want it to say the limit is the node's", between(r.body, "<p>", "</p>"))
				}
			}
		}
		return opened
	}
	opened := flood("a")
	pending, _ := e.ap.Pending(ctx)
	if opened != 10 || len(pending) != 10 {
		t.Errorf("20 registrations asking 5 times each opened %d prompts, %d pending; want 10 (the registered clients' share)", opened, len(pending))
	}
	// The person's client, which proves its domain, still asks.
	code, _ := e.consent(authParams(cimdID, redirect, newPKCE("person")))

	// The person connects it; later it asks again (another tier, lost
	// tokens) while strangers hold all of their room.
	if _, err := e.ap.Decide(ctx, code, true); err != nil {
		t.Fatal(err)
	}
	// Six domains at 5 each bring strangers to 40 (with the 10
	// registered); the last 10 are for sites new this hour, one each.
	for i := range 16 {
		n := 5
		if i >= 6 {
			n = 1
		}
		for j := range n {
			d, err := e.ap.Request(ctx, approvals.Call{Domain: fmt.Sprintf("agent.stranger%d.example", i), KeyFP: "sha256:S",
				Tool: "get_excerpt", Tier: approvals.RawRead, Args: json.RawMessage(fmt.Sprintf(`{"n":%d}`, j))})
			if err != nil || d.Outcome != approvals.ApprovalRequired {
				t.Fatalf("stranger's prompt %d.%d: %v %v", i, j, d.Outcome, err)
			}
		}
	}
	e.clock.add(10 * time.Second)
	e.consent(authParams(cimdID, redirect, newPKCE("person again")))
	// A new registration is refused by the node's cap, and told so.
	id := e.registerAs("ChatGPT", "https://chatgpt.com/cb")
	r := e.get("/oauth/authorize?" + authParams(id, "https://chatgpt.com/cb", newPKCE("c")).Encode())
	if r.status != http.StatusTooManyRequests || !strings.Contains(r.body, "not only this application") {
		t.Errorf("new registered client with the strangers' room full: %d %q, want 429 naming the node's limit", r.status, between(r.body, "<p>", "</p>"))
	}

	// Sustained: as the prompts lapse, the registrations refill only
	// their share.
	e.clock.add(10*time.Minute + time.Second)
	if opened := flood("b"); opened > 10 {
		t.Errorf("after the prompts lapsed, registrations opened %d prompts, want at most 10", opened)
	}
	e.clock.add(10 * time.Second)
	e.consent(authParams(cimdID, redirect, newPKCE("person later")))
}

// TestLimiterNotReset (outside attack 43, finding 7): 4096 made-up
// client ids used to clear every client's authorization bucket, giving
// the identity that spent its own a fresh burst. Ids that cannot name a
// client get no bucket.
func TestLimiterNotReset(t *testing.T) {
	e := newEnv(t, nil)
	limited := 0
	for i := range 6 {
		if r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE(fmt.Sprint(i))).Encode()); r.status == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited != 1 {
		t.Fatalf("%d of 6 authorizations limited, want 1", limited)
	}
	for i := range 4096 {
		id := fmt.Sprintf("junk%d", i)
		switch i % 4 {
		case 1:
			id = fmt.Sprintf("dcr-junk%d", i)
		case 2:
			id = fmt.Sprintf("https://h%d.example/", i)
		case 3:
			id = fmt.Sprintf("https://h%d.example/c.json?q", i)
		}
		if r := e.get("/oauth/authorize?client_id=" + id); r.status != http.StatusBadRequest {
			t.Fatalf("made-up client id %s: %d, want 400", id, r.status)
		}
	}
	if r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("z")).Encode()); r.status != http.StatusTooManyRequests {
		t.Errorf("after 4096 made-up client ids, the limited client's next authorization = %d %q, want 429", r.status, between(r.body, "<p>", "</p>"))
	}
}

func between(s, a, b string) string {
	i := strings.Index(s, a)
	if i < 0 {
		return ""
	}
	s = s[i+len(a):]
	if j := strings.Index(s, b); j >= 0 {
		return s[:j]
	}
	return s
}

// TestLapsedRequestsPruned (outside attack 43c, finding 5): requests
// nobody decided or reloaded, as a stranger's are, are deleted once past
// their life when the next request starts, not only when a token is
// issued; and the registrations they alone kept a day later.
func TestLapsedRequestsPruned(t *testing.T) {
	e := newEnv(t, nil)
	count := func(table string) int {
		var n int
		if err := e.file.DB().QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for round := range 3 {
		for i := range 2 {
			id := e.registerAs(fmt.Sprintf("lapsing %d.%d", round, i), "https://evil.example/cb")
			for j := range 5 {
				e.clock.add(3 * time.Second)
				e.get("/oauth/authorize?" + authParams(id, "https://evil.example/cb", newPKCE(fmt.Sprint(round, i, j))).Encode())
			}
		}
		e.clock.add(25 * time.Minute) // past the prompts' 10 and RequestTTL's 10
	}
	if n := count("oauth_requests"); n > 10 {
		t.Errorf("after three rounds of lapsed requests %d remain, want only the last round's (10)", n)
	}
	e.consent(authParams(cimdID, redirect, newPKCE("person")))
	if n := count("oauth_requests"); n != 1 {
		t.Errorf("after a new request %d requests remain, want 1", n)
	}
	// The registrations those requests used go a day after their last
	// use, holding nothing.
	e.clock.add(25 * time.Hour)
	e.consent(authParams(cimdID, redirect, newPKCE("person, later")))
	if n := count("oauth_clients"); n != 0 {
		t.Errorf("%d registrations kept a day after their requests lapsed, want none", n)
	}
}
