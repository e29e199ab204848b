package connlimit_test

import (
	"io"
	"net"
	"testing"
	"time"

	"mailnode/relay/connlimit"
)

// tempErr is what Accept returns out of descriptors (EMFILE).
type tempErr struct{}

func (tempErr) Error() string   { return "accept: too many open files" }
func (tempErr) Timeout() bool   { return false }
func (tempErr) Temporary() bool { return true }

func TestAcceptBackoff(t *testing.T) {
	for _, tt := range []struct {
		name   string
		err    error
		closed bool
		retry  bool
	}{
		{"out of descriptors waits and retries", tempErr{}, false, true},
		{"wrapped, the same", &net.OpError{Op: "accept", Err: tempErr{}}, false, true},
		{"closed listener gives up", net.ErrClosed, false, false},
		{"other error gives up", io.ErrUnexpectedEOF, false, false},
		{"closing while waiting gives up", tempErr{}, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b connlimit.AcceptBackoff
			done := make(chan struct{})
			if tt.closed {
				close(done)
			}
			warned := 0
			warn := func(error) { warned++ }
			start := time.Now()
			if got := b.Retry(tt.err, done, warn); got != tt.retry {
				t.Fatalf("Retry(%v) = %v, want %v", tt.err, got, tt.retry)
			}
			if !tt.retry {
				return
			}
			// A run of errors doubles the wait and warns once; an
			// accepted connection starts again at 5 ms.
			for range 3 {
				b.Retry(tt.err, done, warn)
			}
			if el := time.Since(start); el < (5+10+20+40)*time.Millisecond {
				t.Errorf("four retries took %v, want at least 75 ms", el)
			}
			if warned != 1 {
				t.Errorf("warned %d times, want once per run", warned)
			}
			b.Accepted()
			start = time.Now()
			b.Retry(tt.err, done, warn)
			if el := time.Since(start); el > 35*time.Millisecond {
				t.Errorf("first retry after an accept took %v, want about 5 ms", el)
			}
			if warned != 2 {
				t.Errorf("warned %d times after a new run, want 2", warned)
			}
		})
	}
}
