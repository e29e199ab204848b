package autoconfig

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
)

const docTLS = `<?xml version="1.0"?>
<clientConfig version="1.1"><emailProvider id="example.net">
  <domain>example.net</domain><displayName>Example Mail</displayName>
  <incomingServer type="pop3"><hostname>pop.example.net</hostname><port>995</port><socketType>SSL</socketType></incomingServer>
  <incomingServer type="imap"><hostname>imap.%EMAILDOMAIN%</hostname><port>143</port><socketType>STARTTLS</socketType>
    <username>%EMAILLOCALPART%</username><authentication>password-cleartext</authentication></incomingServer>
  <incomingServer type="imap"><hostname>imap.example.net</hostname><port>993</port><socketType>SSL</socketType>
    <username>%EMAILLOCALPART%</username><authentication>password-cleartext</authentication></incomingServer>
  <outgoingServer type="smtp"><hostname>smtp.example.net</hostname><port>587</port><socketType>STARTTLS</socketType>
    <username>%EMAILADDRESS%</username><authentication>password-encrypted</authentication></outgoingServer>
</emailProvider></clientConfig>`

func TestParseDocument(t *testing.T) {
	tests := []struct {
		name     string
		doc      string
		imap     string // host:port security username
		smtp     string
		wantErr  bool
		oauthOne bool
	}{
		{name: "TLS over STARTTLS, POP ignored", doc: docTLS,
			imap: "imap.example.net:993 tls jo", smtp: "smtp.example.net:587 starttls jo@example.net"},
		{name: "host with a path refused", wantErr: true,
			doc: strings.Replace(docTLS, "smtp.example.net", "evil.example/x", 1)},
		{name: "host with a port refused", wantErr: true,
			doc: strings.Replace(docTLS, "smtp.example.net", "smtp.example.net:25", 1)},
		{name: "address literal refused", wantErr: true,
			doc: strings.Replace(docTLS, "smtp.example.net", "[127.0.0.1]", 1)},
		{name: "port out of range", wantErr: true,
			doc: strings.Replace(docTLS, "<port>587", "<port>70000", 1)},
		{name: "unknown socket type", wantErr: true,
			doc: strings.Replace(docTLS, "<socketType>STARTTLS</socketType>\n    <username>%EMAILADDRESS%", "<socketType>IPSEC</socketType>\n    <username>%EMAILADDRESS%", 1)},
		{name: "OAuth only", oauthOne: true,
			doc:  strings.ReplaceAll(docTLS, "password-cleartext", "OAuth2"),
			imap: "imap.example.net:993 tls jo", smtp: "smtp.example.net:587 starttls jo@example.net"},
		{name: "not a config", doc: `<html></html>`, wantErr: true},
		{name: "no provider", doc: `<clientConfig/>`, wantErr: true},
		{name: "too large", doc: docTLS + strings.Repeat(" ", maxDocument), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := parseDocument([]byte(tt.doc), "jo@example.net")
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parseDocument = %+v, want an error", s)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%s %s %s", s.IMAP.Addr(), s.IMAP.Security, s.IMAP.Username); got != tt.imap {
				t.Errorf("IMAP = %q, want %q", got, tt.imap)
			}
			if got := fmt.Sprintf("%s %s %s", s.SMTP.Addr(), s.SMTP.Security, s.SMTP.Username); got != tt.smtp {
				t.Errorf("SMTP = %q, want %q", got, tt.smtp)
			}
			if s.IMAP.OAuthOnly != tt.oauthOne || s.Provider != "Example Mail" {
				t.Errorf("OAuthOnly = %v, Provider = %q", s.IMAP.OAuthOnly, s.Provider)
			}
		})
	}
}

// Every file of the embedded database parses, and the providers people use
// most are found by every domain they list.
func TestISPDatabase(t *testing.T) {
	entries, err := fs.ReadDir(ispdbFiles, "ispdb")
	if err != nil || len(entries) < 160 {
		t.Fatalf("embedded files: %d, %v", len(entries), err)
	}
	for _, e := range entries {
		doc, _ := ispdbFiles.ReadFile("ispdb/" + e.Name())
		_, domains, err := parseDocument(doc, "user@example.org")
		if err != nil && !errors.Is(err, errNoServers) {
			t.Errorf("%s: %v", e.Name(), err)
		}
		if len(domains) == 0 {
			t.Errorf("%s lists no domain", e.Name())
		}
	}
	var db ispdb
	for _, tc := range []struct{ address, imap, user, issuer string }{
		{"jo@gmail.com", "imap.gmail.com:993", "jo@gmail.com", "accounts.google.com"},
		{"jo@googlemail.com", "imap.gmail.com:993", "jo@googlemail.com", "accounts.google.com"},
		{"jo@office365.com", "outlook.office365.com:993", "jo@office365.com", "login.microsoftonline.com"},
		// hotmail.com.xml lists OAuth2 logins but no <oAuth2> element.
		{"jo@outlook.com", "outlook.office365.com:993", "jo@outlook.com", ""},
		{"jo@posteo.de", "posteo.de:993", "jo@posteo.de", ""},
		{"jo@web.de", "imap.web.de:993", "jo", ""},
		{"jo@yahoo.com", "imap.mail.yahoo.com:993", "jo@yahoo.com", "login.yahoo.com"},
	} {
		_, domain, _ := strings.Cut(tc.address, "@")
		s, ok, err := db.lookup(domain, tc.address)
		if !ok || err != nil || s.IMAP.Addr() != tc.imap || s.IMAP.Username != tc.user || s.OAuthIssuer != tc.issuer {
			t.Errorf("lookup(%s) = %+v %q, %v, %v; want %s as %s, issuer %q", tc.address, s.IMAP, s.OAuthIssuer, ok, err, tc.imap, tc.user, tc.issuer)
		}
	}
}

// world is the network a test's Finder sees: an HTTPS server standing in
// for every provider's web host, and a real DNS server on loopback.
type world struct {
	docs    map[string]string // host -> config document served at both paths
	records map[string][]dns.RR
	probes  map[string]bool // host:port that answer
}

func (w *world) finder(t *testing.T) *Finder {
	t.Helper()
	web := httptest.NewTLSServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		doc, ok := w.docs[r.Host]
		if !ok || r.URL.Query().Get("emailaddress") == "" {
			http.NotFound(rw, r)
			return
		}
		io.WriteString(rw, doc)
	}))
	t.Cleanup(web.Close)
	client := web.Client()
	client.Timeout = 5 * time.Second
	tr := client.Transport.(*http.Transport)
	// Every provider's name reaches the one test server, whose certificate
	// is for example.com: the names differ, the verification is real.
	tr.TLSClientConfig.ServerName = "example.com"
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, web.Listener.Addr().String())
	}

	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(rw dns.ResponseWriter, q *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(q)
		for _, rr := range w.records[strings.ToLower(q.Question[0].Name)] {
			if rr.Header().Rrtype == q.Question[0].Qtype {
				m.Answer = append(m.Answer, rr)
			}
		}
		if len(m.Answer) == 0 {
			m.Rcode = dns.RcodeNameError
		}
		rw.WriteMsg(m)
	})}
	started := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(started) }
	go srv.ActivateAndServe()
	<-started
	t.Cleanup(func() { srv.Shutdown() })
	resolver := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
	return New(Config{Client: client, Resolver: resolver, Probe: func(_ context.Context, s Server) error {
		if w.probes[s.Addr()] {
			return nil
		}
		return errors.New("connection refused")
	}})
}

func rr(t *testing.T, s string) dns.RR {
	r, err := dns.NewRR(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDiscover(t *testing.T) {
	other := strings.ReplaceAll(docTLS, "example.net", "other.example")
	tests := []struct {
		name, address string
		w             world
		source, imap  string
		note          bool
		err           error
	}{
		{name: "autoconfig host", address: "jo@example.net",
			w:      world{docs: map[string]string{"autoconfig.example.net": docTLS, "example.net": other}},
			source: "autoconfig.example.net", imap: "imap.example.net:993"},
		{name: "well-known path", address: "jo@example.net",
			w:      world{docs: map[string]string{"example.net": other}},
			source: "example.net/.well-known", imap: "imap.other.example:993"},
		{name: "ISP database, nothing on the network", address: "jo@gmail.com",
			source: "ISP database", imap: "imap.gmail.com:993", note: true},
		{name: "ISP database beats MX and SRV", address: "jo@posteo.de",
			w:      world{records: map[string][]dns.RR{"posteo.de.": {rr(t, "posteo.de. 60 IN MX 10 mx.gmail.com.")}}},
			source: "ISP database", imap: "posteo.de:993"},
		{name: "MX handled by Google", address: "jo@company.example",
			w: world{records: map[string][]dns.RR{
				"company.example.": {rr(t, "company.example. 60 IN MX 1 aspmx.l.google.com.")}}},
			source: "ISP database (mail handled by google.com)", imap: "imap.gmail.com:993", note: true},
		{name: "RFC 6186 SRV records", address: "jo@srv.example",
			w: world{records: map[string][]dns.RR{
				"_imaps._tcp.srv.example.":       {rr(t, "_imaps._tcp.srv.example. 60 IN SRV 0 1 993 .")},
				"_imap._tcp.srv.example.":        {rr(t, "_imap._tcp.srv.example. 60 IN SRV 0 1 143 mail.srv.example.")},
				"_submissions._tcp.srv.example.": {rr(t, "_submissions._tcp.srv.example. 60 IN SRV 0 1 465 mail.srv.example.")},
			}},
			source: "SRV records", imap: "mail.srv.example:143"},
		{name: "well-known host names", address: "jo@guess.example",
			w:      world{probes: map[string]bool{"mail.guess.example:993": true, "smtp.guess.example:587": true}},
			source: "guessed host names", imap: "mail.guess.example:993"},
		{name: "nothing anywhere", address: "jo@nowhere.example", err: ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.w.finder(t)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			s, err := f.Discover(ctx, tt.address)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Discover(%s) = %+v, %v; want %v", tt.address, s, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Discover(%s): %v", tt.address, err)
			}
			if s.Source != tt.source || s.IMAP.Addr() != tt.imap || s.SMTP.Host == "" {
				t.Errorf("Discover(%s) = %q %s / %s, want %q %s", tt.address, s.Source, s.IMAP.Addr(), s.SMTP.Addr(), tt.source, tt.imap)
			}
			if (s.Note != "") != tt.note {
				t.Errorf("Note = %q, want a note: %v", s.Note, tt.note)
			}
		})
	}
}

func TestDiscoverRefusesBadAddresses(t *testing.T) {
	f := New(Config{Probe: func(context.Context, Server) error { return errors.New("no") }})
	for _, a := range []string{"", "jo", "jo@", "Jo <jo@example.net>", "jo@exa mple.net", "jo@[127.0.0.1]", "jo@localhost"} {
		if _, err := f.Discover(context.Background(), a); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("Discover(%q) = %v, want a refusal", a, err)
		}
	}
}

// A document's redirect to plain HTTP is not followed.
func TestHTTPSOnly(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { io.WriteString(rw, docTLS) }))
	defer plain.Close()
	redirect := httptest.NewTLSServer(http.RedirectHandler(plain.URL+"/mail/config-v1.1.xml", http.StatusFound))
	defer redirect.Close()
	client := redirect.Client()
	client.CheckRedirect = httpsOnly
	f := New(Config{Client: client})
	if _, err := f.fetch(context.Background(), redirect.URL+"/mail/config-v1.1.xml", "jo@example.net"); err == nil {
		t.Fatal("a redirect to http:// was followed")
	}
}

func FuzzParseDocument(f *testing.F) {
	f.Add([]byte(docTLS))
	doc, _ := ispdbFiles.ReadFile("ispdb/googlemail.com.xml")
	f.Add(doc)
	f.Fuzz(func(t *testing.T, doc []byte) {
		s, _, err := parseDocument(doc, "jo@example.net")
		if err != nil {
			return
		}
		for _, srv := range []Server{s.IMAP, s.SMTP} {
			if _, ok := hostName(srv.Host, "jo@example.net"); !ok || srv.Port < 1 || srv.Port > 65535 {
				t.Fatalf("accepted server %+v", srv)
			}
			if srv.Security != "tls" && srv.Security != "starttls" && srv.Security != "plain" {
				t.Fatalf("security %q", srv.Security)
			}
		}
	})
}
