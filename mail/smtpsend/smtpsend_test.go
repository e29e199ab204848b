package smtpsend_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"mailnode/mail/credential"
	"mailnode/mail/demobox"
	"mailnode/mail/smtpsend"
)

// TestSend submits to go-smtp's server on loopback, over STARTTLS and
// over implicit TLS, and checks what the sender concludes for each way a
// submission can end.
func TestSend(t *testing.T) {
	srv, err := demobox.StartSMTP(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, tt := range []struct {
		name     string
		addr     string
		security smtpsend.Security
	}{
		{"starttls", srv.Addr, smtpsend.StartTLS},
		{"implicit tls", srv.TLSAddr, smtpsend.TLS},
	} {
		t.Run(tt.name, func(t *testing.T) {
			testSend(t, srv, smtpsend.Config{Address: tt.addr, Security: tt.security, Username: demobox.Username,
				Password: credential.Secret(demobox.Password), TLSConfig: srv.ClientTLS()})
		})
	}
}

func testSend(t *testing.T, srv *demobox.SMTPServer, cfg smtpsend.Config) {
	before := len(srv.Delivered())
	msg := []byte("From: a@example.org\r\nTo: b@example.com\r\nSubject: hi " + string(cfg.Security) + "\r\n\r\nhello\r\n")
	ctx := context.Background()
	send := func(c smtpsend.Config) smtpsend.Result {
		return smtpsend.Send(ctx, c, nil, "a@example.org", []string{"b@example.com", "c@example.net"}, msg)
	}

	if r := send(cfg); r.Outcome != smtpsend.Accepted {
		t.Fatalf("send: %+v", r)
	}
	got := srv.Delivered()[before:]
	if len(got) != 1 || !bytes.Equal(got[0].Data, msg) || len(got[0].To) != 2 || got[0].From != "a@example.org" {
		t.Fatalf("delivered: %+v", got)
	}

	srv.RefuseNext(554, "5.7.1 message refused")
	if r := send(cfg); r.Outcome != smtpsend.Refused || !strings.Contains(r.Detail, "554") {
		t.Fatalf("refused message: %+v", r)
	}
	srv.BreakAfterNextData()
	if r := send(cfg); r.Outcome != smtpsend.Unknown {
		t.Fatalf("connection dropped after the message: %+v", r)
	}

	bad := cfg
	bad.Password = "wrong-password"
	r := send(bad)
	if r.Outcome != smtpsend.Refused || strings.Contains(r.Detail, "wrong-password") {
		t.Fatalf("bad password: %+v", r)
	}
	untrusted := cfg
	untrusted.TLSConfig = nil
	if r := send(untrusted); r.Outcome != smtpsend.Refused {
		t.Fatalf("untrusted certificate: %+v", r)
	}
	// Plain to the STARTTLS port on loopback is allowed, but the server
	// offers AUTH only under TLS, so nothing is sent without it.
	plain := cfg
	plain.Address, plain.Security = srv.Addr, smtpsend.Plain
	if r := send(plain); r.Outcome != smtpsend.Refused || !strings.Contains(r.Detail, "AUTH") {
		t.Fatalf("plain without AUTH: %+v", r)
	}
	remote := cfg
	remote.Address, remote.Security = "smtp.example.com:25", smtpsend.Plain
	if r := send(remote); r.Outcome != smtpsend.Refused || !strings.Contains(r.Detail, "clear") {
		t.Fatalf("plain to a remote server: %+v", r)
	}
	if n := len(srv.Delivered()) - before; n != 2 {
		t.Fatalf("%d messages delivered, want 2 (the accepted one and the one whose answer was lost)", n)
	}
}
