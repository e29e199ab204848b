package imapsync

import (
	"syscall"
	"testing"
)

// TestBackground: the goroutine's thread runs at nice 10, and the thread
// that called it is left as it was.
func TestBackground(t *testing.T) {
	nice := func() int {
		// The raw system call answers 20 - nice.
		p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		if err != nil {
			t.Fatal(err)
		}
		return 20 - p
	}
	before := nice()
	got := make(chan int)
	go func() {
		background()
		got <- nice()
	}()
	// Lowering a priority needs no privilege; a process already below
	// nice 10 stays where it is.
	if n, want := <-got, max(before, 10); n != want {
		t.Errorf("nice %d in the background, want %d", n, want)
	}
	if n := nice(); n != before {
		t.Errorf("the caller's thread went from nice %d to %d", before, n)
	}
}
