package connlimit

import (
	"errors"
	"net"
	"time"
)

// AcceptBackoff paces a listener's accept loop after a temporary error
// (EMFILE, ENFILE: out of descriptors, which passes once clients leave):
// wait and accept again, 5 ms doubling to 1 s, as net/http does, rather
// than give up the port or spin. The zero value is ready; one per loop.
type AcceptBackoff struct {
	delay time.Duration
}

// Retry reports whether the loop should accept again after err: for a
// temporary error it waits its turn first (warn, if not nil, is told of
// the first error of a run) and returns true, or false as soon as done
// is closed. For any other error it returns false at once.
func (b *AcceptBackoff) Retry(err error, done <-chan struct{}, warn func(error)) bool {
	var ne net.Error
	//lint:ignore SA1019 Temporary is how net/http's Server.Serve tells EMFILE and ENFILE from a closed listener.
	if !errors.As(err, &ne) || !ne.Temporary() {
		return false
	}
	if b.delay == 0 && warn != nil {
		warn(err)
	}
	b.delay = min(max(2*b.delay, 5*time.Millisecond), time.Second)
	t := time.NewTimer(b.delay)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	}
}

// Accepted ends a run of errors: the next one waits 5 ms again.
func (b *AcceptBackoff) Accepted() { b.delay = 0 }
