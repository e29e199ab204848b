package imapsync

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/mail/credential"
)

type token string

func (f token) AccessToken(context.Context, bool) (credential.Secret, error) {
	return credential.Secret(f), nil
}

type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *lockedBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *lockedBuf) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// hostileAuthServer answers AUTHENTICATE with each of steps(tag) in one
// write, reading the client's next line between them. It counts
// AUTHENTICATEs.
func hostileAuthServer(t *testing.T, steps ...func(tag string) string) (string, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var auths atomic.Int32
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
						auths.Add(1)
						for i, step := range steps {
							if i > 0 {
								r.ReadString('\n')
							}
							c.Write([]byte(step(f[0])))
						}
					case "CAPABILITY":
						c.Write([]byte("* CAPABILITY IMAP4rev1 AUTH=XOAUTH2\r\n" + f[0] + " OK\r\n"))
					default:
						c.Write([]byte(f[0] + " BAD no\r\n"))
					}
				}
			}(c)
		}
	}()
	return ln.Addr().String(), &auths
}

const secretToken = "ya29.SECRET-ACCESS-TOKEN"

// tokenB64 is the start of XOAUTH2's initial response for secretToken,
// as a trace would show it.
var tokenB64 = base64.StdEncoding.EncodeToString([]byte("user=person@example.test\x01auth=Bearer " + secretToken + "\x01\x01"))[:20]

func hostileSyncer(t *testing.T, addr string, trace io.Writer, timeout time.Duration) *Syncer {
	t.Helper()
	s, err := New(Config{Account: "a", Address: addr, Security: Plain, Username: "person@example.test",
		OAuth: token(secretToken), Trace: trace, CommandTimeout: timeout}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// earlyCompletion is a server's "+" and its tagged completion in one write:
// go-imap v2.0.0-beta.8's Authenticate answers the "+" and then waits for
// a continuation request that never comes (attack 45, round 2, R2-1).
func earlyCompletion(tag string) string { return "+ \r\n" + tag + " NO [AUTHENTICATIONFAILED] no\r\n" }

// TestRunEndsDuringBrokenAuthenticate (R2-1): Run returns when its context
// ends, though go-imap's Authenticate is still waiting.
func TestRunEndsDuringBrokenAuthenticate(t *testing.T) {
	addr, _ := hostileAuthServer(t, earlyCompletion, func(string) string { return "" })
	trace := &lockedBuf{}
	s := hostileSyncer(t, addr, trace, time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, nil) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v, want nil after its context ended", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run still running 4 s after its context ended")
	}
	if strings.Contains(trace.String(), tokenB64) {
		t.Errorf("the token is in the trace:\n%.600s", trace.String())
	}
}

// TestBrokenAuthenticateBounded (R2-1): each broken exchange ends with the
// server's deadline, with a clear error, and after maxStuck of them the
// syncer stops signing in to that server, so the goroutines go-imap keeps
// waiting stay bounded.
func TestBrokenAuthenticateBounded(t *testing.T) {
	addr, auths := hostileAuthServer(t, earlyCompletion, func(string) string { return "" })
	s := hostileSyncer(t, addr, nil, 200*time.Millisecond)
	var errs []error
	for range maxStuck + 2 {
		start := time.Now()
		c, err := s.connect(t.Context(), nil)
		if err == nil {
			c.Close()
			t.Fatal("connect succeeded")
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("connect took %v", d)
		}
		errs = append(errs, err)
	}
	for i, err := range errs {
		// Some exchanges may end normally when the library's reader sees
		// the completion before the client registers its next wait (a
		// race inside go-imap): those are refusals, and count nothing.
		if !errors.Is(err, errStuck) && !strings.Contains(err.Error(), "AUTHENTICATIONFAILED") {
			t.Errorf("attempt %d: %v", i+1, err)
		}
	}
	if s.stuck.Load() == maxStuck && !strings.Contains(errs[len(errs)-1].Error(), "not signing in to it again") {
		// The last attempt was the exchange that reached maxStuck (some
		// before it ended normally, the race above): one attempt more is
		// the one the syncer must refuse without signing in.
		c, err := s.connect(t.Context(), nil)
		if err == nil {
			c.Close()
			t.Fatal("connect succeeded")
		}
		errs = append(errs, err)
	}
	stuck := 0
	for _, err := range errs {
		if errors.Is(err, errStuck) {
			stuck++
		}
	}
	if stuck == 0 {
		t.Fatalf("no exchange broke off: the server no longer shows the library's wait (%v)", errs)
	}
	t.Logf("%d of %d attempts broke off; %d exchanges left waiting", stuck, len(errs), s.stuck.Load())
	if got := s.stuck.Load(); got > maxStuck {
		t.Errorf("%d exchanges left waiting, want at most %d", got, maxStuck)
	}
	if s.stuck.Load() == maxStuck {
		last := errs[len(errs)-1]
		if !strings.Contains(last.Error(), "not signing in to it again") {
			t.Errorf("after %d broken exchanges: %v", maxStuck, last)
		}
		if n := auths.Load(); int(n) > 2*(maxStuck+2) {
			t.Errorf("the server saw %d AUTHENTICATEs", n)
		}
	}
}

// TestTraceDirections (R2-2): the trace keeps the client's and the
// server's lines apart, so a server's partial line never carries the
// client's token line out unredacted, and the redaction ends with the
// client's next command, not with a completion the server sent early.
func TestTraceDirections(t *testing.T) {
	type step struct {
		client bool
		data   string
	}
	tests := []struct {
		name  string
		steps []step
		want  string
	}{{
		name: "partial untagged line",
		steps: []step{
			{true, "T1 AUTHENTICATE XOAUTH2\r\n"},
			{false, "+ \r\n* "},
			{true, tokenB64 + "\r\n"},
			{false, "\r\nT1 NO [AUTHENTICATIONFAILED] no\r\n"},
			{true, "T2 CAPABILITY\r\n"},
		},
		want: "T1 AUTHENTICATE [redacted]\r\n+ \r\n[redacted]\r\n* \r\nT1 NO [AUTHENTICATIONFAILED] no\r\nT2 CAPABILITY\r\n",
	}, {
		name: "completion before the answer",
		steps: []step{
			{true, "T7 AUTHENTICATE XOAUTH2\r\n"},
			{false, "+ \r\nT7 NO [AUTHENTICATIONFAILED] no\r\n"},
			{true, tokenB64 + "\r\n"},
			{true, "T8 AUTHENTICATE XOAUTH2 " + tokenB64 + "\r\n"},
			{false, "T8 OK\r\n"},
			{true, "T9 SELECT INBOX\r\n"},
		},
		want: "T7 AUTHENTICATE [redacted]\r\n+ \r\nT7 NO [AUTHENTICATIONFAILED] no\r\n[redacted]\r\nT8 AUTHENTICATE [redacted]\r\nT8 OK\r\nT9 SELECT INBOX\r\n",
	}, {
		// A password goes as a literal when it has CR, LF or non-ASCII
		// characters, and a line of it may begin with the next tag
		// (attack 45, round 3, R3-2): a literal is skipped by its length.
		name: "login literals",
		steps: []step{
			{true, "T3 LOGIN {6}\r\n"},
			{false, "+ go on\r\n"},
			{true, "person {23}\r\n"},
			{false, "+ go on\r\n"},
			{true, "T4 geheim\r\nT4 Passwört\r\n"},
			{false, "T3 OK\r\n"},
			{true, "T4 NOOP\r\n"},
		},
		want: "T3 LOGIN [redacted]\r\n+ go on\r\n[redacted]\r\n+ go on\r\n[redacted]\r\nT3 OK\r\nT4 NOOP\r\n",
	}, {
		name: "a non-synchronising literal in pieces",
		steps: []step{
			{true, "T5 LOGIN person {7+}\r\n"},
			{true, "T6 s"},
			{true, "ecr\r\n"},
			{false, "T5 NO no\r\n"},
			{true, "T6 LOGOUT\r\n"},
		},
		want: "T5 LOGIN [redacted]\r\n[redacted]\r\nT5 NO no\r\nT6 LOGOUT\r\n",
	}, {
		name: "an unnumbered tag redacts to the end",
		steps: []step{
			{true, "a.b AUTHENTICATE PLAIN\r\n"},
			{true, "c2VjcmV0\r\n"},
			{true, "a.c NOOP\r\n"},
		},
		want: "a.b AUTHENTICATE [redacted]\r\n[redacted]\r\n[redacted]\r\n",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			w := &redactingWriter{w: &out}
			for _, st := range tc.steps {
				// As go-imap's Options.wrapReadWriter calls the writer.
				if st.client {
					io.MultiWriter(io.Discard, w).Write([]byte(st.data))
				} else {
					io.ReadAll(io.TeeReader(strings.NewReader(st.data), w))
				}
			}
			if out.String() != tc.want {
				t.Errorf("trace:\n%q\nwant:\n%q", out.String(), tc.want)
			}
		})
	}
}

// TestTracePartialUntagged (R2-2) is the attack's own server: "+ \r\n* "
// in one write, then the rest after the client's token line.
func TestTracePartialUntagged(t *testing.T) {
	addr, _ := hostileAuthServer(t,
		func(string) string { return "+ \r\n* " },
		func(tag string) string { return "\r\n" + tag + " NO [AUTHENTICATIONFAILED] no\r\n" })
	trace := &lockedBuf{}
	s := hostileSyncer(t, addr, trace, 500*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s.Run(ctx, nil)
	tr := trace.String()
	if strings.Contains(tr, tokenB64) || strings.Contains(tr, secretToken) {
		t.Errorf("the token is in the trace:\n%.600s", tr)
	}
	if !strings.Contains(tr, "\n[redacted]\r\n") || !strings.Contains(tr, "AUTHENTICATE [redacted]") {
		t.Errorf("the trace shows no redacted exchange:\n%.600s", tr)
	}
}

// TestTraceLiteralPassword (R3-2) is the attack's own server: a LOGIN
// whose password goes as a literal, a line of which begins with the next
// tag, is not in the trace.
func TestTraceLiteralPassword(t *testing.T) {
	for _, pw := range []string{"T2 geheim-Passwört", "x\r\nT2 geheim-rest"} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			r := bufio.NewReader(c)
			c.Write([]byte("* OK [CAPABILITY IMAP4rev1] hi\r\n"))
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if strings.HasSuffix(strings.TrimRight(line, "\r\n"), "}") {
					c.Write([]byte("+ go\r\n"))
					continue
				}
				if f := strings.Fields(line); len(f) > 0 {
					c.Write([]byte(f[0] + " NO [AUTHENTICATIONFAILED] no\r\n"))
				}
			}
		}()
		trace := &lockedBuf{}
		s, err := New(Config{Account: "a", Address: ln.Addr().String(), Security: Plain,
			Username: "person@example.test", Password: credential.Secret(pw), Trace: trace}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		s.Run(ctx, nil)
		cancel()
		ln.Close()
		if tr := trace.String(); strings.Contains(tr, "geheim") || !strings.Contains(tr, "LOGIN [redacted]") {
			t.Errorf("password %q: trace\n%s", pw, tr)
		}
	}
}

// TestTraceWithoutSASLIR (attack 45, F6): a server without SASL-IR has
// go-imap send AUTHENTICATE XOAUTH2's initial response, the bearer token
// in base64, on a line of its own after the server's "+". The trace
// ("login redacted") printed it; now every client line until its next
// command is redacted, and the server's lines stay.
func TestTraceWithoutSASLIR(t *testing.T) {
	addr, _ := hostileAuthServer(t,
		func(string) string { return "+ \r\n" },
		// The XOAUTH2 error challenge, then the refusal.
		func(string) string { return "+ eyJzdGF0dXMiOiI0MDEifQ==\r\n" },
		func(tag string) string { return tag + " NO [AUTHENTICATIONFAILED] no\r\n" })
	trace := &lockedBuf{}
	s := hostileSyncer(t, addr, trace, time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	s.Run(ctx, nil)
	tr := trace.String()
	if strings.Contains(tr, tokenB64) || strings.Contains(tr, secretToken) {
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
