package relayserver_test

import (
	"bytes"
	"context"
	"crypto/ecdh"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/internal/kstest"
	"mailnode/relay"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
	"mailnode/relay/relaystore/pgtest"
)

type testRelay struct {
	srv   *relayserver.Server
	store *relaystore.SQLite
	http  *httptest.Server
	dir   string
}

func newRelay(t testing.TB, dir string, lim relayserver.Limits) *testRelay {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	st, err := relaystore.OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := relayserver.New(t.Context(), relayserver.Config{Zone: "relay.example", Store: st, Limits: lim}, nil)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { hs.Close(); srv.Close(); st.Close() })
	return &testRelay{srv: srv, store: st, http: hs, dir: dir}
}

// register puts a confirmed node for address straight into the store.
func (r *testRelay) register(t testing.TB, address string) relaystore.Node {
	t.Helper()
	box, _ := ecdh.X25519().GenerateKey(nil)
	nk := make([]byte, 32)
	copy(nk, address)
	n := relaystore.Node{Address: address, Label: relayserver.NewLabel(), NodeKey: append(nk[:0:0], []byte(fmt.Sprintf("%-32.32s", address))...),
		BoxKey: box.PublicKey().Bytes(), RegisteredAt: time.Now()}
	if err := r.store.PutNode(t.Context(), n); err != nil {
		t.Fatal(err)
	}
	return n
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func post(t *testing.T, c *http.Client, url, ctype, body string) answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+relay.PathResolve, strings.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, b}
}

func TestResolveErrors(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6})
	tests := []struct {
		name, ctype, body string
		status            int
		code              string
	}{
		{"no dot in domain", "application/json", `{"address":"ann@localhost"}`, 400, "invalid_address"},
		{"no at", "application/json", `{"address":"ann.example.com"}`, 400, "invalid_address"},
		{"two ats", "application/json", `{"address":"a@b@example.com"}`, 400, "invalid_address"},
		{"empty local", "application/json", `{"address":"@example.com"}`, 400, "invalid_address"},
		{"empty label", "application/json", `{"address":"ann@example..com"}`, 400, "invalid_address"},
		{"space inside", "application/json", `{"address":"an n@example.com"}`, 400, "invalid_address"},
		{"zero width", "application/json", `{"address":"ann\u200b@example.com"}`, 400, "invalid_address"},
		{"too long", "application/json", `{"address":"` + strings.Repeat("a", 250) + `@example.com"}`, 400, "invalid_address"},
		{"not json", "application/json", `address=ann@example.com`, 400, "bad_request"},
		{"array", "application/json", `["ann@example.com"]`, 400, "bad_request"},
		{"no address", "application/json", `{"addr":"ann@example.com"}`, 400, "bad_request"},
		{"address not string", "application/json", `{"address":7}`, 400, "bad_request"},
		{"trailing", "application/json", `{"address":"ann@example.com"}{}`, 400, "bad_request"},
		{"form type", "application/x-www-form-urlencoded", `{"address":"ann@example.com"}`, 400, "bad_request"},
		{"huge", "application/json", `{"address":"` + strings.Repeat("a", 8000) + `"}`, 400, "bad_request"},
		{"fine", "application/json", `{"address":"ann@example.com"}`, 200, ""},
		{"trimmed and lowered", "application/json; charset=utf-8", `{"address":"  Ann@Example.COM \n"}`, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := post(t, r.http.Client(), r.http.URL, tt.ctype, tt.body)
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
	// Case and spaces do not change the answer.
	a := post(t, r.http.Client(), r.http.URL, "application/json", `{"address":"ann@example.com"}`)
	b := post(t, r.http.Client(), r.http.URL, "application/json", `{"address":"  Ann@Example.COM \n"}`)
	if !bytes.Equal(a.body, b.body) {
		t.Errorf("normalised addresses answered differently:\n%s\n%s", a.body, b.body)
	}
}

// TestResolveShape: a registered and an unknown address get answers of
// the same status, length, field set and headers; a decoy is the same
// every time and after a restart, with a valid X25519 key; a real node
// gets its own label and key.
func TestResolveShape(t *testing.T) {
	dir := t.TempDir()
	r := newRelay(t, dir, relayserver.Limits{})
	n := r.register(t, "real@example.com")
	c := r.http.Client()
	real := post(t, c, r.http.URL, "application/json", `{"address":"real@example.com"}`)
	fake := post(t, c, r.http.URL, "application/json", `{"address":"nobody@example.com"}`)
	if real.status != 200 || fake.status != 200 {
		t.Fatalf("status real %d, unknown %d", real.status, fake.status)
	}
	if len(real.body) != len(fake.body) {
		t.Errorf("body length real %d, unknown %d", len(real.body), len(fake.body))
	}
	for _, h := range []http.Header{real.header, fake.header} {
		h.Del("Date")
	}
	if fmt.Sprint(real.header) != fmt.Sprint(fake.header) {
		t.Errorf("headers differ:\n%v\n%v", real.header, fake.header)
	}
	var rr, fr relay.Resolution
	json.Unmarshal(real.body, &rr)
	json.Unmarshal(fake.body, &fr)
	if rr.Hostname != n.Label+".relay.example" || rr.BoxPubKey != relay.EncodeKey(n.BoxKey) {
		t.Errorf("real node resolved to %+v", rr)
	}
	label, ok := strings.CutSuffix(fr.Hostname, ".relay.example")
	if !ok || len(label) != len(n.Label) || strings.Trim(label, "abcdefghijklmnopqrstuvwxyz234567") != "" {
		t.Errorf("decoy hostname %q has not the shape of %q", fr.Hostname, n.Label)
	}
	k, err := relay.DecodeKey(fr.BoxPubKey)
	if err != nil {
		t.Fatalf("decoy box key: %v", err)
	}
	if _, err := ecdh.X25519().NewPublicKey(k); err != nil || bytes.Equal(k, make([]byte, 32)) {
		t.Errorf("decoy box key is not a usable X25519 key")
	}
	if rr.Relay != fr.Relay || rr.QueueEndpoint != fr.QueueEndpoint || fr.QueueEndpoint != "https://relay.example/v1/queue" {
		t.Errorf("relay fields differ: %+v %+v", rr, fr)
	}
	// Stable, and stable across a restart on the same data.
	again := post(t, c, r.http.URL, "application/json", `{"address":"nobody@example.com"}`)
	if !bytes.Equal(again.body, fake.body) {
		t.Error("decoy changed between two resolves")
	}
	r.http.Close()
	r.srv.Close()
	r.store.Close()
	r2 := newRelay(t, dir, relayserver.Limits{})
	after := post(t, r2.http.Client(), r2.http.URL, "application/json", `{"address":"nobody@example.com"}`)
	if !bytes.Equal(after.body, fake.body) {
		t.Errorf("decoy changed across a restart:\n%s\n%s", fake.body, after.body)
	}
	other := newRelay(t, "", relayserver.Limits{})
	if b := post(t, other.http.Client(), other.http.URL, "application/json", `{"address":"nobody@example.com"}`).body; bytes.Equal(b, fake.body) {
		t.Error("two relays with different secrets gave the same decoy")
	}
}

// TestResolveRateLimit: one client's burst of 3,000 meets 429 with
// Retry-After: 60, loopback included; the global limiter answers the
// same bytes, so a client cannot tell which fired.
func TestResolveRateLimit(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{ClientRate: 10, ClientBurst: 100, GlobalRate: 1e6, GlobalBurst: 1e6})
	c := r.http.Client()
	var limited answer
	n429 := 0
	for i := range 3000 {
		a := post(t, c, r.http.URL, "application/json", fmt.Sprintf(`{"address":"u%d@example.com"}`, i))
		if a.status == 429 {
			if n429 == 0 {
				limited = a
			}
			n429++
		}
	}
	if n429 < 2800 {
		t.Fatalf("a burst of 3,000 met %d 429s, want the most of it", n429)
	}
	if limited.header.Get("Retry-After") != "60" || string(limited.body) != `{"error":"rate_limited","detail":"too many requests"}`+"\n" {
		t.Fatalf("429 = %v %s", limited.header, limited.body)
	}
	g := newRelay(t, "", relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1, GlobalBurst: 5})
	var global answer
	for i := range 10 {
		if a := post(t, g.http.Client(), g.http.URL, "application/json", fmt.Sprintf(`{"address":"u%d@example.com"}`, i)); a.status == 429 {
			global = a
		}
	}
	limited.header.Del("Date")
	global.header.Del("Date")
	if global.status != 429 || !bytes.Equal(global.body, limited.body) || fmt.Sprint(global.header) != fmt.Sprint(limited.header) {
		t.Fatalf("global limiter answered %d %v %s; per-client %v %s", global.status, global.header, global.body, limited.header, limited.body)
	}
}

// TestResolveTiming: resolves of registered and unknown addresses,
// interleaved in pairs of random order on one keep-alive connection
// after a warm-up, take times no two-sample Kolmogorov-Smirnov test tells apart:
// the statistic under its critical value at the 1 % level for 2,000 of
// each, 1.63·√(2/2,000) ≈ 0.0515.
func TestResolveTiming(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6})
	const pool = 200
	var real, unknown []string
	for i := range pool {
		a := fmt.Sprintf("user%d@registered.example", i)
		r.register(t, a)
		real = append(real, a)
		// As long as the registered ones, so that only registration
		// differs.
		unknown = append(unknown, fmt.Sprintf("user%d@unenrolled.example", i))
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	timed := func(address string) time.Duration {
		body := `{"address":"` + address + `"}`
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, r.http.URL+relay.PathResolve, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		d := time.Since(start)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		return d
	}
	for i := range 500 {
		timed(real[i%pool])
		timed(unknown[i%pool])
	}
	// In pairs, one of each in random order: the machine's other load
	// comes and goes, and a stretch of it that fell on more of one kind
	// than the other (as a shuffle of the whole run leaves some) would
	// tell them apart by the time they ran at, not by what the relay
	// did.
	const n = 2000
	order := make([]bool, 0, 2*n)
	for range n {
		first := rand.IntN(2) == 0
		order = append(order, first, !first)
	}
	var tr1, tr2 []float64
	for i, isReal := range order {
		if isReal {
			tr1 = append(tr1, float64(timed(real[i%pool])))
		} else {
			tr2 = append(tr2, float64(timed(unknown[i%pool])))
		}
	}
	d := kstest.D(tr1, tr2)
	// c(α)·√((n+m)/(n·m)) with c(0.01) = 1.63 (n = m = 2,000).
	critical := kstest.Critical1(len(tr1), len(tr2))
	t.Logf("KS statistic %.4f over %d+%d timings (1 %% critical value %.4f); medians %v vs %v", d, len(tr1), len(tr2), critical,
		time.Duration(median(tr1)), time.Duration(median(tr2)))
	if d > critical {
		t.Fatalf("KS statistic %.4f > %.4f, the 1 %% critical value: registered and unknown addresses are told apart by timing", d, critical)
	}
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	sort.Float64s(v)
	return v[len(v)/2]
}

// resolveBody is the answer's body for address.
func resolveBody(t *testing.T, url, address string) string {
	t.Helper()
	a := post(t, http.DefaultClient, url, "application/json", `{"address":"`+address+`"}`)
	if a.status != 200 {
		t.Fatalf("resolve %s: %d %s", address, a.status, a.body)
	}
	return string(a.body)
}

// resolution decodes an answer's body.
func resolution(t *testing.T, body string) relay.Resolution {
	t.Helper()
	var r relay.Resolution
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestResolveFollowsNodes: resolve answers from the relay's directory in
// memory, and the directory is what the store's last write left: a
// registration, a re-key and a deletion on this instance are answered by
// the very next resolve, and a deleted address gets its decoy back.
func TestResolveFollowsNodes(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6})
	const address = "ann@example.com"
	decoy := resolveBody(t, r.http.URL, address)
	n := r.register(t, address)
	got := resolution(t, resolveBody(t, r.http.URL, address))
	if got.Hostname != n.Label+".relay.example" || got.BoxPubKey != relay.EncodeKey(n.BoxKey) {
		t.Fatalf("after registering: %+v, want label %s", got, n.Label)
	}
	box, _ := ecdh.X25519().GenerateKey(nil)
	if err := r.store.RotateKeys(t.Context(), n.NodeKey, []byte("another node key, 32 bytes long!"), box.PublicKey().Bytes()); err != nil {
		t.Fatal(err)
	}
	if got := resolution(t, resolveBody(t, r.http.URL, address)); got.BoxPubKey != relay.EncodeKey(box.PublicKey().Bytes()) || got.Hostname != n.Label+".relay.example" {
		t.Fatalf("after a re-key: %+v", got)
	}
	if err := r.store.DeleteNode(t.Context(), []byte("another node key, 32 bytes long!")); err != nil {
		t.Fatal(err)
	}
	if after := resolveBody(t, r.http.URL, address); after != decoy {
		t.Fatalf("after deleting: %s, want the decoy %s", after, decoy)
	}
}

// TestResolveRace: resolves over HTTP race registrations, re-keys and
// deletions of the same addresses (run under -race); every answer is
// 200, the address's decoy or its node's current name.
func TestResolveRace(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6})
	const addrs = 4
	address := func(i int) string { return fmt.Sprintf("user%d@example.com", i) }
	decoys := make([]string, addrs)
	for i := range addrs {
		decoys[i] = resolution(t, resolveBody(t, r.http.URL, address(i))).Hostname
	}
	labels := make([]sync.Map, addrs) // every label address i was given
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				i := (j + w) % addrs
				body := `{"address":"` + address(i) + `"}`
				resp, err := http.Post(r.http.URL+relay.PathResolve, "application/json", strings.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				var res relay.Resolution
				err = json.NewDecoder(resp.Body).Decode(&res)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 {
					t.Errorf("resolve: %d, %v", resp.StatusCode, err)
					return
				}
				if res.Hostname == decoys[i] {
					continue
				}
				if _, ok := labels[i].Load(res.Hostname); !ok {
					t.Errorf("%s resolved to %s, neither its decoy nor a node it was given", address(i), res.Hostname)
				}
			}
		}()
	}
	for round := range 15 {
		for i := range addrs {
			n := relaystore.Node{Address: address(i), Label: relayserver.NewLabel(), NodeKey: []byte(fmt.Sprintf("%-32.32s", fmt.Sprint(round, i))),
				BoxKey: make([]byte, 32), RegisteredAt: time.Now()}
			labels[i].Store(n.Label+".relay.example", true)
			if err := r.store.PutNode(t.Context(), n); err != nil {
				t.Fatal(err)
			}
			if round%3 == 2 {
				if err := r.store.DeleteNode(t.Context(), n.NodeKey); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	close(stop)
	wg.Wait()
}

// TestResolveTwoInstances: two relays sharing one PostgreSQL answer, each,
// what the other registered and deleted within a bound (LISTEN/NOTIFY
// between their directories).
func TestResolveTwoInstances(t *testing.T) {
	url := pgtest.Need(t)
	open := func() (*relaystore.Postgres, string) {
		st, err := relaystore.OpenPostgres(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := relayserver.New(t.Context(), relayserver.Config{Zone: "relay.example", Store: st,
			Limits: relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(srv.Handler())
		t.Cleanup(func() { hs.Close(); srv.Close(); st.Close() })
		return st, hs.URL
	}
	a, aURL := open()
	_, bURL := open()
	const address = "ann@example.com"
	decoy := resolveBody(t, bURL, address)
	if resolveBody(t, aURL, address) != decoy {
		t.Fatal("two instances on one database gave different decoys")
	}
	n := relaystore.Node{Address: address, Label: relayserver.NewLabel(), NodeKey: make([]byte, 32), BoxKey: make([]byte, 32), RegisteredAt: time.Now()}
	if err := a.PutNode(t.Context(), n); err != nil {
		t.Fatal(err)
	}
	if got := resolution(t, resolveBody(t, aURL, address)); got.Hostname != n.Label+".relay.example" {
		t.Fatalf("the registering instance answered %s at once, want %s", got.Hostname, n.Label)
	}
	const bound = 2 * time.Second
	start := time.Now()
	for resolution(t, resolveBody(t, bURL, address)).Hostname != n.Label+".relay.example" {
		if time.Since(start) > bound {
			t.Fatalf("the other instance did not resolve the registration within %v", bound)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("registration resolved at the other instance after %v", time.Since(start))
	if err := a.DeleteNode(t.Context(), n.NodeKey); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	for resolveBody(t, bURL, address) != decoy {
		if time.Since(start) > bound {
			t.Fatalf("the other instance did not forget the deletion within %v", bound)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
