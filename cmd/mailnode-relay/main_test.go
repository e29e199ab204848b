package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"

	"mailnode/relay"
)

// TestServe runs `mailnode-relay serve` on loopback ports and checks its
// agent API over --http-listen and its zone over --dns-listen, and that
// it stops on cancel.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan [2]string, 4)
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- relayMain(ctx, []string{"serve", "--data-dir", t.TempDir(), "--zone", "relay.example",
			"--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--dns-listen", "127.0.0.1:0",
			"--public-ip", "192.0.2.7"}, io.Discard, &stderr, func(name, addr string) { addrs <- [2]string{name, addr} })
	}()
	got := map[string]string{}
	for len(got) < 3 {
		select {
		case a := <-addrs:
			got[a[0]] = a[1]
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s", err, stderr.String())
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not listen")
		}
	}
	base := "http://" + got["http"]
	resp, err := http.Post(base+relay.PathResolve, "application/json", strings.NewReader(`{"address":"ann@example.com"}`))
	if err != nil {
		t.Fatal(err)
	}
	var res relay.Resolution
	json.NewDecoder(resp.Body).Decode(&res)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasSuffix(res.Hostname, ".relay.example") || res.Relay != "relay.example" {
		t.Fatalf("resolve = %d %+v", resp.StatusCode, res)
	}
	resp, err = http.Get(base + relay.PathHealth)
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Status         string `json:"status"`
		NodesConnected *int   `json:"nodes_connected"`
	}
	json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if h.Status != "ok" || h.NodesConnected == nil || *h.NodesConnected != 0 {
		t.Fatalf("health = %+v", h)
	}
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(res.Hostname), dns.TypeA)
	in, err := dns.Exchange(m, got["dns"])
	if err != nil || len(in.Answer) != 1 || !in.Answer[0].(*dns.A).A.Equal(net.ParseIP("192.0.2.7")) {
		t.Fatalf("dns A = %v %v", in, err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v on cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on cancel")
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"frobnicate"}, {"serve"}, {"serve", "--data-dir", "x"}} {
		var stderr bytes.Buffer
		err := relayMain(context.Background(), args, io.Discard, &stderr, nil)
		if _, ok := err.(usageError); !ok {
			t.Errorf("relayMain(%q) = %v, want a usage error", args, err)
		}
	}
}

// TestSMTPSecurityFlag: --smtp-security plain is refused at start off
// loopback unless --allow-insecure, before the store is opened; allowed,
// the command goes on (here to fail on a data directory that is a file).
func TestSMTPSecurityFlag(t *testing.T) {
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		flags   []string
		refused string // the usage error's text; empty: not refused for SMTP
	}{
		{"plain off loopback", []string{"--smtp-server", "smtp.example.com:25", "--smtp-security", "plain"}, "refusing plain SMTP to smtp.example.com"},
		{"plain off loopback allowed", []string{"--smtp-server", "smtp.example.com:25", "--smtp-security", "plain", "--allow-insecure"}, ""},
		{"plain on loopback", []string{"--smtp-server", "127.0.0.1:25", "--smtp-security", "plain"}, ""},
		{"unknown security", []string{"--smtp-server", "smtp.example.com:587", "--smtp-security", "ssl"}, `SMTP security "ssl"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"serve", "--zone", "relay.test", "--data-dir", notADir, "--listen", "127.0.0.1:0"}, tc.flags...)
			err := relayMain(context.Background(), args, io.Discard, io.Discard, nil)
			_, usage := err.(usageError)
			switch {
			case tc.refused != "" && (!usage || !strings.Contains(err.Error(), tc.refused)):
				t.Errorf("relayMain(%q) = %v, want the usage error %q", args, err, tc.refused)
			case tc.refused == "" && (err == nil || usage):
				t.Errorf("relayMain(%q) = %v, want it past the SMTP check, failing on the data directory", args, err)
			}
		})
	}
}

func TestSenderInZone(t *testing.T) {
	for _, tc := range []struct {
		sender, zone string
		want         bool
	}{
		{"relay@relay.example.net", "relay.example.net", true},
		{"relay@Relay.Example.Net.", "relay.example.net.", true},
		{"relay@mail.relay.example.net", "relay.example.net", true},
		{"relay@example.net", "relay.example.net", false},
		{"relay@notrelay.example.net", "relay.example.net", false},
		{"relay@relay.example.net.evil", "relay.example.net", false},
	} {
		if got := senderInZone(tc.sender, tc.zone); got != tc.want {
			t.Errorf("senderInZone(%q, %q) = %v, want %v", tc.sender, tc.zone, got, tc.want)
		}
	}
}

// TestServeWarnsSenderInZone: serve warns at start when code mail would
// come from inside the relay's own zone (the default relay@ZONE), whose
// DNS publishes no SPF, DKIM or DMARC, and not for a sender outside it.
func TestServeWarnsSenderInZone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		warn  bool
	}{
		{"default sender", nil, true},
		{"sender in the zone", []string{"--smtp-from", "relay@relay.example"}, true},
		{"sender outside the zone", []string{"--smtp-from", "relay@example.net"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			listening := make(chan struct{}, 1)
			var stderr bytes.Buffer
			done := make(chan error, 1)
			args := append([]string{"serve", "--data-dir", t.TempDir(), "--zone", "relay.example",
				"--http-listen", "127.0.0.1:0", "--smtp-server", "127.0.0.1:2525", "--smtp-security", "plain"}, tc.flags...)
			go func() {
				done <- relayMain(ctx, args, io.Discard, &stderr, func(name, addr string) {
					select {
					case listening <- struct{}{}:
					default:
					}
				})
			}()
			select {
			case <-listening:
			case err := <-done:
				t.Fatalf("serve ended: %v\n%s", err, stderr.String())
			case <-time.After(10 * time.Second):
				t.Fatal("serve did not listen")
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("serve returned %v on cancel", err)
			}
			const warning = "The code mail's sender is inside the relay's own zone"
			if got := strings.Contains(stderr.String(), warning); got != tc.warn {
				t.Errorf("relayMain(%q): warned %v, want %v; log:\n%s", args, got, tc.warn, stderr.String())
			}
		})
	}
}
