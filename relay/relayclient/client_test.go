package relayclient_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/mail"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/mail/demobox"
	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
)

// smtpCodes reads the candidate codes out of what the SMTP server
// delivered: the relay's mail, as the node would find it in its mailbox.
type smtpCodes struct{ s *demobox.SMTPServer }

func (c smtpCodes) RelayCodes(ctx context.Context, p relay.RegisterPending) ([]string, error) {
	var out []string
	for _, d := range c.s.Delivered() {
		m, err := mail.ReadMessage(bytes.NewReader(d.Data))
		if err != nil {
			continue
		}
		if !strings.Contains(m.Header.Get("Subject"), p.CodeID) {
			continue
		}
		text, _ := io.ReadAll(m.Body)
		out = append(out, relayclient.CodesInMail(m.Header, string(text))...)
	}
	return out, nil
}

type fixture struct {
	relay *relaylocal.Relay
	smtp  *demobox.SMTPServer
}

func start(t *testing.T) *fixture {
	t.Helper()
	sm, err := demobox.StartSMTP(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sm.Close() })
	tlsc := sm.ClientTLS()
	r, err := relaylocal.Start(t.Context(), relaylocal.Options{
		DataDir: t.TempDir(),
		Mailer: &relayserver.SMTPMailer{Addr: sm.Addr, Username: demobox.Username, Password: demobox.Password,
			Sender: "relay@relay.test", TLS: tlsc},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return &fixture{relay: r, smtp: sm}
}

// run starts a client for alex@example.com at the fixture's relay until
// the test ends; statuses hears every change of its status.
func (f *fixture) run(t *testing.T, ln *relayclient.Listener, keysFile string, certs relayclient.Certificates) (c *relayclient.Client, statuses chan relayclient.Status) {
	t.Helper()
	statuses = make(chan relayclient.Status, 100)
	c, err := relayclient.New(relayclient.Config{
		RelayURL: f.relay.URL, Address: "Alex@Example.com ", KeysFile: keysFile,
		Codes: smtpCodes{f.smtp}, Listener: ln, HTTP: f.relay.HTTPClient(), TLS: f.relay.CA.ClientTLS(), Dial: f.relay.Dial,
		CodePoll: 50 * time.Millisecond, Certificates: certs,
		OnStatus: func(s relayclient.Status) { statuses <- s },
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return c, statuses
}

// TestRegisterTunnel registers a node by mail, brings its tunnel up and
// has an agent reach the node's HTTPS through the relay: resolve, DNS,
// SNI, tunnel.
func TestRegisterTunnel(t *testing.T) {
	f := start(t)
	nodeCA, err := relaylocal.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	ln := relayclient.NewListener()
	c, statuses := f.run(t, ln, filepath.Join(t.TempDir(), "relay-keys.json"), nil)

	var hostname string
	for hostname == "" {
		select {
		case s := <-statuses:
			if s.State == "connected" {
				hostname = s.Hostname
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("tunnel not up; status %+v", c.Status())
		}
	}

	// The node serves HTTPS for its relay name on the tunnel's streams.
	cert, err := nodeCA.Issue(hostname)
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "node says hello to "+r.Host)
	}), TLSConfig: &tls.Config{Certificates: []tls.Certificate{*cert}}}
	go hs.ServeTLS(ln.View(), "", "")
	defer hs.Close()

	// The agent resolves the address and connects by name.
	res := resolve(t, f.relay, "alex@example.com")
	if res.Hostname != hostname {
		t.Fatalf("resolve = %q, want the node's %q", res.Hostname, hostname)
	}
	agent := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: f.relay.Dial, TLSClientConfig: nodeCA.ClientTLS()}}
	resp, err := agent.Get("https://" + hostname + "/")
	if err != nil {
		t.Fatalf("agent through relay: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "node says hello to "+hostname {
		t.Fatalf("agent got %q", body)
	}
	if n := f.relay.Server.ConnectedNodes(); n != 1 {
		t.Fatalf("ConnectedNodes() = %d, want 1", n)
	}
}

func resolve(t *testing.T, r *relaylocal.Relay, address string) relay.Resolution {
	t.Helper()
	resp, err := r.HTTPClient().Post(r.URL+relay.PathResolve, "application/json", bytes.NewReader([]byte(`{"address":"`+address+`"}`)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res relay.Resolution
	if resp.StatusCode != 200 {
		t.Fatalf("resolve: %s", resp.Status)
	}
	json.NewDecoder(resp.Body).Decode(&res)
	return res
}

// TestTunnelFallbackByOtherName brings the tunnel up at another
// instance's address, named otherwise than the relay (as a deployment
// names its instances r2.relay.example.net): the tunnel's TLS name is the
// relay's own, for which the instance holds the certificate, not the
// dialled host, which the relay would take for a node's name and hold.
func TestTunnelFallbackByOtherName(t *testing.T) {
	sm, err := demobox.StartSMTP(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sm.Close() })
	r, err := relaylocal.Start(t.Context(), relaylocal.Options{
		DataDir: t.TempDir(),
		Mailer: &relayserver.SMTPMailer{Addr: sm.Addr, Username: demobox.Username, Password: demobox.Password,
			Sender: "relay@relay.test", TLS: sm.ClientTLS()},
		OtherTunnels: []string{"r2." + relaylocal.Zone + ":443"},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	f := &fixture{relay: r, smtp: sm}
	// The first instance is gone: only the other's name answers.
	_, port, _ := strings.Cut(r.Addr, ":")
	primary := relaylocal.Zone + ":" + port
	var dialled []string
	var mu sync.Mutex
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		dialled = append(dialled, addr)
		mu.Unlock()
		if addr == primary {
			return nil, errors.New("instance down")
		}
		return r.Dial(ctx, network, addr)
	}
	statuses := make(chan relayclient.Status, 100)
	c, err := relayclient.New(relayclient.Config{
		RelayURL: r.URL, Address: "alex@example.com", KeysFile: filepath.Join(t.TempDir(), "keys.json"),
		Codes: smtpCodes{f.smtp}, Listener: relayclient.NewListener(), HTTP: r.HTTPClient(), TLS: r.CA.ClientTLS(), Dial: dial,
		CodePoll: 50 * time.Millisecond, OnStatus: func(s relayclient.Status) { statuses <- s },
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer func() { cancel(); <-done }()
	for {
		select {
		case s := <-statuses:
			if s.State == "connected" {
				mu.Lock()
				defer mu.Unlock()
				if !slices.Contains(dialled, "r2."+relaylocal.Zone+":443") {
					t.Fatalf("connected without dialling the other instance: %q", dialled)
				}
				return
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no tunnel through the other instance; status %+v, dialled %q", c.Status(), dialled)
		}
	}
}
