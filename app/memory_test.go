package app

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// TestReleaseMemory: after a pass the garbage goes back to the OS, and not
// more than once a minute (each release is a full collection).
func TestReleaseMemory(t *testing.T) {
	released := func() uint64 {
		s := []metrics.Sample{{Name: "/memory/classes/heap/released:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	var n Node
	garbage := make([][]byte, 256)
	for i := range garbage {
		garbage[i] = make([]byte, 64<<10)
	}
	runtime.KeepAlive(garbage) // 16 MiB made and dropped
	before := released()
	n.releaseAfterPass()
	if after := released(); after < before+8<<20 {
		t.Errorf("released %d MiB of 16 MiB of garbage", (after-before)>>20)
	}
	first := n.released
	if time.Since(first) > time.Second {
		t.Fatalf("released at %v", first)
	}
	n.releaseAfterPass()
	if n.released != first {
		t.Error("released twice within a minute")
	}
	_ = garbage
}
