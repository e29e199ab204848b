package ui

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/gateway/phone/phoneclient"
)

// screens are the smallest screens the windows promise to fit (issue 42
// item 5): a 1280×720 laptop binds the height, a 1024×768 one the width.
var screens = []fyne.Size{{Width: 1024, Height: 768}, {Width: 1280, Height: 720}}

// windowDecoration is the height a window manager's title bar and a
// desktop's top panel take from a screen (GNOME: 37 and 32 pixels).
const windowDecoration = 72

// fits checks a window at the size the app gives it and at each screen's
// size: that size is within every screen, the content's minimum size
// (which Fyne's desktop driver grows the window to) is within the given
// size, and nothing the window shows ends outside it or is cut.
func fits(t *testing.T, w fyne.Window, given fyne.Size, what string) {
	t.Helper()
	for _, s := range screens {
		if given.Width > s.Width || given.Height+windowDecoration > s.Height {
			t.Errorf("%s: the window is %gx%g, with its title bar more than the %gx%g screen", what, given.Width, given.Height, s.Width, s.Height)
		}
	}
	min := w.Content().MinSize().Add(fyne.NewSquareSize(2 * theme.Padding()))
	t.Logf("%s needs %gx%g of its %gx%g", what, min.Width, min.Height, given.Width, given.Height)
	if min.Width > given.Width || min.Height > given.Height {
		t.Errorf("%s: the content needs %gx%g, more than the window's %gx%g", what, min.Width, min.Height, given.Width, given.Height)
		for _, m := range overgrown(w.Content(), contentRoom(given)) {
			t.Errorf("%s: %s", what, m)
		}
	}
	for _, size := range append([]fyne.Size{given}, screens...) {
		w.Resize(size)
		// Fyne's desktop driver lays a window out again while minimum
		// sizes change (wrapped text is as tall as its width makes it);
		// the test driver lays it out once: twice more settles it.
		w.Content().Refresh()
		w.Content().Refresh()
		bad, walked := misfits(w.Canvas())
		if walked == 0 {
			t.Errorf("%s at %gx%g: the walk found nothing to check", what, size.Width, size.Height)
		}
		for _, m := range bad {
			t.Errorf("%s at %gx%g: %s", what, size.Width, size.Height, m)
		}
	}
	w.Resize(given)
}

// TestWindowsFit (issue 42 item 5): every window and tab, showing its
// longest content (a pending request and a grant, a block, a paired phone
// with a long name, a pairing code with its link, a long data directory,
// a relay error, every wizard step), fits 1024×768 and 1280×720 screens.
func TestWindowsFit(t *testing.T) {
	long := strings.Repeat("a-rather-long-folder-name/", 5)
	e := newEnvNode(t, filepath.Join(t.TempDir(), long, "mailnode"), func(o *Options) {
		o.TrayHost = func() bool { return false }
		o.Restore = func(context.Context, []byte, string) error { return errors.New("not in this test") }
	})
	ctx := t.Context()
	var ar *agent.ApprovalRequired
	if _, err := e.agent.Call(ctx, "bills_due", map[string]any{}); !errors.As(err, &ar) {
		t.Fatalf("call = %v, want approval_required", err)
	}
	if _, err := e.node.Decide(ctx, ar.MatchCode, true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.agent.Call(ctx, "ask", map[string]any{"question": "When is my next flight?"}); !errors.As(err, &ar) {
		t.Fatalf("ask = %v, want approval_required", err)
	}
	if _, err := e.node.Block(ctx, "*.an-agent-site-with-a-long-name.example"); err != nil {
		t.Fatal(err)
	}
	offer, err := e.node.Pair(ctx, app.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	phone, _, err := phoneclient.Pair(ctx, e.r.AgentHTTP(), offer.URL, "Alexandra's phone, the one with the cracked screen")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.node.ConfirmPhone(ctx, phone.ID); err != nil {
		t.Fatal(err)
	}
	e.menuItem("Pair a phone").Action()
	e.until("the QR code", func() bool { return e.u.phones.qr.Visible() && e.u.phones.offer.URL != "" })
	// The link wraps to fit; it is copied whole.
	e.tap(e.u.phones.box, "Copy the link")
	e.u.locked(func() {
		if got, want := e.fa.Clipboard().Content(), e.u.phones.offer.URL; got != want {
			t.Errorf("Copy the link copied %q, want %q", got, want)
		}
	})

	for _, tab := range []string{TabStatus, TabPending, TabAgents, TabActivity, TabPhones, TabAccounts, TabSettings} {
		e.u.Show(tab)
		e.u.Wait()
		e.until(tab+" loaded", func() bool { return e.u.tabs.Selected().Text == tab })
		e.u.locked(func() {
			if tab == TabStatus {
				// The status's longest texts: a relay's error and a
				// mail server's, as the node words them.
				st := e.u.last
				st.LastError = "cannot reach the mail server imap.a-provider-with-a-long-name.example:993 for account " +
					"alexandra.montgomery-whitfield@a-provider-with-a-long-name.example; retrying in 5 minutes"
				st.Gateway.Relay = app.RelayStatus{URL: "https://relay.a-long-relay-operator-name.example:8443/", State: "retrying",
					LastError: "dial tcp: lookup relay.a-long-relay-operator-name.example: no such host"}
				e.u.status.show(st)
			}
			fits(t, e.u.win, mainWindowSize, "the "+tab+" tab")
		})
	}
	e.u.locked(func() {
		e.u.accounts.confirmRemove("alexandra.montgomery-whitfield@a-provider-with-a-long-name.example")
		fits(t, e.u.win, mainWindowSize, "the confirmation to remove an account")
	})

	e.u.locked(func() {
		e.u.openWizardLocked()
		w := e.u.wiz
		w.address.SetText("alexandra.montgomery-whitfield@a-provider-with-a-long-name.example")
		w.user.SetText(w.address.Text)
		w.imap.SetText("imap.a-provider-with-a-long-name.example:993")
		w.smtp.SetText("smtp.a-provider-with-a-long-name.example:465")
		w.source.SetText("Found for A provider with a long name (from Thunderbird's ISP database).")
		w.note.SetText("This provider wants an app password for mail programs: create one in its account settings " +
			"under Security, then use it here instead of your usual password.")
		w.statement.SetText(strings.Repeat("The relay sees which node an agent connects to, when, and how much "+
			"data passes; it cannot read the connection, which is encrypted end to end. ", 4))
		w.relay.SetText("https://relay.a-long-relay-operator-name.example:8443/")
		for _, step := range []string{stepAddress, stepServers, stepPassword, stepRelay, stepPhone} {
			w.show(step)
			fits(t, w.win, wizardWindowSize, "the wizard's "+step+" step")
		}
	})
}
