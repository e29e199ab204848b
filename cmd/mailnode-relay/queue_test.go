package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/mail/demobox"
	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
	"mailnode/relay/relaystore/pgtest"
)

// TestQueueStrangerBinary (issue 40, items 5 and 6) runs the real
// mailnode-relay and a real node (app.Node, registered at it, its tunnel
// up or down) and has strangers from five client networks (five /24s on
// loopback) leave junk envelopes, 49 random bytes sealed to nobody, for
// the node's name and for a decoy's: first with the node offline, then
// with it online taking each envelope (it cannot open them, and
// acknowledges them without a reply). The strangers see the same for
// both names: 8 times 202 and then 507 for each network until the name
// holds 32, 507 from then on, and 204 for every poll, before and after
// the node took the envelopes. On SQLite with one relay process, and on
// PostgreSQL with two (--mesh-listen), each stranger's envelopes going to
// both in turn.
func TestQueueStrangerBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the relay")
	}
	t.Run("sqlite", func(t *testing.T) { testQueueStranger(t, "") })
	t.Run("postgres", func(t *testing.T) { testQueueStranger(t, pgtest.Need(t)) })
}

func testQueueStranger(t *testing.T, db string) {
	dir := t.TempDir()
	bin := relayBinary(t)
	ca, certFile, keyFile := relayCert(t, dir)

	// The node is registered at the relay (its keys in its data
	// directory, its name in the relay's store) and not yet running.
	relayData := filepath.Join(dir, "relay")
	nodeData := filepath.Join(dir, "node")
	k, _ := relayclient.NewKeys()
	if err := relayclient.SaveKeys(filepath.Join(nodeData, "relay", "keys.json"), k); err != nil {
		t.Fatal(err)
	}
	var st relaystore.Store
	var err error
	if db == "" {
		st, err = relaystore.OpenSQLite(t.Context(), relayData)
	} else {
		st, err = relaystore.OpenPostgres(t.Context(), db)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	label := relayserver.NewLabel()
	if err := st.PutNode(t.Context(), relaystore.Node{Address: demobox.Address, Label: label, NodeKey: k.NodePublic(),
		BoxKey: k.BoxPublic(), RegisteredAt: time.Now()}); err != nil {
		t.Fatal(err)
	}

	args := []string{"serve", "--data-dir", relayData}
	instances := 1
	if db != "" {
		args = []string{"serve", "--db", db, "--mesh-listen", "127.0.0.1:0"}
		instances = 2
	}
	var tlsAddr string
	var httpAddrs []string
	for i := range instances {
		p := start(t, bin, "mailnode-relay", append(args, "--zone", relaylocal.Zone,
			"--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile,
			"--rate-client", "1000", "--burst-client", "1000")...)
		if i == 0 {
			tlsAddr = p.await(t, `service=tls addr=(\S+)`, 20*time.Second)
		}
		httpAddrs = append(httpAddrs, p.await(t, `service=http addr=(\S+)`, 20*time.Second))
	}
	base := "http://" + httpAddrs[0]

	// A stranger's client from the network of ip; its connections go to
	// each relay instance in turn.
	from := func(ip string) *http.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
		var next int
		return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true,
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				next++
				return d.DialContext(ctx, "tcp", httpAddrs[next%len(httpAddrs)])
			}}}
	}
	nets := []string{"127.0.0.1", "127.0.1.1", "127.0.2.1", "127.0.3.1", "127.0.4.1"}

	var res relay.Resolution
	resp, err := http.Post(base+relay.PathResolve, "application/json", strings.NewReader(`{"address":"nobody@demo-mail.example"}`))
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&res)
	resp.Body.Close()
	host, decoy := label+"."+relaylocal.Zone, res.Hostname
	if !strings.HasSuffix(decoy, "."+relaylocal.Zone) || decoy == host {
		t.Fatalf("decoy name %q", decoy)
	}

	type seen struct {
		statuses []int
		ids      []string
	}
	obs := map[string]*seen{host: {}, decoy: {}}
	leave := func(ip string) {
		t.Helper()
		c := from(ip)
		for _, h := range []string{host, decoy} {
			for range 9 {
				b := make([]byte, relay.SealOverhead+1)
				rand.Read(b)
				body := fmt.Sprintf(`{"envelope":%q}`, base64.RawURLEncoding.EncodeToString(b))
				resp, err := c.Post(base+relay.PathQueue+"/"+h, "application/json", strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				var q relay.Queued
				json.NewDecoder(resp.Body).Decode(&q)
				resp.Body.Close()
				obs[h].statuses = append(obs[h].statuses, resp.StatusCode)
				if resp.StatusCode == http.StatusAccepted {
					obs[h].ids = append(obs[h].ids, q.RequestID)
				}
			}
		}
	}
	taken := func() {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			w, err := st.Undelivered(t.Context(), label, time.Now(), 100)
			if err == nil && len(w) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d envelopes still wait for the online node (%v)", len(w), err)
			}
		}
	}
	poll := func(when string) {
		t.Helper()
		c := from(nets[4])
		for h, o := range obs {
			for _, id := range o.ids {
				resp, err := c.Get(base + relay.PathQueueReply + "/" + id)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusNoContent {
					t.Errorf("%s: poll of an envelope for %s = %d, want 204", when, h, resp.StatusCode)
				}
			}
		}
	}

	// The node offline: two networks.
	leave(nets[0])
	leave(nets[1])
	poll("node offline")

	// The node comes online and takes what waits; then three more
	// networks, the node taking each envelope as it arrives.
	var log apptest.Buffer
	loop := func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, tlsAddr)
	}
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: nodeData,
		Gateway: app.GatewayConfig{Listen: "127.0.0.1:0"},
		Relay: app.RelayConfig{URL: "https://" + relaylocal.Zone, TLS: ca.ClientTLS(), Dial: loop,
			HTTP: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: loop, TLSClientConfig: ca.ClientTLS()}}},
		Services: app.Services{Sync: true, Gateway: true, Relay: true},
	}), slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	sub, unsub := n.Subscribe()
	defer unsub()
	if err := n.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	defer func() {
		if t.Failed() {
			t.Logf("node:\n%s", log.String())
		}
	}()
	for connected := false; !connected; {
		select {
		case s := <-sub:
			connected = s.Gateway.Relay.State == "connected"
		case <-time.After(30 * time.Second):
			t.Fatalf("node not connected to the relay: %+v", n.Status().Gateway.Relay)
		}
	}
	taken()
	poll("node online, its envelopes taken")
	for _, ip := range nets[2:] {
		leave(ip)
		taken()
	}
	poll("node online")

	var want []int
	for i := range nets {
		for j := range 9 {
			if i < relay.MaxQueued/relay.QueueShare && j < relay.QueueShare {
				want = append(want, 202)
			} else {
				want = append(want, 507)
			}
		}
	}
	if got := fmt.Sprint(obs[host].statuses); got != fmt.Sprint(want) || got != fmt.Sprint(obs[decoy].statuses) {
		t.Errorf("enqueue statuses:\nnode  %v\ndecoy %v\nwant  %v", obs[host].statuses, obs[decoy].statuses, want)
	}
	for _, id := range obs[host].ids {
		if e, err := st.QueueEntry(t.Context(), id, time.Now()); err != nil || !e.Delivered() || e.Reply != nil {
			t.Errorf("the node's envelope %s: %+v, %v; want taken without a reply", id, e, err)
		}
	}
	for _, id := range obs[decoy].ids {
		if e, err := st.QueueEntry(t.Context(), id, time.Now()); err != nil || e.Delivered() {
			t.Errorf("the decoy's envelope %s: %+v, %v; want waiting", id, e, err)
		}
	}
	t.Logf("envelopes taken: %d for the node, %d for the decoy", len(obs[host].ids), len(obs[decoy].ids))
}
