package imapsync_test

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
)

// silentServer accepts connections and plays script on each: for every
// line the client sends, the next answer (with the client's tag for
// "{tag}"); once the script runs out it reads on and never answers.
// greeting "" sends no greeting at all.
func silentServer(t *testing.T, greeting string, script ...string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if greeting != "" {
					c.Write([]byte(greeting + "\r\n"))
				}
				r := bufio.NewReader(c)
				for i := 0; ; i++ {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if i < len(script) {
						tag, _, _ := strings.Cut(line, " ")
						c.Write([]byte(strings.ReplaceAll(script[i], "{tag}", tag) + "\r\n"))
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// TestServerThatNeverAnswers (hardening item 11): a server that accepts
// TCP and then stays silent, at any step, fails the sync within the
// command timeout with a clear error, instead of hanging it.
func TestServerThatNeverAnswers(t *testing.T) {
	const timeout = 300 * time.Millisecond
	for _, tc := range []struct {
		name     string
		security imapsync.Security
		addr     string
		want     string
	}{
		{"TLS handshake", imapsync.TLS, silentServer(t, ""), "did not answer"},
		{"greeting", imapsync.Plain, silentServer(t, ""), "did not answer"},
		{"login", imapsync.Plain, silentServer(t, "* OK IMAP4rev1 ready"), "did not answer"},
		{"first command after login", imapsync.Plain, silentServer(t, "* OK [CAPABILITY IMAP4rev1] ready", "{tag} OK [CAPABILITY IMAP4rev1] logged in"), "did not answer"},
		{"STARTTLS", imapsync.StartTLS, silentServer(t, "* OK [CAPABILITY IMAP4rev1 STARTTLS] ready"), "did not answer"},
		{"TLS to a plain server", imapsync.TLS, silentServer(t, "* OK IMAP4rev1 ready"), "--imap-security starttls"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := imapsync.Config{Account: "a", Address: tc.addr, Security: tc.security, Username: "u",
				Password: credential.Secret("pw-secret-1"), CommandTimeout: timeout}
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := newSyncer(t, cfg, newStore(t)).Sync(ctx)
			took := time.Since(start)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Sync = %v, want an error saying %q", err, tc.want)
			}
			if took > 10*timeout || ctx.Err() != nil {
				t.Errorf("Sync took %v with a %v command timeout", took, timeout)
			}
			if strings.Contains(err.Error(), "pw-secret-1") {
				t.Errorf("the password is in the error: %v", err)
			}
		})
	}
}

// TestSilentServerOneDeadline (issue 40 item 12): a server that accepts
// TCP and never says a word fails the sync with one clear error when the
// one answer deadline (CommandTimeout) has passed, in every security mode,
// and so does one that falls silent after its greeting or after login:
// not one deadline per read the IMAP library retries (four of them before
// the fix: 4 min with the default 60 s).
func TestSilentServerOneDeadline(t *testing.T) {
	const timeout = time.Second
	for _, tc := range []struct {
		name     string
		security imapsync.Security
		addr     string
		// connecting: the silence falls while connecting, whose error
		// wraps ErrNoAnswer; later ones carry go-imap's text around it.
		connecting bool
	}{
		{"plain", imapsync.Plain, silentServer(t, ""), true},
		{"starttls", imapsync.StartTLS, silentServer(t, ""), true},
		{"tls", imapsync.TLS, silentServer(t, ""), true},
		{"plain, silent after the greeting", imapsync.Plain, silentServer(t, "* OK IMAP4rev1 ready"), true},
		{"plain, silent after login", imapsync.Plain, silentServer(t, "* OK [CAPABILITY IMAP4rev1] ready", "{tag} OK [CAPABILITY IMAP4rev1] logged in"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := imapsync.Config{Account: "a", Address: tc.addr, Security: tc.security, Username: "u",
				Password: credential.Secret("pw-secret-1"), CommandTimeout: timeout}
			s := newSyncer(t, cfg, newStore(t))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			start := time.Now()
			_, err := s.Sync(ctx)
			took := time.Since(start)
			// The deadline, not before it, and not a second one after
			// it (the rest is scheduling, under -race on a busy machine).
			if took < timeout || took >= 2*timeout {
				t.Errorf("Sync failed after %v, want one %v deadline", took.Round(time.Millisecond), timeout)
			}
			if err == nil || !strings.Contains(err.Error(), "did not answer in time (1s)") || (tc.connecting && !errors.Is(err, imapsync.ErrNoAnswer)) {
				t.Errorf("Sync = %v, want ErrNoAnswer saying the deadline", err)
			}
			if err != nil && strings.Contains(err.Error(), "pw-secret-1") {
				t.Errorf("the password is in the error: %v", err)
			}
		})
	}
}
