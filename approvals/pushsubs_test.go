package approvals_test

import (
	"context"
	"crypto/x509"
	"path/filepath"
	"testing"

	"mailnode/approvals"
	"mailnode/mail/store"
)

// TestPushSubscriptionsKept: the VAPID key and a phone's subscription
// with its last result survive a restart and travel in the identity a
// backup carries; removing the phone deletes its subscription.
func TestPushSubscriptionsKept(t *testing.T) {
	ctx := context.Background()
	c := &clock{}
	c.t.Store(1_800_000_000)
	path := filepath.Join(t.TempDir(), "node.db")
	p, closeStore := openPhones(t, path, c)
	o, _ := p.Offer()
	r, _ := register(t, o, "Pixel")
	reg, err := p.Register(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	id := reg.Phone.ID
	if _, err := p.Confirm(ctx, id); err != nil {
		t.Fatal(err)
	}
	if ph, _ := p.Get(id); ph.Push.On || !ph.Push.LastAt.IsZero() || ph.Push.Reachable() {
		t.Errorf("new phone's push = %+v, want off", ph.Push)
	}
	sub := approvals.PushSubscription{Endpoint: "https://push.example/a", P256dh: "pub", Auth: "auth"}
	if err := p.SetPushSubscription(ctx, id, sub); err != nil {
		t.Fatal(err)
	}
	if !p.PushReachable() {
		t.Error("PushReachable() = false with a fresh subscription")
	}
	if err := p.RecordPush(ctx, id, sub, false, "refused by the push service (403)", false); err != nil {
		t.Fatal(err)
	}
	if p.PushReachable() {
		t.Error("PushReachable() = true after a refusal")
	}
	// A result for an older subscription changes nothing.
	if err := p.RecordPush(ctx, id, approvals.PushSubscription{Endpoint: "https://push.example/old"}, false, "x", true); err != nil {
		t.Fatal(err)
	}
	vapid, _ := x509.MarshalPKCS8PrivateKey(p.VAPIDKey())
	closeStore()

	p, closeStore = openPhones(t, path, c)
	ph, _ := p.Get(id)
	got, on := ph.PushSub()
	if !on || got != sub || ph.Push.LastOK || ph.Push.LastResult != "refused by the push service (403)" || ph.Push.LastAt.Unix() != 1_800_000_000 {
		t.Errorf("after a restart: subscription %+v (%v), status %+v", got, on, ph.Push)
	}
	if again, _ := x509.MarshalPKCS8PrivateKey(p.VAPIDKey()); string(again) != string(vapid) {
		t.Error("the VAPID key changed across a restart")
	}
	st, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	file, err := st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	idt, err := approvals.ExportIdentity(ctx, file)
	st.Close()
	closeStore()
	if err != nil || string(idt.VAPIDKey) != string(vapid) || len(idt.PushDevices) != 1 || idt.PushDevices[0].Endpoint != sub.Endpoint {
		t.Fatalf("ExportIdentity = %+v, %v; want the VAPID key and the subscription", idt, err)
	}

	other := filepath.Join(t.TempDir(), "node.db")
	st, err = store.Open(ctx, other, nil)
	if err != nil {
		t.Fatal(err)
	}
	file, err = st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	if err := approvals.ImportIdentity(ctx, file, idt); err != nil {
		t.Fatal(err)
	}
	st.Close()
	p, closeStore = openPhones(t, other, c)
	defer closeStore()
	ph, _ = p.Get(id)
	if got, on := ph.PushSub(); !on || got != sub {
		t.Errorf("imported subscription = %+v, %v", got, on)
	}
	if again, _ := x509.MarshalPKCS8PrivateKey(p.VAPIDKey()); string(again) != string(vapid) {
		t.Error("the imported VAPID key differs")
	}
	if err := p.Remove(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := p.SetPushSubscription(ctx, id, sub); err == nil {
		t.Error("SetPushSubscription of a removed phone = nil")
	}
}
