package app_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app/apptest"
	"mailnode/relay"
)

// The node verifies the relay's queued envelopes only against the key
// documents it already holds, and never fetches one for them
// (docs/relay.md, "On the node"): an envelope never makes the node
// contact anything a stranger chose, so the queue tells no stranger that
// a name is a real node, when it came online, or from which address.

// TestQueueStrangerNeverFetched: a stranger seals to a real node's box key
// a request whose key id names a domain whose key host the stranger runs
// (here a loopback listener counting connections, mapped by the gateway's
// development overrides) and enqueues it. The node comes online, takes the
// envelope, and the key host sees no connection; no prompt opens, and the
// reply poll answers as a decoy's.
func TestQueueStrangerNeverFetched(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	keyHost, conns := countingListener(t)
	const strangerDomain = "keys.stranger.example"
	dir := t.TempDir()
	o := apptest.NodeOptions{DataDir: dir, AgentAddrs: map[string]string{strangerDomain: keyHost}}
	e := apptest.StartNodeWith(t, r, &log, o)
	rel := &agent.Relay{BaseURL: r.URL, HTTPClient: r.HTTPClient()}
	res, err := rel.Resolve(ctx, e.Node.Status().Gateway.Relay.Address)
	if err != nil {
		t.Fatal(err)
	}
	e.Node.Stop()
	waitUntil(t, "the tunnel down", func() bool { return r.Server.ConnectedNodes() == 0 })

	_, key, _ := ed25519.GenerateKey(nil)
	q := queueCall(t, rel, res, strangerDomain, key, "bills_due")
	back := apptest.StartNodeWith(t, r, &log, o)
	waitUntil(t, "the node to take the queued request", func() bool {
		return strings.Count(log.String(), `msg="Took a queued request"`) >= 1
	})
	if n := conns.Load(); n != 0 {
		t.Errorf("the stranger's key host saw %d connections from the node; want none", n)
	}
	if pending, err := back.Node.Pending(ctx); err != nil || len(pending) != 0 {
		t.Errorf("prompts open: %+v, %v; want none", pending, err)
	}
	if _, ready, err := rel.Reply(ctx, q.RequestID); err != nil || ready {
		t.Errorf("the stranger's reply poll: ready %v, %v; want 204 as a decoy's", ready, err)
	}
}

// TestQueueKnownAgents: a granted agent is known to the node after a
// restart (it keeps granted agents' key documents, and only theirs): its
// queued call gets its reply. An agent without a grant that had called
// live is not kept across the restart (so a stranger's domains cannot
// fill the file or push a granted agent out): its queued call is taken
// with no reply and no prompt, as a stranger's, and it must call live.
func TestQueueKnownAgents(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	granted, gkey := apptest.HostAgent(t, r)
	asking, akey := apptest.HostAgent(t, r)
	dir := t.TempDir()
	o := apptest.NodeOptions{DataDir: dir, AgentDomains: []string{granted, asking}}
	e := apptest.StartNodeWith(t, r, &log, o)
	grantBills(t, e, granted, gkey)
	if err := e.Session(t, asking, akey).Initialize(ctx); err != nil {
		t.Fatalf("live initialize: %v", err)
	}
	rel := &agent.Relay{BaseURL: r.URL, HTTPClient: r.HTTPClient()}
	res, err := rel.Resolve(ctx, e.Node.Status().Gateway.Relay.Address)
	if err != nil {
		t.Fatal(err)
	}
	e.Node.Stop()
	waitUntil(t, "the tunnel down", func() bool { return r.Server.ConnectedNodes() == 0 })

	qg := queueCall(t, rel, res, granted, gkey, "bills_due")
	qa := queueCall(t, rel, res, asking, akey, "bills_due")
	back := apptest.StartNodeWith(t, r, &log, o)
	waitUntil(t, "the granted agent's reply", func() bool {
		_, ready, err := rel.Reply(ctx, qg.RequestID)
		return err == nil && ready
	})
	waitUntil(t, "both queued requests taken", func() bool {
		return strings.Count(log.String(), `msg="Took a queued request"`) >= 2
	})
	if pending, err := back.Node.Pending(ctx); err != nil || len(pending) != 0 {
		t.Errorf("prompts after the restart: %+v, %v; want none for an agent not kept", pending, err)
	}
	if _, ready, err := rel.Reply(ctx, qa.RequestID); err != nil || ready {
		t.Errorf("the reply to a call without a grant: ready %v, %v; want none", ready, err)
	}
}

// TestQueueSurvivesKeyFetchFlood (issue 40, F2): strangers' live requests
// naming fresh domains whose key host accepts and never answers hold all
// of the node's key fetches; a granted agent's queued call delivered
// meanwhile is neither refused nor dropped: its reply is posted. (Until
// queued envelopes were verified only against held documents, the node
// fetched the agent's, waited 2.5 s for a fetch slot, answered 401 "agent
// key document unavailable" and acknowledged the envelope: lost.)
func TestQueueSurvivesKeyFetchFlood(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	granted, gkey := apptest.HostAgent(t, r)
	sink, accepted := hangingListener(t)
	const flood = 24 // more than the fetcher's 16 slots
	addrs := map[string]string{}
	for i := range flood {
		addrs[fmt.Sprintf("a%d.sink.example", i)] = sink
	}
	dir := t.TempDir()
	o := apptest.NodeOptions{DataDir: dir, AgentDomains: []string{granted}, AgentAddrs: addrs}
	e := apptest.StartNodeWith(t, r, &log, o)
	grantBills(t, e, granted, gkey)
	rel := &agent.Relay{BaseURL: r.URL, HTTPClient: r.HTTPClient()}
	res, err := rel.Resolve(ctx, e.Node.Status().Gateway.Relay.Address)
	if err != nil {
		t.Fatal(err)
	}
	// A restart: the node's memory of key documents is gone.
	e.Node.Stop()
	waitUntil(t, "the tunnel down", func() bool { return r.Server.ConnectedNodes() == 0 })
	back := apptest.StartNodeWith(t, r, &log, o)

	var wg sync.WaitGroup
	for d := range addrs {
		_, k, _ := ed25519.GenerateKey(nil)
		s := back.Session(t, d, k)
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Call(ctx, "bills_due", nil) // refused; what counts is the fetch it starts
		}()
	}
	t.Cleanup(wg.Wait)
	waitUntil(t, "every key fetch slot taken", func() bool { return accepted.Load() >= 16 })

	q := queueCall(t, rel, res, granted, gkey, "bills_due")
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, ready, err := rel.Reply(ctx, q.RequestID)
		if err != nil {
			t.Fatalf("reply poll: %v", err)
		}
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the granted agent's queued call got no reply in 20 s: dropped while the key fetcher was busy")
		}
		time.Sleep(500 * time.Millisecond) // under the relay's rate limit
	}
	if !strings.Contains(log.String(), `msg="Took a queued request" status=200 reply=true`) {
		t.Error("the node did not log the queued call taken with its reply")
	}
}

// grantBills has the agent ask live for bills_due and the person approve
// it: the node then holds the agent's key document and a grant.
func grantBills(t *testing.T, e *apptest.Relayed, domain string, key ed25519.PrivateKey) {
	t.Helper()
	_, err := e.Session(t, domain, key).Call(t.Context(), "bills_due", nil)
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) {
		t.Fatalf("first live call = %v, want approval required", err)
	}
	if _, err := e.Node.Decide(t.Context(), ar.MatchCode, true); err != nil {
		t.Fatal(err)
	}
}

// queueCall signs a tools/call as the agent (domain, key) and leaves it
// in the relay's queue for res, as the SDK does when the node is away.
func queueCall(t *testing.T, rel *agent.Relay, res relay.Resolution, domain string, key ed25519.PrivateKey, tool string) *agent.QueuedError {
	t.Helper()
	away := &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("node away")}
	}}}
	s, err := agent.NewSession(agent.Config{Node: res.Hostname, Signer: &agent.Signer{Domain: domain, Kid: "k1", Key: key},
		HTTPClient: away, Queue: &agent.Queue{Relay: rel, Resolution: res}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Call(t.Context(), tool, nil)
	var q *agent.QueuedError
	if !errors.As(err, &q) {
		t.Fatalf("call with the node away = %v, want queued", err)
	}
	return q
}

// countingListener counts the connections made to it and closes them.
func countingListener(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return ln.Addr().String(), &n
}

// hangingListener accepts connections and never answers on them, as a key
// host whose address never answers.
func hangingListener(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		n     atomic.Int32
		mu    sync.Mutex
		conns []net.Conn
	)
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			n.Add(1)
		}
	}()
	return ln.Addr().String(), &n
}
