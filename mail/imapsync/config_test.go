package imapsync

import (
	"testing"
	"time"
)

// TestDefaultCommandTimeout: docs/sync.md promises one answer deadline of
// 60 s when none is set.
func TestDefaultCommandTimeout(t *testing.T) {
	var c Config
	c.defaults()
	if c.CommandTimeout != 60*time.Second {
		t.Errorf("default CommandTimeout = %v, want 60s", c.CommandTimeout)
	}
}
