package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"

	"mailnode/relay"
	"mailnode/relay/connlimit/connlimittest"
	"mailnode/relay/relaylocal"
)

// TestDNSFloodBinary is the outside attack on the DNS over TCP, against
// the mailnode-relay binary with a descriptor limit of 300: 400 idle
// connections from one address are held at most 16 at a time while the
// TLS port and the DNS over TCP and UDP answer others and the relay
// spends next to no CPU; and 400 from 25 addresses, which do run it out
// of descriptors, do not make it spin (accept waits between tries, up
// to 1 s) nor end it, and once they leave it serves again.
func TestDNSFloodBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the relay")
	}
	connlimittest.NeedAddr(t, "127.0.0.2")
	dir := t.TempDir()
	bin := relayBinary(t)
	ca, certFile, keyFile := relayCert(t, dir)
	p := start(t, "/bin", "sh", "-c", `ulimit -n 300 && exec "$@"`, "sh", filepath.Join(bin, "mailnode-relay"),
		"serve", "--data-dir", filepath.Join(dir, "relay"), "--zone", relaylocal.Zone, "--public-ip", "192.0.2.7",
		"--listen", "127.0.0.1:0", "--dns-listen", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile)
	tlsAddr := p.await(t, `service=tls addr=(\S+)`, 20*time.Second)
	dnsAddr := p.await(t, `service=dns addr=(\S+)`, 5*time.Second)
	pid := p.cmd.Process.Pid

	health := func() error {
		c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true, TLSClientConfig: ca.ClientTLS(),
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, tlsAddr)
			}}}
		resp, err := c.Get("https://" + relaylocal.Zone + relay.PathHealth)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("health: %s", resp.Status)
		}
		return nil
	}
	ask := func(network string) error {
		m := new(dns.Msg)
		m.SetQuestion("abcdefghijklmnop."+relaylocal.Zone+".", dns.TypeA)
		in, _, err := (&dns.Client{Net: network, Timeout: 3 * time.Second}).Exchange(m, dnsAddr)
		if err == nil && len(in.Answer) != 1 {
			err = fmt.Errorf("answer %v", in)
		}
		return err
	}
	// flood opens n connections to the DNS over TCP from the addresses
	// in from, in turn, leaves them a second, and reports how many the
	// relay still holds and the CPU time it spent over that second.
	flood := func(from []string, n int) (conns []net.Conn, held int, cpu time.Duration) {
		before := cpuTime(t, pid)
		for i := range n {
			c, err := connlimittest.Dialer(from[i%len(from)]).Dial("tcp", dnsAddr)
			if err != nil {
				t.Fatalf("connection %d: %v", i+1, err)
			}
			conns = append(conns, c)
		}
		time.Sleep(time.Second)
		cpu = cpuTime(t, pid) - before
		// A close the relay sent has arrived by now; a deadline that has
		// passed would hide it. On a loaded machine a connection may
		// still wait in the listen backlog, which the relay has not
		// accepted (and so not yet closed): count again a little later
		// while more than the cap seem held.
		closed := make([]bool, len(conns))
		for range 10 {
			held = 0
			for i, c := range conns {
				if closed[i] {
					continue
				}
				c.SetReadDeadline(time.Now().Add(2 * time.Millisecond))
				if _, err := c.Read(make([]byte, 1)); os.IsTimeout(err) {
					held++
				} else {
					closed[i] = true
				}
			}
			if held <= 16 {
				break
			}
			time.Sleep(300 * time.Millisecond)
		}
		return conns, held, cpu
	}
	closeAll := func(conns []net.Conn) {
		for _, c := range conns {
			c.Close()
		}
	}

	conns, held, cpu := flood([]string{"127.0.0.2"}, 400)
	t.Logf("400 connections from 127.0.0.2: %d held, relay CPU %v over the flood", held, cpu)
	if held > 16 {
		t.Errorf("400 connections from 127.0.0.2: %d held, want at most 16", held)
	}
	if cpu > 500*time.Millisecond {
		t.Errorf("400 connections from 127.0.0.2: the relay spent %v of CPU, want next to none", cpu)
	}
	for _, network := range []string{"tcp", "udp"} {
		if err := ask(network); err != nil {
			t.Errorf("DNS over %s from 127.0.0.1 during the flood: %v", network, err)
		}
	}
	if err := health(); err != nil {
		t.Errorf("TLS port during the flood: %v", err)
	}
	closeAll(conns)

	var from []string
	for i := range 25 {
		from = append(from, "127.0.0."+strconv.Itoa(20+i))
	}
	conns, held, cpu = flood(from, 400)
	t.Logf("400 connections from 25 addresses with 300 descriptors: %d held, relay CPU %v over the flood", held, cpu)
	if cpu > 500*time.Millisecond {
		t.Errorf("out of descriptors: the relay spent %v of CPU in a second, want next to none (no accept loop spinning)", cpu)
	}
	closeAll(conns)
	if err := p.wait(time.Second); err == nil || !strings.Contains(err.Error(), "still running") {
		t.Fatalf("the relay ended after running out of descriptors: %v", err)
	}
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if err = health(); err == nil {
			if err = ask("tcp"); err == nil {
				break
			}
		}
	}
	if err != nil {
		t.Fatalf("the relay once the clients left: %v", err)
	}
}

// cpuTime is the user and system CPU time process pid has spent, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 10 ms).
func cpuTime(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("/proc/%d/stat: %q", pid, b)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
