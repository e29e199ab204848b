package relayserver

import (
	"bytes"
	"context"
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"mailnode/mail/mtatest"
)

// TestSMTPMailerPostfix: the relay's mailer submits a code mail to
// Debian's Postfix (STARTTLS, and TLS from the first byte; AUTH PLAIN
// checked by Dovecot), which delivers it by LMTP into Dovecot, where it is
// read over IMAP: it arrives as codeMessage wrote it, with only the
// servers' trace headers above. Runs as root (Postfix's master must);
// make test requires it (MAILNODE_TEST_POSTFIX=1).
func TestSMTPMailerPostfix(t *testing.T) {
	p := mtatest.New(t)
	imapc := p.IMAP.Dial(t)
	if _, err := imapc.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ security, addr string }{
		{"starttls", p.Submission},
		{"tls", p.Submissions},
	} {
		t.Run(tc.security, func(t *testing.T) {
			m := &SMTPMailer{Addr: tc.addr, Security: tc.security, Username: p.Username, Password: p.Password,
				Sender: p.Sender, TLS: p.TLS}
			cm := CodeMail{ID: "postfix" + tc.security, Code: "ABCDE-FGHIJ-KLMNO-PQRST-UVWX2",
				Expires: time.Now().Add(4 * time.Hour)}
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			if err := m.SendCode(ctx, p.Mailbox, cm); err != nil {
				t.Fatalf("SendCode through Postfix: %v\n%s", err, p.Log())
			}
			got := delivered(t, imapc, cm.ID, p)
			from := bytes.Index(got, []byte("From: mailnode relay <"))
			if from < 0 {
				t.Fatalf("delivered mail has no From of the relay's:\n%s", got)
			}
			// Above the relay's headers: only the trace the servers add,
			// which shows Postfix took it over TLS after AUTH (ESMTPSA).
			trace := string(got[:from])
			for _, line := range strings.Split(strings.TrimSuffix(trace, "\r\n"), "\r\n") {
				name, _, _ := strings.Cut(line, ":")
				if line[0] != ' ' && line[0] != '\t' && name != "Return-Path" && name != "Delivered-To" && name != "Received" {
					t.Errorf("the servers added %q above the relay's headers", line)
				}
			}
			if !strings.Contains(trace, "(Postfix) with ESMTPSA") {
				t.Errorf("Postfix's Received header does not say TLS and AUTH (ESMTPSA):\n%s", trace)
			}
			body := got[from:]
			date, err := time.Parse(time.RFC1123Z, headerValue(body, "Date"))
			if err != nil {
				t.Fatalf("delivered Date: %v\n%s", err, body)
			}
			want := codeMessage(p.Sender, p.Mailbox, cm, date)
			// Message-ID is random: take the delivered one.
			want = bytes.Replace(want, []byte(headerValue(want, "Message-ID")), []byte(headerValue(body, "Message-ID")), 1)
			if !bytes.Equal(body, want) {
				t.Errorf("delivered code mail differs from what the relay wrote:\n got: %q\nwant: %q", body, want)
			}
		})
	}

	// Refusals: each says what the server refused, in words an operator
	// can act on, and none carries the password. The failed login comes
	// last: Dovecot delays every later login from the address that failed
	// (its auth penalty).
	for _, tc := range []struct {
		name       string
		passwd     string
		sender, to string
		tls        *tls.Config
		wantErr    []string
	}{
		{name: "recipient at a domain the server does not relay to", to: "someone@elsewhere.test",
			wantErr: []string{"refused the recipient someone@elsewhere.test", "Relay access denied"}},
		{name: "recipient unknown at the server's domain", to: "nobody@" + mtatest.Domain,
			wantErr: []string{"refused the recipient nobody@" + mtatest.Domain, "User unknown"}},
		{name: "sender the login may not use", sender: "other@" + mtatest.Domain,
			wantErr: []string{"refused the sender other@" + mtatest.Domain, "not owned by user"}},
		{name: "certificate not trusted", tls: &tls.Config{ServerName: "127.0.0.1"},
			wantErr: []string{"starttls: ", "certificate"}},
		{name: "wrong password", passwd: "wrong-password-5b1f",
			wantErr: []string{`smtp login as "demo": authentication failed`, "535"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &SMTPMailer{Addr: p.Submission, Username: p.Username, Password: p.Password, Sender: p.Sender, TLS: p.TLS}
			to := p.Mailbox
			if tc.passwd != "" {
				m.Password = tc.passwd
			}
			if tc.sender != "" {
				m.Sender = tc.sender
			}
			if tc.to != "" {
				to = tc.to
			}
			if tc.tls != nil {
				m.TLS = tc.tls
			}
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			err := m.SendCode(ctx, to, CodeMail{ID: "refused", Code: "ABCDE-FGHIJ-KLMNO-PQRST-UVWX2", Expires: time.Now().Add(time.Hour)})
			if err == nil {
				t.Fatalf("SendCode = nil, want a refusal saying %q", tc.wantErr)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("SendCode = %v, want it to say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), m.Password) {
				t.Errorf("SendCode = %v: the error carries the password", err)
			}
		})
	}
	// None of the refused mails arrived.
	uids, err := imapc.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "refused"}}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(uids.AllUIDs()); n != 0 {
		t.Errorf("%d refused code mails were delivered", n)
	}
}

// delivered waits for the code mail whose subject ends in id and returns
// it as the IMAP server holds it.
func delivered(t *testing.T, c *imapclient.Client, id string, p *mtatest.Postfix) []byte {
	t.Helper()
	criteria := &imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: id}}}
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := c.UIDSearch(criteria, nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if uids := data.AllUIDs(); len(uids) > 0 {
			if len(uids) != 1 {
				t.Fatalf("%d mails with the subject's reference %s, want 1", len(uids), id)
			}
			msgs, err := c.Fetch(imap.UIDSetNum(uids[0]), &imap.FetchOptions{
				BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
			if err != nil || len(msgs) != 1 || len(msgs[0].BodySection) != 1 {
				t.Fatalf("fetch the delivered mail: %v (%d messages)", err, len(msgs))
			}
			return msgs[0].BodySection[0].Bytes
		}
		if time.Now().After(deadline) {
			t.Fatalf("the code mail %s did not reach Dovecot in 10 s; Postfix's log:\n%s", id, p.Log())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// headerValue is the value of a one-line header of a message.
func headerValue(msg []byte, name string) string {
	head, _, _ := bytes.Cut(msg, []byte("\r\n\r\n"))
	for _, line := range strings.Split(string(head), "\r\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}
