package relayserver_test

import (
	"bytes"
	"crypto/subtle"
	"encoding/base64"
	"io"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/mail/demobox"
	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
	"mailnode/relay/relaystore/pgtest"
)

// clock is the relay's clock in these tests, moved by hand.
type clock struct {
	mu sync.Mutex // guards t
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// registrar is a relay that mails codes to a demo SMTP server, on a clock
// the test moves.
type registrar struct {
	clock *clock
	smtp  *demobox.SMTPServer
	url   string
	hs    *httptest.Server
}

func newRegistrar(t *testing.T, store string) *registrar {
	t.Helper()
	return newRegistrarLimits(t, store, relayserver.Limits{})
}

// newRegistrarLimits is newRegistrar with the relay's limits lim.
func newRegistrarLimits(t *testing.T, store string, lim relayserver.Limits) *registrar {
	t.Helper()
	sm, err := demobox.StartSMTP(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sm.Close() })
	var st relaystore.Store
	if store == "postgres" {
		st, err = relaystore.OpenPostgres(t.Context(), pgtest.Need(t))
	} else {
		st, err = relaystore.OpenSQLite(t.Context(), t.TempDir())
	}
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Now()}
	srv, err := relayserver.New(t.Context(), relayserver.Config{Zone: "relay.example", Store: st, Now: c.Now, Limits: lim,
		Mailer: &relayserver.SMTPMailer{Addr: sm.Addr, Username: demobox.Username, Password: demobox.Password,
			Sender: "relay@relay.example", TLS: sm.ClientTLS()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { hs.Close(); srv.Close(); st.Close() })
	return &registrar{clock: c, smtp: sm, url: hs.URL, hs: hs}
}

// node is a key asking the relay, signing on the relay's clock.
func (r *registrar) node(t *testing.T) (*relayclient.API, relayclient.Keys) {
	k, err := relayclient.NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	return &relayclient.API{BaseURL: r.url, Key: k.Node, HTTP: r.hs.Client(), Now: r.clock.Now}, k
}

// mailedCode is what the owner's node does: the candidates in the mails
// naming p's code, kept only if their hash is the one the relay gave.
func (r *registrar) mailedCode(t *testing.T, p relay.RegisterPending) string {
	t.Helper()
	want, _ := base64.RawURLEncoding.DecodeString(p.CodeHash)
	for _, d := range r.smtp.Delivered() {
		m, err := mail.ReadMessage(bytes.NewReader(d.Data))
		if err != nil || !strings.HasSuffix(m.Header.Get("Subject"), p.CodeID) {
			continue
		}
		text, _ := io.ReadAll(m.Body)
		for _, c := range relayclient.CodesInMail(m.Header, string(text)) {
			if subtle.ConstantTimeCompare(relay.CodeHash(p.Address, c), want) == 1 {
				return c
			}
		}
	}
	t.Fatalf("no mail holds the code %s", p.CodeID)
	return ""
}

// TestRegisterStrangerDay (issue 40, item 4): a stranger asks for the
// owner's address once a minute for a day, and guesses codes. The relay
// mails at most six codes; the owner is never answered 429, registers,
// and after losing its key registers again with a new one (keeping its
// name), all while the stranger keeps asking. On SQLite and PostgreSQL
// (MAILNODE_TEST_POSTGRES=1).
func TestRegisterStrangerDay(t *testing.T) {
	for _, store := range []string{"sqlite", "postgres"} {
		t.Run(store, func(t *testing.T) { testRegisterStrangerDay(t, newRegistrar(t, store)) })
	}
}

func testRegisterStrangerDay(t *testing.T, r *registrar) {
	ctx := t.Context()
	const address = "owner@example.com"
	stranger, sk := r.node(t)
	var hostname string
	for minute := 1; minute <= 24*60; minute++ {
		r.clock.add(time.Minute)
		p, err := stranger.Register(ctx, address, sk.BoxPublic())
		if err != nil {
			t.Fatalf("minute %d: stranger's ask = %v, want 202", minute, err)
		}
		switch minute {
		case 61, 300: // the owner registers; at 300 after losing its key
			owner, ok := r.node(t)
			op, err := owner.Register(ctx, address, ok.BoxPublic())
			if err != nil {
				t.Fatalf("minute %d: owner's register = %v, want 202", minute, err)
			}
			if op.CodeID != p.CodeID {
				t.Fatalf("minute %d: owner told code %s, stranger %s: want the one live code", minute, op.CodeID, p.CodeID)
			}
			st, err := owner.Confirm(ctx, address, r.mailedCode(t, op))
			if err != nil {
				t.Fatalf("minute %d: owner's confirm = %v", minute, err)
			}
			if hostname != "" && st.Hostname != hostname {
				t.Fatalf("minute %d: registered again as %s, want the name kept, %s", minute, st.Hostname, hostname)
			}
			hostname = st.Hostname
		case 120: // the stranger guesses: its tries end, the code lives on
			for i := range 7 {
				_, err := stranger.Confirm(ctx, address, "AAAAA-AAAAA-AAAAA-AAAAA-AAAA"+string(rune('A'+i)))
				if !relayclient.IsCode(err, "wrong_code") {
					t.Fatalf("stranger's guess %d = %v, want wrong_code", i, err)
				}
			}
			// Asking again does not give it more tries at the same code.
			stranger.Register(ctx, address, sk.BoxPublic())
			if _, err := stranger.Confirm(ctx, address, r.mailedCode(t, p)); !relayclient.IsCode(err, "wrong_code") {
				t.Fatalf("stranger's right code after five wrong ones = %v, want wrong_code", err)
			}
		}
	}
	mails := len(r.smtp.Delivered())
	if mails > 6 || mails < 5 {
		t.Fatalf("the relay mailed %d codes to the address in a day, want at most 6 (one a code's life of 4 h)", mails)
	}
	t.Logf("%d code mails in 24 h of a stranger asking once a minute", mails)
}

// TestRegisterMailFails: a code whose mail the submission server refused
// is taken back: the next request mails a new one at once instead of
// leaving a code nobody got live for hours.
func TestRegisterMailFails(t *testing.T) {
	r := newRegistrar(t, "sqlite")
	ctx := t.Context()
	api, k := r.node(t)
	r.smtp.RefuseNext(550, "mailbox unavailable")
	if _, err := api.Register(ctx, "owner@example.com", k.BoxPublic()); !relayclient.IsCode(err, "mail_failed") {
		t.Fatalf("register with the mail refused = %v, want mail_failed", err)
	}
	r.clock.add(time.Second)
	p, err := api.Register(ctx, "owner@example.com", k.BoxPublic())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.Confirm(ctx, "owner@example.com", r.mailedCode(t, p)); err != nil {
		t.Fatalf("confirm with the code mailed on the second ask = %v", err)
	}
	if n := len(r.smtp.Delivered()); n != 1 {
		t.Fatalf("%d mails delivered, want 1", n)
	}
}
