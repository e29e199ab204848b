package mtatest

import (
	"bufio"
	"crypto/tls"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// TestPostfix: Postfix answers on both submission ports with its banner
// (the TLS one after a handshake that the harness's certificate passes),
// offers AUTH only after TLS; the processes Close looks for are there
// while it runs, and Close leaves none of them and no files.
func TestPostfix(t *testing.T) {
	p := New(t)
	c, err := tls.Dial("tcp", p.Submissions, p.TLS)
	if err != nil {
		t.Fatalf("TLS to the submissions port: %v\n%s", err, p.Log())
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if line, err := bufio.NewReader(c).ReadString('\n'); err != nil || !strings.HasPrefix(line, "220 ") {
		t.Errorf("submissions greeting = %q, %v; want 220", line, err)
	}
	c.Close()

	plain, err := net.DialTimeout("tcp", p.Submission, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	plain.SetDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(plain)
	r.ReadString('\n')
	plain.Write([]byte("EHLO client.example\r\n"))
	var ehlo []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("EHLO: %v", err)
		}
		ehlo = append(ehlo, strings.TrimSpace(line))
		if strings.HasPrefix(line, "250 ") {
			break
		}
	}
	plain.Close()
	if joined := strings.Join(ehlo, "\n"); !strings.Contains(joined, "STARTTLS") || strings.Contains(joined, "AUTH") {
		t.Errorf("EHLO before TLS = %q, want STARTTLS and no AUTH", joined)
	}

	running := p.processes()
	if len(running) < 3 { // at least master, qmgr, pickup
		t.Fatalf("processes() while running = %v, want master and its daemons", running)
	}
	dir := p.dir
	if err := p.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	if left := p.processes(); len(left) > 0 {
		t.Errorf("processes() after Close = %v, want none", left)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Postfix's directory after Close: %v, want removed", err)
	}
	p.cmd, p.dovecot, p.dir = nil, nil, "" // the test's cleanup has nothing left to close
}
