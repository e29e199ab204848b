package ui

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/app/config"
	"mailnode/mail/autoconfig"
	"mailnode/mail/imaptest"
)

// autoconfigServer serves one provider's autoconfig document at
// autoconfig.wizard.example, as an ISP does; every other name is 404.
func autoconfigServer(t *testing.T) *http.Client {
	doc := `<clientConfig version="1.1"><emailProvider id="wizard.example">
  <domain>wizard.example</domain><displayName>Wizard Mail</displayName>
  <incomingServer type="imap"><hostname>imap.wizard.example</hostname><port>993</port><socketType>SSL</socketType>
    <username>%EMAILADDRESS%</username><authentication>password-cleartext</authentication></incomingServer>
  <outgoingServer type="smtp"><hostname>smtp.wizard.example</hostname><port>465</port><socketType>SSL</socketType>
    <username>%EMAILADDRESS%</username><authentication>password-cleartext</authentication></outgoingServer>
</emailProvider></clientConfig>`
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host != "autoconfig.wizard.example" || r.URL.Path != "/mail/config-v1.1.xml" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, doc)
	}))
	t.Cleanup(srv.Close)
	hc := srv.Client()
	tr := hc.Transport.(*http.Transport)
	tr.TLSClientConfig.ServerName = "example.com" // the test server's certificate
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, srv.Listener.Addr().String())
	}
	return hc
}

// TestWizard: the first run against a local autoconfig server, a Dovecot
// and a relay on loopback. The address finds its servers (and a Gmail
// address the app-password note); a wrong password is explained; the right
// one is kept in a private file where no keyring runs, the account is added
// and synced; the relay's transparency statement comes before its
// registration; the last step pairs a phone.
func TestWizard(t *testing.T) {
	dove := imaptest.NewDovecot(t)
	var log apptest.Buffer
	relay := apptest.StartRelay(t, &log)
	dir := t.TempDir()
	n, err := app.New(app.Config{DataDir: dir, Settings: config.NewStore(filepath.Join(dir, "config.json")),
		Gateway:    app.GatewayConfig{Listen: "127.0.0.1:0"},
		Relay:      app.RelayConfig{HTTP: relay.HTTPClient(), TLS: relay.CA.ClientTLS(), Dial: relay.Dial},
		Autoconfig: autoconfig.Config{Client: autoconfigServer(t)},
		Services:   app.Services{Sync: true, Gateway: true, LocalAPI: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	e := &env{t: t, fa: &notifyingApp{App: test.NewTempApp(t)}, node: n}
	e.u = New(e.fa, n, Options{TrayHost: func() bool { return false }})
	e.u.Start()
	t.Cleanup(e.u.Close)

	e.u.OpenWizard()
	var w *wizard
	e.until("the wizard", func() bool { w = e.u.wiz; return w != nil })

	// A Gmail address: the ISP database, and the app-password note.
	e.u.locked(func() { w.address.SetText("jo@gmail.com") })
	e.tap(w.body, "Find my mail settings")
	e.until("Gmail's servers", func() bool { return w.step == stepServers && w.imap.Text == "imap.gmail.com:993" })
	if got := texts(w.body); !strings.Contains(got, "app password") || !strings.Contains(got, "ISP database") {
		t.Errorf("servers step for Gmail shows:\n%s", got)
	}

	// The wizard's own provider: its autoconfig document.
	e.u.locked(func() { w.show(stepAddress); w.address.SetText("jo@wizard.example") })
	e.tap(w.body, "Find my mail settings")
	e.until("the provider's servers", func() bool { return w.step == stepServers && w.imap.Text == "imap.wizard.example:993" })
	if got := texts(w.body); !strings.Contains(got, "Wizard Mail (from autoconfig.wizard.example)") || strings.Contains(got, "app password") {
		t.Errorf("servers step shows:\n%s", got)
	}
	if w.smtp.Text != "smtp.wizard.example:465" || w.user.Text != "jo@wizard.example" || w.imapSec.Selected != "tls" {
		t.Errorf("found smtp %q user %q security %q", w.smtp.Text, w.user.Text, w.imapSec.Selected)
	}

	// The person corrects the servers to where this test's mail is.
	e.u.locked(func() {
		w.imap.SetText(dove.Addr)
		w.imapSec.SetSelected("plain")
		w.user.SetText(dove.Username)
	})
	e.tap(w.body, "Next")
	e.u.locked(func() { w.password.SetText("not the password") })
	e.tap(w.body, "Log in and start copying")
	e.until("the refusal explained", func() bool {
		return w.errLabel.Visible() && strings.Contains(w.errLabel.Text, "refused this username and password")
	})
	e.u.locked(func() { w.password.SetText(dove.Password) })
	e.tap(w.body, "Log in and start copying")
	e.until("the relay step", func() bool { return w.step == stepRelay })
	if st := n.Status(); len(st.Accounts) != 1 || st.Accounts[0].Server != dove.Addr {
		t.Errorf("accounts after the wizard: %+v", st.Accounts)
	}
	f, err := n.Settings()
	if err != nil || len(f.Accounts) != 1 || f.Accounts[0].Password == (config.Password{}) {
		t.Fatalf("settings after the wizard: %+v, %v", f.Accounts, err)
	}
	if p := f.Accounts[0].Password.File; p != "" {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("password file %s: %v %v", p, fi, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "config.json")); strings.Contains(string(b), dove.Password) {
			t.Error("the settings file holds the password")
		}
	}

	// The relay: no default (nobody runs a public one), its statement
	// first, then the registration.
	e.u.locked(func() {
		if w.relay.Text != "" {
			t.Errorf("the relay step starts with %q, want no relay", w.relay.Text)
		}
	})
	e.u.locked(func() { w.relay.SetText(relay.URL) })
	var register bool
	e.u.locked(func() { register = !findButton(w.body, "Register at this relay").Disabled() })
	if register {
		t.Error("registration offered before the transparency statement")
	}
	e.tap(w.body, "Show what this relay can see")
	e.until("the statement", func() bool { return w.statement.Text != "" && w.step == stepRelay })
	e.tap(w.body, "Register at this relay")
	e.until("the phone step", func() bool { return w.step == stepPhone })
	// The relay service starts in the background: its status follows.
	e.until("the relay in the node's status", func() bool {
		st := n.Status()
		return st.Gateway.Relay.URL == relay.URL && st.Gateway.Relay.Address == "jo@wizard.example"
	})
	e.tap(w.body, "Pair a phone now")
	e.until("the pairing QR code", func() bool { return e.u.wiz == nil && e.u.phones.qr.Visible() })
}
