package httpsig_test

import (
	"context"
	"testing"
	"time"

	"mailnode/gateway/httpsig"
)

func TestMemoryNonces(t *testing.T) {
	ctx := context.Background()
	var m httpsig.MemoryNonces
	later := time.Now().Add(time.Minute)
	steps := []struct {
		keyID, nonce string
		until        time.Time
		want         bool
	}{
		{"a.example#k1", "n1", later, true},
		{"a.example#k1", "n1", later, false}, // reuse
		{"a.example#k2", "n1", later, true},  // same nonce, other key
		{"b.example#k1", "old", time.Now().Add(-time.Second), true},
		{"b.example#k1", "old", later, true}, // its window had passed
	}
	for i, s := range steps {
		if got, err := m.Use(ctx, s.keyID, s.nonce, s.until); err != nil || got != s.want {
			t.Errorf("step %d: Use(%s, %s) = %v, %v; want %v", i, s.keyID, s.nonce, got, err, s.want)
		}
	}
}
