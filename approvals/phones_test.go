package approvals_test

import (
	"context"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/pairing"
	"mailnode/mail/store"
)

func openPhones(t *testing.T, path string, c *clock) (*approvals.Phones, func()) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	p, err := approvals.NewPhones(ctx, db, nil, c.now)
	if err != nil {
		t.Fatal(err)
	}
	return p, func() { st.Close() }
}

// register plays the phone's side: keys, then a registration MAC'd with
// the secret read from the offer's URL.
func register(t *testing.T, o pairing.Offer, name string) (pairing.Registration, *ecdh.PrivateKey) {
	t.Helper()
	_, off, err := pairing.ParseURL(o.URL("https://node.example/phone/"))
	if err != nil {
		t.Fatal(err)
	}
	sign, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	box, _ := ecdh.P256().GenerateKey(rand.Reader)
	pub, _ := sign.PublicKey.Bytes()
	r := pairing.Registration{Offer: off.ID, SignPub: pairing.Encode(pub), BoxPub: pairing.Encode(box.PublicKey().Bytes()), Name: name}
	r.Sign(off.Secret)
	return r, box
}

func TestPhonePairing(t *testing.T) {
	ctx := context.Background()
	c := &clock{}
	c.t.Store(1_800_000_000)
	path := filepath.Join(t.TempDir(), "node.db")
	p, closeStore := openPhones(t, path, c)

	o, err := p.Offer()
	if err != nil {
		t.Fatal(err)
	}
	// A registration without the secret neither pairs nor spends the offer.
	bad, _ := register(t, o, "Mallory")
	bad.MAC = pairing.Encode(make([]byte, 32))
	if _, err := p.Register(ctx, bad); err == nil {
		t.Fatal("a registration without the secret was accepted")
	}
	reg, box := register(t, o, "  Pixel 8  ")
	got, err := p.Register(ctx, reg)
	if err != nil {
		t.Fatal(err)
	}
	if got.Phone.State != approvals.PhonePending || got.Phone.Name != "Pixel 8" || got.SAS != pairing.SAS(o.Secret, o.NodeBoxPub, reg.SignPub, reg.BoxPub) {
		t.Errorf("registered %+v, SAS %q", got.Phone, got.SAS)
	}
	if got.Proof != pairing.NodeProof(o.Secret, got.Phone.ID, reg) {
		t.Error("the node's proof does not check")
	}
	// One offer, one phone.
	again, _ := register(t, o, "Second")
	if _, err := p.Register(ctx, again); !errors.Is(err, approvals.ErrOfferUsed) {
		t.Errorf("second registration on one offer: %v, want ErrOfferUsed", err)
	}
	// An offer past its time is gone.
	late, err := p.Offer()
	if err != nil {
		t.Fatal(err)
	}
	c.add(approvals.OfferTTL + time.Second)
	lateReg, _ := register(t, late, "Late")
	if _, err := p.Register(ctx, lateReg); !errors.Is(err, approvals.ErrOfferUnknown) {
		t.Errorf("expired offer: %v, want ErrOfferUnknown", err)
	}

	if _, err := p.Confirm(ctx, got.Phone.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Rename(ctx, got.Phone.ID, "Work phone"); err != nil {
		t.Fatal(err)
	}
	nodePub := p.NodeKey().PublicKey().Bytes()
	closeStore()

	// Everything survives a restart, the node's key included: what it
	// sealed before opens after.
	p, closeStore = openPhones(t, path, c)
	defer closeStore()
	ph, ok := p.Get(got.Phone.ID)
	if !ok || ph.State != approvals.PhonePaired || ph.Name != "Work phone" || ph.PairedAt.IsZero() {
		t.Fatalf("after restart: %+v, %v", ph, ok)
	}
	if string(p.NodeKey().PublicKey().Bytes()) != string(nodePub) {
		t.Fatal("the node's key changed across a restart")
	}
	sealed, err := pairing.Seal(p.NodeKey(), ph.BoxKey(), ph.ID, pairing.ToPhone, nil, []byte("prompt"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := pairing.Open(box, p.NodeKey().PublicKey(), ph.ID, pairing.ToPhone, nil, sealed); err != nil || string(out) != "prompt" {
		t.Fatalf("the phone cannot open the node's message: %q, %v", out, err)
	}
	if err := p.Remove(ctx, ph.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Get(ph.ID); ok || len(p.List()) != 0 {
		t.Error("a removed phone is still listed")
	}
	if err := p.Remove(ctx, ph.ID); !errors.Is(err, approvals.ErrNoPhone) {
		t.Errorf("removing twice: %v", err)
	}
}
