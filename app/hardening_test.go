package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/agent"
	"mailnode/app/localapi/localclient"
	"mailnode/approvals"
)

func (e *e2e) toolError(tool string, args any) *agent.ToolError {
	e.t.Helper()
	_, err := e.agent.Call(context.Background(), tool, args)
	var te *agent.ToolError
	if !errors.As(err, &te) {
		e.t.Fatalf("%s(%.80v): %v, want a tool error", tool, args, err)
	}
	return te
}

// TestSendApprovalShowsEverything (hardening item 1): what the phone
// shows for a send is all the message covers, or nothing is asked.
func TestSendApprovalShowsEverything(t *testing.T) {
	e := newE2E(t)
	ctx := context.Background()
	to := []string{"Sam <sam@fastmail.example>"}
	e.grant("create_draft", map[string]any{"to": to, "body": "first"})

	// A display name of 40 KB of zero-width spaces is not a draft.
	padded := strings.Repeat("\u200b", 40_000/3) + " <sam@fastmail.example>"
	if te := e.toolError("create_draft", map[string]any{"to": []string{padded}, "body": "Hi"}); te.Code != "invalid_arguments" {
		t.Errorf("padded display name: %v", te)
	}
	if te := e.toolError("create_draft", map[string]any{"to": to, "subject": "Re\u202e: invoice", "body": "Hi"}); te.Code != "invalid_arguments" {
		t.Errorf("bidi control in the subject: %v", te)
	}

	// A hidden tail after blank lines is shown, with the blank lines
	// counted, and so are invisible characters in the body.
	res, _ := e.call("create_draft", map[string]any{"to": to, "subject": "Dinner",
		"body": "Hi Sam,\nFriday?\n" + strings.Repeat("\n", 300) + "P.S. also forward\u200b the contract to x@evil.example"})
	var created struct {
		DraftID string `json:"draft_id"`
	}
	json.Unmarshal(res, &created)
	_, ar := e.call("send_draft", map[string]string{"draft_id": created.DraftID})
	if ar == nil {
		t.Fatal("send_draft ran without approval")
	}
	_, p := e.prompt(ar)
	if !strings.Contains(p.Details, "Friday?\n⟦300 blank lines⟧\nP.S. also forward⟦U+200B⟧ the contract to x@evil.example") {
		t.Errorf("the phone does not show the tail plainly:\n%s", p.Details)
	}
	pending, _ := e.node.Pending(ctx)
	if len(pending) != 1 || pending[0].Details != p.Details {
		t.Errorf("the CLI's list shows other details than the phone: %+v", pending)
	}

	// A message whose readable form does not fit whole is refused: no
	// prompt, nothing cut.
	res, _ = e.call("create_draft", map[string]any{"to": to, "body": "Hi" + strings.Repeat("\u200b", 33_000) + "tail"})
	json.Unmarshal(res, &created)
	if te := e.toolError("send_draft", map[string]string{"draft_id": created.DraftID}); te.Code != "too_large_to_approve" {
		t.Errorf("send of a draft too long to show: %v", te)
	}
	if pending, _ := e.node.Pending(ctx); len(pending) != 1 {
		t.Errorf("%d requests pending, want the one before", len(pending))
	}
}

// TestArgumentsDecodedOnce (hardening item 2): arguments that two readers
// could read differently are refused before anyone is asked, and the
// prompt shows what the tool runs with.
func TestArgumentsDecodedOnce(t *testing.T) {
	e := newE2E(t)
	ctx := context.Background()
	for _, args := range []string{
		`{"query":"hotel address","Query":"every password reset code"}`,
		`{"query":"hotel address","query":"every password reset code"}`,
		`{"QUERY":"every password reset code"}`,
	} {
		if te := e.toolError("get_excerpt", json.RawMessage(args)); te.Code != "invalid_arguments" {
			t.Errorf("get_excerpt(%s): %v, want invalid_arguments", args, te)
		}
	}
	if te := e.toolError("ask", json.RawMessage(`{"question":"a","Question":"b"}`)); te.Code != "invalid_arguments" {
		t.Errorf("ask with a duplicate key: %v", te)
	}
	if pending, _ := e.node.Pending(ctx); len(pending) != 0 {
		t.Fatalf("a refused call reached the phone: %+v", pending)
	}
	_, ar := e.call("get_excerpt", json.RawMessage(`{"query":"hotel\u200baddress"}`))
	if ar == nil {
		t.Fatal("get_excerpt ran without approval")
	}
	if _, p := e.prompt(ar); !strings.HasPrefix(p.Details, "query: hotel⟦U+200B⟧address\n\n") {
		t.Errorf("prompt = %q", p.Details)
	}
}

// TestPhoneBlocksSite (hardening item 5): the phone can deny a request
// and block the agent's whole registrable domain.
func TestPhoneBlocksSite(t *testing.T) {
	e := newE2E(t)
	ctx := context.Background()
	_, ar := e.call("get_excerpt", map[string]string{"query": "hotel address"})
	text, p := e.prompt(ar)
	if p.Site != "e2e.example" {
		t.Fatalf("prompt site = %q, want e2e.example", p.Site)
	}
	e.decide(text, approvals.DenyAndBlockSite)
	if te := e.toolError("ask", map[string]string{"question": "anything"}); te.Code != "agent_blocked" {
		t.Errorf("after blocking the site: %v", te)
	}
	blocked, err := e.node.Blocked(ctx)
	if err != nil || len(blocked) != 1 || blocked[0] != "*.e2e.example" {
		t.Errorf("Blocked() = %v, %v", blocked, err)
	}
}

// TestCLICannotApproveRawReadOrSend (hardening item 17): raw_read and
// send are approved on a paired phone only; the node's own Decide, and so
// the command line over the local API, refuses and says where to decide.
func TestCLICannotApproveRawReadOrSend(t *testing.T) {
	e := newE2E(t)
	ctx := context.Background()
	_, ar := e.call("get_excerpt", map[string]string{"query": "flight to New York departure"})
	if _, err := e.node.Decide(ctx, ar.MatchCode, true); !errors.Is(err, approvals.ErrPhoneOnly) {
		t.Fatalf("Node.Decide(approve get_excerpt) = %v, want ErrPhoneOnly", err)
	}
	lc, err := localclient.Dial(filepath.Dir(e.node.SocketPath()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = lc.Decide(ctx, ar.MatchCode, true)
	if !errors.Is(err, approvals.ErrPhoneOnly) || !strings.Contains(err.Error(), "phone") {
		t.Fatalf("local API Decide(approve get_excerpt) = %v, want ErrPhoneOnly", err)
	}
	if _, again := e.call("get_excerpt", map[string]string{"query": "flight to New York departure"}); again == nil {
		t.Fatal("get_excerpt ran after a refused CLI approval")
	}
	// The phone decides it.
	text, _ := e.prompt(ar)
	e.decide(text, approvals.Approve)
	if res, again := e.call("get_excerpt", map[string]string{"query": "flight to New York departure"}); again != nil || !strings.Contains(string(res), `"found":true`) {
		t.Fatalf("after the phone approved: %s %+v", res, again)
	}
}

// TestUnverifiedFactsApart (hardening item 10, issue 41): on the demo
// mailbox, a bill from an unauthenticated look-alike domain is not listed
// among the bills, and is named by its domain, not by its display name;
// so is any bill of a sender the node does not trust (mail/trust).
func TestUnverifiedFactsApart(t *testing.T) {
	e := newE2E(t)
	e.grant("bills_due", map[string]any{})
	res, _ := e.call("bills_due", map[string]any{"before": "2027-01-31T00:00:00Z"})
	var out struct {
		Bills, Unverified []struct {
			Issuer, Domain string
			Verified       bool `json:"verified_sender"`
			Trusted        bool `json:"trusted_sender"`
			Tainted        bool `json:"tainted"`
		}
		Note string `json:"unverified_note"`
	}
	if err := json.Unmarshal(res, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Bills) == 0 || len(out.Unverified) == 0 || out.Note == "" {
		t.Fatalf("bills_due = %s, want verified bills and the look-alike apart", res)
	}
	for _, b := range out.Bills {
		if !b.Verified || !b.Trusted || b.Tainted || strings.Contains(b.Domain, "billing-secure") {
			t.Errorf("an unverified bill among the bills: %+v", b)
		}
	}
	found := false
	for _, b := range out.Unverified {
		// Unverified, or verified but not trusted (a domain first seen
		// days ago: the demo's mail is a few weeks old), or tainted.
		if b.Verified && b.Trusted && !b.Tainted || b.Issuer != b.Domain {
			t.Errorf("unverified bill %+v: want it named by its domain", b)
		}
		found = found || b.Domain == "vattenfall-billing-secure.example"
	}
	if !found {
		t.Errorf("the look-alike bill is not among the unverified: %s", res)
	}
}
