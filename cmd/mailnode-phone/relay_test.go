package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/app/localapi"
)

// syncBuffer is an output the pairing goroutine writes while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestThroughLocalRelay (issue 42 item 4): a node registered at a relay
// on loopback hands out a pairing URL with its relay name, which
// resolves only through that relay's DNS, and says so; the reference
// phone given --ca (the node's CA), --dev-dns and --dev-port (the relay's
// DNS and SNI port, as mailnode-agent takes them) pairs by that name,
// and approves an agent's request through the relay.
func TestThroughLocalRelay(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	domain, key := apptest.HostAgent(t, r)
	e := apptest.StartNode(t, r, &log, domain)

	offer, err := e.Node.Pair(ctx, app.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if offer.Reach != localapi.ReachRelay || !strings.HasPrefix(offer.URL, "https://"+e.Host+"/phone/#pair=") ||
		!strings.Contains(offer.Note, "a phone cannot open it") || !strings.Contains(offer.Note, "--dev-dns") {
		t.Fatalf("Pair() at a local relay = %+v; want the relay name %s, and a note that says it needs the relay's DNS", offer, e.Host)
	}
	_, port, _ := net.SplitHostPort(r.Addr)
	device := filepath.Join(t.TempDir(), "device.json")
	dev := []string{"--ca", e.Node.CAFile(), "--dev-dns", r.DNSAddr, "--dev-port", port, "--device", device}

	var out, errb syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- phone(ctx, append([]string{"pair", offer.URL, "--name", "Relay phone"}, dev...), &out, &errb)
	}()
	var st app.PairStatus
	for deadline := time.Now().Add(15 * time.Second); !st.Registered; time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("mailnode-phone pair ended before the node saw it: %v\n%s%s", err, out.String(), errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no phone registered through the relay\n%s%s", out.String(), errb.String())
		}
		if st, err = e.Node.PairStatus(ctx, offer.ID); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(out.String(), st.SAS) {
		t.Errorf("the phone printed\n%s\nwant the node's code %s", out.String(), st.SAS)
	}
	if _, err := e.Node.ConfirmPhone(ctx, st.Phone.ID); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil || !strings.Contains(out.String(), "Paired.") {
		t.Fatalf("mailnode-phone pair = %v\n%s%s", err, out.String(), errb.String())
	}

	sess := e.Session(t, domain, key)
	_, err = sess.Call(ctx, "get_upcoming_travel", map[string]any{})
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) {
		t.Fatalf("the agent's first call = %v, want approval_required", err)
	}
	var aout, aerr bytes.Buffer
	if err := phone(ctx, append([]string{"approve", ar.MatchCode}, dev...), &aout, &aerr); err != nil ||
		!strings.Contains(aout.String(), "approved") {
		t.Fatalf("mailnode-phone approve %s = %v\n%s%s", ar.MatchCode, err, aout.String(), aerr.String())
	}
	if _, err := sess.Call(ctx, "get_upcoming_travel", map[string]any{}); err != nil {
		t.Fatalf("the agent's call after the phone approved = %v", err)
	}

	// The relay name is not in the system's DNS: without the
	// development flags the phone cannot reach the node by it.
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := phone(sctx, []string{"list", "--ca", e.Node.CAFile(), "--device", device}, &aout, &aerr); err == nil {
		t.Error("mailnode-phone list reached the relay name without --dev-dns and --dev-port")
	}
}

// TestDevFlagsChecked: the development flags are checked as the agent's
// are.
func TestDevFlagsChecked(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"list", "--dev-dns", "127.0.0.1"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "HOST:PORT") {
		t.Errorf("--dev-dns without a port: exit %d, %s", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"list", "--dev-port", "70000"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "not a port") {
		t.Errorf("--dev-port 70000: exit %d, %s", code, errb.String())
	}
}
