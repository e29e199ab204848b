package relaystore

import (
	"context"
	"errors"
	"testing"
)

// TestDuplicate: each backend tells a row refused for its taken key
// (what Enqueue answers ErrIDTaken for, when another instance stored the
// id meanwhile) from other errors.
func TestDuplicate(t *testing.T) {
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			var be backend
			switch s := open(t).(type) {
			case *SQLite:
				be = s.be
			case *Postgres:
				be = s.be
			}
			ctx := context.Background()
			insert := "INSERT INTO queue(" + queueCols + ") VALUES ($1, $2, $3, $4, $5, NULL, $6)"
			if _, err := be.exec(ctx, insert, "dup", "nodea", []byte("n"), int64(1), int64(2), []byte("x")); err != nil {
				t.Fatal(err)
			}
			_, err := be.exec(ctx, insert, "dup", "nodeb", []byte("n"), int64(1), int64(2), []byte("y"))
			if err == nil || !be.duplicate(err) {
				t.Errorf("duplicate(%v) = false, want true", err)
			}
			_, err = be.exec(ctx, "INSERT INTO queue(id) VALUES ($1)", "other")
			if err == nil || be.duplicate(err) {
				t.Errorf("duplicate(%v) = true for a missing value, want false", err)
			}
			if be.duplicate(errors.New("relay store: duplicate")) {
				t.Error("duplicate(another error) = true")
			}
		})
	}
}
