package httpsig

import (
	"context"
	"sync"
	"time"
)

// MemoryNonces is a NonceStore in memory. It forgets everything on restart,
// so it does not meet the gateway's requirement that a nonce stays refused
// across restarts: it is for tests and tools. Expired nonces are dropped as
// new ones arrive, so it stays as small as the traffic of one expiry window.
type MemoryNonces struct {
	mu   sync.Mutex // guards the fields below
	seen map[string]time.Time
	ops  int
}

// Use records (keyID, nonce) until until and reports whether it was new.
func (m *MemoryNonces) Use(_ context.Context, keyID, nonce string, until time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen == nil {
		m.seen = map[string]time.Time{}
	}
	k := keyID + "\x00" + nonce
	if exp, ok := m.seen[k]; ok && time.Now().Before(exp) {
		return false, nil
	}
	m.seen[k] = until
	if m.ops++; m.ops%1024 == 0 {
		now := time.Now()
		for k, exp := range m.seen {
			if now.After(exp) {
				delete(m.seen, k)
			}
		}
	}
	return true, nil
}
