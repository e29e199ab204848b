package imapsync_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
)

type fixedToken string

func (f fixedToken) AccessToken(context.Context, bool) (credential.Secret, error) {
	return credential.Secret(f), nil
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestTraceWithoutSASLIR (attack 45, F6): a server without SASL-IR has
// go-imap send AUTHENTICATE XOAUTH2's initial response, the bearer token
// in base64, on a line of its own after the server's "+". The trace
// ("login redacted") printed it; now every client line until its next
// command is redacted, and the server's lines stay.
func TestTraceWithoutSASLIR(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				r := bufio.NewReader(c)
				c.Write([]byte("* OK [CAPABILITY IMAP4rev1 AUTH=XOAUTH2] hostile\r\n"))
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					f := strings.Fields(line)
					if len(f) < 2 {
						continue
					}
					switch strings.ToUpper(f[1]) {
					case "AUTHENTICATE":
						c.Write([]byte("+ \r\n"))
						r.ReadString('\n')
						// The XOAUTH2 error challenge, then the refusal.
						c.Write([]byte("+ eyJzdGF0dXMiOiI0MDEifQ==\r\n"))
						r.ReadString('\n')
						c.Write([]byte(f[0] + " NO [AUTHENTICATIONFAILED] no\r\n"))
					case "CAPABILITY":
						c.Write([]byte("* CAPABILITY IMAP4rev1 AUTH=XOAUTH2\r\n" + f[0] + " OK\r\n"))
					default:
						c.Write([]byte(f[0] + " BAD no\r\n"))
					}
				}
			}(c)
		}
	}()
	const token = "ya29.SECRET-ACCESS-TOKEN"
	trace := &syncBuf{}
	cfg := imapsync.Config{Account: "a", Address: ln.Addr().String(), Security: imapsync.Plain,
		Username: "person@example.test", OAuth: fixedToken(token), Trace: trace}
	s, err := imapsync.New(cfg, newStore(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	s.Run(ctx, nil)
	b64 := base64.StdEncoding.EncodeToString([]byte("user=person@example.test\x01auth=Bearer " + token + "\x01\x01"))
	tr := trace.String()
	if strings.Contains(tr, b64) || strings.Contains(tr, token) || strings.Contains(tr, b64[:20]) {
		t.Errorf("the token is in the trace:\n%.800s", tr)
	}
	for _, want := range []string{"AUTHENTICATE [redacted]", "\n[redacted]\r\n", "+ eyJzdGF0dXMiOiI0MDEifQ==", " NO [AUTHENTICATIONFAILED]"} {
		if !strings.Contains(tr, want) {
			t.Errorf("the trace has no %q:\n%.800s", want, tr)
		}
	}
	// The client's next command ends the redaction: the retry with a
	// renewed token shows as a command again.
	if !strings.Contains(tr, "T2 AUTHENTICATE [redacted]") {
		t.Errorf("the retry is not in the trace:\n%.800s", tr)
	}
}
