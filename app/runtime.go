package app

import (
	"os"
	"runtime/debug"
)

// The node process's garbage-collector settings, applied by SetRuntime.
//
// The MCP SDK decodes each agent request several times, each time with a
// fresh 32 KiB buffer, so at a few thousand calls a second the collector
// ran every few milliseconds over a heap of a few megabytes; at GOGC=400
// it runs a quarter as often: +70% calls/s in BenchmarkGatewayThroughput.
// The memory limit keeps that from costing memory where the heap is large:
// an initial sync's heap grows toward it and is then collected as often as
// needed to stay under it. At 128 MiB the sync's heap peaked at its GOGC
// goal of about 110 MB (five times a live heap of 22 MB), and with
// SQLite's own memory beside it the process reached 227-257 MiB; at 80 MiB
// it stayed near 180 MiB at no cost in speed (docs/benchmarks.md). Then
// the extractor's tables for 20 languages (issue 46, 2026-11-29: word
// automata whose rows widen with every script's bytes) doubled its live
// heap after start, 18 -> 36 MiB, and at 80 MiB the collector ran so often
// that an initial sync of 10,000 messages fell from 3,492 to 2,759
// messages a second; at 100 MiB it is 3,503 again, and the process
// stays under the 250 MB the sync's RSS goal allows. Smaller automata
// (extract/words, later that day) brought the live heap to 15.9 MiB with
// 30 languages; 80 MiB would now give 4,198 messages a second against
// 100 MiB's 4,559 (alternating builds, three rounds each), so the limit
// stays where the sync is faster and the RSS goal still holds.
//
// DesktopMemoryLimit is the desktop app's: its window's heap (Fyne's
// widgets, textures and their garbage, 20-45 MiB) shares the limit with
// the sync. At 80 MiB the limit bound all through an initial sync with
// the window open: the collector ran nearly without pause, and the UI
// goroutine paid for it in mark assists of up to 24 ms each; 80 MiB more
// made the sync a fifth faster and halved the UI's median delay
// (docs/benchmarks.md).
const (
	GCPercent          = 400
	MemoryLimit        = 100 << 20
	DesktopMemoryLimit = 160 << 20
)

// SetRuntime applies GCPercent and MemoryLimit to the process unless the
// environment sets GOGC or GOMEMLIMIT. It changes process-wide state: only
// mains and benchmarks call it.
func SetRuntime() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	SetMemoryLimit(MemoryLimit)
}

// SetMemoryLimit sets the process's memory limit unless the environment
// sets GOMEMLIMIT.
func SetMemoryLimit(limit int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}

// ReleaseMemory collects the heap's garbage and returns it to the OS now.
// It costs a full collection, so callers bound how often: the node after
// a sync pass, the desktop app when its UI has gone quiet.
func ReleaseMemory() { debug.FreeOSMemory() }
