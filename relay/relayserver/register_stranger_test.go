package relayserver_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"mailnode/relay/relayclient"
	"mailnode/relay/relayserver"
)

// nodeFrom is a new key asking the relay from the local address ip.
func (r *registrar) nodeFrom(t *testing.T, ip string) (*relayclient.API, relayclient.Keys) {
	api, k := r.node(t)
	api.HTTP = fromNet(ip, strings.TrimPrefix(r.url, "http://"), nil)
	return api, k
}

// TestRegisterSpellings (issue 40's outside review, F1): a stranger
// spells one mailbox many ways. Quoted and escaped local parts are
// refused; the +tag spellings, asked every 4 h for a day from five
// networks, share six code mails, each sent to the address as asked; and
// the owner's plain address is still mailed its code.
func TestRegisterSpellings(t *testing.T) {
	for _, store := range []string{"sqlite", "postgres"} {
		t.Run(store, func(t *testing.T) { testRegisterSpellings(t, newRegistrar(t, store)) })
	}
}

func testRegisterSpellings(t *testing.T, r *registrar) {
	ctx := t.Context()
	stranger, sk := r.node(t)
	for _, a := range []string{`"owner"@example.com`, `"\ow\ner"@example.com`, `ow\ner@example.com`,
		`"ow ner"@example.com`, `.owner@example.com`, `ow..ner@example.com`, `owner.@example.com`,
		`owner%other.example@example.com`, `other.example!owner@example.com`, `(c)owner@example.com`} {
		if _, err := stranger.Register(ctx, a, sk.BoxPublic()); !relayclient.IsCode(err, "invalid_address") {
			t.Errorf("register %s = %v, want invalid_address", a, err)
		}
	}
	base := len(r.smtp.Delivered())
	if base != 0 {
		t.Errorf("%d mails for refused spellings, want none", base)
	}

	var accepted, limited int
	for round := range 6 { // a day, a round every code's life
		for i := range 10 {
			api, k := r.nodeFrom(t, strangerNets[i%len(strangerNets)])
			a := fmt.Sprintf("owner+%d@example.com", i)
			_, err := api.Register(ctx, a, k.BoxPublic())
			switch {
			case err == nil:
				accepted++
			case relayclient.IsCode(err, "rate_limited"):
				limited++
			default:
				t.Fatalf("round %d: register %s = %v", round, a, err)
			}
		}
		r.clock.add(4*time.Hour + time.Second)
	}
	mails := r.smtp.Delivered()[base:]
	if len(mails) != 6 {
		t.Errorf("%d code mails for owner+N@example.com in a day (%d asks answered 202, %d 429), want 6",
			len(mails), accepted, limited)
	}
	for _, d := range mails {
		if len(d.To) != 1 || !strings.HasPrefix(d.To[0], "owner+") {
			t.Errorf("code mail to %v, want the address as asked", d.To)
		}
	}

	// The tagged spellings' mails do not stand in the owner's way.
	owner, ok := r.node(t)
	p, err := owner.Register(ctx, "Owner@Example.com", ok.BoxPublic())
	if err != nil {
		t.Fatalf("owner's register after the stranger's tags = %v, want 202", err)
	}
	if _, err := owner.Confirm(ctx, "owner@example.com", r.mailedCode(t, p)); err != nil {
		t.Fatalf("owner's confirm = %v", err)
	}
	t.Logf("%d code mails to one mailbox from %d asks (%d answered 429)", len(r.smtp.Delivered())-base, accepted+limited, limited)
}

// TestRegisterNetworkCap (F1): one client network asking for many
// mailboxes is mailed at most CodeMailsPerNetwork codes a day (default
// 20), then answered 429; a client from another network is not held
// back, and a day later the first may ask again.
func TestRegisterNetworkCap(t *testing.T) {
	r := newRegistrar(t, "sqlite")
	ctx := t.Context()
	var mailed int
	for i := range 30 {
		api, k := r.nodeFrom(t, "127.0.0.1")
		_, err := api.Register(ctx, fmt.Sprintf("someone%d@example.com", i), k.BoxPublic())
		if relayclient.IsCode(err, "rate_limited") {
			break
		}
		if err != nil {
			t.Fatalf("register %d = %v", i, err)
		}
		mailed++
		r.clock.add(time.Minute)
	}
	if mailed != 20 {
		t.Fatalf("one network was mailed %d codes before 429, want 20", mailed)
	}
	api, k := r.nodeFrom(t, "127.0.0.9") // same /24
	if _, err := api.Register(ctx, "fresh@example.com", k.BoxPublic()); !relayclient.IsCode(err, "rate_limited") {
		t.Errorf("same /24, another address = %v, want rate_limited", err)
	}
	other, ok := r.nodeFrom(t, "127.0.1.1")
	if _, err := other.Register(ctx, "fresh@example.com", ok.BoxPublic()); err != nil {
		t.Errorf("another network = %v, want 202", err)
	}
	if n := len(r.smtp.Delivered()); n != 21 {
		t.Errorf("%d mails, want 21", n)
	}
	r.clock.add(24 * time.Hour)
	if _, err := api.Register(ctx, "later@example.com", k.BoxPublic()); err != nil {
		t.Errorf("a day later = %v, want 202", err)
	}
}

// TestAgentKeysNetworkShare (issue 40's outside review, F6): one client
// network registers new hosted agents until 429; it gets its share
// (AgentsPerNetwork, default 50), not the relay's whole hour, and a
// newcomer from another network still registers. A key already
// registered costs nothing.
func TestAgentKeysNetworkShare(t *testing.T) {
	r := newRegistrarLimits(t, "sqlite", relayserver.Limits{AgentsPerHour: 100, ClientRate: 1e6, ClientBurst: 1e6})
	ctx := t.Context()
	var first *relayclient.API
	var got int
	for i := 0; i <= 100; i++ {
		api, _ := r.nodeFrom(t, strangerNets[0])
		if first == nil {
			first = api
		}
		_, err := api.HostAgentKey(ctx, "k")
		if relayclient.IsCode(err, "rate_limited") {
			break
		}
		if err != nil {
			t.Fatalf("agent %d = %v", i, err)
		}
		got++
	}
	if got != 50 {
		t.Errorf("one network registered %d new agents in the hour, want its share, 50", got)
	}
	if _, err := first.HostAgentKey(ctx, "k2"); err != nil {
		t.Errorf("a key already registered, again = %v, want 200", err)
	}
	newcomer, _ := r.nodeFrom(t, strangerNets[1])
	if _, err := newcomer.HostAgentKey(ctx, "k"); err != nil {
		t.Errorf("newcomer from another network = %v, want 200", err)
	}
	r.clock.add(time.Hour + time.Second)
	again, _ := r.nodeFrom(t, strangerNets[0])
	if _, err := again.HostAgentKey(ctx, "k"); err != nil {
		t.Errorf("the first network an hour later = %v, want 200", err)
	}
}
