package relayserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relayserver"
)

// TestResolveFloodLeavesOthersServed: one address flooding resolve (a
// burst of 4,000, then as fast as one goroutine sends, tens of
// thousands a second) is refused past its own limit and takes nothing
// of everyone's: every other client is answered, with the default
// limits (issue 47's outside attack, finding 1: 10 to 15 of 20 were
// refused).
func TestResolveFloodLeavesOthersServed(t *testing.T) {
	r := newRelay(t, "", relayserver.Limits{})
	h := r.srv.Handler()
	resolve := resolver(h)
	const flooder = "203.0.113.9:40000"
	codes := map[int]int{}
	start := time.Now()
	for i := range 4000 {
		codes[resolve(flooder, i)]++
	}
	// Its bucket of 100, and 10 more each second the burst took.
	if max200 := 101 + int(10*time.Since(start).Seconds()); codes[200] > max200 || codes[200]+codes[429] != 4000 {
		t.Fatalf("a burst of 4,000 from one address was answered %v (status: count), want at most %d 200s, the rest 429", codes, max200)
	}
	stop := sendUntilStopped(func(n int) { resolve(flooder, n) })
	others := map[int]int{}
	for i := range 20 {
		time.Sleep(20 * time.Millisecond)
		others[resolve(fmt.Sprintf("198.51.100.%d:5000", i), i)]++
	}
	n := stop()
	if others[200] != 20 {
		t.Errorf("20 other clients, one resolve each while one address sent %d more, were answered %v (status: count), want 200 for all", n, others)
	}
}

// TestResolveNetworkFloodLeavesOthersServed: the clients of one network
// (every /64 of an IPv6 /56, what many providers give one home, or 200
// addresses of one IPv4 /24), each within its own 10/s, flood resolve
// (their bursts of 100 at once, 25,600 or 20,000 requests, then as fast
// as one goroutine sends) and get their network's 40/s: every client
// elsewhere is answered, ten resolves at once (a tenth of its burst),
// with the default limits. Without the network level they spent
// everyone's 2,000/s: 22 and 11 of the others' 200 were refused, in one
// run.
func TestResolveNetworkFloodLeavesOthersServed(t *testing.T) {
	tests := []struct {
		name    string
		clients int
		remote  string // format of the flooders' addresses, by client
	}{
		{"IPv6 /56", 256, "[2001:db8:aa:bb%02x::1]:40000"},
		{"IPv4 /24", 200, "203.0.113.%d:40000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRelay(t, "", relayserver.Limits{})
			h := r.srv.Handler()
			resolve := resolver(h)
			codes := map[int]int{}
			start := time.Now()
			for i := range 100 * tt.clients {
				codes[resolve(fmt.Sprintf(tt.remote, i%tt.clients), i)]++
			}
			// The network's bucket of 400, and 40 more each second the
			// bursts took.
			if max200 := 401 + int(40*time.Since(start).Seconds()); codes[200] > max200 || codes[200]+codes[429] != 100*tt.clients {
				t.Errorf("bursts of 100 from each of %d clients of one network were answered %v (status: count), want at most %d 200s, the rest 429",
					tt.clients, codes, max200)
			}
			stop := sendUntilStopped(func(n int) { resolve(fmt.Sprintf(tt.remote, n%tt.clients), n) })
			others := map[int]int{}
			for i := range 20 {
				time.Sleep(20 * time.Millisecond)
				remote := fmt.Sprintf("198.51.100.%d:5000", i)
				if i%2 == 1 {
					// Another provider's (RFC 9637's documentation
					// /20): a client in the flooders' own /32 shares
					// their provider's 200/s by design.
					remote = fmt.Sprintf("[3fff:%x::1]:5000", i)
				}
				for j := range 10 {
					others[resolve(remote, 10*i+j)]++
				}
			}
			n := stop()
			if others[200] != 200 {
				t.Errorf("20 clients elsewhere, ten resolves at once each while the network's %d clients sent %d more, were answered %v (status: count), want 200 for all",
					tt.clients, n, others)
			}
		})
	}
}

// resolver returns a function that resolves the i-th address from remote
// through h and returns the status.
func resolver(h http.Handler) func(remote string, i int) int {
	return func(remote string, i int) int {
		req := httptest.NewRequest(http.MethodPost, relay.PathResolve, strings.NewReader(fmt.Sprintf(`{"address":"u%d@example.com"}`, i)))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = remote
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
}

// sendUntilStopped calls send(0), send(1), ... from a goroutine of its own until the
// function it returns is called, which returns how many it sent.
func sendUntilStopped(send func(n int)) (stop func() int) {
	done := make(chan struct{})
	sent := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-done:
				sent <- n
				return
			default:
			}
			send(n)
			n++
		}
	}()
	return func() int { close(done); return <-sent }
}
