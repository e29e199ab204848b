package push_test

import (
	"context"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/pairing"
	"mailnode/approvals/phoneapi"
	"mailnode/approvals/push"
	"mailnode/approvals/push/pushtest"
	"mailnode/gateway/phone/phoneclient"
	"mailnode/mail/store"
)

type node struct {
	m      *approvals.Manager
	phones *approvals.Phones
	push   *push.Service
	stand  *pushtest.StandIn
}

// newNode opens a node's approvals and a push service that reaches the
// stand-in. tune may change the push configuration.
func newNode(t *testing.T, ac approvals.Config, tune func(*push.Config)) *node {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	at, err := st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	m, err := approvals.New(ctx, at, ac, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	phones, err := approvals.NewPhones(ctx, at, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	stand := pushtest.Start(t)
	cfg := push.Config{Phones: phones, Approvals: m, Subject: "https://node.example",
		DevAddrs: stand.DevAddrs(), DevRootCAs: []*x509.Certificate{stand.CA()}, RetryBase: 20 * time.Millisecond,
		LookupAddrs: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}}
	if tune != nil {
		tune(&cfg)
	}
	svc, err := push.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &node{m: m, phones: phones, push: svc, stand: stand}
}

// run runs the push service until the test ends.
func (n *node) run(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := n.push.Run(ctx); err != nil {
			t.Errorf("Run = %v", err)
		}
	})
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// pair pairs a device: the phone's keys, its registration and the
// node's confirmation.
func (n *node) pair(t *testing.T, name string) *phoneclient.Device {
	t.Helper()
	ctx := context.Background()
	o, err := n.phones.Offer()
	if err != nil {
		t.Fatal(err)
	}
	sign, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	box, _ := ecdh.P256().GenerateKey(rand.Reader)
	pub, _ := sign.PublicKey.Bytes()
	r := pairing.Registration{Offer: o.ID, SignPub: pairing.Encode(pub), BoxPub: pairing.Encode(box.PublicKey().Bytes()), Name: name}
	r.Sign(o.Secret)
	reg, err := n.phones.Register(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.phones.Confirm(ctx, reg.Phone.ID); err != nil {
		t.Fatal(err)
	}
	return &phoneclient.Device{ID: reg.Phone.ID, Name: name, NodeBox: n.phones.NodeKey().PublicKey(), Sign: sign, Box: box}
}

// subscribe subscribes d at the stand-in's path.
func (n *node) subscribe(t *testing.T, d *phoneclient.Device, path string) *pushtest.Subscriber {
	t.Helper()
	s := pushtest.NewSubscriber(t, path)
	if err := n.push.Subscribe(context.Background(), d.ID, s.JSON()); err != nil {
		t.Fatalf("Subscribe(%s) = %v", s.Endpoint, err)
	}
	return s
}

// ask makes an agent's call that needs the person: a send.
func (n *node) ask(t *testing.T, agent string) *approvals.Approval {
	t.Helper()
	d, err := n.m.Request(context.Background(), approvals.Call{Domain: agent, KeyFP: "k1", Tool: "send_draft",
		Tier: approvals.Send, Args: json.RawMessage(`{"draft":"d_` + rand.Text()[:8] + `"}`), Details: "Send this message:\nTo: a@example.org"})
	if err != nil || d.Outcome != approvals.ApprovalRequired {
		t.Fatalf("Request = %+v, %v; want approval_required", d, err)
	}
	return d.Approval
}

func status(t *testing.T, n *node, id string) approvals.PushStatus {
	t.Helper()
	ph, ok := n.phones.Get(id)
	if !ok {
		t.Fatalf("phone %s gone", id)
	}
	return ph.Push
}

// waitStatus waits until the phone's push status satisfies ok.
func waitStatus(t *testing.T, n *node, id string, ok func(approvals.PushStatus) bool) approvals.PushStatus {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := status(t, n, id)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("push status of %s = %+v, not the one awaited", id, st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPushIsStandard: the stand-in receives the node's push for a new
// prompt; the VAPID JWT verifies with jose under the key the header names,
// which is the node's; the body decrypts with http_ece (npm), Python's
// http-ece and the test's own reading to the same text; the text opens
// with the device's key to exactly the notice. Deciding the prompt sends
// a notice that replaces it.
func TestPushIsStandard(t *testing.T) {
	n := newNode(t, approvals.Config{}, nil)
	d := n.pair(t, "Pixel")
	sub := n.subscribe(t, d, "/push/pixel")
	n.run(t)

	a := n.ask(t, "agent.example")
	req := n.stand.Next(t, 10*time.Second)
	if req.Path != "/push/pixel" {
		t.Fatalf("push to %s, want /push/pixel", req.Path)
	}
	ttl, err := strconv.Atoi(req.Header.Get("TTL"))
	left := int(time.Until(a.ExpiresAt).Seconds())
	if err != nil || ttl > left+1 || ttl < left-5 {
		t.Errorf("TTL = %q, want the prompt's remaining life, about %d", req.Header.Get("TTL"), left)
	}
	for h, want := range map[string]string{"Urgency": "high", "Topic": a.ID, "Content-Encoding": "aes128gcm"} {
		if got := req.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if len(req.Body) != push.PaddedSize+16+86 {
		t.Errorf("body is %d bytes, want %d (every push padded alike)", len(req.Body), push.PaddedSize+16+86)
	}
	c := sub.Check(t, req, "https://"+pushtest.Host)
	t.Logf("decrypted by %s", strings.Join(c.Readers, ", "))
	if c.Claims != nil {
		vapid, _ := push.PublicKey(n.phones.VAPIDKey())
		if c.K != vapid || c.K != n.push.PublicKey() {
			t.Errorf("k = %s, want the node's VAPID key %s", c.K, vapid)
		}
		exp, _ := c.Claims["exp"].(float64)
		if c.Claims["aud"] != "https://"+pushtest.Host || c.Claims["sub"] != "https://node.example" ||
			time.Unix(int64(exp), 0).After(time.Now().Add(12*time.Hour+time.Minute)) || time.Unix(int64(exp), 0).Before(time.Now()) {
			t.Errorf("JWT claims = %v, want aud https://%s, sub https://node.example, exp within 12 h", c.Claims, pushtest.Host)
		}
		if c.Header["alg"] != "ES256" {
			t.Errorf("JWT header = %v, want alg ES256", c.Header)
		}
	}
	notice, err := d.OpenPush(c.Text)
	if err != nil {
		t.Fatalf("OpenPush(%q) = %v", c.Text, err)
	}
	want := phoneapi.PushNotice{Type: "prompt", ApprovalID: a.ID, Agent: "agent.example", Tool: "send_draft (send)",
		MatchCode: a.MatchCode, ExpiresAt: a.ExpiresAt.UTC().Format(time.RFC3339)}
	if notice != want {
		t.Errorf("notice = %+v, want %+v", notice, want)
	}
	// The notice's exact JSON.
	plainWant, _ := json.Marshal(want)
	if b, _ := json.Marshal(notice); string(b) != string(plainWant) {
		t.Errorf("notice JSON = %s, want %s", b, plainWant)
	}
	// Another device's key does not open it.
	other := n.pair(t, "Other")
	if _, err := other.OpenPush(c.Text); err == nil {
		t.Error("another device opened the notice")
	}
	waitStatus(t, n, d.ID, func(s approvals.PushStatus) bool { return s.LastOK && s.LastResult == "accepted" })
	if !n.phones.PushReachable() {
		t.Error("PushReachable() = false after an accepted push")
	}

	// Denied on the node: a notice replaces the prompt's, same topic.
	if _, err := n.m.Decide(context.Background(), a.ID, false); err != nil {
		t.Fatal(err)
	}
	req = n.stand.Next(t, 10*time.Second)
	if req.Header.Get("Topic") != a.ID || req.Header.Get("Urgency") != "normal" {
		t.Errorf("decided push: Topic %q Urgency %q, want %s, normal", req.Header.Get("Topic"), req.Header.Get("Urgency"), a.ID)
	}
	text, err := sub.Decrypt(req.Body)
	if err != nil {
		t.Fatal(err)
	}
	notice, err = d.OpenPush(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if want := (phoneapi.PushNotice{Type: "decided", ApprovalID: a.ID, State: "denied"}); notice != want {
		t.Errorf("decided notice = %+v, want %+v", notice, want)
	}
}

// TestPushExpired: a prompt that expires while its notice may be showing
// gets an "expired" notice. The prompt lives 4 s: its expiry is stored in
// whole seconds and a push's TTL is whole seconds too, so with 2 s a
// loaded machine (CI's race run) sometimes left less than one second of
// TTL and the prompt was, rightly, not pushed at all.
func TestPushExpired(t *testing.T) {
	n := newNode(t, approvals.Config{PendingTTL: 4 * time.Second}, nil)
	d := n.pair(t, "Pixel")
	sub := n.subscribe(t, d, "/push/pixel")
	n.run(t)
	a := n.ask(t, "agent.example")
	open := func(req pushtest.Request) (phoneapi.PushNotice, error) {
		text, err := sub.Decrypt(req.Body)
		if err != nil {
			return phoneapi.PushNotice{}, err
		}
		return d.OpenPush(string(text))
	}
	if first, err := open(n.stand.Next(t, 5*time.Second)); err != nil || first.Type != "prompt" {
		t.Fatalf("first notice = %+v, %v; want the prompt", first, err)
	}
	notice, err := open(n.stand.Next(t, 10*time.Second))
	if want := (phoneapi.PushNotice{Type: "expired", ApprovalID: a.ID, State: "expired"}); err != nil || notice != want {
		t.Errorf("notice after expiry = %+v, %v, want %+v", notice, err, want)
	}
}

// TestPushGone: a push service that no longer knows the subscription
// (404, 410) has it deleted, and the status says why.
func TestPushGone(t *testing.T) {
	for _, code := range []int{http.StatusNotFound, http.StatusGone} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			n := newNode(t, approvals.Config{}, nil)
			d := n.pair(t, "Pixel")
			n.subscribe(t, d, "/push/gone")
			n.stand.Script("/push/gone", pushtest.Answer{Status: code})
			n.run(t)
			n.ask(t, "agent.example")
			st := waitStatus(t, n, d.ID, func(s approvals.PushStatus) bool { return !s.On })
			if st.LastOK || !strings.Contains(st.LastResult, strconv.Itoa(code)) || st.LastAt.IsZero() {
				t.Errorf("status after %d = %+v, want refused, saying %d", code, st, code)
			}
			if ph, _ := n.phones.Get(d.ID); func() bool { _, on := ph.PushSub(); return on }() {
				t.Error("the subscription is still there")
			}
			if n.phones.PushReachable() {
				t.Error("PushReachable() = true with no subscription")
			}
			// Nothing more is pushed to it.
			n.ask(t, "other.example")
			time.Sleep(300 * time.Millisecond)
			if got := len(n.stand.Requests()); got != 1 {
				t.Errorf("the stand-in got %d requests, want 1", got)
			}
		})
	}
}

// TestPushRetry: 429 and 5xx are tried again, Retry-After honoured,
// until the push service accepts.
func TestPushRetry(t *testing.T) {
	n := newNode(t, approvals.Config{}, nil)
	d := n.pair(t, "Pixel")
	n.subscribe(t, d, "/push/busy")
	n.stand.Script("/push/busy", pushtest.Answer{Status: 429, RetryAfter: "1"}, pushtest.Answer{Status: 503}, pushtest.Answer{Status: 500})
	n.run(t)
	n.ask(t, "agent.example")
	var got []pushtest.Request
	for range 4 {
		got = append(got, n.stand.Next(t, 10*time.Second))
	}
	if w := got[1].At.Sub(got[0].At); w < 900*time.Millisecond {
		t.Errorf("retry %v after a 429 with Retry-After: 1, want at least 1 s", w)
	}
	for i, want := range []int{429, 503, 500, 201} {
		if got[i].Answer != want {
			t.Errorf("request %d answered %d, want %d", i, got[i].Answer, want)
		}
	}
	waitStatus(t, n, d.ID, func(s approvals.PushStatus) bool { return s.LastOK })
}

// TestPushGivesUp: a push service that keeps answering 503 is tried
// until the prompt expires, and the status says so. The prompt lives 5
// s: a push carries its prompt's remaining life in whole seconds, and
// with 2 s a first try that waited over a second behind a loaded CI
// machine's other tests found none left (CI 66: "queued too long", no
// try at all).
func TestPushGivesUp(t *testing.T) {
	n := newNode(t, approvals.Config{PendingTTL: 5 * time.Second}, nil)
	d := n.pair(t, "Pixel")
	n.subscribe(t, d, "/push/down")
	var down []pushtest.Answer
	for range 100 {
		down = append(down, pushtest.Answer{Status: 503})
	}
	n.stand.Script("/push/down", down...)
	n.run(t)
	n.ask(t, "agent.example")
	st := waitStatus(t, n, d.ID, func(s approvals.PushStatus) bool { return !s.LastAt.IsZero() })
	if st.LastOK || !st.On || !strings.Contains(st.LastResult, "503") || !strings.Contains(st.LastResult, "expired") {
		t.Errorf("status = %+v, want not delivered before the prompt expired, 503", st)
	}
	if n := len(n.stand.Requests()); n < 3 {
		t.Errorf("%d tries in the prompt's 5 s, want several", n)
	}
}

// TestSubscribeRefused: a subscription whose endpoint is not https on a
// public address, or whose keys do not parse, is refused when it is
// registered; one on a public name is taken.
func TestSubscribeRefused(t *testing.T) {
	resolve := map[string][]netip.Addr{
		"push.example":    {netip.MustParseAddr("93.184.215.14")},
		"private.example": {netip.MustParseAddr("192.168.1.20")},
		"mixed.example":   {netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("10.1.2.3")},
		"meta.example":    {netip.MustParseAddr("169.254.169.254")},
		"v6local.example": {netip.MustParseAddr("fd00::1")},
	}
	n := newNode(t, approvals.Config{}, func(c *push.Config) {
		c.LookupAddrs = func(ctx context.Context, host string) ([]netip.Addr, error) {
			if a, ok := resolve[host]; ok {
				return a, nil
			}
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
	})
	d := n.pair(t, "Pixel")
	good := pushtest.NewSubscriber(t, "/x")
	keys := func(endpoint string) string {
		var v map[string]any
		json.Unmarshal(good.JSON(), &v)
		v["endpoint"] = endpoint
		b, _ := json.Marshal(v)
		return string(b)
	}
	for _, tt := range []struct {
		name, body string
		ok         bool
	}{
		{"public name", keys("https://push.example/send/abc"), true},
		{"public name, port 443", keys("https://push.example:443/send/abc"), true},
		{"http", keys("http://push.example/send/abc"), false},
		{"private name", keys("https://private.example/send/abc"), false},
		{"private and public", keys("https://mixed.example/send/abc"), false},
		{"metadata", keys("https://meta.example/latest"), false},
		{"unique local v6", keys("https://v6local.example/x"), false},
		{"loopback literal", keys("https://127.0.0.1/x"), false},
		{"private literal", keys("https://10.0.0.1/x"), false},
		{"v6 loopback literal", keys("https://[::1]/x"), false},
		{"unresolvable", keys("https://nowhere.example/x"), false},
		{"other port", keys("https://push.example:8443/x"), false},
		{"user info", keys("https://u:p@push.example/x"), false},
		{"too long", keys("https://push.example/" + strings.Repeat("a", push.MaxEndpoint)), false},
		{"not a URL", keys("push.example/x"), false},
		{"bad p256dh", `{"endpoint":"https://push.example/x","keys":{"p256dh":"AAAA","auth":"` + pairing.Encode(good.Auth) + `"}}`, false},
		{"short auth", `{"endpoint":"https://push.example/x","keys":{"p256dh":"` + pairing.Encode(good.Key.PublicKey().Bytes()) + `","auth":"AAAA"}}`, false},
		{"not JSON", `endpoint=https://push.example/x`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := n.push.Subscribe(context.Background(), d.ID, []byte(tt.body))
			var bad *push.BadSubscriptionError
			switch {
			case tt.ok && err != nil:
				t.Errorf("Subscribe = %v, want nil", err)
			case !tt.ok && !errors.As(err, &bad):
				t.Errorf("Subscribe = %v, want a BadSubscriptionError", err)
			}
		})
	}
}

// TestDialRechecks: a name that resolved to a public address when the
// phone subscribed and to a private one now is not dialed.
func TestDialRechecks(t *testing.T) {
	var mu sync.Mutex
	addr := netip.MustParseAddr("93.184.215.14")
	n := newNode(t, approvals.Config{}, func(c *push.Config) {
		c.LookupAddrs = func(ctx context.Context, host string) ([]netip.Addr, error) {
			mu.Lock()
			defer mu.Unlock()
			return []netip.Addr{addr}, nil
		}
	})
	d := n.pair(t, "Pixel")
	s := pushtest.NewSubscriber(t, "/x")
	var v map[string]any
	json.Unmarshal(s.JSON(), &v)
	v["endpoint"] = "https://rebind.example/x"
	b, _ := json.Marshal(v)
	if err := n.push.Subscribe(context.Background(), d.ID, b); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	addr = netip.MustParseAddr("127.0.0.1")
	mu.Unlock()
	n.run(t)
	n.ask(t, "agent.example")
	st := waitStatus(t, n, d.ID, func(s approvals.PushStatus) bool { return !s.LastAt.IsZero() })
	if st.LastOK || !strings.Contains(st.LastResult, "public address") {
		t.Errorf("status = %+v, want refused: no longer a public address", st)
	}
}

// TestRemoveDeletesSubscription: removing a phone deletes its
// subscription, and nothing is pushed to it.
func TestRemoveDeletesSubscription(t *testing.T) {
	n := newNode(t, approvals.Config{}, nil)
	d := n.pair(t, "Pixel")
	n.subscribe(t, d, "/push/removed")
	if err := n.phones.Remove(context.Background(), d.ID); err != nil {
		t.Fatal(err)
	}
	n.run(t)
	n.ask(t, "agent.example")
	time.Sleep(300 * time.Millisecond)
	if got := len(n.stand.Requests()); got != 0 {
		t.Errorf("the stand-in got %d pushes for a removed phone", got)
	}
	if err := n.push.Subscribe(context.Background(), d.ID, pushtest.NewSubscriber(t, "/x").JSON()); !errors.Is(err, approvals.ErrNoPhone) {
		t.Errorf("Subscribe(removed phone) = %v, want ErrNoPhone", err)
	}
}

// TestPushOffRequestPath: a burst of prompts to three devices whose push
// service is slow does not hold up the agents' answers.
func TestPushOffRequestPath(t *testing.T) {
	n := newNode(t, approvals.Config{MaxPending: 100, MaxPromptsPerHour: 1000, MaxPendingTotal: 1000}, nil)
	// Each push takes 20 s: were one on the request path, the burst
	// would take at least that; without, it takes what 50 prompts take
	// (about 2 s under -race on a loaded two-core machine).
	n.stand.SetDelay(20 * time.Second)
	for _, name := range []string{"a", "b", "c"} {
		n.subscribe(t, n.pair(t, name), "/push/"+name)
	}
	n.run(t)
	start := time.Now()
	for i := range 50 {
		n.ask(t, "agent"+strconv.Itoa(i)+".example")
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("50 prompts took %v with a push service that answers in 20 s", el)
	}
}
