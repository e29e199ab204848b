package relayserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// queueChild is a relay's agent API in plain HTTP on loopback, over the
// store in dir: it prints its address and serves until it is killed.
func queueChild(dir string) int {
	st, err := relaystore.OpenSQLite(context.Background(), dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv, err := relayserver.New(context.Background(), relayserver.Config{Zone: relaylocal.Zone, Store: st,
		Limits: relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6}}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(ln.Addr().String())
	return map[bool]int{true: 0, false: 1}[http.Serve(ln, srv.Handler()) == nil]
}

// TestQueueSurvivesKill: a relay process killed with SIGKILL in the middle
// of an enqueue storm loses nothing it answered 202 for: after a restart
// every such envelope is still there, and the registered node's are
// delivered to it when its tunnel comes up.
func TestQueueSurvivesKill(t *testing.T) {
	dir := t.TempDir()
	k, _ := relayclient.NewKeys()
	host := registered(t, dir, "ann@example.com", k)
	label := strings.TrimSuffix(host, "."+relaylocal.Zone)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MAILNODE_RELAY_QUEUE_CHILD="+dir)
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + strings.TrimSpace(addr)

	// The storm: eight clients, the registered node's name among many
	// others (a name holds 32), each envelope carrying its own id.
	var mu sync.Mutex
	accepted := map[string]string{} // request_id → label
	stop := make(chan struct{})
	var wg sync.WaitGroup
	hc := &http.Client{Timeout: 5 * time.Second}
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				l := relayserver.NewLabel()
				if w == 0 && i < relay.MaxQueued {
					l = label
				}
				id := fmt.Sprintf("storm-%d-%06d", w, i)
				resp, err := hc.Post(base+relay.PathQueue+"/"+l+"."+relaylocal.Zone, "application/json",
					strings.NewReader(queueBody(4096, id)))
				if err != nil {
					return // the relay died under us
				}
				var q relay.Queued
				json.NewDecoder(resp.Body).Decode(&q)
				resp.Body.Close()
				if resp.StatusCode == http.StatusAccepted {
					mu.Lock()
					accepted[q.RequestID] = l
					mu.Unlock()
				}
			}
		}()
	}
	// Killed mid-storm once it has accepted enough (a fixed time was too
	// short on a slow machine under the race detector), or after 20 s.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n, mine := len(accepted), 0
		for _, l := range accepted {
			if l == label {
				mine++
			}
		}
		mu.Unlock()
		if n >= 200 && mine > 0 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	close(stop)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	mine := 0
	for _, l := range accepted {
		if l == label {
			mine++
		}
	}
	if len(accepted) < 100 || mine == 0 {
		t.Fatalf("only %d envelopes accepted (%d for the node) before the kill: the storm exercised nothing", len(accepted), mine)
	}

	// Restarted: every 202 is in the store.
	r := startLocal(t, relaylocal.Options{DataDir: dir})
	st, err := relaystore.OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for id, l := range accepted {
		e, err := st.QueueEntry(t.Context(), id, time.Now())
		if err != nil || e.Label != l || len(e.Sealed) != 4096 {
			t.Fatalf("envelope %s answered 202, after the kill: %+v, %v", id, e.Label, err)
		}
	}
	// And the node's are delivered when its tunnel comes up.
	tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, port(r.Addr)), Key: k.Node, TLS: r.CA.ClientTLS(), Dial: r.Dial,
		Queue: func(context.Context, []byte) ([]byte, error) { return []byte("ok"), nil }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	ln := relayclient.NewListener()
	go func() { done <- tun.Run(ctx, ln) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(10 * time.Second)
	for id, l := range accepted {
		if l != label {
			continue
		}
		for {
			e, err := st.QueueEntry(t.Context(), id, time.Now())
			if err == nil && e.Delivered() {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("envelope %s for the node not delivered after the restart", id)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.Logf("%d envelopes answered 202 before SIGKILL, all kept; the node's %d delivered after the restart", len(accepted), mine)
}
