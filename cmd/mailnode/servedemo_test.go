package main

import (
	"context"
	"net"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"mailnode/app/apptest"
	"mailnode/app/localapi/localclient"
)

// TestServeDemo: serve --demo starts the sample mailbox's servers beside
// the node (app/demo), which syncs its 44 messages as it would a
// person's account, and stops them once the node has stopped.
func TestServeDemo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb apptest.Buffer
	done := make(chan error, 1)
	go func() {
		done <- cmdServe(ctx, []string{"--demo", "--demo-mx", "127.0.0.1:0", "--data-dir", dir, "--listen", "127.0.0.1:0"},
			&out, &errb, func(string) string { return "" })
	}()
	deadline := time.Now().Add(30 * time.Second)
	for synced := false; !synced; time.Sleep(50 * time.Millisecond) {
		if lc, err := localclient.Dial(dir); err == nil {
			st, err := lc.NodeStatus(ctx)
			synced = err == nil && st.Messages == 44 && len(st.Accounts) == 1 && st.Accounts[0].Name == "demo"
		}
		select {
		case err := <-done:
			t.Fatalf("serve --demo stopped: %v\n%s%s", err, out.String(), errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve --demo did not sync the sample mailbox:\n%s%s", out.String(), errb.String())
		}
	}
	var addrs []string
	for _, re := range []string{`msg="Demo IMAP server started" addr=(\S+)`, `msg="Demo mail exchanger started[^"]*" addr=(\S+)`} {
		m := regexp.MustCompile(re).FindStringSubmatch(errb.String())
		if m == nil {
			t.Fatalf("the log lacks %s:\n%s", re, errb.String())
		}
		addrs = append(addrs, m[1])
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve --demo on cancel = %v", err)
	}
	for _, a := range addrs {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("the demo's server on %s still listens after serve ended", a)
		}
	}
}
