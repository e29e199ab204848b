package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/app/autostart"
	"mailnode/app/backup"
	"mailnode/app/ui/screenqr"
	"mailnode/approvals"
	"mailnode/gateway/phone/phoneclient"
)

// notifyingApp is Fyne's test app that keeps the notifications it sends.
type notifyingApp struct {
	fyne.App
	mu    sync.Mutex
	notes []*fyne.Notification
}

func (a *notifyingApp) SendNotification(n *fyne.Notification) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.notes = append(a.notes, n)
}

func (a *notifyingApp) sent() []*fyne.Notification {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*fyne.Notification(nil), a.notes...)
}

// note is the notification whose text holds s, or nil.
func (a *notifyingApp) note(s string) *fyne.Notification {
	for _, n := range a.sent() {
		if strings.Contains(n.Content, s) {
			return n
		}
	}
	return nil
}

// fakeTray is a Tray that keeps what it is told and clicks its items.
type fakeTray struct {
	mu      sync.Mutex
	items   []TrayItem
	tapped  func()
	icon    []byte
	labels  map[int]string
	stopped bool
}

func (f *fakeTray) Start(items []TrayItem, tapped func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.items, f.tapped, f.labels = items, tapped, map[int]string{}
	for i, it := range items {
		f.labels[i] = it.Label
	}
}

func (f *fakeTray) SetIcon(png []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.icon = png
}

func (f *fakeTray) SetLabel(i int, label string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.labels[i] = label
}

func (f *fakeTray) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = true
}

// menu is the items' labels as a panel shows them.
func (f *fakeTray) menu() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var l []string
	for i := range f.items {
		l = append(l, f.labels[i])
	}
	return strings.Join(l, "|")
}

func (f *fakeTray) iconIs(png []byte) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return bytes.Equal(f.icon, png)
}

// click runs the item labelled label on a goroutine, as a panel's click
// arrives.
func (f *fakeTray) click(t *testing.T, label string) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, it := range f.items {
		if f.labels[i] == label {
			go it.Action()
			return
		}
	}
	t.Fatalf("no tray item %q in %v", label, f.labels)
}

// env is the desktop app over a demo node registered at a relay on
// loopback, and an agent whose key document the relay hosts.
type env struct {
	t     *testing.T
	fa    *notifyingApp
	u     *UI
	node  *app.Node
	r     *apptest.Relayed
	agent *agent.Session
	// domain is the agent's, hosted by the relay.
	domain string
	quit   chan struct{}
}

func newEnv(t *testing.T, tray bool) *env {
	t.Helper()
	return newEnvWith(t, func(o *Options) { o.TrayHost = func() bool { return tray } })
}

// newEnvWith is newEnv with options changed by set.
func newEnvWith(t *testing.T, set func(*Options)) *env {
	t.Helper()
	return newEnvNode(t, "", set)
}

// newEnvNode is newEnvWith with the node's data directory ("": a new
// one).
func newEnvNode(t *testing.T, dataDir string, set func(*Options)) *env {
	t.Helper()
	var log apptest.Buffer
	relay := apptest.StartRelay(t, &log)
	domain, key := apptest.HostAgent(t, relay)
	r := apptest.StartNodeWith(t, relay, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: dataDir})
	sess := r.Session(t, domain, key)
	e := &env{t: t, fa: &notifyingApp{App: test.NewTempApp(t)}, node: r.Node, r: r, agent: sess, domain: domain, quit: make(chan struct{}, 1)}
	opts := Options{Version: "test",
		Autostart: autostart.Entry{ID: "app.mailnode.node", Exe: "mailnode", Args: []string{"--minimized"}, Dir: filepath.Join(t.TempDir(), "autostart")},
		OnQuit:    func() { e.quit <- struct{}{} }}
	set(&opts)
	e.u = New(e.fa, r.Node, opts)
	e.u.Start()
	t.Cleanup(e.u.Close)
	return e
}

// until waits for cond, read with the widgets' lock, after the app's
// calls; show, if given, says what was there instead when it times out.
func (e *env) until(what string, cond func() bool, show ...func() string) {
	e.t.Helper()
	e.untilWithin(15*time.Second, what, cond, show...)
}

// untilWithin is until with a time-out of d.
func (e *env) untilWithin(d time.Duration, what string, cond func() bool, show ...func() string) {
	e.t.Helper()
	deadline := time.Now().Add(d)
	for {
		e.u.Wait()
		var ok bool
		e.u.locked(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var seen string
			for _, f := range show {
				e.u.locked(func() { seen = f() })
			}
			e.t.Fatalf("timed out waiting for %s%s", what, seen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tap presses the button labelled label under obj.
func (e *env) tap(obj fyne.CanvasObject, label string) {
	e.t.Helper()
	var b *widget.Button
	e.u.locked(func() { b = findButton(obj, label) })
	if b == nil {
		e.t.Fatalf("no %q button", label)
	}
	e.u.locked(func() { test.Tap(b) })
}

// walk visits obj and everything it holds.
func walk(obj fyne.CanvasObject, f func(fyne.CanvasObject)) {
	if obj == nil {
		return
	}
	f(obj)
	switch o := obj.(type) {
	case *fyne.Container:
		for _, c := range o.Objects {
			walk(c, f)
		}
	case *container.Scroll:
		walk(o.Content, f)
	case *widget.Card:
		walk(o.Content, f)
	case *widget.PopUp: // a dialog, in the window's overlays
		walk(o.Content, f)
	case *widget.Form:
		for _, it := range o.Items {
			walk(it.Widget, f)
		}
	}
}

func findButton(obj fyne.CanvasObject, label string) *widget.Button {
	var found *widget.Button
	walk(obj, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == label && found == nil && b.Visible() {
			found = b
		}
	})
	return found
}

// texts is texts(obj) read with the UI's lock, as its updates write it.
func (e *env) texts(obj fyne.CanvasObject) string {
	var s string
	e.u.locked(func() { s = texts(obj) })
	return s
}

// texts is every visible label's text under obj, one per line.
func texts(obj fyne.CanvasObject) string {
	var b strings.Builder
	walk(obj, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Visible() {
			b.WriteString(l.Text + "\n")
		}
	})
	return b.String()
}

func (e *env) menuItem(label string) *fyne.MenuItem {
	var found *fyne.MenuItem
	e.u.locked(func() {
		for _, it := range e.u.Menu().Items {
			if it.Label == label {
				found = it
			}
		}
	})
	if found == nil {
		e.t.Fatalf("no menu item %q", label)
	}
	return found
}

// TestApprovalsAgentsActivity: an agent's request shows in the pending
// window with its match code and a desktop notification; approving it
// there lets the agent's retry run; the agent then shows with its grant,
// which is revoked from the window; the activity chart counts the calls;
// blocking the agent's whole registrable domain refuses it.
func TestApprovalsAgentsActivity(t *testing.T) {
	e := newEnv(t, false)
	ctx := t.Context()
	_, err := e.agent.Call(ctx, "bills_due", map[string]any{})
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) {
		t.Fatalf("first call = %v, want approval_required", err)
	}
	e.until("the request in the pending window", func() bool {
		return strings.Contains(texts(e.u.pending.box), "Match code "+ar.MatchCode)
	})
	if got := e.texts(e.u.pending.box); !strings.Contains(got, "the bills you have to pay") || !strings.Contains(got, "90 days") {
		t.Errorf("pending window shows:\n%s", got)
	}
	e.until("a notification with the match code", func() bool { return e.fa.note(ar.MatchCode) != nil })
	e.until("the tray's approval state", func() bool { return e.u.trayState == iconApproval })

	e.tap(e.u.pending.box, "Approve")
	e.until("the request decided", func() bool { return strings.Contains(texts(e.u.pending.box), "No request waits") })
	if _, err := e.agent.Call(ctx, "bills_due", map[string]any{}); err != nil {
		t.Fatalf("call after approval in the window = %v", err)
	}

	e.u.Show(TabAgents)
	e.until("the grant in the agents window", func() bool {
		return strings.Contains(texts(e.u.agents.box), e.domain+" may read trips, orders and bills")
	})
	e.u.Show(TabActivity)
	e.until("the calls in the activity window", func() bool {
		return strings.Contains(texts(e.u.activity.box), "1 calls allowed") ||
			strings.Contains(texts(e.u.activity.box), "calls allowed (green), 1 refused")
	}, func() string { return "; the window shows:\n" + texts(e.u.activity.box) })
	var chart image.Image
	e.u.locked(func() { chart = e.u.activity.chart.Image })
	if !hasColor(chart, chartAllowed) || !hasColor(chart, chartOther) {
		t.Error("the activity chart has no bar of allowed calls or of the others")
	}

	e.u.Show(TabAgents)
	e.u.Wait()
	e.tap(e.u.agents.box, "Revoke")
	e.until("the grant revoked", func() bool { return strings.Contains(texts(e.u.agents.box), "No agent holds a grant") })
	if _, err := e.agent.Call(ctx, "bills_due", map[string]any{}); !errors.As(err, &ar) {
		t.Fatalf("call after revoking = %v, want approval_required", err)
	}
	e.until("the new request", func() bool { return strings.Contains(texts(e.u.pending.box), ar.MatchCode) })
	// The agent is hosted by the relay: its site is its own name, not
	// the relay's zone that every hosted agent is under.
	if s := e.node.Site(e.domain); s != e.domain {
		t.Fatalf("Site(%s) = %s, want the hosted name itself", e.domain, s)
	}
	e.tap(e.u.pending.box, "Block all of "+e.domain)
	e.until("the site blocked", func() bool {
		return strings.Contains(texts(e.u.agents.box), "every agent under "+e.domain) &&
			strings.Contains(texts(e.u.pending.box), "No request waits")
	})
	if _, err := e.agent.Call(ctx, "bills_due", map[string]any{}); !isToolError(err, "agent_blocked") {
		t.Fatalf("call after blocking the site = %v, want agent_blocked", err)
	}
	e.tap(e.u.agents.box, "Unblock")
	e.until("the site unblocked", func() bool { return strings.Contains(texts(e.u.agents.box), "No agent is blocked") })
}

// TestPairPhoneFromScreenshot: "Pair a phone" in the tray menu shows a QR
// code; the code read back from a capture of the window pairs the
// reference phone, and both sides show the same six digits.
func TestPairPhoneFromScreenshot(t *testing.T) {
	e := newEnv(t, false)
	e.menuItem("Pair a phone").Action()
	e.until("the QR code", func() bool { return e.u.phones.qr.Visible() && e.u.phones.offer.URL != "" })
	var shot image.Image
	var want string
	e.u.locked(func() {
		e.u.win.Resize(fyne.NewSize(900, 900))
		shot = e.u.win.Canvas().Capture()
		want = e.u.phones.offer.URL
	})
	got, err := screenqr.Read(shot)
	if err != nil {
		saveShot(t, shot)
		t.Fatalf("no QR code in the window's capture: %v", err)
	}
	if got != want {
		t.Fatalf("QR code says %q, want %q", got, want)
	}
	// The link names the node by its relay name: the phone reaches it
	// through the relay, wherever it is.
	if !strings.HasPrefix(want, "https://"+e.r.Host+"/phone/") {
		t.Errorf("pairing link %s does not name the relay name %s", want, e.r.Host)
	}
	_, sas, err := phoneclient.Pair(t.Context(), e.r.AgentHTTP(), got, "Test phone")
	if err != nil {
		t.Fatal(err)
	}
	e.until("the six-digit code", func() bool { return e.u.phones.sas.Text == sas && e.u.phones.confirm.Visible() })
	e.tap(e.u.phones.box, "The phone shows the same code")
	e.until("the paired phone", func() bool { return strings.Contains(texts(e.u.phones.box), "Test phone, paired") })
	// Whether it takes push notifications (issue 44): not until its app
	// subscribes.
	if got := e.texts(e.u.phones.box); !strings.Contains(got, "Push notifications: off.") {
		t.Errorf("the Phones window shows\n%s\nwant the phone's push state", got)
	}
	e.until("the node's status to count the phone", func() bool { return e.node.Status().Phones == 1 })
}

func isToolError(err error, code string) bool {
	var te *agent.ToolError
	return errors.As(err, &te) && te.Code == code
}

func saveShot(t *testing.T, img image.Image) {
	var b bytes.Buffer
	png.Encode(&b, img)
	p := filepath.Join(os.TempDir(), "mailnode-ui-"+t.Name()+".png")
	os.WriteFile(p, b.Bytes(), 0o600)
	t.Logf("capture saved to %s", p)
}

func hasColor(img image.Image, c color.NRGBA) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.NRGBAModel.Convert(img.At(x, y)) == c {
				return true
			}
		}
	}
	return false
}

// TestPauseAndNoTray: with no tray host the window stays open, says why,
// and closing it quits; "Pause sync" pauses the node and the menu then
// offers to resume.
func TestPauseAndNoTray(t *testing.T) {
	e := newEnv(t, false)
	if e.u.Tray() {
		t.Fatal("Tray() with no tray host")
	}
	if got := e.texts(e.u.status.box); !strings.Contains(got, "no tray on this desktop") {
		t.Errorf("status window does not say there is no tray:\n%s", got)
	}
	e.menuItem("Pause sync").Action()
	// The status window shows a status after the node's state has it
	// (UI.update, then applyLocked on the UI goroutine): wait for both.
	e.until("the sync paused", func() bool {
		return e.u.last.SyncPaused && e.u.trayState == iconPaused && strings.Contains(texts(e.u.status.box), "Sync paused")
	}, func() string { return "; status shows: " + texts(e.u.status.box) })
	if e.menuItem("Resume sync") == nil {
		t.Error("menu does not offer to resume")
	}
	e.menuItem("Resume sync").Action()
	e.until("the sync resumed", func() bool { return !e.u.last.SyncPaused })

	// Move to a new computer: the backup is saved from the settings.
	path := filepath.Join(t.TempDir(), "node.mnb")
	e.u.locked(func() {
		e.u.settings.backupPath.SetText(path)
		e.u.settings.backupPass.SetText("a long passphrase")
		e.u.settings.backupAgain.SetText("a long passphrase")
	})
	e.tap(e.u.settings.box, "Save the backup")
	e.until("the backup saved", func() bool { return strings.Contains(e.u.settings.backupDone.Text, "Saved "+path) })
	sealed, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := backup.Open(sealed, "a long passphrase"); err != nil {
		t.Errorf("the saved backup does not open: %v", err)
	}

	e.u.closeRequested()
	select {
	case <-e.quit:
	case <-time.After(5 * time.Second):
		t.Fatal("closing the window without a tray did not quit")
	}
}

// TestTrayFirst: started minimized with a tray, the app is its tray icon
// alone: no window exists, yet the icon follows the node, a request is
// announced and the sync pauses from the menu. A menu item asks Run for the
// windows, which it builds and opens at that tab.
func TestTrayFirst(t *testing.T) {
	tray := &fakeTray{}
	e := newEnvWith(t, func(o *Options) {
		o.TrayHost = func() bool { return true }
		o.Tray = tray
		o.Minimized = true
	})
	want := "Open|Pair a phone|Pending requests|Agents|Activity|Accounts|Pause sync||Quit"
	if got := tray.menu(); got != want {
		t.Errorf("tray menu = %q, want %q", got, want)
	}
	_, err := e.agent.Call(t.Context(), "bills_due", map[string]any{})
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) {
		t.Fatalf("call = %v, want approval_required", err)
	}
	e.until("the notification", func() bool { return e.fa.note(ar.MatchCode) != nil })
	e.until("the approval icon", func() bool { return tray.iconIs(e.u.icons[iconApproval].Content()) })

	tray.click(t, "Pause sync")
	e.until("the sync paused", func() bool { return e.node.Status().SyncPaused })
	e.until("the menu offering to resume", func() bool { return strings.Contains(tray.menu(), "Resume sync") })
	if e.u.Window() != nil {
		t.Fatal("a window exists before one was asked for")
	}

	tray.click(t, "Pending requests")
	ran := make(chan struct{})
	go func() { e.u.Run(); close(ran) }() // Fyne's test app has no loop: Run returns once the windows are up
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not build the windows")
	}
	e.until("the pending tab with the request", func() bool {
		return e.u.tabs.Selected().Text == TabPending && strings.Contains(texts(e.u.pending.box), "Match code "+ar.MatchCode)
	})
	tray.click(t, "Open")
	e.until("the status tab, the windows knowing of the pause", func() bool {
		return e.u.tabs.Selected().Text == TabStatus && e.u.shown.SyncPaused && strings.Contains(texts(e.u.status.box), "1 request waiting")
	}, func() string { return "; saw " + e.u.tabs.Selected().Text + ": " + texts(e.u.status.box) })

	tray.click(t, "Quit")
	select {
	case <-e.quit:
	case <-time.After(5 * time.Second):
		t.Fatal("Quit from the tray did not quit")
	}
	e.u.Close()
	if !tray.stopped {
		t.Error("Close left the tray icon")
	}
}

// TestRestoreFromSettings: the settings hand a backup file and its
// passphrase to Options.Restore; a wrong passphrase is said in the window
// and restores nothing.
func TestRestoreFromSettings(t *testing.T) {
	restored := make(chan []byte, 1)
	e := newEnvWith(t, func(o *Options) {
		o.TrayHost = func() bool { return false }
		o.Restore = func(_ context.Context, sealed []byte, pass string) error {
			if _, err := backup.Open(sealed, pass); err != nil {
				return err
			}
			restored <- sealed
			return nil
		}
	})
	sealed, err := e.node.Backup(t.Context(), "the old computer's passphrase")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.mnb")
	if err := os.WriteFile(path, sealed, 0o600); err != nil {
		t.Fatal(err)
	}
	e.u.Show(TabSettings)
	e.u.locked(func() {
		e.u.settings.restorePath.SetText(path)
		e.u.settings.restorePass.SetText("not the passphrase")
	})
	// Each try derives the key from the passphrase with Argon2id (256 MiB,
	// 4 passes: app/backup), a second or more, and under the race detector
	// on a loaded machine over ten.
	const derivation = time.Minute
	e.tap(e.u.settings.box, "Restore and restart")
	e.untilWithin(derivation, "the passphrase refused", func() bool {
		return e.u.settings.errLabel.Visible() && strings.Contains(e.u.settings.errLabel.Text, "passphrase is wrong")
	})
	if len(restored) > 0 {
		t.Fatal("a wrong passphrase restored")
	}
	e.u.locked(func() { e.u.settings.restorePass.SetText("the old computer's passphrase") })
	e.tap(e.u.settings.box, "Restore and restart")
	select {
	case got := <-restored:
		if !bytes.Equal(got, sealed) {
			t.Error("Restore was handed other bytes than the file's")
		}
	case <-time.After(derivation):
		t.Fatal("Restore was not called")
	}
	e.until("the restart announced", func() bool { return strings.Contains(e.u.settings.restoreDone.Text, "mailnode restarts") })
}

// TestBackupOfferedPassphrase (issue 40 item 8): the backup form shows a
// passphrase of six random words; saved with both fields empty, the file
// opens with those words. "Other words" offers new ones, and a passphrase
// typed twice still wins.
func TestBackupOfferedPassphrase(t *testing.T) {
	e := newEnvWith(t, func(o *Options) { o.TrayHost = func() bool { return false } })
	e.u.Show(TabSettings)
	offered := func() string {
		_, rest, ok := strings.Cut(e.texts(e.u.settings.box), "Passphrase made for you: ")
		words, _, _ := strings.Cut(rest, "\n")
		if !ok || len(strings.Fields(words)) != backup.PassphraseWords {
			t.Fatalf("the settings offer no passphrase of %d words:\n%s", backup.PassphraseWords, e.texts(e.u.settings.box))
		}
		return words
	}
	first := offered()
	e.tap(e.u.settings.box, "Other words")
	offer := offered()
	if offer == first {
		t.Errorf("Other words kept %q", offer)
	}

	dir := t.TempDir()
	for i, typed := range []string{"", "a passphrase of my own"} {
		path := filepath.Join(dir, fmt.Sprintf("node%d.mnb", i))
		e.u.locked(func() {
			e.u.settings.backupPath.SetText(path)
			e.u.settings.backupPass.SetText(typed)
			e.u.settings.backupAgain.SetText(typed)
		})
		e.tap(e.u.settings.box, "Save the backup")
		e.until("the backup saved", func() bool { return strings.Contains(e.u.settings.backupDone.Text, "Saved "+path) },
			func() string { return "; error: " + e.u.settings.errLabel.Text })
		sealed, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := typed
		if typed == "" {
			want = offer
		}
		if _, err := backup.Open(sealed, want); err != nil {
			t.Errorf("the backup saved with %q does not open with %q: %v", typed, want, err)
		}
	}
}

// TestQuitInTray: Quit before any window ends Run without starting Fyne.
func TestQuitInTray(t *testing.T) {
	e := newEnvWith(t, func(o *Options) {
		o.TrayHost = func() bool { return true }
		o.Tray = &fakeTray{}
		o.Minimized = true
		o.OnQuit = nil
	})
	ran := make(chan struct{})
	go func() { e.u.Run(); close(ran) }()
	e.u.Quit()
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not end at Quit")
	}
	if e.u.Window() != nil {
		t.Error("Quit built a window")
	}
}

func TestTrayState(t *testing.T) {
	tests := []struct {
		st   app.Status
		want string
	}{
		{app.Status{State: app.StateIdle}, iconSynced},
		{app.Status{State: app.StateSyncing}, iconSyncing},
		{app.Status{State: app.StateOffline}, iconOffline},
		{app.Status{State: app.StateOffline, Pending: 1}, iconApproval},
		{app.Status{State: app.StateError, Pending: 3}, iconError},
		{app.Status{State: app.StatePaused}, iconPaused},
		{app.Status{State: app.StateStarting}, iconStarting},
	}
	for _, tt := range tests {
		if got := trayState(tt.st); got != tt.want {
			t.Errorf("trayState(%s, %d pending) = %s, want %s", tt.st.State, tt.st.Pending, got, tt.want)
		}
	}
	icons := makeIcons()
	seen := map[string]string{}
	for state := range badge {
		img, err := png.Decode(bytes.NewReader(icons[state].Content()))
		if err != nil {
			t.Fatalf("icon %s: %v", state, err)
		}
		if !hasColor(img, badge[state]) {
			t.Errorf("icon %s has no dot of its colour", state)
		}
		seen[string(icons[state].Content())] = state
	}
	if len(seen) != len(badge)-1 { // starting and offline share grey
		t.Errorf("%d distinct icons for %d states", len(seen), len(badge))
	}
}

func TestStatusView(t *testing.T) {
	test.NewTempApp(t)
	now := time.Now()
	tests := []struct {
		st           app.Status
		want         []string
		progressShow bool
	}{
		{st: app.Status{State: app.StateSyncing, Messages: 12, Folders: []app.FolderStatus{
			{Account: "a", Folder: "INBOX", Done: 3, Total: 10, Started: now},
			{Account: "a", Folder: "Archive", Done: 5, Total: 5, Finished: true}}},
			want: []string{"Copying your mail", "3 of 10 new messages copied (INBOX)", "12 messages"}, progressShow: true},
		{st: app.Status{State: app.StateIdle}, want: []string{"No mail account yet"}},
		// After an extractor upgrade (issue 47 item 5).
		{st: app.Status{State: app.StateIdle, Messages: 50000, Facts: app.FactsStatus{Bills: 3, Done: 1280, Total: 50000}},
			want: []string{"Up to date", "Re-reading 1280 of 50000 messages", "agents get what was read before"}, progressShow: true},
		{st: app.Status{State: app.StateIdle, Messages: 44, Facts: app.FactsStatus{Trips: 1, Orders: 2, Bills: 3}, Phones: 1},
			want: []string{"Up to date", "1 trip, 2 orders, 3 bills", "1 phone paired", "serves none"}},
		// A request waits and no phone gets push (issue 44).
		{st: app.Status{State: app.StateIdle, Pending: 1, Phones: 1, PushUnreachable: true},
			want: []string{"1 request waiting for you; no paired phone gets push notifications, so open the phone app to decide"}},
		{st: app.Status{State: app.StateOffline, LastError: "cannot reach the mail server for account a; retrying"},
			want: []string{"Offline", "cannot reach the mail server"}},
		{st: app.Status{State: app.StateIdle, Pending: 2, Gateway: app.GatewayStatus{Relay: app.RelayStatus{
			URL: "https://relay.example", State: "connected", Address: "jo@example.net"}}},
			want: []string{"2 requests waiting for you", "Agents reach you as jo@example.net through https://relay.example"}},
		// Every address the node is reached at, and from where (issue 42 item 6).
		{st: app.Status{State: app.StateIdle, Gateway: app.GatewayStatus{URL: "https://localhost:8443/mcp", Listen: "127.0.0.1:8443"}},
			want: []string{"Agents and phones reach this node at https://localhost:8443/mcp (this computer only)."}},
		{st: app.Status{State: app.StateIdle, Gateway: app.GatewayStatus{URL: "https://localhost:8443/mcp", Listen: "127.0.0.1:8443",
			LANURL: "https://192.168.1.20:8443/mcp"}},
			want: []string{"(this computer only)", "On this computer's local network: https://192.168.1.20:8443/mcp, for phones on the same network"}},
		{st: app.Status{State: app.StateIdle, Gateway: app.GatewayStatus{URL: "https://node.example.net/mcp", Listen: "[::]:443",
			Relay: app.RelayStatus{URL: "https://relay.example", State: "connected", Address: "jo@example.net", PublicURL: "https://k3.relay.example/mcp"}}},
			want: []string{"(every network this computer is on)", "through https://relay.example, at https://k3.relay.example/mcp, from any network"}},
	}
	for _, tt := range tests {
		v := newStatusView(&UI{})
		v.show(tt.st)
		got := texts(v.box)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("status %s shows:\n%s\nwant %q", tt.st.State, got, w)
			}
		}
		if v.progress.Visible() != tt.progressShow {
			t.Errorf("status %s: progress bar shown %v", tt.st.State, v.progress.Visible())
		}
	}
}

func TestDailyCounts(t *testing.T) {
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.Local)
	entries := []approvals.AuditEntry{
		{At: now.Add(-time.Hour), Decision: approvals.Allowed},
		{At: now.Add(-2 * time.Hour), Decision: approvals.ApprovalRequired},
		{At: now.AddDate(0, 0, -1), Decision: approvals.Allowed},
		{At: now.AddDate(0, 0, -13), Decision: approvals.AgentBlocked},
		{At: now.AddDate(0, 0, -14), Decision: approvals.Allowed}, // outside the chart
	}
	days := dailyCounts(entries, now, 14)
	got := fmt.Sprint(days[13].Allowed, days[13].Other, days[12].Allowed, days[0].Other, len(days))
	if got != "1 1 1 1 14" {
		t.Errorf("dailyCounts = %s, want 1 1 1 1 14", got)
	}
	if !hasColor(chartImage(days), chartAllowed) {
		t.Error("chart has no allowed bar")
	}
}

// TestActivityLine: the list shows a call the agent repeated while it
// waited once, with how often it asked.
func TestActivityLine(t *testing.T) {
	at := time.Date(2027, 1, 2, 3, 4, 0, 0, time.Local)
	tests := []struct {
		decision approvals.Outcome
		retries  int
		want     string
	}{
		{approvals.ApprovalRequired, 0, "2 Jan 03:04  agent.example  get_excerpt (raw_read): asked you"},
		{approvals.ApprovalRequired, 29, "2 Jan 03:04  agent.example  get_excerpt (raw_read): asked you 30 times"},
		{approvals.Allowed, 0, "2 Jan 03:04  agent.example  get_excerpt (raw_read): allowed"},
	}
	for _, tt := range tests {
		e := approvals.AuditEntry{At: at, Domain: "agent.example", Tool: "get_excerpt", Tier: approvals.RawRead,
			Decision: tt.decision, Retries: tt.retries}
		if got := activityLine(e); got != tt.want {
			t.Errorf("activityLine(%s, retries %d) = %q, want %q", tt.decision, tt.retries, got, tt.want)
		}
	}
}
