package msgauth_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

func TestAuthenticationResults(t *testing.T) {
	const provider = "mx.provider.example"
	tests := []struct {
		name    string
		from    string
		fields  []string
		want    bool
		method  string
		servIDs []string
	}{
		{"dmarc pass", "bills@vattenfall.de", []string{provider + "; dkim=pass header.d=vattenfall.de; dmarc=pass header.from=vattenfall.de"}, true, "dmarc", nil},
		{"aligned dkim on a subdomain", "info@service-mail.zalando.de", []string{provider + "; dkim=pass header.d=zalando.de"}, true, "dkim", nil},
		{"dkim of another domain", "bills@vattenfall.de", []string{provider + "; dkim=pass header.d=mailer.example"}, false, "", nil},
		{"dmarc fail", "bills@vattenfall.de", []string{provider + "; dkim=fail header.d=vattenfall.de; dmarc=fail header.from=vattenfall.de"}, false, "", nil},
		{"another authserv-id", "bills@vattenfall.de", []string{"mx.attacker.example; dmarc=pass header.from=vattenfall.de"}, false, "", nil},
		// The sender planted a passing field under the provider's name; the
		// provider's own field, on top, says fail. Only the top one counts.
		{"forged field below the provider's", "bills@vattenfall.de", []string{
			provider + "; dmarc=fail header.from=vattenfall.de",
			provider + "; dmarc=pass header.from=vattenfall.de",
		}, false, "", nil},
		{"no provider configured", "bills@vattenfall.de", []string{provider + "; dmarc=pass header.from=vattenfall.de"}, false, "", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ids := []string{provider}
			if tt.servIDs != nil {
				ids = tt.servIDs
			}
			m := &mime.Message{From: []mime.Address{{Address: tt.from}}, AuthResults: tt.fields}
			got := msgauth.Checker{AuthServIDs: ids}.Check(m, nil)
			if got.Authenticated != tt.want || got.Method != tt.method {
				t.Errorf("Auth = %+v, want authenticated %v by %q", got, tt.want, tt.method)
			}
		})
	}
}

// TestNodeDKIM signs a message with a fresh key and verifies it through a
// LookupTXT that serves the key from a map: the DNS seam that keeps the
// test offline.
func TestNodeDKIM(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	msg := "From: Billing <billing@energy.example>\r\nTo: alex@example.net\r\nSubject: Your invoice\r\nDate: Mon, 16 Nov 2026 09:00:00 +0100\r\n\r\nInvoice number: R-1\r\nAmount due: 10,00 EUR\r\nDue date: 30.11.2026\r\n"
	var signed bytes.Buffer
	if err := dkim.Sign(&signed, strings.NewReader(msg), &dkim.SignOptions{Domain: "energy.example", Selector: "s1", Signer: priv}); err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	lookup := func(name string) ([]string, error) {
		if name == "s1._domainkey.energy.example" {
			return []string{record}, nil
		}
		return nil, errors.New("no such record")
	}
	raw := signed.Bytes()
	got := msgauth.Checker{LookupTXT: lookup}.Check(mime.Parse(raw), raw)
	if !got.Authenticated || got.Method != msgauth.DKIMNode {
		t.Errorf("signed message: Auth = %+v, want authenticated by the node's DKIM check", got)
	}

	tampered := bytes.Replace(raw, []byte("10,00"), []byte("99,00"), 1)
	if got := (msgauth.Checker{LookupTXT: lookup}).Check(mime.Parse(tampered), tampered); got.Authenticated {
		t.Errorf("tampered message: Auth = %+v, want not authenticated", got)
	}
}

// TestFailedVerdict: a fail in the provider's own topmost field marks a
// From as likely forged (the ninth outside review, H1: the facts store
// keeps such mail apart from everything that passed and from the person's
// own Sent copies); a field that says nothing, or another server's, does not.
func TestFailedVerdict(t *testing.T) {
	const provider = "mx.provider.example"
	for _, tt := range []struct {
		name   string
		fields []string
		want   bool
	}{
		{"dmarc fail", []string{provider + "; dkim=none; spf=fail smtp.mailfrom=demo-mail.example; dmarc=fail header.from=demo-mail.example"}, true},
		{"spf fail alone", []string{provider + "; spf=fail smtp.mailfrom=demo-mail.example"}, true},
		{"dkim fail alone", []string{provider + "; dkim=fail header.d=demo-mail.example"}, true},
		{"pass", []string{provider + "; dkim=pass header.d=demo-mail.example; spf=fail smtp.mailfrom=demo-mail.example; dmarc=pass header.from=demo-mail.example"}, false},
		{"none", []string{provider + "; dkim=none; spf=none; dmarc=none"}, false},
		{"no field (a Sent copy)", nil, false},
		{"another server's fail", []string{"mx.other.example; dmarc=fail header.from=demo-mail.example"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := &mime.Message{From: []mime.Address{{Address: "alex.morgan@demo-mail.example"}}, AuthResults: tt.fields}
			if got := (msgauth.Checker{AuthServIDs: []string{provider}}).Check(m, nil); got.Failed != tt.want {
				t.Errorf("Check(%q).Failed = %v, want %v", tt.fields, got.Failed, tt.want)
			}
		})
	}
}
