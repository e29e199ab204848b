package relaystore

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// testCodes is the contract of registration codes: one live code per
// address whoever asks, a daily limit of issued codes, and the keys'
// pending registrations with their attempts kept per code.
func testCodes(t *testing.T, s Store, at time.Time) {
	ctx := context.Background()
	key := func(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }
	const addr = "cy@example.com"
	code := func(id string, issued time.Time) Code {
		return Code{Address: addr, ID: id, Hash: key(id[0]), Issued: issued, Expires: issued.Add(4 * time.Hour)}
	}

	c1 := code("a1", at)
	got, issued, err := s.IssueCode(ctx, c1, 3, 100)
	if err != nil || !issued || got.ID != "a1" {
		t.Fatalf("IssueCode(first) = %+v, %v, %v", got, issued, err)
	}
	// While it lives, asking again issues nothing and returns it.
	got, issued, err = s.IssueCode(ctx, code("b2", at.Add(time.Hour)), 3, 100)
	if err != nil || issued || got.ID != "a1" || !bytes.Equal(got.Hash, c1.Hash) || !got.Expires.Equal(c1.Expires) || !got.Issued.Equal(at) {
		t.Fatalf("IssueCode(while live) = %+v, %v, %v; want a1 not issued", got, issued, err)
	}
	if live, err := s.LiveCode(ctx, addr, at.Add(4*time.Hour-time.Second)); err != nil || live.ID != "a1" {
		t.Errorf("LiveCode(just before expiry) = %+v, %v", live, err)
	}
	if _, err := s.LiveCode(ctx, addr, at.Add(4*time.Hour)); !errors.Is(err, ErrNotFound) {
		t.Errorf("LiveCode(at expiry) = %v, want ErrNotFound", err)
	}
	if _, err := s.LiveCode(ctx, "other@example.com", at); !errors.Is(err, ErrNotFound) {
		t.Errorf("LiveCode(other address) = %v, want ErrNotFound", err)
	}

	// Pending registrations keep their attempts for the same code.
	p := Pending{Address: addr, NodeKey: key(1), BoxKey: key(2), CodeID: "a1", Expires: c1.Expires}
	if err := s.PutPending(ctx, p); err != nil {
		t.Fatal(err)
	}
	s.FailPending(ctx, addr, p.NodeKey)
	p.BoxKey = key(3)
	if err := s.PutPending(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got, err := s.PendingFor(ctx, addr, p.NodeKey); err != nil || got.Attempts != 1 || got.CodeID != "a1" ||
		!bytes.Equal(got.BoxKey, key(3)) || !got.Expires.Equal(c1.Expires) {
		t.Errorf("PendingFor after asking again = %+v, %v; want 1 attempt kept, the new box key", got, err)
	}

	// Once it expired, the next is issued; a third and fourth within the
	// day, with a limit of 3, hit the limit.
	c2 := code("c3", at.Add(4*time.Hour))
	if got, issued, err := s.IssueCode(ctx, c2, 3, 100); err != nil || !issued || got.ID != "c3" {
		t.Fatalf("IssueCode(after expiry) = %+v, %v, %v", got, issued, err)
	}
	p.CodeID, p.Expires = "c3", c2.Expires
	s.PutPending(ctx, p)
	if got, _ := s.PendingFor(ctx, addr, p.NodeKey); got.Attempts != 0 || got.CodeID != "c3" {
		t.Errorf("PendingFor under a new code = %+v, want 0 attempts", got)
	}
	if _, issued, err := s.IssueCode(ctx, code("d4", at.Add(8*time.Hour)), 3, 100); err != nil || !issued {
		t.Fatalf("third IssueCode = %v, %v", issued, err)
	}
	if _, _, err := s.IssueCode(ctx, code("e5", at.Add(12*time.Hour)), 3, 100); !errors.Is(err, ErrMailLimit) {
		t.Fatalf("fourth IssueCode within a day = %v, want ErrMailLimit", err)
	}
	// A dropped code (its mail failed) is no longer live and no longer
	// counts.
	if err := s.DropCode(ctx, addr, "d4"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LiveCode(ctx, addr, at.Add(9*time.Hour)); !errors.Is(err, ErrNotFound) {
		t.Errorf("LiveCode after DropCode = %v", err)
	}
	if got, issued, err := s.IssueCode(ctx, code("f6", at.Add(9*time.Hour)), 3, 100); err != nil || !issued || got.ID != "f6" {
		t.Fatalf("IssueCode after DropCode = %+v, %v, %v", got, issued, err)
	}
	// A day after the first, it no longer counts.
	if _, _, err := s.IssueCode(ctx, code("g7", at.Add(13*time.Hour+time.Second)), 3, 100); !errors.Is(err, ErrMailLimit) {
		t.Fatalf("IssueCode at the limit = %v, want ErrMailLimit", err)
	}
	if _, issued, err := s.IssueCode(ctx, code("h8", at.Add(24*time.Hour+time.Second)), 3, 100); err != nil || !issued {
		t.Fatalf("IssueCode a day after the first = %v, %v", issued, err)
	}

	// Expire forgets codes and pending registrations past their time.
	if err := s.Expire(ctx, at.Add(48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PendingFor(ctx, addr, p.NodeKey); !errors.Is(err, ErrNotFound) {
		t.Errorf("expired pending = %v", err)
	}
	if _, err := s.LiveCode(ctx, addr, at.Add(24*time.Hour+2*time.Second)); !errors.Is(err, ErrNotFound) {
		t.Errorf("expired code = %v", err)
	}
	if err := s.DeletePending(ctx, addr, p.NodeKey); err != nil {
		t.Errorf("DeletePending of none = %v", err)
	}

	// Many asking at once for a fresh address: one code is issued.
	const racer = "race@example.com"
	var wg sync.WaitGroup
	var mu sync.Mutex
	ids := map[string]int{}
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := Code{Address: racer, ID: string(rune('a' + i)), Hash: key(byte(i)), Issued: at, Expires: at.Add(time.Hour)}
			got, issued, err := s.IssueCode(ctx, c, 6, 100)
			if err != nil {
				t.Errorf("IssueCode(racing) = %v", err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			ids[got.ID]++
			if issued {
				ids["issued"]++
			}
		}()
	}
	wg.Wait()
	if len(ids) != 2 || ids["issued"] != 1 {
		t.Errorf("16 racing IssueCode = %v, want one code issued and returned to all", ids)
	}
	testCodeLimits(t, s, at)
}

// testCodeLimits: the addresses of one mailbox share its daily limit,
// however many there are, and a client network has its own daily cap
// over every address it asks for.
func testCodeLimits(t *testing.T, s Store, at time.Time) {
	ctx := context.Background()
	netA, netB := []byte("network-a"), []byte("network-b")
	issue := func(addr, mailbox string, net []byte, id string) error {
		c := Code{Address: addr, ID: id, Hash: []byte(id), Issued: at, Expires: at.Add(4 * time.Hour), Mailbox: mailbox, Net: net}
		got, issued, err := s.IssueCode(ctx, c, 2, 3)
		if err == nil && (!issued || got.ID != id) {
			t.Fatalf("IssueCode(%s) = %+v, %v; want issued", addr, got, issued)
		}
		return err
	}
	const box = "owner+@mb.example"
	if err := issue("owner+a@mb.example", box, netA, "m1"); err != nil {
		t.Fatal(err)
	}
	if err := issue("owner+b@mb.example", box, netB, "m2"); err != nil {
		t.Fatal(err)
	}
	// A third spelling of the mailbox, from a network with room: refused.
	if err := issue("owner+c@mb.example", box, []byte("network-c"), "m3"); !errors.Is(err, ErrMailLimit) {
		t.Errorf("third address of one mailbox = %v, want ErrMailLimit", err)
	}
	// Network A has had one; two more other mailboxes, then its cap.
	if err := issue("x@one.example", "", netA, "n1"); err != nil {
		t.Fatal(err)
	}
	if err := issue("y@one.example", "", netA, "n2"); err != nil {
		t.Fatal(err)
	}
	if err := issue("z@one.example", "", netA, "n3"); !errors.Is(err, ErrMailLimit) {
		t.Errorf("fourth code mail of one network = %v, want ErrMailLimit", err)
	}
	// Another network is not held back by A's.
	if err := issue("z@one.example", "", netB, "n4"); err != nil {
		t.Errorf("other network = %v", err)
	}
	// A dropped code (its mail failed) counts for neither.
	if err := s.DropCode(ctx, "y@one.example", "n2"); err != nil {
		t.Fatal(err)
	}
	if err := issue("w@one.example", "", netA, "n5"); err != nil {
		t.Errorf("after DropCode = %v", err)
	}
}
