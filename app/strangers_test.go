package app_test

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"testing"

	"mailnode/agent"
	"mailnode/app/apptest"
)

// TestStrangersCannotStarveGrantedAgents (issue 40 F3): ten free hosted
// agents of a stranger open 5 prompts each, live through the relay, and
// fill what hosted strangers may hold together (25 pending requests);
// the hosted agent the person granted compose still gets its raw_read,
// send and new-tier prompts, and a brand-new hosted agent is refused, as
// docs/gateway.md ("strangers and granted agents") says. Real relay,
// node, SDK agents, through the tunnel.
func TestStrangersCannotStarveGrantedAgents(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	const strangers = 10
	var domains []string
	var sessions []*agent.Session
	var keys []ed25519.PrivateKey
	for range strangers + 2 {
		d, k := apptest.HostAgent(t, r)
		domains = append(domains, d)
		keys = append(keys, k)
	}
	e := apptest.StartNode(t, r, &log, domains...)
	for i, d := range domains {
		sessions = append(sessions, e.Session(t, d, keys[i]))
	}
	friend, newcomer := sessions[0], sessions[1]

	// The person lets the friend draft mail.
	draft := map[string]any{"to": []string{"Sam Okafor <sam.okafor@fastmail.example>"}, "subject": "Dinner", "body": "Friday at 8?"}
	_, err := friend.Call(ctx, "create_draft", draft)
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) {
		t.Fatalf("friend's first create_draft = %v, want approval_required", err)
	}
	if _, err := e.Node.Decide(ctx, ar.ApprovalID, true); err != nil {
		t.Fatal(err)
	}
	res, err := friend.Call(ctx, "create_draft", draft)
	var created struct {
		DraftID string `json:"draft_id"`
	}
	if err != nil || json.Unmarshal(res, &created) != nil || created.DraftID == "" {
		t.Fatalf("friend's create_draft under its grant = %s, %v", res, err)
	}

	// The stranger's agents, 5 prompts each.
	opened := 0
	for i, s := range sessions[2:] {
		for _, c := range []struct {
			tool string
			args any
		}{
			{"bills_due", map[string]any{}},
			{"ask", map[string]string{"question": "When does my flight leave?"}},
			{"create_draft", draft},
			{"get_excerpt", map[string]string{"query": "hotel address"}},
			{"get_excerpt", map[string]string{"query": "flight number"}},
		} {
			_, err := s.Call(ctx, c.tool, c.args)
			switch {
			case isApprovalRequired(err):
				opened++
			case isToolErr(err, "too_many_pending"):
			default:
				t.Fatalf("stranger agent %d's %s = %v", i, c.tool, err)
			}
		}
	}

	// The friend still reaches the person, for every kind of prompt.
	for _, c := range []struct {
		tool string
		args any
	}{
		{"get_excerpt", map[string]string{"query": "hotel address"}},
		{"send_draft", map[string]string{"draft_id": created.DraftID}},
		{"bills_due", map[string]any{}},
	} {
		if _, err := friend.Call(ctx, c.tool, c.args); !isApprovalRequired(err) {
			t.Errorf("granted agent's %s with the strangers' prompts open = %v, want approval_required", c.tool, err)
		}
	}
	// A brand-new hosted agent asks among the hosted strangers, who hold
	// their share.
	if _, err := newcomer.Call(ctx, "bills_due", map[string]any{}); !isToolErr(err, "too_many_pending") {
		t.Errorf("new hosted agent = %v, want too_many_pending", err)
	}
	if opened != 25 {
		t.Errorf("the stranger's agents opened %d prompts, want 25", opened)
	}
	pending, err := e.Node.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := 25 + 3; len(pending) != want {
		t.Errorf("%d requests pending, want %d", len(pending), want)
	}
}
