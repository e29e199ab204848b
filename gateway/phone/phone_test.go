package phone_test

import (
	"context"
	"encoding/json"
	"errors"
	"mailnode/approvals/phoneapi"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/push"
	"mailnode/gateway/nonces"
	"mailnode/gateway/phone"
	"mailnode/gateway/phone/phoneclient"
	"mailnode/mail/store"
)

type node struct {
	m      *approvals.Manager
	phones *approvals.Phones
	srv    *httptest.Server
	push   *push.Service
}

func newNode(t testing.TB) *node { return newNodeWith(t, nil) }

// newNodeWith is newNode with a push service made by mkPush, if not nil.
func newNodeWith(t testing.TB, mkPush func(*approvals.Phones, *approvals.Manager) *push.Service) *node {
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
	m, err := approvals.New(ctx, at, approvals.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	phones, err := approvals.NewPhones(ctx, at, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	nt, err := st.Attach(ctx, "nonces", nonces.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := nonces.New(ctx, nt, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Close)
	var ps *push.Service
	if mkPush != nil {
		ps = mkPush(phones, m)
	}
	h, err := phone.New(phone.Config{Phones: phones, Approvals: m, Nonces: ns, Heartbeat: time.Second, Push: ps,
		App: fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>mailnode</title>")}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	return &node{m: m, phones: phones, srv: srv, push: ps}
}

// pair pairs a device the way `mailnode pair` and the phone do: offer,
// registration, the same short code on both sides, confirmation.
func (n *node) pair(t *testing.T, name string) *phoneclient.Device {
	t.Helper()
	ctx := context.Background()
	o, err := n.phones.Offer()
	if err != nil {
		t.Fatal(err)
	}
	d, sas, err := phoneclient.Pair(ctx, n.srv.Client(), o.URL(n.srv.URL+"/phone/"), name)
	if err != nil {
		t.Fatal(err)
	}
	reg, ok := n.phones.Offered(o.ID)
	if !ok || reg.SAS != sas || reg.Phone.ID != d.ID {
		t.Fatalf("node shows %q for %s, phone shows %q", reg.SAS, reg.Phone.ID, sas)
	}
	if st, err := d.Status(ctx); err != nil || st != approvals.PhonePending {
		t.Fatalf("status before confirmation: %q, %v", st, err)
	}
	if _, err := d.State(ctx); !isCode(err, "not_paired") {
		t.Fatalf("state before confirmation: %v", err)
	}
	if _, err := n.phones.Confirm(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := d.WaitPaired(ctx); err != nil {
		t.Fatal(err)
	}
	return d
}

func isCode(err error, code string) bool {
	var e *phoneclient.Error
	return errors.As(err, &e) && e.Code == code
}

func (n *node) ask(t *testing.T, domain, tool string, tier approvals.Tier, args string) approvals.Decision {
	t.Helper()
	d, err := n.m.Request(context.Background(), approvals.Call{Domain: domain, KeyFP: "sha256:K", Tool: tool, Tier: tier,
		Args: json.RawMessage(args), Details: "query: " + args})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestPairingAndDecisions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n := newNode(t)
	d := n.pair(t, "Pixel")

	// The app is served; nothing else outside the API is.
	resp, err := n.srv.Client().Get(n.srv.URL + "/phone/")
	if err != nil || resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Fatalf("app: %v %v", resp, err)
	}
	resp.Body.Close()

	// A prompt made before the stream opened and one made after both
	// arrive, sealed, and open with the device's key only.
	first := n.ask(t, "agent.example", "get_excerpt", approvals.RawRead, `{"query":"boarding pass"}`)
	prompts := make(chan string, 4)
	streamDone := make(chan error, 1)
	go func() {
		streamDone <- d.Events(ctx, func(e phoneapi.Event) error {
			if e.Type == "prompt" {
				prompts <- e.Prompt
			}
			return nil
		})
	}()
	got := <-prompts
	if p, _ := phoneclient.ReadPrompt(got); p.ApprovalID != first.Approval.ID || p.MatchCode != first.Approval.MatchCode || p.Agent != "agent.example" || !strings.Contains(p.Details, "boarding pass") {
		t.Fatalf("first prompt: %s", got)
	}
	second := n.ask(t, "agent.example", "get_excerpt", approvals.RawRead, `{"query":"hotel"}`)
	got2 := <-prompts
	if p, _ := phoneclient.ReadPrompt(got2); p.ApprovalID != second.Approval.ID {
		t.Fatalf("second prompt: %s", got2)
	}

	// A decision over the first prompt's text names the first request
	// only; rewritten to name the second, it is refused.
	forged := strings.Replace(got, first.Approval.ID, second.Approval.ID, 1)
	if _, err := d.Decide(ctx, forged, approvals.Approve); !isCode(err, "prompt_mismatch") {
		t.Fatalf("decision for other arguments: %v", err)
	}
	if st, err := d.Decide(ctx, got, approvals.Approve); err != nil || st != string(approvals.Approved) {
		t.Fatalf("approve: %q %v", st, err)
	}
	if _, err := d.Decide(ctx, got, approvals.Approve); !isCode(err, "not_pending") {
		t.Fatalf("replayed decision: %v", err)
	}
	if dec := n.ask(t, "agent.example", "get_excerpt", approvals.RawRead, `{"query":"boarding pass"}`); dec.Outcome != approvals.Allowed {
		t.Fatalf("approved call: %s", dec.Outcome)
	}

	// A key that was never paired cannot decide, even with the device's id.
	stranger := n.pair(t, "Other")
	if err := stranger.RemovePhone(ctx, stranger.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := stranger.Decide(ctx, got2, approvals.Approve); !isCode(err, "unauthenticated") {
		t.Fatalf("removed phone: %v", err)
	}
	impostor := *stranger
	impostor.ID = d.ID
	if _, err := impostor.Decide(ctx, got2, approvals.Approve); !isCode(err, "unauthenticated") {
		t.Fatalf("unpaired key with a paired id: %v", err)
	}

	st, err := d.State(ctx)
	if err != nil || len(st.Pending) != 1 || st.Pending[0] != got2 || len(st.Phones) != 1 {
		t.Fatalf("state: %+v %v", st, err)
	}

	// Deny and block.
	if s, err := d.Decide(ctx, got2, approvals.DenyAndBlock); err != nil || s != string(approvals.Denied) {
		t.Fatalf("block: %q %v", s, err)
	}
	if dec := n.ask(t, "agent.example", "ask", approvals.FreeFormRead, `{}`); dec.Outcome != approvals.AgentBlocked {
		t.Fatalf("after block: %s", dec.Outcome)
	}

	// Removing the phone ends its stream at once.
	if err := n.phones.Remove(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-streamDone:
		if ctx.Err() != nil {
			t.Fatalf("stream ended by timeout: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the removed phone's stream is still open")
	}
}

// TestRefusedRequests: requests without a valid device signature, from
// another time, or replayed, never reach the API.
func TestRefusedRequests(t *testing.T) {
	n := newNode(t)
	d := n.pair(t, "Pixel")
	c := n.srv.Client()
	get := func(header string) int {
		req, _ := http.NewRequest("GET", n.srv.URL+"/phone/api/state", nil)
		if header != "" {
			req.Header.Set(phoneapi.HeaderName, header)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, h := range []string{"", "x", d.ID + ".1.aaaaaaaaaaaaaaaaaaaa.sig", d.ID + ".notatime.n.s"} {
		if code := get(h); code != http.StatusUnauthorized {
			t.Errorf("header %q: %d", h, code)
		}
	}
	// A pairing code is good for one phone, and one that was never shown
	// pairs none.
	o, _ := n.phones.Offer()
	if _, _, err := phoneclient.Pair(context.Background(), c, o.URL(n.srv.URL+"/phone/"), "A"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := phoneclient.Pair(context.Background(), c, o.URL(n.srv.URL+"/phone/"), "B"); !isCode(err, "offer_used") {
		t.Fatalf("second registration on one code: %v", err)
	}
	o2, _ := n.phones.Offer()
	o2.Secret = append([]byte(nil), o2.Secret...) // the registry's copy stays as it was
	o2.Secret[0] ^= 1
	if _, _, err := phoneclient.Pair(context.Background(), c, o2.URL(n.srv.URL+"/phone/"), "C"); !isCode(err, "bad_registration") {
		t.Fatalf("registration without the secret: %v", err)
	}
}

// TestPhoneActivityCountsRetries: the state's activity shows a call the
// agent repeated while it waited as one entry counting the repeats, and
// the call that ran after the approval as another.
func TestPhoneActivityCountsRetries(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n := newNode(t)
	d := n.pair(t, "Pixel")
	var first approvals.Decision
	for range 30 {
		first = n.ask(t, "agent.example", "bills_due", approvals.StructuredRead, `{}`)
	}
	if _, err := n.m.Decide(ctx, first.Approval.ID, true); err != nil {
		t.Fatal(err)
	}
	if dec := n.ask(t, "agent.example", "bills_due", approvals.StructuredRead, `{}`); dec.Outcome != approvals.Allowed {
		t.Fatalf("approved call: %s", dec.Outcome)
	}
	st, err := d.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Decision, ApprovalID string
		Retries              int
	}
	var got []row
	for _, a := range st.Activity {
		got = append(got, row{a.Decision, a.ApprovalID, a.Retries})
	}
	want := []row{{"allowed", "", 0}, {"approval_required", first.Approval.ID, 29}}
	if !slices.Equal(got, want) {
		t.Fatalf("state activity = %+v, want %+v", got, want)
	}
	if last := st.Activity[1].LastAt; last.Before(st.Activity[1].At) {
		t.Errorf("waiting entry LastAt %v before At %v", last, st.Activity[1].At)
	}
}
