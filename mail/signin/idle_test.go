package signin_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
	"mailnode/mail/oidctest"
	"mailnode/mail/signin"
	"mailnode/mail/store"
)

// renewals passes tokens through and records each renewal's time.
type renewals struct {
	*signin.Tokens
	mu    sync.Mutex
	times []time.Time
}

func (r *renewals) AccessToken(ctx context.Context, renew bool) (credential.Secret, error) {
	before := r.Tokens.Expiry()
	tok, err := r.Tokens.AccessToken(ctx, renew)
	if err == nil && !r.Tokens.Expiry().Equal(before) {
		r.mu.Lock()
		r.times = append(r.times, time.Now())
		r.mu.Unlock()
	}
	return tok, err
}

func (r *renewals) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.times)
}

// TestLongIdle: a node idling on a mailbox signed in with tokens that
// lapse every few seconds reconnects with a fresh token before each one
// lapses. The test ends the IMAP session at each lapse with doveadm kick,
// as Gmail and Microsoft end a session whose token expired (Dovecot never
// does so itself), checks that the node had already renewed its token,
// delivers mail while the node reconnects, and finds every message
// stored exactly once.
func TestLongIdle(t *testing.T) {
	// Long enough for a sign-in, a pass and Dovecot's 2-second penalty
	// after a refusal; short enough for several lapses in one test.
	const ttl = 10 * time.Second
	op := oidctest.Start(t, oidctest.Options{AccessTokenTTL: ttl})
	p := provider(t, op, oidctest.ClientID)
	o := signin.Options{HTTPClient: op.HTTPClient()}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	open, wait := browse(t, op, user, nil)
	g, err := signin.Browser(ctx, p, open, o)
	wait()
	if err != nil {
		t.Fatal(err)
	}
	tokens := &renewals{Tokens: g.Tokens(p, signin.TokensOptions{Options: o})}
	d := dovecot(t, op, "xoauth2 oauthbearer")

	delivered := 0
	deliver := func(t *testing.T) {
		// A connection of its own: a kick ends every session of the user.
		c := d.Dial(t)
		defer c.Close()
		msg := fmt.Sprintf("From: a@example.test\r\nTo: %s\r\nSubject: message %d\r\nMessage-ID: <%d.idle@test>\r\n\r\nBody %d.\r\n",
			user, delivered, delivered, delivered)
		cmd := c.Append("INBOX", int64(len(msg)), nil)
		cmd.Write([]byte(msg))
		cmd.Close()
		if _, err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
		delivered++
	}
	deliver(t)

	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := imapsync.New(imapsync.Config{Account: "oauth", Address: d.Addr, Security: imapsync.Plain,
		Username: g.Address, OAuth: tokens, MinTokenLife: 5 * time.Second}, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	var runErr error
	var runWG sync.WaitGroup
	runWG.Add(1)
	go func() { defer runWG.Done(); runErr = s.Run(runCtx, nil) }()
	defer func() { stop(); runWG.Wait() }()

	stored := func() []string {
		sums, err := st.Recent(ctx, 1000)
		if err != nil {
			t.Fatal(err)
		}
		var subjects []string
		for _, m := range sums {
			subjects = append(subjects, m.Subject)
		}
		slices.Sort(subjects)
		return subjects
	}
	until := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s after 30 s (stored: %q)\n%s", what, stored(), d.Log())
			}
		}
	}
	until("first pass", func() bool { return len(stored()) == 1 })

	for lapse := range 3 {
		// The token the session signed in with, and when it lapses.
		held := tokens.Expiry()
		before := tokens.count()
		time.Sleep(time.Until(held))
		if tokens.count() == before || !tokens.Expiry().After(held) {
			t.Fatalf("lapse %d: the token lapsed at %s and the node had not renewed it (renewals at %v)",
				lapse, held.Format("15:04:05.000"), tokens.times)
		}
		// The provider ends the session now, whichever the node is in.
		n, err := d.Kick(user)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Logf("lapse %d: no session to end (the node was reconnecting)", lapse)
		}
		// Mail arrives while the node reconnects, and while it idles.
		deliver(t)
		deliver(t)
		until(fmt.Sprintf("lapse %d: %d messages", lapse, delivered), func() bool { return len(stored()) == delivered })
	}
	stop()
	runWG.Wait()
	if runErr != nil {
		t.Errorf("Run() = %v, want nil after its context ended", runErr)
	}
	got := stored()
	var want []string
	for i := range delivered {
		want = append(want, fmt.Sprintf("message %d", i))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("stored %q, want each of %q once", got, want)
	}
}
