package relaystore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"mailnode/relay/relaystore/pgtest"
)

// openers are the stores the contract runs against.
func openers(t *testing.T) map[string]func(t *testing.T) Store {
	return map[string]func(t *testing.T) Store{
		"sqlite": func(t *testing.T) Store {
			s, err := OpenSQLite(t.Context(), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
		"postgres": func(t *testing.T) Store {
			s, err := OpenPostgres(t.Context(), pgtest.Need(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

// TestStoreContract is the registrations' contract, the same for every
// Store.
func TestStoreContract(t *testing.T) {
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			testStore(t, open(t))
		})
	}
}

func testStore(t *testing.T, s Store) {
	ctx := context.Background()
	a, err := s.Secret(ctx, "decoy")
	if err != nil || len(a) != 32 {
		t.Fatalf("Secret = %x, %v", a, err)
	}
	if b, _ := s.Secret(ctx, "decoy"); !bytes.Equal(a, b) {
		t.Error("Secret changed on the second call")
	}
	if c, _ := s.Secret(ctx, "other"); bytes.Equal(a, c) {
		t.Error("two secrets are the same")
	}

	at := time.Unix(1_800_000_000, 0)
	key := func(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }
	ann := Node{Address: "ann@example.com", Label: "aaaaaaaaaaaaaaaa", NodeKey: key(1), BoxKey: key(2), RegisteredAt: at}
	if err := s.PutNode(ctx, ann); err != nil {
		t.Fatal(err)
	}
	for _, get := range []func() (Node, error){
		func() (Node, error) { return s.NodeByAddress(ctx, ann.Address) },
		func() (Node, error) { return s.NodeByKey(ctx, ann.NodeKey) },
		func() (Node, error) { return s.NodeByLabel(ctx, ann.Label) },
	} {
		n, err := get()
		if err != nil || n.Label != ann.Label || !bytes.Equal(n.BoxKey, ann.BoxKey) || !n.RegisteredAt.Equal(at) {
			t.Errorf("node = %+v, %v", n, err)
		}
	}
	decoy := Node{Label: "dddddddddddddddd", BoxKey: key(9)}
	if n, err := s.Resolve(ctx, ann.Address, decoy); err != nil || n.Label != ann.Label || !bytes.Equal(n.BoxKey, ann.BoxKey) {
		t.Errorf("Resolve(registered) = %+v, %v", n, err)
	}
	if n, err := s.Resolve(ctx, "bob@example.com", decoy); err != nil || n.Label != decoy.Label || !bytes.Equal(n.BoxKey, decoy.BoxKey) {
		t.Errorf("Resolve(unknown) = %+v, %v", n, err)
	}
	if err := s.SetChallenges(ctx, ann.Label, []string{"v1", "v2"}); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Challenges(ctx, ann.Label); len(v) != 2 || v[1] != "v2" {
		t.Errorf("Challenges = %v", v)
	}
	// The same address proved again with a new key takes it over, and
	// the old name's challenges go.
	ann2 := Node{Address: ann.Address, Label: "bbbbbbbbbbbbbbbb", NodeKey: key(3), BoxKey: key(4), RegisteredAt: at}
	if err := s.PutNode(ctx, ann2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.NodeByKey(ctx, ann.NodeKey); !errors.Is(err, ErrNotFound) {
		t.Errorf("old key after takeover: %v", err)
	}
	if v, _ := s.Challenges(ctx, ann.Label); len(v) != 0 {
		t.Errorf("old name's challenges kept: %v", v)
	}
	if err := s.RotateKeys(ctx, ann2.NodeKey, key(5), key(6)); err != nil {
		t.Fatal(err)
	}
	if err := s.RotateKeys(ctx, ann2.NodeKey, key(7), key(8)); !errors.Is(err, ErrNotFound) {
		t.Errorf("rotating a gone key = %v", err)
	}
	if n, _ := s.CountNodes(ctx); n != 1 {
		t.Errorf("CountNodes = %d", n)
	}
	if err := s.DeleteNode(ctx, key(5)); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteNode(ctx, key(5)); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete = %v", err)
	}

	testCodes(t, s, at)

	ag := Agent{Label: "gggggggggggggggg", Kid: "k1", Key: key(7), Created: at}
	if err := s.PutAgent(ctx, ag); err != nil {
		t.Fatal(err)
	}
	if got, err := s.AgentByLabel(ctx, ag.Label); err != nil || got.Kid != "k1" || !got.Created.Equal(at) {
		t.Errorf("AgentByLabel = %+v, %v", got, err)
	}
	if n, _ := s.CountAgentsSince(ctx, at); n != 1 {
		t.Errorf("CountAgentsSince = %d", n)
	}
	if n, _ := s.CountAgentsSince(ctx, at.Add(time.Second)); n != 0 {
		t.Errorf("CountAgentsSince later = %d", n)
	}

	// Agents counted per client network; registering again keeps the
	// first registration's time and network.
	netA, netB := []byte("net-a"), []byte("net-b")
	for i, a := range []Agent{
		{Label: "aaaaaaaaaaaaaaa1", Kid: "k", Key: key(8), Created: at, Net: netA},
		{Label: "aaaaaaaaaaaaaaa2", Kid: "k", Key: key(9), Created: at, Net: netA},
		{Label: "bbbbbbbbbbbbbbb1", Kid: "k", Key: key(10), Created: at, Net: netB},
		{Label: "aaaaaaaaaaaaaaa1", Kid: "k2", Key: key(8), Created: at.Add(time.Hour), Net: netB},
	} {
		if err := s.PutAgent(ctx, a); err != nil {
			t.Fatalf("PutAgent %d: %v", i, err)
		}
	}
	if n, err := s.CountAgentsFrom(ctx, netA, at); err != nil || n != 2 {
		t.Errorf("CountAgentsFrom(A) = %d, %v; want 2", n, err)
	}
	if n, err := s.CountAgentsFrom(ctx, netB, at); err != nil || n != 1 {
		t.Errorf("CountAgentsFrom(B) = %d, %v; want 1", n, err)
	}
	if n, _ := s.CountAgentsFrom(ctx, netA, at.Add(time.Second)); n != 0 {
		t.Errorf("CountAgentsFrom(A) later = %d", n)
	}
	if got, err := s.AgentByLabel(ctx, "aaaaaaaaaaaaaaa1"); err != nil || got.Kid != "k2" || !got.Created.Equal(at) {
		t.Errorf("AgentByLabel after registering again = %+v, %v; want kid k2, first time kept", got, err)
	}
}

// TestDirectoryContract: the tunnel directory follows the newest claim
// and forgets an instance whose heartbeat stopped.
func TestDirectoryContract(t *testing.T) {
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			now := time.UnixMilli(1_800_000_000_000)
			a := Instance{ID: "a", MeshAddr: "10.0.0.1:7000", CertFP: []byte{1}, Expires: now.Add(3 * time.Second)}
			b := Instance{ID: "b", MeshAddr: "10.0.0.2:7000", CertFP: []byte{2}, Expires: now.Add(3 * time.Second)}
			for _, in := range []Instance{a, b} {
				if err := s.Heartbeat(ctx, in); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.TunnelAt(ctx, "node1", now); !errors.Is(err, ErrNotFound) {
				t.Errorf("unclaimed = %v", err)
			}
			s.ClaimTunnel(ctx, "node1", "a")
			if in, err := s.TunnelAt(ctx, "node1", now); err != nil || in.ID != "a" || in.MeshAddr != a.MeshAddr || !bytes.Equal(in.CertFP, a.CertFP) {
				t.Errorf("TunnelAt = %+v, %v", in, err)
			}
			s.ClaimTunnel(ctx, "node1", "b")   // the node reconnected to b
			s.ReleaseTunnel(ctx, "node1", "a") // a's late release changes nothing
			if in, _ := s.TunnelAt(ctx, "node1", now); in.ID != "b" {
				t.Errorf("after the move: %+v", in)
			}
			// b stops its heartbeat: after its lease the node is nowhere.
			a.Expires = now.Add(10 * time.Second)
			s.Heartbeat(ctx, a)
			later := now.Add(4 * time.Second)
			if _, err := s.TunnelAt(ctx, "node1", later); !errors.Is(err, ErrNotFound) {
				t.Errorf("a dead instance's tunnel = %v", err)
			}
			if _, err := s.Instance(ctx, "b", later); !errors.Is(err, ErrNotFound) {
				t.Errorf("dead instance = %v", err)
			}
			if in, err := s.Instance(ctx, "a", later); err != nil || in.MeshAddr != a.MeshAddr {
				t.Errorf("live instance = %+v, %v", in, err)
			}
			s.ReleaseTunnel(ctx, "node1", "b")
			if _, err := s.TunnelAt(ctx, "node1", now); !errors.Is(err, ErrNotFound) {
				t.Errorf("released = %v", err)
			}
		})
	}
}

// TestLeaseContract: one holder at a time, until its lease ends or it
// drops it; the holder renews its own; private values round-trip.
func TestLeaseContract(t *testing.T) {
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			now := time.UnixMilli(1_800_000_000_000)
			for _, step := range []struct {
				holder string
				at     time.Duration // after now
				want   bool
			}{
				{"a", 0, true},                 // free
				{"b", time.Minute, false},      // a holds it until now+10m
				{"a", time.Minute, true},       // a renews, until now+11m
				{"b", 10 * time.Minute, false}, // still a's
				{"b", 11 * time.Minute, true},  // a's lease ended
				{"a", 12 * time.Minute, false}, // now b's
			} {
				at := now.Add(step.at)
				if got, err := s.TakeLease(ctx, "acme", step.holder, at, at.Add(10*time.Minute)); err != nil || got != step.want {
					t.Fatalf("TakeLease(%s at +%v) = %v, %v; want %v", step.holder, step.at, got, err, step.want)
				}
			}
			s.DropLease(ctx, "acme", "a") // not a's: changes nothing
			if got, _ := s.TakeLease(ctx, "acme", "a", now.Add(13*time.Minute), now.Add(20*time.Minute)); got {
				t.Fatal("a took b's lease after a dropped what it did not hold")
			}
			if err := s.DropLease(ctx, "acme", "b"); err != nil {
				t.Fatal(err)
			}
			if got, _ := s.TakeLease(ctx, "acme", "a", now.Add(13*time.Minute), now.Add(20*time.Minute)); !got {
				t.Fatal("a could not take the lease b dropped")
			}
			if got, _ := s.TakeLease(ctx, "other", "b", now, now.Add(time.Minute)); !got {
				t.Fatal("leases of different names are not independent")
			}

			if _, err := s.Private(ctx, "acme-account"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Private before PutPrivate = %v, want ErrNotFound", err)
			}
			for _, v := range []string{"first", "second"} {
				if err := s.PutPrivate(ctx, "acme-account", []byte(v)); err != nil {
					t.Fatal(err)
				}
				if got, err := s.Private(ctx, "acme-account"); err != nil || string(got) != v {
					t.Fatalf("Private = %q, %v; want %q", got, err, v)
				}
			}
		})
	}
}

// TestQueueContract is the offline queue's contract, the same for every
// Store.
func TestQueueContract(t *testing.T) {
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			testQueue(t, open(t))
		})
	}
}

func testQueue(t *testing.T, s Store) {
	ctx := context.Background()
	now := time.UnixMilli(1_800_000_000_000)
	netA, netB := []byte("network a"), []byte("network b")
	env := func(id, label string, net []byte, at time.Time) Envelope {
		return Envelope{ID: id, Label: label, Net: net, Sealed: []byte("sealed " + id), Created: at, Expires: at.Add(24 * time.Hour)}
	}

	// Enqueue, then the same id again: the first copy, not a second.
	got, err := s.Enqueue(ctx, env("r1", "nodea", netA, now), 3, 3)
	if err != nil || got.ID != "r1" || !got.Expires.Equal(now.Add(24*time.Hour)) {
		t.Fatalf("Enqueue = %+v, %v", got, err)
	}
	again := env("r1", "nodea", netB, now.Add(time.Minute))
	again.Sealed = []byte("sealed again")
	got, err = s.Enqueue(ctx, again, 3, 3)
	if err != nil || got.ID != "r1" || !got.Created.Equal(now) || !got.Expires.Equal(now.Add(24*time.Hour)) {
		t.Errorf("retry = %+v, %v; want the first receipt", got, err)
	}
	if e, _ := s.QueueEntry(ctx, "r1", now); !bytes.Equal(e.Sealed, []byte("sealed r1")) || !bytes.Equal(e.Net, netA) {
		t.Errorf("after the retry: %+v; want the first copy", e)
	}
	if _, err := s.Enqueue(ctx, env("r1", "nodeb", netA, now), 3, 3); !errors.Is(err, ErrIDTaken) {
		t.Errorf("the id for another node = %v, want ErrIDTaken", err)
	}

	// The limit counts per label.
	for i := 2; i <= 3; i++ {
		if _, err := s.Enqueue(ctx, env(fmt.Sprintf("r%d", i), "nodea", netA, now.Add(time.Duration(i)*time.Second)), 3, 3); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Enqueue(ctx, env("r4", "nodea", netB, now.Add(5*time.Second)), 3, 3); !errors.Is(err, ErrQueueFull) {
		t.Errorf("fourth envelope = %v, want ErrQueueFull", err)
	}
	if _, err := s.Enqueue(ctx, env("r3", "nodea", netA, now), 3, 3); err != nil {
		t.Errorf("a retry of a queued id at the limit = %v, want its receipt", err)
	}
	if _, err := s.Enqueue(ctx, env("b1", "nodeb", netA, now), 3, 3); err != nil {
		t.Errorf("another label's envelope = %v", err)
	}

	// Oldest first; acknowledged ones leave the list but keep their place
	// (and the reply, when there is one) until they expire.
	list, err := s.Undelivered(ctx, "nodea", now.Add(time.Minute), 10)
	if err != nil || len(list) != 3 || list[0].ID != "r1" || list[2].ID != "r3" || !bytes.Equal(list[0].Sealed, []byte("sealed r1")) {
		t.Fatalf("Undelivered = %+v, %v", list, err)
	}
	if err := s.Ack(ctx, "nodea", "r1", []byte("reply 1")); err != nil {
		t.Fatal(err)
	}
	if err := s.Ack(ctx, "nodeb", "r2", []byte("not b's")); err != nil {
		t.Fatal(err)
	}
	if err := s.Ack(ctx, "nodea", "r1", []byte("second reply")); err != nil {
		t.Fatal(err)
	}
	if err := s.Ack(ctx, "nodea", "r3", nil); err != nil {
		t.Fatal(err)
	}
	list, _ = s.Undelivered(ctx, "nodea", now.Add(time.Minute), 10)
	if len(list) != 1 || list[0].ID != "r2" {
		t.Fatalf("after the acks: %+v", list)
	}
	e, err := s.QueueEntry(ctx, "r1", now.Add(time.Minute))
	if err != nil || !e.Delivered() || !bytes.Equal(e.Reply, []byte("reply 1")) {
		t.Errorf("QueueEntry(r1) = %+v, %v; want delivered with the first reply", e, err)
	}
	e, err = s.QueueEntry(ctx, "r2", now.Add(time.Minute))
	if err != nil || e.Delivered() || e.Reply != nil {
		t.Errorf("QueueEntry(r2) = %+v, %v; want waiting (another label's ack does not count)", e, err)
	}
	e, err = s.QueueEntry(ctx, "r3", now.Add(time.Minute))
	if err != nil || !e.Delivered() || e.Reply != nil {
		t.Errorf("QueueEntry(r3) = %+v, %v; want delivered without a reply, its row kept", e, err)
	}
	for id, want := range map[string]string{"r1": "reply 1", "r2": "", "r3": ""} {
		if reply, err := s.QueueReply(ctx, id, now.Add(time.Minute)); err != nil || string(reply) != want {
			t.Errorf("QueueReply(%s) = %q, %v; want %q", id, reply, err, want)
		}
	}
	if _, err := s.Enqueue(ctx, env("r4", "nodea", netB, now.Add(5*time.Second)), 3, 3); !errors.Is(err, ErrQueueFull) {
		t.Errorf("after the acks = %v, want ErrQueueFull: a delivered envelope holds its place until it expires", err)
	}

	// A network's share: two of nodec's three places for each.
	for i := range 2 {
		if _, err := s.Enqueue(ctx, env(fmt.Sprintf("c%d", i), "nodec", netA, now), 3, 2); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Enqueue(ctx, env("c2", "nodec", netA, now), 3, 2); !errors.Is(err, ErrQueueFull) {
		t.Errorf("past the network's share = %v, want ErrQueueFull", err)
	}
	if err := s.Ack(ctx, "nodec", "c0", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Enqueue(ctx, env("c2", "nodec", netA, now), 3, 2); !errors.Is(err, ErrQueueFull) {
		t.Errorf("past the share, one delivered = %v, want ErrQueueFull", err)
	}
	if _, err := s.Enqueue(ctx, env("c1", "nodec", netA, now), 3, 2); err != nil {
		t.Errorf("a retry at the share = %v, want its receipt", err)
	}
	if _, err := s.Enqueue(ctx, env("c3", "nodec", netB, now), 3, 2); err != nil {
		t.Errorf("another network = %v", err)
	}
	if _, err := s.Enqueue(ctx, env("c4", "nodec", []byte("network c"), now), 3, 2); !errors.Is(err, ErrQueueFull) {
		t.Errorf("a third network, the label full = %v, want ErrQueueFull", err)
	}

	// Expiry: gone from every view, then from the table.
	later := now.Add(25 * time.Hour)
	if _, err := s.QueueEntry(ctx, "r2", later); !errors.Is(err, ErrNotFound) {
		t.Errorf("expired QueueEntry = %v, want ErrNotFound", err)
	}
	if _, err := s.QueueReply(ctx, "r1", later); !errors.Is(err, ErrNotFound) {
		t.Errorf("expired QueueReply = %v, want ErrNotFound", err)
	}
	if list, _ := s.Undelivered(ctx, "nodea", later, 10); len(list) != 0 {
		t.Errorf("expired envelopes still waiting: %+v", list)
	}
	if _, err := s.QueueEntry(ctx, "nope", now); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id = %v", err)
	}
	if _, err := s.QueueReply(ctx, "nope", now); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id's reply = %v", err)
	}
	// An expired id is free again before the sweep, for any label, and
	// expired envelopes hold no place.
	if got, err := s.Enqueue(ctx, env("r3", "nodeb", netA, later), 3, 3); err != nil || got.Label != "nodeb" || !got.Expires.Equal(later.Add(24*time.Hour)) {
		t.Errorf("an expired id used again before the sweep = %+v, %v", got, err)
	}
	if _, err := s.Enqueue(ctx, env("r5", "nodea", netA, later), 3, 3); err != nil {
		t.Errorf("after expiry = %v, want room", err)
	}
	if err := s.Expire(ctx, later); err != nil {
		t.Fatal(err)
	}
	if _, err := s.QueueEntry(ctx, "r1", now); !errors.Is(err, ErrNotFound) {
		t.Errorf("after Expire the row is still there: %v", err)
	}
	if _, err := s.Enqueue(ctx, env("r1", "nodeb", netA, later), 3, 3); err != nil {
		t.Errorf("an expired id used again = %v", err)
	}
}

// TestQueueLimitsConcurrent: two handles on one store (two relay
// instances) enqueueing for one label at once, from one network and from
// several, keep the network's share and the label's limit exactly.
func TestQueueLimitsConcurrent(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) [2]Store{
		"sqlite": func(t *testing.T) [2]Store {
			dir := t.TempDir()
			var out [2]Store
			for i := range out {
				s, err := OpenSQLite(t.Context(), dir)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				out[i] = s
			}
			return out
		},
		"postgres": twoPostgres,
	} {
		t.Run(name, func(t *testing.T) {
			stores := open(t)
			now := time.UnixMilli(1_800_000_000_000)
			run := func(label string, nets int) (accepted int) {
				var mu sync.Mutex
				var wg sync.WaitGroup
				for i := range 48 {
					wg.Go(func() {
						e := Envelope{ID: fmt.Sprintf("%s-%d", label, i), Label: label, Net: []byte{byte(i % nets)},
							Sealed: []byte("x"), Created: now, Expires: now.Add(time.Hour)}
						_, err := stores[i%2].Enqueue(t.Context(), e, 32, 8)
						if err != nil && !errors.Is(err, ErrQueueFull) {
							t.Error(err)
						}
						if err == nil {
							mu.Lock()
							accepted++
							mu.Unlock()
						}
					})
				}
				wg.Wait()
				return accepted
			}
			if n := run("onenet", 1); n != 8 {
				t.Errorf("one network: %d accepted, want its share of 8", n)
			}
			if n := run("sixnets", 6); n != 32 {
				t.Errorf("six networks: %d accepted, want the label's 32", n)
			}
		})
	}
}

// TestAgentLimitsConcurrent: new hosted agents registered at once, on
// one SQLite handle (one relay process) and on two PostgreSQL handles
// (two instances), never pass the hour's limit nor a network's share
// (an outside review got 100 of a share of 50, and 1,175 of an hour of
// 1,000, through counting and storing in two steps on PostgreSQL).
func TestAgentLimitsConcurrent(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) [2]Store{
		"sqlite": func(t *testing.T) [2]Store {
			s, err := OpenSQLite(t.Context(), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return [2]Store{s, s}
		},
		"postgres": twoPostgres,
	} {
		t.Run(name, func(t *testing.T) {
			stores := open(t)
			now := time.Unix(1_900_000_000+int64(time.Now().UnixNano()%1_000_000), 0)
			run := func(prefix string, nets, max, netMax int) (added int) {
				var mu sync.Mutex
				var wg sync.WaitGroup
				for i := range 120 {
					wg.Go(func() {
						a := Agent{Label: fmt.Sprintf("%s%d", prefix, i), Kid: "k1", Key: []byte(fmt.Sprintf("%s-key%d", prefix, i)), Created: now,
							Net: []byte(fmt.Sprintf("%s-net%d", prefix, i%nets))}
						err := stores[i%2].AddAgent(t.Context(), a, now.Add(-time.Hour), max, netMax)
						if err != nil && !errors.Is(err, ErrAgentLimit) {
							t.Error(err)
						}
						if err == nil {
							mu.Lock()
							added++
							mu.Unlock()
						}
					})
				}
				wg.Wait()
				return added
			}
			base, err := stores[0].CountAgentsSince(t.Context(), now.Add(-time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if n := run("one", 1, base+1000, 50); n != 50 {
				t.Errorf("one network at once: %d added, want its share of 50", n)
			}
			if n := run("many", 120, base+60, 50); n != 10 {
				t.Errorf("120 networks at once with 10 left in the hour: %d added, want 10", n)
			}
		})
	}
}

// twoPostgres opens two handles on the test PostgreSQL, as two relay
// instances have.
func twoPostgres(t *testing.T) [2]Store {
	url := pgtest.Need(t)
	var out [2]Store
	for i := range out {
		s, err := OpenPostgres(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		out[i] = s
	}
	return out
}
