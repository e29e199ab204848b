package signin

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Build-time client ids and secrets, for a packager who registered the
// node with a provider:
//
//	go build -ldflags "-X mailnode/mail/signin.defaultGoogleClientID=… \
//	  -X mailnode/mail/signin.defaultGoogleClientSecret=… \
//	  -X mailnode/mail/signin.defaultMicrosoftClientID=…" ./cmd/mailnode
//
// They are package variables only because -X can set nothing else; the
// code reads them in Known and nowhere else. Google's "Desktop app"
// clients come with a secret that is not secret (it ships in every copy
// of the program; RFC 8252 section 8.5) but which its token endpoint
// requires; Microsoft's public clients have none.
var (
	defaultGoogleClientID     string
	defaultGoogleClientSecret string
	defaultMicrosoftClientID  string
)

// Client is the OAuth client the node signs in as with one provider.
type Client struct {
	ID string `json:"id"`
	// Secret is what a provider hands out with a desktop client (Google);
	// it identifies the program, not the person, and is no secret.
	Secret string `json:"secret,omitempty"`
}

// Clients is the setting: a client per provider ID ("google",
// "microsoft"). A provider missing here takes the build-time default.
type Clients map[string]Client

// Provider is one mail provider that signs people in with OAuth 2.0.
type Provider struct {
	ID   string // "google", "microsoft": the key in Clients
	Name string // what a person reads: "Google", "Microsoft"
	// Issuer is the issuer ID tokens must name. "{tenantid}" in it stands
	// for the token's tid claim: Microsoft's common authority signs in
	// every tenant, each with its own issuer.
	Issuer string
	// IssuerHosts are the names an ISP database entry or autoconfig
	// document gives in <oAuth2><issuer> for this provider.
	IssuerHosts []string
	AuthURL     string
	TokenURL    string
	// DeviceAuthURL is the RFC 8628 endpoint; empty when the provider
	// has no device flow for mail, NoDeviceFlow saying why.
	DeviceAuthURL string
	NoDeviceFlow  string
	JWKSURL       string
	Scopes        []string
	// AuthParams are added to the authorization request (Google issues
	// a refresh token only with access_type=offline).
	AuthParams map[string]string
	// IMAP and SMTP are the provider's servers, host:port, both implicit
	// TLS unless SMTPStartTLS.
	IMAP, SMTP   string
	SMTPStartTLS bool
	// MailHosts, when set, are the only hosts the provider's access
	// tokens are sent to: XOAUTH2 carries no host binding, so a Google
	// token sent to another server is a Google token that server holds.
	// Empty (an issuer of the person's own, the tests'): any host.
	MailHosts []string
	// Plain: the servers speak no TLS. Only for a test's servers on
	// loopback; the node refuses plain to any other host.
	Plain bool
	// Register says how to get a client id, for the error without one.
	Register string

	// Client is filled by Lookup from Clients or the build-time default.
	Client Client
}

// CallbackPath is the path of the loopback redirect URI, the one a
// provider that compares paths must have registered:
// http://127.0.0.1/signin/callback (any port: RFC 8252 section 7.3).
const CallbackPath = "/signin/callback"

// Known is the provider table, without client ids.
func Known() []Provider {
	return []Provider{
		{
			ID: "google", Name: "Google",
			Issuer:      "https://accounts.google.com",
			IssuerHosts: []string{"accounts.google.com"},
			AuthURL:     "https://accounts.google.com/o/oauth2/v2/auth",
			TokenURL:    "https://oauth2.googleapis.com/token",
			NoDeviceFlow: "Google does not allow mail access from its device sign-in; " +
				"sign in on this machine instead: open the address mailnode prints in a browser here",
			JWKSURL:    "https://www.googleapis.com/oauth2/v3/certs",
			Scopes:     []string{"https://mail.google.com/", "openid", "email"},
			AuthParams: map[string]string{"access_type": "offline", "prompt": "consent"},
			IMAP:       "imap.gmail.com:993", SMTP: "smtp.gmail.com:465",
			MailHosts: []string{"imap.gmail.com", "smtp.gmail.com"},
			Register: `in Google Cloud Console (APIs & Services, Credentials), create an OAuth client of type "Desktop app" ` +
				`with the Gmail API scope https://mail.google.com/, then set its client id and secret ` +
				`(setting signin.google, or -ldflags -X mailnode/mail/signin.defaultGoogleClientID=… at build time)`,
		},
		{
			ID: "microsoft", Name: "Microsoft",
			Issuer:        "https://login.microsoftonline.com/{tenantid}/v2.0",
			IssuerHosts:   []string{"login.microsoftonline.com", "login.live.com"},
			AuthURL:       "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
			TokenURL:      "https://login.microsoftonline.com/common/oauth2/v2.0/token",
			DeviceAuthURL: "https://login.microsoftonline.com/common/oauth2/v2.0/devicecode",
			JWKSURL:       "https://login.microsoftonline.com/common/discovery/v2.0/keys",
			Scopes: []string{"https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send",
				"offline_access", "openid", "email", "profile"},
			IMAP: "outlook.office365.com:993", SMTP: "smtp.office365.com:587", SMTPStartTLS: true,
			// Microsoft's documented servers for OAuth IMAP and SMTP:
			// Microsoft 365 and Outlook.com.
			MailHosts: []string{"outlook.office365.com", "smtp.office365.com", "outlook.office.com",
				"imap-mail.outlook.com", "smtp-mail.outlook.com"},
			Register: `in Microsoft Entra (App registrations), register an application for "Accounts in any organizational ` +
				`directory and personal Microsoft accounts", add the platform "Mobile and desktop applications" with the ` +
				`redirect URI http://127.0.0.1` + CallbackPath + `, allow public client flows, add the delegated permissions ` +
				`IMAP.AccessAsUser.All and SMTP.Send (Office 365 Exchange Online) and the optional ID token claim ` +
				`xms_edov (without it the sign-in name, not the email claim, names the account), then set its client id ` +
				`(setting signin.microsoft, or -ldflags -X mailnode/mail/signin.defaultMicrosoftClientID=… at build time)`,
		},
	}
}

// CheckMailHost refuses a server (host:port, or a host) that p's tokens
// must not go to: one outside MailHosts, where p has them.
func (p Provider) CheckMailHost(server string) error {
	if len(p.MailHosts) == 0 {
		return nil
	}
	host := server
	if h, _, err := net.SplitHostPort(server); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if slices.Contains(p.MailHosts, host) {
		return nil
	}
	return fmt.Errorf("%s's sign-in is sent only to %s's own mail servers (%s), not to %q: "+
		"its token would be valid at %s wherever it goes", p.Name, p.Name, strings.Join(p.MailHosts, ", "), clean(server, 100), p.Name)
}

// CheckMailServer is CheckMailHost, and refuses a connection without TLS
// (security "plain") to a provider with MailHosts: its token would be
// sent in clear to whoever answers that name.
func (p Provider) CheckMailServer(server, security string) error {
	if err := p.CheckMailHost(server); err != nil {
		return err
	}
	if len(p.MailHosts) > 0 && strings.EqualFold(security, "plain") {
		return fmt.Errorf("%s's sign-in is sent to %q only over TLS (security tls or starttls), not in plain text", p.Name, clean(server, 100))
	}
	return nil
}

// NoClientError is a provider for which no client id is set: the node
// cannot sign anyone in to it until one is registered.
type NoClientError struct{ Provider Provider }

func (e *NoClientError) Error() string {
	return fmt.Sprintf("signing in to %s needs an OAuth client id, and none is set: %s", e.Provider.Name, e.Provider.Register)
}

// Lookup returns the provider with id and its client: from clients, else
// the build-time default, else a NoClientError saying what to register.
func Lookup(id string, clients Clients) (Provider, error) {
	for _, p := range Known() {
		if p.ID == id {
			return withClient(p, clients)
		}
	}
	return Provider{}, fmt.Errorf("no sign-in provider %q (known: google, microsoft)", id)
}

// ForIssuer is the provider an ISP database entry or autoconfig document
// names in <oAuth2><issuer> (a host name such as accounts.google.com);
// ok is false for an issuer the table does not know, whose endpoints and
// client the node cannot trust from a document alone.
func ForIssuer(issuerHost string, clients Clients) (p Provider, ok bool, err error) {
	issuerHost = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(issuerHost), "."))
	for _, p := range Known() {
		for _, h := range p.IssuerHosts {
			if h == issuerHost {
				p, err := withClient(p, clients)
				return p, true, err
			}
		}
	}
	return Provider{}, false, nil
}

func withClient(p Provider, clients Clients) (Provider, error) {
	c, ok := clients[p.ID]
	if !ok || c.ID == "" {
		switch p.ID {
		case "google":
			c = Client{ID: defaultGoogleClientID, Secret: defaultGoogleClientSecret}
		case "microsoft":
			c = Client{ID: defaultMicrosoftClientID}
		}
	}
	if c.ID == "" {
		return p, &NoClientError{Provider: p}
	}
	p.Client = c
	return p, nil
}

// Discover builds a Provider from an OpenID Connect issuer's discovery
// document (OpenID Connect Discovery 1.0 section 4), checking that the
// document names the same issuer. For a provider that publishes one and
// is not in the table: a company's own identity provider, the tests'.
func Discover(ctx context.Context, hc *http.Client, issuer string, client Client, scopes []string) (Provider, error) {
	ctx = oidc.ClientContext(ctx, limitClient(hc))
	op, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		return Provider{}, fmt.Errorf("discover %s: %w", issuer, err)
	}
	var doc struct {
		JWKS string `json:"jwks_uri"`
	}
	if err := op.Claims(&doc); err != nil {
		return Provider{}, fmt.Errorf("discover %s: %w", issuer, err)
	}
	ep := op.Endpoint()
	return Provider{ID: issuer, Name: issuer, Issuer: issuer, AuthURL: ep.AuthURL, TokenURL: ep.TokenURL,
		DeviceAuthURL: ep.DeviceAuthURL, JWKSURL: doc.JWKS, Scopes: scopes, Client: client}, nil
}

// oauth2Config is p as x/oauth2 wants it. The client secret goes in the
// request body (Google's desktop clients), not in Basic auth.
func (p Provider) oauth2Config(redirect string) *oauth2.Config {
	style := oauth2.AuthStyleInParams
	return &oauth2.Config{
		ClientID: p.Client.ID, ClientSecret: p.Client.Secret, RedirectURL: redirect, Scopes: p.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: p.AuthURL, TokenURL: p.TokenURL, DeviceAuthURL: p.DeviceAuthURL, AuthStyle: style},
	}
}
