package app_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/app/demo"
	"mailnode/mail/demobox"
	"mailnode/relay"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
)

// The registration tests of issue 40, items 3 (forged code mails) and 4
// (a stranger asking for the owner's address). The mails a forger writes
// are spelled out here, not made with the relay's own code, so that the
// tests say what a stranger can do whatever the relay sends.

// TestRelayForgedCodeMails: 20 mails in the old code mail's shape and 20
// in the new one, naming the live code (the forger asked the relay for
// it), from the relay's address and dated 2100, lie in the mailbox next to
// the relay's: the node registers, and the only code it ever sends the
// relay is the right one.
func TestRelayForgedCodeMails(t *testing.T) {
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	nd := startDemoNode(t, r, &log)
	for range 20 {
		code := fakeCode()
		nd.submit(t, forgedMail("mailnode relay code: "+code, "", code))
	}
	nd.awaitStored(t, 20)

	// The node asks first; the relay's mail waits (the relay has no
	// mailer yet) while the forger asks too and learns the code's
	// reference.
	calls := nd.startRelay(t, r)
	calls.await(t, relay.PathRegister)
	time.Sleep(200 * time.Millisecond)
	forger := newStranger(t, r)
	if ans := forger.ask(t); ans.status == http.StatusAccepted {
		for range 20 {
			nd.submit(t, forgedMail(newCodeSubject+ans.codeID, ans.codeID, fakeCode()))
		}
		nd.awaitStored(t, 40)
	}
	nd.setMailer(r)

	host := nd.awaitConnected(t, 40*time.Second, calls)
	if got := calls.list(relay.PathRegisterConfirm); len(got) != 1 || got[0] != 200 {
		t.Fatalf("confirm calls = %v, want one, answered 200 (no try spent on a forged mail)", got)
	}
	if m := regexp.MustCompile(`untiedCandidates=(\d+)`).FindStringSubmatch(log.String()); m == nil || atoi(m[1]) < 20 {
		t.Fatalf("the node did not read the 20 forged mails naming the code: %v", m)
	}
	if res := resolveAddress(t, r, demobox.Address); res != host {
		t.Fatalf("resolve = %s, want the node's %s", res, host)
	}
}

// TestRelayStrangerAsksFirst: a stranger (another key) asks for the
// owner's address before the owner's node and keeps asking ten times a
// second, and puts 20 mails naming the live code, with wrong codes and
// dates in 2100, in the owner's mailbox. The owner's node registers with
// one confirm, never hears 429, and the relay mails one code in all.
func TestRelayStrangerAsksFirst(t *testing.T) {
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	nd := startDemoNode(t, r, &log)
	nd.setMailer(r)
	stranger := newStranger(t, r)
	first := stranger.ask(t)
	if first.status != http.StatusAccepted {
		t.Fatalf("stranger's first ask = %d", first.status)
	}
	for range 20 {
		nd.submit(t, forgedMail(newCodeSubject+first.codeID, first.codeID, fakeCode()))
	}
	nd.awaitStored(t, 20)

	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	var mu sync.Mutex
	answers := map[int]int{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 600 && ctx.Err() == nil; i++ {
			a := stranger.ask(t)
			mu.Lock()
			answers[a.status]++
			mu.Unlock()
			time.Sleep(100 * time.Millisecond)
		}
	}()
	defer func() { stop(); wg.Wait() }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := answers[http.StatusAccepted] + answers[http.StatusTooManyRequests]
		mu.Unlock()
		if n >= 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stranger asked %d times in 10 s", n)
		}
	}

	calls := nd.startRelay(t, r)
	host := nd.awaitConnected(t, 40*time.Second, calls)
	stop()
	wg.Wait()
	if got := calls.list(relay.PathRegisterConfirm); len(got) != 1 || got[0] != 200 {
		t.Fatalf("confirm calls = %v, want one, answered 200", got)
	}
	for _, status := range calls.list(relay.PathRegister) {
		if status != http.StatusAccepted {
			t.Fatalf("owner's register calls = %v, want only 202", calls.list(relay.PathRegister))
		}
	}
	if n := strings.Count(log.String(), `msg="Mailed confirmation code"`); n != 1 {
		t.Fatalf("the relay mailed %d codes, want 1", n)
	}
	if answers[http.StatusAccepted] < 10 || len(answers) != 1 {
		t.Fatalf("stranger's answers = %v, want 202s only", answers)
	}
	if res := resolveAddress(t, r, demobox.Address); res != host {
		t.Fatalf("resolve = %s, want the node's %s", res, host)
	}
}

// newCodeSubject and "Mailnode-Relay-Code" are what a forger copies from
// a code mail it had the relay send to itself.
const newCodeSubject = "mailnode relay code, ref "

// forgedMail is a mail such as anyone can send: the relay's From, a
// relay-like subject, a code, and a date in 2100. zqforged marks it for
// awaitStored.
func forgedMail(subject, codeID, code string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: mailnode relay <relay@%s>\r\nTo: <%s>\r\nSubject: %s\r\n", relaylocal.Zone, demobox.Address, subject)
	fmt.Fprintf(&b, "Date: Fri, 01 Jan 2100 00:00:00 +0000\r\nMessage-ID: <%s@%s>\r\n", randomWord(), relaylocal.Zone)
	fmt.Fprintf(&b, "Mailnode-Relay-Code: %s\r\nAuto-Submitted: auto-generated\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n", code)
	fmt.Fprintf(&b, "zqforged %s\r\nCode: %s\r\n", codeID, code)
	// Words of the relay's subject, many times: the forgery ranks above
	// the relay's mail in a full-text search for them.
	b.WriteString(strings.Repeat("mailnode relay code "+codeID+"\r\n", 10))
	return b.Bytes()
}

// fakeCode is a wrong code in the shape of the relay's codes.
func fakeCode() string {
	s := strings.ToUpper(randomWord() + randomWord())[:25]
	return s[0:5] + "-" + s[5:10] + "-" + s[10:15] + "-" + s[15:20] + "-" + s[20:25]
}

func randomWord() string {
	b := make([]byte, 10)
	rand.Read(b)
	return strings.ToLower(base32.StdEncoding.EncodeToString(b))
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func slogTo(b *apptest.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// demoNode is a demo node started without its relay service, so that a
// test can arrange the mailbox and the relay first.
type demoNode struct {
	n   *app.Node
	box *demo.Mailbox
	log *apptest.Buffer
	sub <-chan app.Status
}

func startDemoNode(t *testing.T, r *relaylocal.Relay, log *apptest.Buffer) *demoNode {
	t.Helper()
	box := apptest.DemoMailbox(t)
	n, err := app.New(apptest.DemoOn(t, box, app.Config{DataDir: t.TempDir(),
		Gateway:  app.GatewayConfig{Listen: "127.0.0.1:0", DevAgentCAs: []*x509.Certificate{r.CA.Cert}},
		Services: app.Services{Sync: true, Gateway: true},
	}), slogTo(log))
	if err != nil {
		t.Fatal(err)
	}
	sub, unsub := n.Subscribe()
	t.Cleanup(unsub)
	if err := n.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(log.String())
		}
	})
	return &demoNode{n: n, box: box, log: log, sub: sub}
}

// submit sends raw to the demo address through the demo's submission
// server: it arrives in the INBOX the node syncs.
func (d *demoNode) submit(t *testing.T, raw []byte) {
	t.Helper()
	addr, tlsc := d.box.Submission()
	c, err := smtp.DialStartTLS(addr, tlsc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", demobox.Username, demobox.Password)); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail("forger@elsewhere.example", []string{demobox.Address}, bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
}

// awaitStored waits until the node's store holds n forged mails.
func (d *demoNode) awaitStored(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		hits, err := d.n.Search(t.Context(), "zqforged", 1000)
		if err == nil && len(hits) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d forged mails stored, want %d (%v)", len(hits), n, err)
		}
	}
}

func (d *demoNode) setMailer(r *relaylocal.Relay) {
	addr, tlsc := d.box.Submission()
	r.SetMailer(&relayserver.SMTPMailer{Addr: addr, Username: demobox.Username, Password: demobox.Password,
		Sender: "relay@" + relaylocal.Zone, TLS: tlsc})
}

// startRelay starts the node's relay service with an HTTP client that
// records the self-service calls and their answers.
func (d *demoNode) startRelay(t *testing.T, r *relaylocal.Relay) *relayCalls {
	t.Helper()
	calls := &relayCalls{base: r.HTTPClient().Transport}
	if err := d.n.StartRelay(app.RelayConfig{URL: r.URL, HTTP: &http.Client{Timeout: 30 * time.Second, Transport: calls},
		TLS: r.CA.ClientTLS(), Dial: r.Dial}); err != nil {
		t.Fatal(err)
	}
	return calls
}

func (d *demoNode) awaitConnected(t *testing.T, within time.Duration, calls *relayCalls) string {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case st := <-d.sub:
			if st.Gateway.Relay.State == "connected" {
				return st.Gateway.Relay.Hostname
			}
		case <-deadline:
			t.Fatalf("node not connected through the relay: %+v; register answered %v, confirm %v", d.n.Status().Gateway,
				calls.list(relay.PathRegister), calls.list(relay.PathRegisterConfirm))
		}
	}
}

// relayCalls records each self-service call's path and answer status.
type relayCalls struct {
	base http.RoundTripper

	mu    sync.Mutex // guards the fields below
	sent  []string
	calls map[string][]int
}

func (c *relayCalls) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.sent = append(c.sent, r.URL.Path)
	c.mu.Unlock()
	resp, err := c.base.RoundTrip(r)
	if err == nil {
		c.mu.Lock()
		if c.calls == nil {
			c.calls = map[string][]int{}
		}
		c.calls[r.URL.Path] = append(c.calls[r.URL.Path], resp.StatusCode)
		c.mu.Unlock()
	}
	return resp, err
}

func (c *relayCalls) list(path string) []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.calls[path]...)
}

// await waits until a call to path was sent.
func (c *relayCalls) await(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		c.mu.Lock()
		sent := strings.Join(c.sent, " ")
		c.mu.Unlock()
		if strings.Contains(sent, path+" ") || strings.HasSuffix(sent, path) {
			return
		}
	}
	t.Fatalf("no call to %s", path)
}

// stranger asks the relay for registrations with a key of its own, by
// hand: the signed call and the answer's JSON as they are on the wire.
type stranger struct {
	r   *relaylocal.Relay
	key ed25519.PrivateKey
	box []byte
}

func newStranger(t *testing.T, r *relaylocal.Relay) *stranger {
	_, key, _ := ed25519.GenerateKey(nil)
	box := make([]byte, 32)
	rand.Read(box)
	return &stranger{r: r, key: key, box: box}
}

type askAnswer struct {
	status int
	codeID string
}

func (s *stranger) ask(t *testing.T) askAnswer {
	body, _ := json.Marshal(map[string]string{"address": demobox.Address, "box_key": relay.EncodeKey(s.box)})
	u, _ := url.Parse(s.r.URL + relay.PathRegister)
	now := time.Now().Unix()
	nb := make([]byte, 18)
	rand.Read(nb)
	nonce := base64.RawURLEncoding.EncodeToString(nb)
	sig := ed25519.Sign(s.key, relay.NodeSigningString("POST", u.Host, u.Path, now, nonce, body))
	req, _ := http.NewRequest("POST", u.String(), bytes.NewReader(body))
	req.Header.Set(relay.HeaderNodeKey, relay.EncodeKey(s.key.Public().(ed25519.PublicKey)))
	req.Header.Set(relay.HeaderNodeTime, strconv.FormatInt(now, 10))
	req.Header.Set(relay.HeaderNodeNonce, nonce)
	req.Header.Set(relay.HeaderNodeSig, base64.RawURLEncoding.EncodeToString(sig))
	resp, err := s.r.HTTPClient().Do(req)
	if err != nil {
		return askAnswer{}
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	id, _ := m["code_id"].(string)
	return askAnswer{status: resp.StatusCode, codeID: id}
}

func resolveAddress(t *testing.T, r *relaylocal.Relay, address string) string {
	t.Helper()
	resp, err := r.HTTPClient().Post(r.URL+relay.PathResolve, "application/json", strings.NewReader(`{"address":"`+address+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res relay.Resolution
	json.NewDecoder(resp.Body).Decode(&res)
	return res.Hostname
}
