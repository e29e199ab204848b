package phone_test

import (
	"context"
	"crypto/x509"
	"net/netip"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/push"
	"mailnode/approvals/push/pushtest"
)

// TestPushRoutes: the status carries the node's VAPID key and the
// device's push state, sealed; a signed subscribe stores the device's
// subscription and a bad one is refused with bad_subscription; the
// stand-in then gets the device's push; unsubscribe turns it off.
func TestPushRoutes(t *testing.T) {
	stand := pushtest.Start(t)
	n := newNodeWith(t, func(phones *approvals.Phones, m *approvals.Manager) *push.Service {
		s, err := push.New(push.Config{Phones: phones, Approvals: m, DevAddrs: stand.DevAddrs(),
			DevRootCAs: []*x509.Certificate{stand.CA()},
			LookupAddrs: func(ctx context.Context, host string) ([]netip.Addr, error) {
				return []netip.Addr{netip.MustParseAddr("10.0.0.8")}, nil // every other name is private
			}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- n.push.Run(ctx) }()
	defer func() { cancel(); <-done }()

	d := n.pair(t, "Pixel")
	st, err := d.PushInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.VAPIDPublicKey == "" || st.VAPIDPublicKey != n.push.PublicKey() || st.Push == nil || st.Push.On {
		t.Fatalf("status = %+v, want the node's VAPID key %s and push off", st, n.push.PublicKey())
	}
	sub := pushtest.NewSubscriber(t, "/push/pixel")
	bad := pushtest.NewSubscriber(t, "/x")
	if err := d.Subscribe(ctx, "https://push.internal.example/x", bad.Key.PublicKey().Bytes(), bad.Auth); !isCode(err, "bad_subscription") {
		t.Errorf("Subscribe(private name) = %v, want bad_subscription", err)
	}
	if err := d.Subscribe(ctx, "http://"+pushtest.Host+"/x", bad.Key.PublicKey().Bytes(), bad.Auth); !isCode(err, "bad_subscription") {
		t.Errorf("Subscribe(http) = %v, want bad_subscription", err)
	}
	if err := d.Subscribe(ctx, sub.Endpoint, sub.Key.PublicKey().Bytes(), sub.Auth); err != nil {
		t.Fatalf("Subscribe(%s) = %v", sub.Endpoint, err)
	}
	if st, err := d.PushInfo(ctx); err != nil || !st.Push.On {
		t.Errorf("status after subscribing = %+v, %v; want push on", st, err)
	}
	dec, err := n.m.Request(ctx, approvals.Call{Domain: "agent.example", KeyFP: "k", Tool: "get_excerpt", Tier: approvals.RawRead,
		Args: []byte(`{"id":"m1"}`), Details: "x"})
	if err != nil {
		t.Fatal(err)
	}
	req := stand.Next(t, 10*time.Second)
	text, err := sub.Decrypt(req.Body)
	if err != nil {
		t.Fatal(err)
	}
	notice, err := d.OpenPush(string(text))
	if err != nil || notice.ApprovalID != dec.Approval.ID || notice.MatchCode != dec.Approval.MatchCode {
		t.Errorf("notice = %+v, %v; want approval %s, code %s", notice, err, dec.Approval.ID, dec.Approval.MatchCode)
	}
	if err := d.Unsubscribe(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := d.PushInfo(ctx); err != nil || st.Push.On {
		t.Errorf("status after unsubscribing = %+v, %v; want push off", st, err)
	}
}

// TestPushRoutesWithoutPush: a node that sends no push says so.
func TestPushRoutesWithoutPush(t *testing.T) {
	n := newNode(t)
	d := n.pair(t, "Pixel")
	st, err := d.PushInfo(context.Background())
	if err != nil || st.VAPIDPublicKey != "" || st.Push != nil {
		t.Errorf("status = %+v, %v; want no VAPID key", st, err)
	}
	if err := d.Unsubscribe(context.Background()); !isCode(err, "push_unavailable") {
		t.Errorf("Unsubscribe = %v, want push_unavailable", err)
	}
}
