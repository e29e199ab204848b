package relaystore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
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
	env := func(id, label string, at time.Time) Envelope {
		return Envelope{ID: id, Label: label, Sealed: []byte("sealed " + id), Created: at, Expires: at.Add(24 * time.Hour)}
	}

	// Enqueue, then the same id again: the first copy, not a second.
	got, err := s.Enqueue(ctx, env("r1", "nodea", now), 3)
	if err != nil || got.ID != "r1" || !got.Expires.Equal(now.Add(24*time.Hour)) {
		t.Fatalf("Enqueue = %+v, %v", got, err)
	}
	again := env("r1", "nodea", now.Add(time.Minute))
	again.Sealed = []byte("sealed again")
	got, err = s.Enqueue(ctx, again, 3)
	if err != nil || !bytes.Equal(got.Sealed, []byte("sealed r1")) || !got.Created.Equal(now) {
		t.Errorf("retry = %+v, %v; want the first copy", got, err)
	}
	if _, err := s.Enqueue(ctx, env("r1", "nodeb", now), 3); !errors.Is(err, ErrIDTaken) {
		t.Errorf("the id for another node = %v, want ErrIDTaken", err)
	}

	// The limit counts what waits, per label.
	for i := 2; i <= 3; i++ {
		if _, err := s.Enqueue(ctx, env(fmt.Sprintf("r%d", i), "nodea", now.Add(time.Duration(i)*time.Second)), 3); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Enqueue(ctx, env("r4", "nodea", now.Add(5*time.Second)), 3); !errors.Is(err, ErrQueueFull) {
		t.Errorf("fourth envelope = %v, want ErrQueueFull", err)
	}
	if _, err := s.Enqueue(ctx, env("r3", "nodea", now), 3); err != nil {
		t.Errorf("a retry of a queued id at the limit = %v, want its receipt", err)
	}
	if _, err := s.Enqueue(ctx, env("b1", "nodeb", now), 3); err != nil {
		t.Errorf("another label's envelope = %v", err)
	}

	// Oldest first; acknowledged ones leave the list and free a place.
	list, err := s.Undelivered(ctx, "nodea", now.Add(time.Minute), 10)
	if err != nil || len(list) != 3 || list[0].ID != "r1" || list[2].ID != "r3" {
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
	list, _ = s.Undelivered(ctx, "nodea", now.Add(time.Minute), 10)
	if len(list) != 2 || list[0].ID != "r2" {
		t.Fatalf("after the ack: %+v", list)
	}
	e, err := s.QueueEntry(ctx, "r1", now.Add(time.Minute))
	if err != nil || !e.Delivered() || !bytes.Equal(e.Reply, []byte("reply 1")) {
		t.Errorf("QueueEntry(r1) = %+v, %v; want delivered with the first reply", e, err)
	}
	e, err = s.QueueEntry(ctx, "r2", now.Add(time.Minute))
	if err != nil || e.Delivered() || e.Reply != nil {
		t.Errorf("QueueEntry(r2) = %+v, %v; want waiting (another label's ack does not count)", e, err)
	}
	if _, err := s.Enqueue(ctx, env("r4", "nodea", now.Add(5*time.Second)), 3); err != nil {
		t.Errorf("after an ack = %v, want room", err)
	}

	// Expiry: gone from every view, then from the table.
	later := now.Add(25 * time.Hour)
	if _, err := s.QueueEntry(ctx, "r2", later); !errors.Is(err, ErrNotFound) {
		t.Errorf("expired QueueEntry = %v, want ErrNotFound", err)
	}
	if list, _ := s.Undelivered(ctx, "nodea", later, 10); len(list) != 0 {
		t.Errorf("expired envelopes still waiting: %+v", list)
	}
	if _, err := s.QueueEntry(ctx, "nope", now); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id = %v", err)
	}
	if err := s.Expire(ctx, later); err != nil {
		t.Fatal(err)
	}
	if _, err := s.QueueEntry(ctx, "r1", now); !errors.Is(err, ErrNotFound) {
		t.Errorf("after Expire the row is still there: %v", err)
	}
	if _, err := s.Enqueue(ctx, env("r1", "nodeb", later), 3); err != nil {
		t.Errorf("an expired id used again = %v", err)
	}
}
