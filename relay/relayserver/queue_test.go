package relayserver_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

func enqueue(t *testing.T, r *testRelay, host, body string) answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.http.URL+relay.PathQueue+"/"+host, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, b}
}

func replyOf(t *testing.T, r *testRelay, id string) answer {
	t.Helper()
	resp, err := r.http.Client().Get(r.http.URL + relay.PathQueueReply + "/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, b}
}

func queueBody(sealedLen int, id string) string {
	env := base64.RawURLEncoding.EncodeToString(make([]byte, sealedLen))
	if id == "" {
		return fmt.Sprintf(`{"envelope":%q}`, env)
	}
	return fmt.Sprintf(`{"envelope":%q,"request_id":%q}`, env, id)
}

func TestQueueErrors(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6})
	host := relayserver.NewLabel() + ".relay.example"
	tests := []struct {
		name, host, body string
		status           int
		code             string
	}{
		{"fine", host, queueBody(1000, ""), 202, ""},
		{"largest", host, queueBody(relay.MaxEnvelope, "biggest-one"), 202, ""},
		{"one byte over", host, queueBody(relay.MaxEnvelope+1, ""), 413, "too_large"},
		{"far over", host, queueBody(4*relay.MaxEnvelope, ""), 413, "too_large"},
		{"shorter than a sealed box", host, queueBody(relay.SealOverhead, ""), 400, "bad_request"},
		{"not base64url", host, `{"envelope":"a+b/c"}`, 400, "bad_request"},
		{"no envelope", host, `{"request_id":"abcdefgh"}`, 400, "bad_request"},
		{"array", host, `[]`, 400, "bad_request"},
		{"trailing", host, queueBody(100, "") + "{}", 400, "bad_request"},
		{"short request_id", host, queueBody(100, "abc"), 400, "bad_request"},
		{"request_id with a slash", host, queueBody(100, "abcdefgh/ij"), 400, "bad_request"},
		{"outside the zone", relayserver.NewLabel() + ".other.example", queueBody(100, ""), 404, "not_found"},
		{"not a label", "www.relay.example", queueBody(100, ""), 404, "not_found"},
		{"the zone itself", "relay.example", queueBody(100, ""), 404, "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := enqueue(t, r, tt.host, tt.body)
			if a.status != tt.status {
				t.Fatalf("status = %d, want %d (%s)", a.status, tt.status, a.body)
			}
			if tt.code != "" {
				var e relay.Error
				if json.Unmarshal(a.body, &e); e.Code != tt.code || e.Detail == "" {
					t.Fatalf("error = %+v, want code %s with a detail", e, tt.code)
				}
			}
		})
	}
	if a := replyOf(t, r, "nosuchrequest"); a.status != 404 {
		t.Errorf("unknown request_id: %d", a.status)
	}
	// Polled by its receipt (the same again for the same bytes), not by
	// the agent's own id.
	a := enqueue(t, r, host, queueBody(relay.MaxEnvelope, "biggest-one"))
	var q relay.Queued
	if json.Unmarshal(a.body, &q); a.status != 202 || q.RequestID == "" {
		t.Fatalf("retry of the largest: %d %s", a.status, a.body)
	}
	if a := replyOf(t, r, q.RequestID); a.status != 204 {
		t.Errorf("a waiting request: %d, want 204", a.status)
	}
	if a := replyOf(t, r, "biggest-one"); a.status != 404 {
		t.Errorf("the agent's own id: %d, want 404 (it is not a receipt)", a.status)
	}
}

// TestQueueDecoyAlike: a registered offline node's name and a decoy's get
// the same answers, limits and expiry, so the queue tells nothing of
// registration; a retry with its request_id gets the same receipt and
// leaves no second copy.
func TestQueueDecoyAlike(t *testing.T) {
	now := time.Unix(1_900_000_000, 0)
	clock := func() time.Time { return now }
	dir := t.TempDir()
	st, err := relaystore.OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := relayserver.New(t.Context(), relayserver.Config{Zone: "relay.example", Store: st, Now: func() time.Time { return clock() },
		Limits: relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6, QueueShare: relay.MaxQueued}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &testRelay{srv: srv, store: st, dir: dir}
	r.http = newHTTP(t, srv)
	real := r.register(t, "ann@example.com")
	decoy := relayserver.NewLabel()

	run := func(label string) (first, retry answer, full answer, receipts []relay.Queued) {
		host := label + ".relay.example"
		for i := range relay.MaxQueued {
			a := enqueue(t, r, host, queueBody(200, fmt.Sprintf("%s-%02d", label, i)))
			if a.status != 202 {
				t.Fatalf("%s: envelope %d: %d %s", label, i, a.status, a.body)
			}
			var q relay.Queued
			json.Unmarshal(a.body, &q)
			receipts = append(receipts, q)
			if i == 0 {
				first = a
			}
		}
		retry = enqueue(t, r, host, queueBody(200, label+"-00"))
		full = enqueue(t, r, host, queueBody(200, label+"-full"))
		return
	}
	rf, rr, rfull, rrec := run(real.Label)
	df, dr, dfull, drec := run(decoy)
	for _, c := range []struct {
		what string
		a, b answer
	}{{"first", rf, df}, {"retry", rr, dr}, {"full", rfull, dfull}} {
		if c.a.status != c.b.status || len(c.a.body) != len(c.b.body) || c.a.header.Get("Content-Type") != c.b.header.Get("Content-Type") {
			t.Errorf("%s: registered %d %s, decoy %d %s", c.what, c.a.status, c.a.body, c.b.status, c.b.body)
		}
	}
	if rfull.status != 507 || !strings.Contains(string(rfull.body), "queue_full") {
		t.Errorf("33rd envelope: %d %s, want 507 queue_full", rfull.status, rfull.body)
	}
	if rr.status != 202 || string(rr.body) != string(rf.body) {
		t.Errorf("retry answered %d %s, first %s", rr.status, rr.body, rf.body)
	}
	if rrec[0].ExpiresAt != now.Add(relay.QueueTTL).Unix() || drec[0].ExpiresAt != rrec[0].ExpiresAt {
		t.Errorf("expires_at %d / %d, want %d", rrec[0].ExpiresAt, drec[0].ExpiresAt, now.Add(relay.QueueTTL).Unix())
	}
	waiting, _ := st.Undelivered(t.Context(), real.Label, now, 100)
	if len(waiting) != relay.MaxQueued {
		t.Errorf("%d envelopes stored, want %d (no second copy of the retry)", len(waiting), relay.MaxQueued)
	}
	if e, _ := st.QueueEntry(t.Context(), rrec[0].RequestID, now); len(e.Sealed) != 200 {
		t.Errorf("the retry replaced the first copy: %d bytes", len(e.Sealed))
	}

	// A day later both expire alike.
	now = now.Add(relay.QueueTTL + time.Second)
	for _, id := range []string{rrec[0].RequestID, drec[0].RequestID} {
		if a := replyOf(t, r, id); a.status != 404 {
			t.Errorf("expired %s: %d, want 404", id, a.status)
		}
	}
	if a := enqueue(t, r, real.Label+".relay.example", queueBody(200, "after-a-day")); a.status != 202 {
		t.Errorf("after expiry the queue has room again: %d %s", a.status, a.body)
	}
}

func TestQueueRateLimited(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{ClientRate: 0.001, ClientBurst: 2, GlobalRate: 1e6, GlobalBurst: 1e6})
	host := relayserver.NewLabel() + ".relay.example"
	for range 2 {
		enqueue(t, r, host, queueBody(100, ""))
	}
	a := enqueue(t, r, host, queueBody(100, ""))
	if a.status != 429 || a.header.Get("Retry-After") == "" {
		t.Errorf("third enqueue: %d %s, want 429 with Retry-After", a.status, a.body)
	}
}

func newHTTP(t *testing.T, srv *relayserver.Server) *httptest.Server {
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return hs
}

// TestQueueDelivery: envelopes left for an offline node are handed to it
// over its tunnel when it comes up, all 32 within a second; one the node
// took but did not acknowledge (it died first) is handed over again on
// its next tunnel; an acknowledged one is not, and its reply is there to
// poll.
func TestQueueDelivery(t *testing.T) {
	dir := t.TempDir()
	r := startLocal(t, relaylocal.Options{DataDir: dir, Limits: relayserver.Limits{QueueShare: relay.MaxQueued}})
	k, _ := relayclient.NewKeys()
	host := registered(t, dir, "ann@example.com", k)
	hc := r.HTTPClient()
	var ids []string
	for i := range relay.MaxQueued {
		body := queueBody(100+i, fmt.Sprintf("delivery-%02d", i))
		resp, err := hc.Post(r.URL+relay.PathQueue+"/"+host, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var q relay.Queued
		json.NewDecoder(resp.Body).Decode(&q)
		resp.Body.Close()
		if resp.StatusCode != 202 {
			t.Fatalf("enqueue %d: %d", i, resp.StatusCode)
		}
		ids = append(ids, q.RequestID)
	}

	// A node that takes the first envelope and dies before it answers.
	got := make(chan int, 100)
	tunnel := func(queue func(ctx context.Context, sealed []byte) ([]byte, error)) (up chan struct{}, stop func()) {
		up = make(chan struct{}, 1)
		tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, port(r.Addr)), Key: k.Node, TLS: r.CA.ClientTLS(), Dial: r.Dial,
			Up: func(string) { send(up, struct{}{}) }, Queue: queue}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		ln := relayclient.NewListener()
		go func() { done <- tun.Run(ctx, ln) }()
		return up, func() { cancel(); <-done; ln.Close() }
	}
	took := make(chan struct{})
	var once sync.Once
	_, stop := tunnel(func(ctx context.Context, sealed []byte) ([]byte, error) {
		got <- len(sealed)
		once.Do(func() { close(took) })
		<-ctx.Done()
		return nil, ctx.Err()
	})
	select {
	case <-took:
	case <-time.After(10 * time.Second):
		t.Fatal("the envelopes were not delivered when the tunnel came up")
	}
	stop()
	// The node checks up to 8 envelopes of a delivery at once, the
	// oldest among them.
	n := 0
	for oldest := false; !oldest; n++ {
		select {
		case l := <-got:
			oldest = l == 100
		case <-time.After(5 * time.Second):
			t.Fatalf("the dying node took %d envelopes, not the oldest", n)
		}
	}
	if n += len(got); n > 8 {
		t.Fatalf("the dying node took %d envelopes, want at most 8 at once", n)
	}

	// The next tunnel gets all 32 again, the unacknowledged first among
	// them, and answers each.
	var seen sync.Map
	up, stop := tunnel(func(_ context.Context, sealed []byte) ([]byte, error) {
		seen.Store(len(sealed), true)
		return append([]byte("reply to "), sealed...), nil
	})
	defer stop()
	select {
	case <-up:
	case <-time.After(10 * time.Second):
		t.Fatal("tunnel not up")
	}
	start := time.Now()
	for _, id := range ids {
		for {
			resp, err := hc.Get(r.URL + relay.PathQueueReply + "/" + id)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
			if resp.StatusCode != 204 || time.Since(start) > 10*time.Second {
				t.Fatalf("reply %s: %d after %v", id, resp.StatusCode, time.Since(start))
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	took32 := time.Since(start)
	t.Logf("32 envelopes delivered and answered %v after the tunnel came up", took32)
	if took32 > time.Second {
		t.Errorf("delivery took %v, want under 1 s", took32)
	}
	if _, ok := seen.Load(100); !ok {
		t.Error("the envelope the dead node did not acknowledge was not delivered again")
	}
	var env relay.Reply
	resp, _ := hc.Get(r.URL + relay.PathQueueReply + "/" + ids[3])
	json.NewDecoder(resp.Body).Decode(&env)
	resp.Body.Close()
	if b, _ := base64.RawURLEncoding.DecodeString(env.Envelope); !strings.HasPrefix(string(b), "reply to ") || len(b) != len("reply to ")+103 {
		t.Errorf("reply of %s = %q", ids[3], b)
	}
}
