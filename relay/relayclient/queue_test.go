package relayclient_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/nacl/box"

	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// queued is one envelope of a test's queue: its sealed bytes, and, for a
// request the node opens, the body the node's handler must see.
type queued struct {
	name   string
	id     string
	sealed []byte
	body   []byte // nil: junk the node cannot take
}

// sealedRequest seals a request envelope whose sealed size is exactly
// size bytes, its body padded to fit.
func sealedRequest(t testing.TB, boxPub []byte, name string, size int) queued {
	t.Helper()
	var pub [32]byte
	copy(pub[:], boxPub)
	plain := func(pad int) ([]byte, []byte) {
		body := fmt.Appendf(nil, `{"case":%q,"pad":"%s"}`, name, strings.Repeat("p", pad))
		b, err := json.Marshal(relay.Envelope{Method: "POST", Path: "/mcp", Headers: map[string]string{"host": "node.example"}, Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return b, body
	}
	b, _ := plain(0)
	pad := size - relay.SealOverhead - len(b)
	if pad < 0 {
		t.Fatalf("%s: a request cannot be %d bytes sealed", name, size)
	}
	b, body := plain(pad)
	sealed, err := box.SealAnonymous(nil, b, &pub, rand.Reader)
	if err != nil || len(sealed) != size {
		t.Fatalf("%s: sealed %d bytes, want %d (%v)", name, len(sealed), size, err)
	}
	return queued{name: name, sealed: sealed, body: body}
}

// sealedJunk seals plaintext that is not a request: it opens, and is
// still junk.
func sealedJunk(boxPub []byte, name string, plaintext []byte) queued {
	var pub [32]byte
	copy(pub[:], boxPub)
	sealed, _ := box.SealAnonymous(nil, plaintext, &pub, rand.Reader)
	return queued{name: name, sealed: sealed}
}

// receiptIDLen is the length of the relay's receipt ids, which it puts in
// its delivery lines (docs/relay.md: the relay's own request_id, 22
// base64url characters).
const receiptIDLen = 22

// lineSize is the sealed size whose delivery line is nearest to n bytes
// with its newline (the relay writes {"request_id":ID,"envelope":B64}\n
// with a receipt id of receiptIDLen): base64url of sealed bytes cannot
// take every length, so the line may miss n by a byte or two.
func lineSize(n int) int {
	const frame = len(`{"request_id":"","envelope":""}` + "\n")
	return (n - frame - receiptIDLen) * 3 / 4
}

// TestQueueMixedSizes: a node that was offline gets, when its tunnel comes
// up, every envelope of a full queue of 32 that mixes requests of every
// size up to the 64 KiB limit with junk: each request reaches the node's
// handler whole and exactly once, its reply is there to poll, and every
// envelope, junk included, is acknowledged in the first delivery, so none
// is handed over again or holds up the others. (Issue 40, item 1: a line
// over the reader's 8 KiB buffer was copied after the next read had
// overwritten it, and the stream ended at the first such line.)
func TestQueueMixedSizes(t *testing.T) {
	dir := t.TempDir()
	log := &lockedBuffer{}
	logger := slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r, err := relaylocal.Start(t.Context(), relaylocal.Options{DataDir: dir,
		Limits: relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6}}, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(log.String())
		}
	})
	keysFile := filepath.Join(t.TempDir(), "relay-keys.json")
	k, err := relayclient.NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	if err := relayclient.SaveKeys(keysFile, k); err != nil {
		t.Fatal(err)
	}
	const address = "ann@example.com"
	label := relayserver.NewLabel()
	host := label + "." + relaylocal.Zone
	st, err := relaystore.OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.PutNode(t.Context(), relaystore.Node{Address: address, Label: label, NodeKey: k.NodePublic(),
		BoxKey: k.BoxPublic(), RegisteredAt: time.Now()}); err != nil {
		t.Fatal(err)
	}

	// The queue: requests at the sizes around the old reader's 8 KiB
	// buffer and up to the limit, requests whose delivery line is one
	// byte either side of 8 KiB, junk that opens and junk that does not.
	seed := uint64(time.Now().UnixNano())
	t.Logf("junk seed %d", seed)
	rnd := mrand.New(mrand.NewPCG(seed, 1))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		return b
	}
	var q []queued
	for _, size := range []int{6 << 10, 8<<10 - 1, 8 << 10, 8<<10 + 1, 9000, 16 << 10, relay.MaxEnvelope} {
		q = append(q, sealedRequest(t, k.BoxPublic(), fmt.Sprintf("request of %d bytes", size), size))
	}
	lines := map[string]int{}
	for _, n := range []int{8<<10 - 1, 8 << 10, 8<<10 + 1} {
		e := sealedRequest(t, k.BoxPublic(), fmt.Sprintf("request on a line near %d bytes", n), lineSize(n))
		lines[e.name] = n
		q = append(q, e)
	}
	q = append(q,
		sealedRequest(t, k.BoxPublic(), "small request", 700),
		sealedJunk(k.BoxPublic(), "1 byte sealed", []byte("x")),
		sealedJunk(k.BoxPublic(), "8 KiB sealed, not JSON", random(8<<10)),
		sealedJunk(k.BoxPublic(), "64 KiB sealed, not JSON", random(relay.MaxEnvelope-relay.SealOverhead)),
		queued{name: "7 KiB random", sealed: random(7 << 10)},
		queued{name: "9,000 random", sealed: random(9000)},
		queued{name: "64 KiB random", sealed: random(relay.MaxEnvelope)},
		queued{name: "49 random", sealed: random(relay.SealOverhead + 1)},
	)
	for len(q) < relay.MaxQueued {
		n := relay.SealOverhead + 1 + rnd.IntN(relay.MaxEnvelope-relay.SealOverhead)
		q = append(q, queued{name: fmt.Sprintf("%d random", n), sealed: random(n)})
	}
	rnd.Shuffle(len(q), func(i, j int) { q[i], q[j] = q[j], q[i] })
	prefix := base64.RawURLEncoding.EncodeToString(random(6))

	// Each envelope from a client network of its own, so that no share of
	// the 32 slots one network may hold turns any away.
	for i, e := range q {
		hc := fromNetwork(r, i)
		body, _ := json.Marshal(map[string]string{"envelope": base64.RawURLEncoding.EncodeToString(e.sealed), "request_id": fmt.Sprintf("%s-%02d", prefix, i)})
		resp, err := hc.Post(r.URL+relay.PathQueue+"/"+host, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var receipt relay.Queued
		json.NewDecoder(resp.Body).Decode(&receipt)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted || len(receipt.RequestID) != receiptIDLen {
			t.Fatalf("enqueue %s: %d %+v", e.name, resp.StatusCode, receipt)
		}
		// The relay delivers, and the reply is polled, by the receipt's id.
		q[i].id = receipt.RequestID
	}
	for _, e := range q {
		if n, ok := lines[e.name]; ok {
			line, _ := json.Marshal(relay.QueueDelivery{RequestID: e.id, Envelope: base64.RawURLEncoding.EncodeToString(e.sealed)})
			if d := len(line) + 1 - n; d < -2 || d > 2 {
				t.Fatalf("the delivery line of %s is %d bytes", e.name, len(line)+1)
			}
		}
	}

	// The node comes up; its handler answers every request with the
	// hash of the body it got.
	var mu sync.Mutex
	took := map[string]int{}
	c, err := relayclient.New(relayclient.Config{
		RelayURL: r.URL, Address: address, KeysFile: keysFile, Codes: noCodes{}, Listener: relayclient.NewListener(),
		HTTP: r.HTTPClient(), TLS: r.CA.ClientTLS(), Dial: r.Dial,
		Queued: func(_ context.Context, env relay.Envelope) ([]byte, error) {
			mu.Lock()
			took[string(env.Body)]++
			mu.Unlock()
			sum := sha256.Sum256(env.Body)
			return sum[:], nil
		},
	}, logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer func() { cancel(); <-done }()

	var waiting []relaystore.Envelope
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		waiting, err = st.Undelivered(t.Context(), label, time.Now(), relay.MaxQueued)
		if err != nil {
			t.Fatal(err)
		}
		if len(waiting) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, w := range waiting {
		for _, e := range q {
			if e.id == w.ID {
				t.Errorf("%s (%d bytes sealed) was not acknowledged within 20 s", e.name, len(e.sealed))
			}
		}
	}

	var pub, priv [32]byte
	copy(pub[:], k.BoxPublic())
	copy(priv[:], k.Box.Bytes())
	hc := r.HTTPClient()
	for _, e := range q {
		resp, err := hc.Get(r.URL + relay.PathQueueReply + "/" + e.id)
		if err != nil {
			t.Fatal(err)
		}
		var rep relay.Reply
		json.NewDecoder(resp.Body).Decode(&rep)
		resp.Body.Close()
		if e.body == nil {
			if resp.StatusCode != http.StatusNoContent {
				t.Errorf("reply to junk %s = %d, want 204", e.name, resp.StatusCode)
			}
			continue
		}
		mu.Lock()
		n := took[string(e.body)]
		mu.Unlock()
		if n != 1 {
			t.Errorf("the handler took %s %d times, want once", e.name, n)
		}
		sealed, _ := base64.RawURLEncoding.DecodeString(rep.Envelope)
		got, ok := box.OpenAnonymous(nil, sealed, &pub, &priv)
		if sum := sha256.Sum256(e.body); resp.StatusCode != http.StatusOK || !ok || !bytes.Equal(got, sum[:]) {
			t.Errorf("reply to %s = %d, opens %v, want 200 with the hash of its body", e.name, resp.StatusCode, ok)
		}
	}
	mu.Lock()
	if len(took) != 11 {
		t.Errorf("the handler took %d distinct requests, want the 11 queued", len(took))
	}
	mu.Unlock()
}

// lockedBuffer is a log sink safe for concurrent writers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// noCodes is a code source for a node registered beforehand.
type noCodes struct{}

func (noCodes) RelayCodes(context.Context, relay.RegisterPending) ([]string, error) { return nil, nil }

// fromNetwork is an HTTP client of r's API whose connections come from
// 127.0.n.1, an IPv4 /24 of their own.
func fromNetwork(r *relaylocal.Relay, n int) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, byte(n), 1)}}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, r.Addr)
		},
		TLSClientConfig: r.CA.ClientTLS(),
	}}
}
