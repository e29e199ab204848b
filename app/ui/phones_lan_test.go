package ui

import (
	"crypto/tls"
	"crypto/x509"
	"image"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"mailnode/app/apptest"
	"mailnode/app/autostart"
	"mailnode/app/ui/screenqr"
	"mailnode/gateway/phone/phoneclient"
)

// TestPairOverThisNetwork (issue 42 item 7): at a development relay the
// window says that a phone cannot open the relay name; "Pair over this
// network" has the node listen on the LAN address, the QR code holds it,
// the window says the phone must be on the same network, the status page
// lists the address; a phone pairs there; "Stop listening on this
// network" ends it. The LAN address is 127.0.0.23: tests send traffic to
// loopback only (an address of its own: see app's TestPairOverLAN).
func TestPairOverThisNetwork(t *testing.T) {
	var log apptest.Buffer
	relay := apptest.StartRelay(t, &log)
	r := apptest.StartNodeWith(t, relay, &log, apptest.NodeOptions{
		LANAddr: func() (netip.Addr, error) { return netip.MustParseAddr("127.0.0.23"), nil }})
	e := &env{t: t, fa: &notifyingApp{App: test.NewTempApp(t)}, node: r.Node, r: r, quit: make(chan struct{}, 1)}
	e.u = New(e.fa, r.Node, Options{Version: "test", TrayHost: func() bool { return false },
		Autostart: autostart.Entry{ID: "app.mailnode.node", Exe: "mailnode", Args: []string{"--minimized"}, Dir: filepath.Join(t.TempDir(), "autostart")},
		OnQuit:    func() { e.quit <- struct{}{} }})
	e.u.Start()
	t.Cleanup(e.u.Close)
	e.u.Show(TabPhones)

	e.tap(e.u.phones.box, "Pair a phone")
	e.until("the relay name's code", func() bool { return e.u.phones.offer.URL != "" })
	e.until("the note on the development relay", func() bool {
		return strings.Contains(e.u.phones.reach.Text, "development relay") && strings.Contains(e.u.phones.reach.Text, "a phone cannot open it")
	}, func() string { return "; shows: " + e.u.phones.reach.Text })

	e.tap(e.u.phones.box, "Pair over this network")
	e.until("the LAN code", func() bool {
		return strings.HasPrefix(e.u.phones.offer.URL, "https://127.0.0.23:") && e.u.phones.qr.Visible()
	},
		func() string { return "; offer: " + e.u.phones.offer.URL })
	var shot image.Image
	var want, shown string
	e.u.locked(func() {
		e.u.win.Resize(fyne.NewSize(900, 900))
		shot = e.u.win.Canvas().Capture()
		want = e.u.phones.offer.URL
		shown = texts(e.u.phones.box)
	})
	if got, err := screenqr.Read(shot); err != nil || got != want {
		saveShot(t, shot)
		t.Fatalf("QR code in the window says %q, %v; want %q", got, err, want)
	}
	for _, w := range []string{"the phone must be on the same network", "Listening on this network at https://127.0.0.23:", "agents' signed requests"} {
		if !strings.Contains(shown, w) {
			t.Errorf("Phones window shows\n%s\nwant %q", shown, w)
		}
	}
	e.until("the status page listing the LAN address", func() bool {
		return strings.Contains(texts(e.u.status.box), "On this computer's local network: https://127.0.0.23:")
	}, func() string { return "; status: " + texts(e.u.status.box) })

	pem, err := os.ReadFile(r.Node.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}}}
	_, sas, err := phoneclient.Pair(t.Context(), hc, want, "LAN phone")
	if err != nil {
		t.Fatal(err)
	}
	e.until("the six-digit code", func() bool { return e.u.phones.sas.Text == sas && e.u.phones.confirm.Visible() })
	e.tap(e.u.phones.box, "The phone shows the same code")
	e.until("the paired phone", func() bool { return strings.Contains(texts(e.u.phones.box), "LAN phone, paired") })

	e.tap(e.u.phones.box, "Stop listening on this network")
	e.until("the LAN line gone", func() bool { return !e.u.phones.lan.Visible() && r.Node.Status().Gateway.LANURL == "" })
}
