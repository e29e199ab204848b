package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/push/pushtest"
	"mailnode/gateway"
)

// TestPushEndToEnd (issue 44): a paired reference phone subscribes to
// push with the stand-in's URL; an agent's call that needs the person
// makes the node push to the stand-in, whose request jose, http_ece (and
// Python's http-ece where installed) read as standard, and whose text
// opens with the phone's key to the notice of that prompt, with the match
// code the agent was given. The phone's push status and the node's say it
// was accepted; with the stand-in answering 410 the subscription goes and
// the node says no phone can be reached.
func TestPushEndToEnd(t *testing.T) {
	stand := pushtest.Start(t)
	e := newE2EPush(t, 0, approvals.Config{}, gateway.RateLimit{}, stand)
	ctx := context.Background()
	sub := pushtest.NewSubscriber(t, "/push/e2e")
	if err := e.phone.Subscribe(ctx, sub.Endpoint, sub.Key.PublicKey().Bytes(), sub.Auth); err != nil {
		t.Fatal(err)
	}
	info, err := e.phone.PushInfo(ctx)
	if err != nil || info.VAPIDPublicKey == "" || info.Push == nil || !info.Push.On {
		t.Fatalf("status after subscribing = %+v, %v", info, err)
	}

	_, ar := e.call("ask", map[string]string{"question": "When does my flight to New York leave?"})
	if ar == nil {
		t.Fatal("ask ran without approval")
	}
	req := stand.Next(t, 10*time.Second)
	c := sub.Check(t, req, "https://"+pushtest.Host)
	t.Logf("push read by %s", strings.Join(c.Readers, ", "))
	if c.Claims != nil && c.K != info.VAPIDPublicKey {
		t.Errorf("the push is signed by %s, the status gave the phone %s", c.K, info.VAPIDPublicKey)
	}
	n, err := e.phone.OpenPush(c.Text)
	if err != nil {
		t.Fatal(err)
	}
	if n.Type != "prompt" || n.ApprovalID != ar.ApprovalID || n.MatchCode != ar.MatchCode || n.Agent != e2eAgent ||
		n.Tool != "ask (free_form_read)" {
		t.Errorf("notice = %+v, want the prompt of %+v", n, ar)
	}
	if req.Header.Get("Topic") != ar.ApprovalID || req.Header.Get("Urgency") != "high" {
		t.Errorf("Topic %q, Urgency %q", req.Header.Get("Topic"), req.Header.Get("Urgency"))
	}
	waitFor(t, func() bool {
		ps, _ := e.node.Phones(ctx)
		return len(ps) == 1 && ps[0].Push.LastOK
	}, "the node records the push as accepted")
	if info, _ := e.phone.PushInfo(ctx); !info.Push.LastOK || info.Push.LastResult != "accepted" {
		t.Errorf("the phone's status = %+v, want accepted", info.Push)
	}
	if e.node.Status().PushUnreachable {
		t.Error("Status().PushUnreachable with a phone that takes push")
	}

	// The push service forgets the subscription: it is deleted, and with
	// a request waiting the node says nobody can be told.
	stand.Script("/push/e2e", pushtest.Answer{Status: 410})
	e.call("bills_due", map[string]any{})
	waitFor(t, func() bool {
		ps, _ := e.node.Phones(ctx)
		return len(ps) == 1 && !ps[0].Push.On && strings.Contains(ps[0].Push.LastResult, "410")
	}, "the subscription deleted after a 410")
	waitFor(t, func() bool { return e.node.Status().PushUnreachable }, "Status().PushUnreachable")
}

func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
