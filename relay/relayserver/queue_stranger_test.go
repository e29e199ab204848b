package relayserver_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/internal/kstest"
	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// strangerNets are client addresses in five different IPv4 /24s, all on
// loopback (the relay sees the TCP peer's address).
var strangerNets = []string{"127.0.0.1", "127.0.1.1", "127.0.2.1", "127.0.3.1", "127.0.4.1"}

// fromNet is an HTTP client whose connections to addr leave from the local
// address ip; tlsc, if set, speaks TLS to the relay's API name.
func fromNet(ip, addr string, tlsc *relaylocal.CA) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return d.DialContext(ctx, "tcp", addr)
	}}
	if tlsc != nil {
		tr.TLSClientConfig = tlsc.ClientTLS()
	}
	return &http.Client{Timeout: 10 * time.Second, Transport: tr}
}

// junk is a stranger's envelope: random bytes one longer than a sealed
// box's overhead, sealed to nobody.
func junk(id string) string {
	b := make([]byte, relay.SealOverhead+1)
	rand.Read(b)
	return queueBody2(b, id)
}

func queueBody2(sealed []byte, id string) string {
	env := base64.RawURLEncoding.EncodeToString(sealed)
	if id == "" {
		return fmt.Sprintf(`{"envelope":%q}`, env)
	}
	return fmt.Sprintf(`{"envelope":%q,"request_id":%q}`, env, id)
}

func enqueueWith(t *testing.T, c *http.Client, base, host, body string) (int, relay.Queued, []byte) {
	t.Helper()
	resp, err := c.Post(base+relay.PathQueue+"/"+host, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var q relay.Queued
	if resp.StatusCode == http.StatusAccepted {
		if err := json.Unmarshal(b, &q); err != nil || q.RequestID == "" {
			t.Fatalf("receipt %s: %v", b, err)
		}
	}
	return resp.StatusCode, q, b
}

func pollWith(t *testing.T, c *http.Client, base, id string) int {
	t.Helper()
	resp, err := c.Get(base + relay.PathQueueReply + "/" + id)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestQueueStrangerCannotTellOnlineNode (issue 40, item 5): a stranger's
// junk envelopes for a registered node whose tunnel is up, which the node
// takes and acknowledges without a reply, look exactly like junk left for
// a decoy: the same 202s and the same point of 507 (a delivered envelope
// keeps its place until its TTL), 204 to every poll until the TTL and 404
// from then on.
func TestQueueStrangerCannotTellOnlineNode(t *testing.T) {
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	dir := t.TempDir()
	r := startLocal(t, relaylocal.Options{DataDir: dir, Now: clock,
		Limits: relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6}})
	k, _ := relayclient.NewKeys()
	host := registered(t, dir, "ann@example.com", k)
	decoy := relayserver.NewLabel() + "." + relaylocal.Zone

	// The node is online; as a node does with an envelope it cannot open,
	// it acknowledges each without a reply.
	var took atomic.Int64
	up := make(chan struct{}, 1)
	tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, port(r.Addr)), Key: k.Node, TLS: r.CA.ClientTLS(), Dial: r.Dial,
		Up: func(string) { send(up, struct{}{}) },
		Queue: func(context.Context, []byte) ([]byte, error) {
			took.Add(1)
			return nil, nil
		}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	ln := relayclient.NewListener()
	go func() { done <- tun.Run(ctx, ln) }()
	defer func() { cancel(); <-done; ln.Close() }()
	select {
	case <-up:
	case <-time.After(10 * time.Second):
		t.Fatal("tunnel not up")
	}

	st, err := relaystore.OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	label := strings.TrimSuffix(host, "."+relaylocal.Zone)
	delivered := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			w, _ := st.Undelivered(t.Context(), label, clock(), 100)
			if int(took.Load()) >= want && len(w) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the node took %d envelopes, %d wait; want %d taken", took.Load(), len(w), want)
			}
		}
	}

	// Five networks each try nine envelopes, for the node and for the
	// decoy in turn; the node has taken each batch before the next.
	type seen struct {
		statuses []int
		ids      []string
	}
	obs := map[string]*seen{host: {}, decoy: {}}
	accepted := 0
	for _, ip := range strangerNets {
		c := fromNet(ip, r.Addr, r.CA)
		for _, h := range []string{host, decoy} {
			for range 9 {
				status, q, _ := enqueueWith(t, c, r.URL, h, junk(""))
				obs[h].statuses = append(obs[h].statuses, status)
				if status == http.StatusAccepted {
					obs[h].ids = append(obs[h].ids, q.RequestID)
					if h == host {
						accepted++
					}
				}
			}
		}
		delivered(accepted)
	}
	if got, want := fmt.Sprint(obs[host].statuses), fmt.Sprint(obs[decoy].statuses); got != want {
		t.Errorf("enqueue statuses:\nonline node %s\ndecoy       %s", got, want)
	}
	if n := len(obs[host].ids); n > relay.MaxQueued {
		t.Errorf("the online node's name took %d envelopes in a day, want at most %d", n, relay.MaxQueued)
	}
	for _, id := range obs[host].ids {
		e, err := st.QueueEntry(t.Context(), id, clock())
		if err != nil || !e.Delivered() || e.Sealed != nil || e.Reply != nil {
			t.Fatalf("a taken envelope in the store: %+v, %v; want its row kept without its bytes", e, err)
		}
	}

	poll := func(when string, want int) {
		t.Helper()
		c := fromNet(strangerNets[0], r.Addr, r.CA)
		for h, o := range obs {
			for _, id := range o.ids {
				if got := pollWith(t, c, r.URL, id); got != want {
					t.Fatalf("%s: poll of %s's %s = %d, want %d", when, h, id, got, want)
				}
			}
		}
	}
	poll("at once", http.StatusNoContent)
	offset.Store(int64(relay.QueueTTL - time.Minute))
	poll("a minute before the TTL", http.StatusNoContent)
	offset.Store(int64(relay.QueueTTL + time.Minute))
	poll("after the TTL", http.StatusNotFound)
	c := fromNet(strangerNets[0], r.Addr, r.CA)
	for _, h := range []string{host, decoy} {
		if status, _, b := enqueueWith(t, c, r.URL, h, junk("")); status != http.StatusAccepted {
			t.Errorf("%s after the TTL: %d %s, want room again", h, status, b)
		}
	}
}

// TestQueueNetworkShare (issue 40, item 6): one client network (an IPv4
// /24 here) holds at most its share of any name's 32 places, registered,
// decoy or unknown alike; past it, and when the whole queue is full, the
// answer is the same 507 queue_full; a retry of an envelope it holds still
// gets its receipt.
func TestQueueNetworkShare(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6})
	addr := strings.TrimPrefix(r.http.URL, "http://")
	real := r.register(t, "ann@example.com")
	var res relay.Resolution
	a := post(t, r.http.Client(), r.http.URL, "application/json", `{"address":"nobody@example.com"}`)
	if json.Unmarshal(a.body, &res); res.Hostname == "" {
		t.Fatalf("resolve: %d %s", a.status, a.body)
	}
	names := map[string]string{
		"registered": real.Label + ".relay.example",
		"decoy":      res.Hostname,
		"unknown":    relayserver.NewLabel() + ".relay.example",
	}
	const share = 8
	var want []int
	for i := range len(strangerNets) {
		n := share + 1
		if i == len(strangerNets)-1 {
			n = 1
		}
		for j := range n {
			if j < share && i < relay.MaxQueued/share {
				want = append(want, 202)
			} else {
				want = append(want, 507)
			}
		}
	}
	for what, h := range names {
		var got []int
		var firstBody string
		var first relay.Queued
		var fullBody []byte
		for i, ip := range strangerNets {
			c := fromNet(ip, addr, nil)
			n := share + 1
			if i == len(strangerNets)-1 {
				n = 1
			}
			for j := range n {
				body := junk(fmt.Sprintf("share-%s-%d-%02d", what, i, j))
				status, q, b := enqueueWith(t, c, r.http.URL, h, body)
				got = append(got, status)
				if i == 0 && j == 0 {
					firstBody, first = body, q
				}
				if status == 507 {
					fullBody = b
				}
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: statuses\n%v, want\n%v", what, got, want)
		}
		var e relay.Error
		if json.Unmarshal(fullBody, &e); e.Code != "queue_full" {
			t.Errorf("%s: past the share: %s, want queue_full", what, fullBody)
		}
		// The first network's retry of its first envelope, at its share.
		status, q, b := enqueueWith(t, fromNet(strangerNets[0], addr, nil), r.http.URL, h, firstBody)
		if status != 202 || q != first {
			t.Errorf("%s: a retry at the share = %d %s, want the receipt %+v", what, status, b, first)
		}
	}
}

// TestQueueRequestIDPerName (issue 40, item 9): a request_id is the
// agent's within one name. The same id for another name is another
// envelope, stored and answered as if the id were new (nothing says it
// exists elsewhere); for the same name with other bytes it is also
// another envelope, never a silently dropped one; with the same bytes it
// is a retry and gets the first receipt.
func TestQueueRequestIDPerName(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6})
	c := r.http.Client()
	one := relayserver.NewLabel()
	two := relayserver.NewLabel()
	h1, h2 := one+".relay.example", two+".relay.example"

	mine := junk("agents-own-id-1")
	s1, q1, b1 := enqueueWith(t, c, r.http.URL, h1, mine)
	s2, q2, b2 := enqueueWith(t, c, r.http.URL, h2, junk("agents-own-id-1"))
	s3, _, b3 := enqueueWith(t, c, r.http.URL, h2, junk("a-fresh-id-0001"))
	if s1 != 202 || s2 != 202 || s3 != 202 {
		t.Fatalf("the same id for two names: %d %s, %d %s (a fresh id: %d %s)", s1, b1, s2, b2, s3, b3)
	}
	if len(b2) != len(b3) || q1.RequestID == q2.RequestID {
		t.Errorf("the id used elsewhere answered %s, a fresh one %s; receipts %s and %s", b2, b3, q1.RequestID, q2.RequestID)
	}
	for _, l := range []string{one, two} {
		w, _ := r.store.Undelivered(t.Context(), l, time.Now(), 10)
		if len(w) == 0 {
			t.Errorf("%s holds no envelope: one was dropped", l)
		}
	}

	// The same name: the same bytes are a retry, other bytes another
	// envelope.
	_, retry, _ := enqueueWith(t, c, r.http.URL, h1, mine)
	s4, other, b4 := enqueueWith(t, c, r.http.URL, h1, junk("agents-own-id-1"))
	if retry != q1 {
		t.Errorf("a retry got %+v, want the first receipt %+v", retry, q1)
	}
	if s4 != 202 || other.RequestID == q1.RequestID {
		t.Errorf("other bytes under the same id: %d %s, want another envelope", s4, b4)
	}
	if w, _ := r.store.Undelivered(t.Context(), one, time.Now(), 10); len(w) != 2 {
		t.Errorf("%s holds %d envelopes, want 2", one, len(w))
	}
	for _, id := range []string{q1.RequestID, q2.RequestID, other.RequestID} {
		if got := pollWith(t, c, r.http.URL, id); got != 204 {
			t.Errorf("poll %s = %d, want 204", id, got)
		}
	}
}

// TestQueueTiming (issue 40, item 5): the time a stranger waits for a 202
// and for a poll is the same for a registered node whose tunnel is up
// (each envelope is delivered to it, and it takes it without a reply) as
// for a decoy's name (where the same 4 KiB envelope waits, sealed bytes
// and all): two-sample KS statistics of at most 0.08 over 608 enqueues
// and 2,000 polls of each, interleaved in random order.
func TestQueueTiming(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	dir := t.TempDir()
	r := startLocal(t, relaylocal.Options{DataDir: dir, Now: clock,
		Limits: relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6}})
	k, _ := relayclient.NewKeys()
	host := registered(t, dir, "ann@example.com", k)
	decoy := relayserver.NewLabel() + "." + relaylocal.Zone
	up := make(chan struct{}, 1)
	tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, port(r.Addr)), Key: k.Node, TLS: r.CA.ClientTLS(), Dial: r.Dial,
		Up: func(string) { send(up, struct{}{}) }, Queue: func(context.Context, []byte) ([]byte, error) { return nil, nil }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	ln := relayclient.NewListener()
	go func() { done <- tun.Run(ctx, ln) }()
	defer func() { cancel(); <-done; ln.Close() }()
	select {
	case <-up:
	case <-time.After(10 * time.Second):
		t.Fatal("tunnel not up")
	}

	clients := make([]*http.Client, relay.MaxQueued/relay.QueueShare)
	for i := range clients {
		clients[i] = fromNet(strangerNets[i], r.Addr, r.CA)
	}
	// 4 KiB: more than a SQLite page, so a waiting row spills over; and
	// under the 6 KiB a node's tunnel took before issue 40's item 1.
	big := make([]byte, 4<<10)
	rand.Read(big)
	timed := func(do func() int, want int) float64 {
		start := time.Now()
		if got := do(); got != want {
			t.Fatalf("status %d, want %d", got, want)
		}
		return float64(time.Since(start))
	}
	var enqNode, enqDecoy []float64
	var ids = map[string][]string{}
	const rounds = 40
	for round := range rounds {
		for i, c := range clients {
			for j := range relay.QueueShare {
				order := []string{host, decoy}
				mrand.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
				for _, h := range order {
					body := queueBody2(big, fmt.Sprintf("timing-%d-%d-%d-%s", round, i, j, h[:8]))
					var q relay.Queued
					d := timed(func() int { s, qq, _ := enqueueWith(t, c, r.URL, h, body); q = qq; return s }, 202)
					if round > 0 { // the first round warms up
						if h == host {
							enqNode = append(enqNode, d)
						} else {
							enqDecoy = append(enqDecoy, d)
						}
					}
					if round == rounds-1 {
						ids[h] = append(ids[h], q.RequestID)
					}
				}
			}
		}
		if round < rounds-1 {
			offset.Add(int64(relay.QueueTTL + time.Minute))
		}
	}
	// The node's last 32 are taken (without a reply), the decoy's wait.
	st, err := relaystore.OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if w, _ := st.Undelivered(t.Context(), strings.TrimSuffix(host, "."+relaylocal.Zone), clock(), 100); len(w) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the node did not take its envelopes")
		}
	}
	var pollNode, pollDecoy []float64
	c := clients[0]
	for i := range 2000 {
		order := []string{host, decoy}
		mrand.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, h := range order {
			id := ids[h][i%len(ids[h])]
			d := timed(func() int { return pollWith(t, c, r.URL, id) }, 204)
			if h == host {
				pollNode = append(pollNode, d)
			} else {
				pollDecoy = append(pollDecoy, d)
			}
		}
	}
	de, dp := kstest.D(enqNode, enqDecoy), kstest.D(pollNode, pollDecoy)
	t.Logf("enqueue: KS %.4f over %d+%d, medians %v (node) %v (decoy); poll: KS %.4f over %d+%d, medians %v %v",
		de, len(enqNode), len(enqDecoy), time.Duration(median(enqNode)), time.Duration(median(enqDecoy)),
		dp, len(pollNode), len(pollDecoy), time.Duration(median(pollNode)), time.Duration(median(pollDecoy)))
	if de > 0.08 || dp > 0.08 {
		t.Errorf("KS statistics %.4f (enqueue), %.4f (poll) > 0.08: an online node's name is told from a decoy's by timing", de, dp)
	}
}
