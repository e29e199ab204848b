package autoconfig

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// maxDocument caps a configuration document. The largest file of the ISP
// database is under 20 KiB.
const maxDocument = 256 << 10

// Server is one way to reach a mail server.
type Server struct {
	Host     string `json:"host"`
	Port     int    `json:"port"`
	Security string `json:"security"` // tls, starttls or plain, as app/config spells them
	Username string `json:"username"` // with the address filled in
	// OAuthOnly is set when the provider lists no password login: a person
	// needs an app password (or the provider's setting that allows one).
	OAuthOnly bool `json:"oauth_only,omitempty"`
}

// Addr is host:port.
func (s Server) Addr() string { return s.Host + ":" + strconv.Itoa(s.Port) }

// Settings is what was found for an address.
type Settings struct {
	Provider string `json:"provider"` // the provider's display name, or the domain
	IMAP     Server `json:"imap"`
	SMTP     Server `json:"smtp"`
	// Source says where the settings came from, for the person to see:
	// "autoconfig.example.com", "example.com/.well-known", "ISP database",
	// "ISP database (mail handled by google.com)", "SRV records", or
	// "guessed host names".
	Source string `json:"source"`
	// Note is a plain sentence a person must read before the password
	// prompt (an app password is needed), or empty.
	Note string `json:"note,omitempty"`
	// OAuthIssuer is the document's <oAuth2><issuer>, a host name such as
	// accounts.google.com: the provider signs mail programs in with OAuth
	// 2.0 there. mail/signin.ForIssuer says whether the node knows it; the
	// document's own endpoints and scopes are not trusted.
	OAuthIssuer string `json:"oauth_issuer,omitempty"`
}

// clientConfig is the part of config-v1.1 that mailnode reads.
type clientConfig struct {
	XMLName  xml.Name `xml:"clientConfig"`
	Provider []struct {
		ID          string      `xml:"id,attr"`
		Domains     []string    `xml:"domain"`
		DisplayName string      `xml:"displayName"`
		Incoming    []xmlServer `xml:"incomingServer"`
		Outgoing    []xmlServer `xml:"outgoingServer"`
	} `xml:"emailProvider"`
	OAuth2 struct {
		Issuer string `xml:"issuer"`
	} `xml:"oAuth2"`
}

type xmlServer struct {
	Type       string   `xml:"type,attr"`
	Hostname   string   `xml:"hostname"`
	Port       string   `xml:"port"`
	SocketType string   `xml:"socketType"`
	Username   string   `xml:"username"`
	Auth       []string `xml:"authentication"`
}

// errNoServers means a document parsed but offers no usable IMAP or SMTP
// server for the address.
var errNoServers = errors.New("no usable IMAP and SMTP servers")

// parseDocument reads a config-v1.1 document and picks the best IMAP and
// SMTP servers for address: TLS over STARTTLS over plain, a password login
// over OAuth only. It returns the provider's domains too, for the index of
// the ISP database.
func parseDocument(doc []byte, address string) (Settings, []string, error) {
	if len(doc) > maxDocument {
		return Settings{}, nil, fmt.Errorf("document larger than %d bytes", maxDocument)
	}
	var cc clientConfig
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.CharsetReader = func(charset string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(charset, "us-ascii") || strings.EqualFold(charset, "iso-8859-1") {
			return r, nil // the database's files are ASCII
		}
		return nil, fmt.Errorf("charset %q", charset)
	}
	if err := d.Decode(&cc); err != nil {
		return Settings{}, nil, fmt.Errorf("parse: %w", err)
	}
	if len(cc.Provider) == 0 {
		return Settings{}, nil, errors.New("no emailProvider")
	}
	p := cc.Provider[0]
	imap, okIMAP := best(p.Incoming, "imap", address)
	smtp, okSMTP := best(p.Outgoing, "smtp", address)
	if !okIMAP || !okSMTP {
		return Settings{}, p.Domains, errNoServers
	}
	name := strings.TrimSpace(p.DisplayName)
	if name == "" {
		name = p.ID
	}
	issuer, _ := hostName(cc.OAuth2.Issuer, address)
	return Settings{Provider: name, IMAP: imap, SMTP: smtp, OAuthIssuer: issuer}, p.Domains, nil
}

// best chooses among the servers of one type.
func best(servers []xmlServer, typ, address string) (Server, bool) {
	var out Server
	score := -1
	for _, x := range servers {
		if !strings.EqualFold(x.Type, typ) {
			continue
		}
		host, ok := hostName(x.Hostname, address)
		if !ok {
			continue
		}
		port, err := strconv.Atoi(strings.TrimSpace(x.Port))
		if err != nil || port < 1 || port > 65535 {
			continue
		}
		var sec string
		var s int
		switch strings.ToUpper(strings.TrimSpace(x.SocketType)) {
		case "SSL", "TLS":
			sec, s = "tls", 4
		case "STARTTLS":
			sec, s = "starttls", 2
		case "PLAIN":
			sec, s = "plain", 0
		default:
			continue
		}
		password, oauth := false, false
		for _, a := range x.Auth {
			switch strings.TrimSpace(a) {
			case "password-cleartext", "password-encrypted", "plain", "secure":
				password = true
			case "OAuth2":
				oauth = true
			}
		}
		if len(x.Auth) == 0 {
			password = true
		}
		if !password && !oauth {
			continue // "none", client certificates, NTLM, GSSAPI
		}
		if password {
			s++
		}
		if s > score {
			score = s
			out = Server{Host: host, Port: port, Security: sec,
				Username: fillUsername(x.Username, address), OAuthOnly: !password}
		}
	}
	return out, score >= 0
}

// hostName fills %EMAILDOMAIN% in a document's host name and accepts only a
// plain DNS name: no port, path, user info or address literal.
func hostName(s, address string) (string, bool) {
	_, domain, _ := strings.Cut(address, "@")
	s = strings.TrimSpace(strings.ReplaceAll(s, "%EMAILDOMAIN%", domain))
	s = strings.TrimSuffix(strings.ToLower(s), ".")
	if s == "" || len(s) > 253 {
		return "", false
	}
	a, err := idna.Lookup.ToASCII(s)
	if err != nil {
		return "", false
	}
	for _, label := range strings.Split(a, ".") {
		if label == "" || len(label) > 63 {
			return "", false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return "", false
			}
		}
	}
	if !strings.Contains(a, ".") {
		return "", false
	}
	return a, true
}

// fillUsername replaces the document's placeholders. A form the database
// spells without its closing % is read as the address, which is what it
// means.
func fillUsername(form, address string) string {
	local, domain, _ := strings.Cut(address, "@")
	form = strings.TrimSpace(form)
	if form == "" || form == "%EMAILADDRESS" {
		return address
	}
	r := strings.NewReplacer("%EMAILADDRESS%", address, "%EMAILLOCALPART%", local, "%EMAILDOMAIN%", domain)
	return r.Replace(form)
}
