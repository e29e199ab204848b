package oauthsasl_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"mailnode/mail/oauthsasl"
)

func TestChoose(t *testing.T) {
	for _, tt := range []struct {
		adv  []string
		want string
		ok   bool
	}{
		{[]string{"PLAIN", "LOGIN", "XOAUTH2", "OAUTHBEARER"}, "OAUTHBEARER", true},
		{[]string{"PLAIN", "xoauth2"}, "XOAUTH2", true},
		{[]string{"PLAIN", "LOGIN"}, "", false},
		{nil, "", false},
	} {
		got, ok := oauthsasl.Choose(tt.adv)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Choose(%q) = %q, %v, want %q, %v", tt.adv, got, ok, tt.want, tt.ok)
		}
	}
}

func TestInitialResponse(t *testing.T) {
	for _, tt := range []struct {
		mech, host string
		port       int
		want       string
	}{
		{oauthsasl.XOAuth2, "", 0, "user=a@example.com\x01auth=Bearer tok\x01\x01"},
		{oauthsasl.OAuthBearer, "imap.example.com", 993, "n,a=a@example.com,\x01host=imap.example.com\x01port=993\x01auth=Bearer tok\x01\x01"},
		{oauthsasl.OAuthBearer, "", 0, "n,a=a@example.com,\x01auth=Bearer tok\x01\x01"},
	} {
		c := oauthsasl.NewClient(tt.mech, "a@example.com", "tok", tt.host, tt.port)
		mech, ir, err := c.Start()
		if err != nil || mech != tt.mech || string(ir) != tt.want {
			t.Errorf("Start(%s) = %q, %q, %v, want %q", tt.mech, mech, ir, err, tt.want)
		}
		// A failure challenge is answered so the server can end the command.
		resp, err := c.Next([]byte(`{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}`))
		wantResp := "\x01"
		if tt.mech == oauthsasl.XOAuth2 {
			wantResp = ""
		}
		if err != nil || string(resp) != wantResp {
			t.Errorf("Next(%s) = %q, %v, want %q", tt.mech, resp, err, wantResp)
		}
		if f := c.Failure(); f == nil || f.Status != "401" || f.Scope != "https://mail.google.com/" {
			t.Errorf("Failure() = %+v", f)
		}
	}
}

func TestParseChallenge(t *testing.T) {
	for _, tt := range []struct{ in, status string }{
		{`{"status":"invalid_token","schemes":"bearer"}`, "invalid_token"},
		{`{"status":400}`, "400"},
		{`{}`, "none given"},
		{`not json`, "unreadable"},
		{`{"status":"a\u0000\u001b[31mb"}`, "a[31mb"},
		{strings.Repeat("x", 5000), "unreadable (5000 bytes)"},
	} {
		if got := oauthsasl.ParseChallenge([]byte(tt.in)); got.Status != tt.status {
			t.Errorf("ParseChallenge(%.40q).Status = %q, want %q", tt.in, got.Status, tt.status)
		}
	}
}

func TestXOAuth2Server(t *testing.T) {
	good := errors.New("refused")
	auth := func(user, token string) error {
		if user == "a@example.com" && token == "tok" {
			return nil
		}
		return good
	}
	// Accepted at once.
	s := oauthsasl.NewXOAuth2Server(auth)
	if ch, done, err := s.Next([]byte("user=a@example.com\x01auth=Bearer tok\x01\x01")); err != nil || !done || ch != nil {
		t.Errorf("Next(good) = %q, %v, %v", ch, done, err)
	}
	// Refused: an error challenge, then the failure after the client's empty answer.
	s = oauthsasl.NewXOAuth2Server(auth)
	ch, done, err := s.Next([]byte("user=a@example.com\x01auth=Bearer old\x01\x01"))
	if err != nil || done || !strings.Contains(string(ch), `"401"`) {
		t.Fatalf("Next(bad) = %q, %v, %v", ch, done, err)
	}
	if _, done, err := s.Next([]byte{}); !done || !errors.Is(err, good) {
		t.Errorf("Next(answer) = %v, %v, want done, %v", done, err, good)
	}
	for _, bad := range []string{"", "user=a\x01\x01", "user=a\x01auth=Basic x\x01\x01", "auth=Bearer t\x01\x01", "user=a\x01auth=Bearer t"} {
		if _, _, err := oauthsasl.ParseXOAuth2([]byte(bad)); err == nil {
			t.Errorf("ParseXOAuth2(%q) = nil error", bad)
		}
	}
}

// FuzzParseChallenge: a server's challenge is untrusted; whatever it
// sends gives a bounded, printable ServerError.
func FuzzParseChallenge(f *testing.F) {
	f.Add([]byte(`{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}`))
	f.Add([]byte(`{"status":400,"scope":["a"]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		e := oauthsasl.ParseChallenge(b)
		for _, s := range []string{e.Status, e.Schemes, e.Scope} {
			if len([]rune(s)) > 200 {
				t.Fatalf("field of %d runes", len([]rune(s)))
			}
			for _, r := range s {
				if !unicode.IsPrint(r) {
					t.Fatalf("unprintable %q in %q", r, s)
				}
			}
		}
		if e.Status == "" {
			t.Fatal("empty status")
		}
	})
}

// FuzzParseXOAuth2: what a client sends the test's SMTP server.
func FuzzParseXOAuth2(f *testing.F) {
	f.Add([]byte("user=a@example.com\x01auth=Bearer tok\x01\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		user, token, err := oauthsasl.ParseXOAuth2(b)
		if err == nil && (user == "" || token == "") {
			t.Fatalf("accepted %q with user %q token %q", b, user, token)
		}
	})
}
