package app_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mailnode/approvals/phoneapi"
	"maps"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/approvals"
	"mailnode/approvals/push/pushtest"
	"mailnode/gateway"
	"mailnode/gateway/localca"
	"mailnode/gateway/phone/phoneclient"
	"mailnode/mail/credential"
	"mailnode/mail/demobox"
	"mailnode/mail/smtpsend"
)

const e2eAgent = "agent.e2e.example"

// e2e is a node serving the demo mailbox on loopback, an agent with a
// published key, a paired reference phone, and a real SMTP server.
type e2e struct {
	t       testing.TB
	node    *app.Node
	smtp    *demobox.SMTPServer
	agent   *agent.Session
	phone   *phoneclient.Device
	prompts chan arrival
	clock   atomic.Int64 // seconds added to the approvals' clock
	caPool  *x509.CertPool
	nodeURL string
	extra   []*agent.Session
	// cfg is the node's configuration and key the agent's, for a test
	// that starts the node again.
	cfg app.Config
	key ed25519.PrivateKey
}

// arrival is a prompt as the phone received it.
type arrival struct {
	text string
	at   time.Time
}

func (e *e2e) session(domain string, key ed25519.PrivateKey) *agent.Session {
	s, err := agent.NewSession(agent.Config{
		Node:       strings.TrimSuffix(strings.TrimPrefix(e.nodeURL, "https://"), "/mcp"),
		Signer:     &agent.Signer{Domain: domain, Kid: "k1", Key: key},
		HTTPClient: e.httpClient(nil),
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func newE2E(t testing.TB) *e2e { return newE2EWith(t, 0, approvals.Config{}) }

func newE2EWith(t testing.TB, extra int, cfg approvals.Config) *e2e {
	return newE2ELimited(t, extra, cfg, gateway.RateLimit{})
}

// newE2ELimited also publishes the keys of extra agents
// agent.site<i>.example (e.extra), each its own registrable domain, and tunes the approvals and rate limits.
func newE2ELimited(t testing.TB, extra int, cfg approvals.Config, rl gateway.RateLimit) *e2e {
	return newE2EPush(t, extra, cfg, rl, nil)
}

// newE2EPush is newE2ELimited whose node reaches the push service
// stand-in stand, if not nil, by the development overrides a node's
// --dev-agent and --dev-agent-ca set.
func newE2EPush(t testing.TB, extra int, cfg approvals.Config, rl gateway.RateLimit, stand *pushtest.StandIn) *e2e {
	t.Helper()
	ctx := context.Background()
	e := &e2e{t: t, prompts: make(chan arrival, 4096)}
	dir := t.TempDir()

	// The agents' web host: their key documents over TLS, by name.
	agentCA, err := localca.Open(dir+"/agent-ca", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][]byte{}
	addrs := map[string]string{}
	keys := map[string]ed25519.PrivateKey{}
	for i := -1; i < extra; i++ {
		domain := e2eAgent
		if i >= 0 {
			domain = fmt.Sprintf("agent.site%d.example", i)
		}
		pub, key, _ := ed25519.GenerateKey(nil)
		if docs[domain], err = agent.KeyDocument(domain, "k1", pub); err != nil {
			t.Fatal(err)
		}
		addrs[domain], keys[domain] = ln.Addr().String(), key
	}
	host := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(docs[r.TLS.ServerName])
	}), TLSConfig: &tls.Config{GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		return agentCA.Leaf(hello.ServerName)
	}}}
	go host.ServeTLS(ln, "", "")
	t.Cleanup(func() { host.Close() })
	key := keys[e2eAgent]
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return time.Now().Add(time.Duration(e.clock.Load()) * time.Second) }
	}

	e.smtp, err = demobox.StartSMTP(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.smtp.Close() })

	devCAs := []*x509.Certificate{agentCA.Cert()}
	if stand != nil {
		maps.Copy(addrs, stand.DevAddrs())
		devCAs = append(devCAs, stand.CA())
	}
	e.cfg = apptest.Demo(t, app.Config{DataDir: dir + "/node",
		Gateway: app.GatewayConfig{
			Listen:        "127.0.0.1:0",
			DevAgentAddrs: addrs,
			DevAgentCAs:   devCAs,
			Approvals:     cfg,
			RateLimit:     rl,
		},
		Services: app.Services{Gateway: true, LocalAPI: true},
		Outgoing: app.Outgoing{From: "Alex Morgan <alex.morgan@demo-mail.example>", SMTP: &smtpsend.Config{
			Address: e.smtp.Addr, Security: smtpsend.StartTLS, Username: demobox.Username,
			Password: credential.Secret(demobox.Password), TLSConfig: e.smtp.ClientTLS()}},
	})
	e.key = key
	n, err := app.New(e.cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.node = n
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	if _, err := n.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	e.nodeURL = n.GatewayURL()

	pem, err := os.ReadFile(n.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	e.caPool = x509.NewCertPool()
	e.caPool.AppendCertsFromPEM(pem)
	e.agent = e.session(e2eAgent, key)
	for i := range extra {
		d := fmt.Sprintf("agent.site%d.example", i)
		e.extra = append(e.extra, e.session(d, keys[d]))
	}

	e.phone = e.pair("Test phone", true)
	// As a phone does, the test reconnects when the stream ends, until
	// the test ends; the node sends every pending prompt first on each
	// new stream.
	sctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	t.Cleanup(func() { stop(); <-done })
	go func() {
		defer close(done)
		for sctx.Err() == nil {
			e.phone.Events(sctx, func(ev phoneapi.Event) error {
				if ev.Type == "prompt" {
					e.prompts <- arrival{ev.Prompt, time.Now()}
				}
				return nil
			})
			select {
			case <-sctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return e
}

func (e *e2e) httpClient(rt http.RoundTripper) *http.Client {
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: e.caPool, MinVersion: tls.VersionTLS13}, ForceAttemptHTTP2: true}
	if rt == nil {
		rt = tr
	}
	return &http.Client{Transport: rt, Timeout: 30 * time.Second}
}

// pair pairs a reference phone as the user does: the node's pairing URL,
// the phone's registration, the same short code on both screens, and
// (if confirm) the user's confirmation on the node.
func (e *e2e) pair(name string, confirm bool) *phoneclient.Device {
	e.t.Helper()
	ctx := context.Background()
	offer, err := e.node.Pair(ctx, app.PairOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	d, sas, err := phoneclient.Pair(ctx, e.httpClient(nil), offer.URL, name)
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := e.node.PairStatus(ctx, offer.ID)
	if err != nil || !st.Registered || st.SAS != sas {
		e.t.Fatalf("pair status %+v %v; phone shows %s", st, err, sas)
	}
	if confirm {
		if _, err := e.node.ConfirmPhone(ctx, d.ID); err != nil {
			e.t.Fatal(err)
		}
	}
	return d
}

// call makes one agent call and returns its result or its
// approval_required.
func (e *e2e) call(tool string, args any) (json.RawMessage, *agent.ApprovalRequired) {
	e.t.Helper()
	res, err := e.agent.Call(context.Background(), tool, args)
	var ar *agent.ApprovalRequired
	if errors.As(err, &ar) {
		return nil, ar
	}
	if err != nil {
		e.t.Fatalf("%s: %v", tool, err)
	}
	return res, nil
}

// prompt waits for the phone to show the prompt of ar.
func (e *e2e) prompt(ar *agent.ApprovalRequired) (string, approvals.Prompt) {
	e.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case a := <-e.prompts:
			text := a.text
			p, err := phoneclient.ReadPrompt(text)
			if err != nil {
				e.t.Fatal(err)
			}
			if p.ApprovalID != ar.ApprovalID {
				continue
			}
			// The match code the agent shows is the one the phone shows,
			// for the domain the signature proved.
			if p.MatchCode != ar.MatchCode || p.Agent != e2eAgent || p.Tool != ar.Tool {
				e.t.Fatalf("phone shows %+v, agent shows %+v", p, ar)
			}
			return text, p
		case <-timeout:
			e.t.Fatalf("no prompt for %s on the phone", ar.ApprovalID)
		}
	}
}

func (e *e2e) decide(text string, v approvals.Verdict) {
	e.t.Helper()
	if _, err := e.phone.Decide(context.Background(), text, v); err != nil {
		e.t.Fatalf("decide: %v", err)
	}
}

func isCode(err error, code string) bool {
	var pe *phoneclient.Error
	return errors.As(err, &pe) && pe.Code == code
}

// TestPhoneApprovalsEndToEnd drives agent → approval_required → phone
// approves → the retried call runs, for a first-contact grant, a
// get_excerpt and a send_draft delivered to a real SMTP server.
func TestPhoneApprovalsEndToEnd(t *testing.T) {
	e := newE2E(t)
	ctx := context.Background()
	question := map[string]string{"question": "When does my flight to New York leave?"}

	// First contact: ask needs a grant for free_form_read.
	_, ar := e.call("ask", question)
	if ar == nil || ar.Tier != "free_form_read" {
		t.Fatalf("first ask: %+v", ar)
	}
	text, p := e.prompt(ar)
	if !strings.Contains(p.Details, "ask") {
		t.Errorf("grant prompt does not name the tools: %q", p.Details)
	}
	e.decide(text, approvals.Approve)
	res, ar := e.call("ask", question)
	if ar != nil || !strings.Contains(string(res), "LH 400") {
		t.Fatalf("ask after approval: %s %+v", res, ar)
	}

	// get_excerpt: every call asks, bound to its arguments.
	query := map[string]string{"query": "flight to New York departure"}
	_, ar = e.call("get_excerpt", query)
	if ar == nil {
		t.Fatal("get_excerpt ran without approval")
	}
	excerptPrompt, p := e.prompt(ar)
	if !strings.Contains(p.Details, "query: flight to New York departure") {
		t.Errorf("excerpt prompt: %q", p.Details)
	}
	// A second excerpt with other arguments is another request; the
	// first one's decision cannot be made to stand for it.
	_, other := e.call("get_excerpt", map[string]string{"query": "hotel address"})
	otherPrompt, _ := e.prompt(other)
	forged := strings.Replace(excerptPrompt, ar.ApprovalID, other.ApprovalID, 1)
	if _, err := e.phone.Decide(ctx, forged, approvals.Approve); !isCode(err, "prompt_mismatch") {
		t.Fatalf("decision for other arguments: %v", err)
	}
	e.decide(excerptPrompt, approvals.Approve)
	if _, err := e.phone.Decide(ctx, excerptPrompt, approvals.Approve); !isCode(err, "not_pending") {
		t.Fatalf("replayed decision: %v", err)
	}
	res, ar2 := e.call("get_excerpt", query)
	var ex struct {
		Found  bool   `json:"found"`
		Thread string `json:"thread"`
	}
	if ar2 != nil || json.Unmarshal(res, &ex) != nil || !ex.Found || !strings.HasPrefix(ex.Thread, "t_") {
		t.Fatalf("excerpt after approval: %s %+v", res, ar2)
	}
	// The approval was for one call.
	if _, again := e.call("get_excerpt", query); again == nil {
		t.Fatal("a second excerpt ran on the first one's approval")
	}
	// Expiry counts as deny: the other request lapses unanswered.
	e.clock.Add(int64(11 * time.Minute / time.Second))
	if _, err := e.phone.Decide(ctx, otherPrompt, approvals.Approve); !isCode(err, "not_pending") {
		t.Fatalf("decision on an expired request: %v", err)
	}
	e.clock.Store(0)

	// Compose: first contact, then a draft.
	draftArgs := map[string]any{"to": []string{"Sam Okafor <sam.okafor@fastmail.example>"}, "subject": "Dinner",
		"body": "Hi Sam,\nDinner on Friday at 8?\nAlex"}
	_, ar = e.call("create_draft", draftArgs)
	if ar == nil || ar.Tier != "compose" {
		t.Fatalf("create_draft: %+v", ar)
	}
	text, _ = e.prompt(ar)
	e.decide(text, approvals.Approve)
	res, _ = e.call("create_draft", draftArgs)
	var created struct {
		Created bool   `json:"created"`
		DraftID string `json:"draft_id"`
	}
	if json.Unmarshal(res, &created) != nil || !created.Created || !strings.HasPrefix(created.DraftID, "d_") {
		t.Fatalf("create_draft: %s", res)
	}
	send := map[string]string{"draft_id": created.DraftID}

	// send_draft: the phone shows the whole message.
	_, ar = e.call("send_draft", send)
	if ar == nil || ar.Tier != "send" {
		t.Fatalf("send_draft ran without approval: %+v", ar)
	}
	text, p = e.prompt(ar)
	for _, want := range []string{"To: Sam Okafor <sam.okafor@fastmail.example>", "Subject: Dinner", "Dinner on Friday at 8?\nAlex"} {
		if !strings.Contains(p.Details, want) {
			t.Errorf("send prompt lacks %q:\n%s", want, p.Details)
		}
	}
	e.decide(text, approvals.Approve)
	// The draft changes after the approval: the approval is void and
	// nothing is sent; the phone is asked again with the new text.
	body := "Hi Sam,\nDinner on Saturday at 9?\nAlex"
	if _, err := e.node.EditDraft(ctx, created.DraftID, nil, &body); err != nil {
		t.Fatal(err)
	}
	_, ar = e.call("send_draft", send)
	if ar == nil {
		t.Fatal("a changed draft was sent on the old approval")
	}
	if n := len(e.smtp.Delivered()); n != 0 {
		t.Fatalf("%d messages delivered before an approval of the final text", n)
	}
	text, p = e.prompt(ar)
	if !strings.Contains(p.Details, "Saturday at 9") {
		t.Fatalf("new prompt shows the old text:\n%s", p.Details)
	}
	e.decide(text, approvals.Approve)
	res, ar = e.call("send_draft", send)
	var sent struct {
		Sent        bool   `json:"sent"`
		DraftID     string `json:"draft_id"`
		Outcome     string `json:"outcome"`
		SavedToSent bool   `json:"saved_to_sent"`
	}
	if ar != nil || json.Unmarshal(res, &sent) != nil || !sent.Sent || sent.DraftID != created.DraftID || sent.Outcome != "accepted" || !sent.SavedToSent {
		t.Fatalf("send_draft after approval: %s %+v", res, ar)
	}
	got := e.smtp.Delivered()
	if len(got) != 1 || got[0].From != "alex.morgan@demo-mail.example" || len(got[0].To) != 1 || got[0].To[0] != "sam.okafor@fastmail.example" {
		t.Fatalf("delivered: %+v", got)
	}
	if !bytes.Contains(got[0].Data, []byte("Saturday at 9")) || !bytes.Contains(got[0].Data, []byte("Subject: Dinner")) {
		t.Fatalf("delivered message:\n%s", got[0].Data)
	}
	// Sent once: a retry cannot send it again.
	if _, err := e.agent.Call(ctx, "send_draft", send); err == nil {
		t.Fatal("a sent draft could be sent again")
	}
	// And the message is in the Sent folder: the next sync brings it.
	if _, err := e.node.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	hits, err := e.node.Search(ctx, "Dinner Saturday", 5)
	if err != nil || len(hits) == 0 || hits[0].Folder != "Sent" || hits[0].Subject != "Dinner" {
		t.Fatalf("sent message in the store: %+v %v", hits, err)
	}
	if n := len(e.smtp.Delivered()); n != 1 {
		t.Fatalf("%d messages delivered, want 1", n)
	}
}

// TestPhoneRefusals: decisions from keys that are not a paired phone's,
// and a replayed request, are refused and change nothing.
func TestPhoneRefusals(t *testing.T) {
	e := newE2E(t)
	ctx := context.Background()
	_, ar := e.call("get_excerpt", map[string]string{"query": "hotel address"})
	text, _ := e.prompt(ar)

	// Registered, but the user never confirmed its code.
	unconfirmed := e.pair("Unconfirmed", false)
	if _, err := unconfirmed.Decide(ctx, text, approvals.Approve); !isCode(err, "not_paired") {
		t.Fatalf("unconfirmed phone: %v", err)
	}
	// A key that was never paired, claiming the paired phone's id.
	forger := *unconfirmed
	forger.ID = e.phone.ID
	if _, err := forger.Decide(ctx, text, approvals.Approve); !isCode(err, "unauthenticated") {
		t.Fatalf("unpaired key: %v", err)
	}

	// A recorded request played again, byte for byte.
	rec := &recorder{next: e.httpClient(nil).Transport}
	replayer := *e.phone
	replayer.HTTP = e.httpClient(rec)
	if _, err := replayer.Decide(ctx, text, approvals.Deny); err != nil {
		t.Fatal(err)
	}
	resp, err := e.httpClient(nil).Do(rec.replay())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("replayed request: %d", resp.StatusCode)
	}
	a, err := e.node.Pending(ctx)
	if err != nil || len(a) != 0 {
		t.Fatalf("pending after refusals: %v %v", a, err)
	}
	// Denied: the agent hears approval_denied, not a new prompt.
	_, err = e.agent.Call(ctx, "get_excerpt", map[string]string{"query": "hotel address"})
	var te *agent.ToolError
	if !errors.As(err, &te) || te.Code != "approval_denied" {
		t.Fatalf("after the denial: %v", err)
	}
}

// recorder keeps the last request it carried, to play it again.
type recorder struct {
	next   http.RoundTripper
	method string
	url    string
	header http.Header
	body   []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.method, r.url, r.header = req.Method, req.URL.String(), req.Header.Clone()
	if req.Body != nil {
		r.body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(r.body))
	}
	return r.next.RoundTrip(req)
}

func (r *recorder) replay() *http.Request {
	req, _ := http.NewRequest(r.method, r.url, bytes.NewReader(r.body))
	req.Header = r.header.Clone()
	return req
}

// TestPhonePromptLimits: an agent cannot bury the phone in prompts. Its
// retries are merged into one prompt, it may have only MaxPending open,
// and only MaxPromptsPerHour in an hour however the user answers them;
// past the limit it is told when it may ask again.
func TestPhonePromptLimits(t *testing.T) {
	e := newE2EWith(t, 0, approvals.Config{MaxPending: 2, MaxPromptsPerHour: 3})
	ctx := context.Background()
	excerpt := func(q string) error {
		_, err := e.agent.Call(ctx, "get_excerpt", map[string]string{"query": q})
		return err
	}
	asked := func(q string) *agent.ApprovalRequired {
		t.Helper()
		var ar *agent.ApprovalRequired
		if err := excerpt(q); !errors.As(err, &ar) {
			t.Fatalf("%q: %v, want approval_required", q, err)
		}
		return ar
	}
	refused := func(q, code string) *agent.ToolError {
		t.Helper()
		var te *agent.ToolError
		if err := excerpt(q); !errors.As(err, &te) || te.Code != code {
			t.Fatalf("%q: %v, want %s", q, err, code)
		}
		return te
	}

	first := asked("hotel address")
	if again := asked("hotel address"); again.ApprovalID != first.ApprovalID || again.MatchCode != first.MatchCode {
		t.Fatalf("a retry opened a new prompt: %+v then %+v", first, again)
	}
	second := asked("flight number")
	refused("order total", "too_many_pending")
	for _, ar := range []*agent.ApprovalRequired{first, second} {
		text, _ := e.prompt(ar)
		e.decide(text, approvals.Deny)
	}
	third := asked("order total")
	text, _ := e.prompt(third)
	e.decide(text, approvals.Deny)

	te := refused("bill amount", "too_many_prompts")
	if te.RetryAfter <= 0 || te.RetryAfter > 3600 {
		t.Fatalf("retry_after = %d, want within the hour", te.RetryAfter)
	}
	select {
	case a := <-e.prompts:
		t.Fatalf("the phone got a fourth prompt: %s", a.text)
	case <-time.After(200 * time.Millisecond):
	}
	e.clock.Add(te.RetryAfter)
	e.prompt(asked("bill amount"))
}
