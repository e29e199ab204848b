package ui

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"mailnode/app"
	"mailnode/app/autostart"
	"mailnode/approvals"
)

// Tab names, in the main window's order. The tray menu opens the window at
// one of them.
const (
	TabStatus   = "Status"
	TabPending  = "Pending requests"
	TabAgents   = "Agents"
	TabActivity = "Activity"
	TabPhones   = "Phones"
	TabAccounts = "Accounts"
	TabSettings = "Settings"
)

// The windows' sizes (issue 42 item 5). Each, with a title bar and a
// desktop's panel, fits a 1280×720 screen (the height that binds) and a
// 1024×768 one (the width). Fyne's desktop driver grows a window to its
// content's minimum size, so every tab's content keeps that minimum below
// these: long text wraps, long lists scroll (TestWindowsFit).
var (
	mainWindowSize   = fyne.NewSize(880, 600)
	wizardWindowSize = fyne.NewSize(560, 480)
)

// Options are the desktop app's settings.
type Options struct {
	Logger *slog.Logger
	// Minimized starts with the window hidden (autostart at login); it
	// has no effect where no tray host runs.
	Minimized bool
	// TrayHost reports whether a tray host runs. Default: ask the session
	// bus for org.kde.StatusNotifierWatcher.
	TrayHost func() bool
	// Tray is the tray icon. Default: a StatusNotifierItem.
	Tray Tray
	// Version is shown in the settings.
	Version string
	// Autostart is the start-at-login entry the settings switch writes
	// (an XDG autostart file, a LaunchAgent, a Run value); zero: not
	// offered.
	Autostart autostart.Entry
	// OnQuit is called once when the user quits; the caller stops the
	// node. Default: end Run.
	OnQuit func()
	// Restore, if set, replaces this node with a sealed backup's (the
	// settings' "Restore from another computer"): it returns an error a
	// person understands (a wrong passphrase) before anything changes,
	// and otherwise ends the app to start again as the restored node.
	Restore func(ctx context.Context, sealed []byte, passphrase string) error
	// StallFile, if set, is where Close writes how late the UI goroutine
	// ran work handed to it (a 10 ms ticker's fyne.Do latency), each
	// sample with its time: the figure docs/benchmarks.md reports for an
	// initial sync.
	StallFile string
	// StallTrace, with StallFile, is where the meter writes the runtime's
	// execution trace of the seconds up to the longest stall over 30 ms.
	StallTrace string
	// LayoutFile, if set, is where the windows on screen are checked
	// every 200 ms for a widget that ends outside its window or whose
	// text is cut, as TestWindowsFit does on Fyne's test driver: JSON
	// lines (LayoutCheck) that app/ui/desktoptest reads.
	LayoutFile string
	// OpenURL opens a page in the system browser: a provider's sign-in
	// page. Default: Fyne's OpenURL.
	OpenURL func(*url.URL) error
}

// UI is the desktop app over one node.
//
// It has two lives. In the tray alone (a tray host and --minimized, the
// state an autostarted app spends its days in) only the tray icon, the
// status stream and desktop notifications run: no window exists and
// Fyne's event loop has not started. The first time a window is needed
// (a menu item, a second launch, the setup wizard) Run builds the windows
// on the main goroutine and starts Fyne's loop for the rest of the run.
type UI struct {
	fa   fyne.App
	node *app.Node
	opts Options
	log  *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	calls  sync.WaitGroup // node calls and the status reader under way
	// inflight counts node calls whose result is not shown yet.
	inflight atomic.Int32
	quitting atomic.Bool
	ended    chan struct{} // closed by Quit
	openReq  chan openRequest

	trayIcon  Tray
	tray      bool // the app lives in a tray icon
	menu      *fyne.Menu
	pauseItem *fyne.MenuItem
	pauseAt   int // pauseItem's index in menu
	icons     map[string]fyne.Resource
	notified  map[string]bool // approval IDs already announced; the status reader's

	// mu serialises changes to the widgets and guards the fields below.
	// On the real driver every widget change already runs on the UI
	// goroutine; Fyne's test driver runs fyne.Do on the caller's
	// goroutine, and mu keeps those changes from racing.
	mu        sync.Mutex
	last      app.Status // the node's newest status
	trayState string     // the state whose icon the tray shows
	windowsUp bool       // the windows exist and Fyne's loop runs them
	shown     app.Status // the status the windows show
	win       fyne.Window
	tabs      *container.AppTabs
	tabItems  map[string]*container.TabItem
	status    *statusView
	pending   *pendingView
	agents    *agentsView
	activity  *activityView
	phones    *phonesView
	accounts  *accountsView
	settings  *settingsView
	wiz       *wizard // the setup wizard while it is open
	winShown  bool    // the main window is on screen
	stalls    stallMeter
	idle      idler
}

// openRequest asks for the windows: a tab to show (or none) and what to do
// on the UI goroutine once it shows.
type openRequest struct {
	tab  string
	then func()
}

// New builds the app's tray menu over a started node. Call Start, then Run
// on the main goroutine.
func New(fa fyne.App, node *app.Node, opts Options) *UI {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.TrayHost == nil {
		opts.TrayHost = trayHostOnSessionBus
	}
	if opts.Tray == nil {
		opts.Tray = newStatusNotifierTray("mailnode")
	}
	if opts.OpenURL == nil {
		opts.OpenURL = fa.OpenURL
	}
	ctx, cancel := context.WithCancel(context.Background())
	u := &UI{fa: fa, node: node, opts: opts, log: opts.Logger.With("component", "ui"),
		ctx: ctx, cancel: cancel, notified: map[string]bool{}, icons: makeIcons(), trayIcon: opts.Tray,
		ended: make(chan struct{}), openReq: make(chan openRequest, 4)}
	u.idle.w = newEventWaiter()
	u.buildMenu()
	return u
}

// buildMenu makes the tray menu. Its actions may run on any goroutine.
func (u *UI) buildMenu() {
	u.pauseItem = fyne.NewMenuItem("Pause sync", func() { u.togglePause() })
	u.menu = fyne.NewMenu("mailnode",
		fyne.NewMenuItem("Open", func() { u.Show(TabStatus) }),
		fyne.NewMenuItem("Pair a phone", func() { u.open(TabPhones, func() { u.phones.pair() }) }),
		fyne.NewMenuItem(TabPending, func() { u.Show(TabPending) }),
		fyne.NewMenuItem(TabAgents, func() { u.Show(TabAgents) }),
		fyne.NewMenuItem(TabActivity, func() { u.Show(TabActivity) }),
		fyne.NewMenuItem(TabAccounts, func() { u.Show(TabAccounts) }),
		u.pauseItem,
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Quit", func() { u.Quit() }),
	)
	u.pauseAt = 6
	u.menu.Items[len(u.menu.Items)-1].IsQuit = true
}

// buildWindowsLocked makes the main window and its tabs, once.
func (u *UI) buildWindowsLocked() {
	if u.windowsUp {
		return
	}
	u.windowsUp = true
	u.win = u.fa.NewWindow("mailnode")
	u.status = newStatusView(u)
	u.pending = newPendingView(u)
	u.agents = newAgentsView(u)
	u.activity = newActivityView(u)
	u.phones = newPhonesView(u)
	u.accounts = newAccountsView(u)
	u.settings = newSettingsView(u)
	u.tabItems = map[string]*container.TabItem{
		TabStatus:   container.NewTabItem(TabStatus, container.NewVScroll(u.status.box)),
		TabPending:  container.NewTabItem(TabPending, u.pending.box),
		TabAgents:   container.NewTabItem(TabAgents, u.agents.box),
		TabActivity: container.NewTabItem(TabActivity, u.activity.box),
		TabPhones:   container.NewTabItem(TabPhones, u.phones.box),
		TabAccounts: container.NewTabItem(TabAccounts, u.accounts.box),
		TabSettings: container.NewTabItem(TabSettings, container.NewVScroll(u.settings.box)),
	}
	u.tabs = container.NewAppTabs()
	for _, name := range []string{TabStatus, TabPending, TabAgents, TabActivity, TabPhones, TabAccounts, TabSettings} {
		u.tabs.Append(u.tabItems[name])
	}
	u.tabs.SetTabLocation(container.TabLocationLeading)
	u.tabs.OnSelected = func(t *container.TabItem) { u.refresh(t.Text) }
	u.win.SetContent(u.tabs)
	u.win.Resize(mainWindowSize)
	u.win.SetCloseIntercept(u.closeRequested)
	if !u.tray {
		u.status.note("There is no tray on this desktop, so mailnode keeps this window open. " +
			"Closing it quits mailnode. (On GNOME, the AppIndicator extension adds a tray.)")
	}
	u.applyLocked(u.last)
	if u.opts.StallFile != "" {
		u.calls.Add(1)
		go u.meterStalls()
	}
	if u.opts.LayoutFile != "" {
		u.calls.Add(1)
		go u.checkLayouts()
	}
}

// Start puts the icon in the tray and begins following the node's status.
// The windows are built at once where there is no tray or the app was not
// started minimized; otherwise when first asked for.
func (u *UI) Start() {
	u.tray = u.opts.TrayHost()
	if u.tray {
		items := make([]TrayItem, len(u.menu.Items))
		for i, it := range u.menu.Items {
			if !it.IsSeparator {
				items[i] = TrayItem{Label: it.Label, Action: it.Action}
			}
		}
		u.trayIcon.Start(items, func() { u.Show(TabStatus) })
	} else {
		u.log.Warn("No tray host on this desktop: keeping a window open instead of a tray icon " +
			"(on GNOME, install the AppIndicator extension for a tray icon)")
	}
	u.update(u.node.Status())
	u.calls.Add(1)
	go u.follow()
	if !u.opts.Minimized || !u.tray {
		u.locked(func() {
			u.buildWindowsLocked()
			u.win.Show()
			u.winShown = true
		})
	}
}

// Run runs the app on the main goroutine until Quit. Until a window is
// asked for it only waits; then it builds the windows and runs Fyne's
// event loop.
func (u *UI) Run() {
	u.mu.Lock()
	up := u.windowsUp
	u.mu.Unlock()
	if !up {
		select {
		case req := <-u.openReq:
			u.locked(func() {
				u.buildWindowsLocked()
				u.serveLocked(req)
				// Requests sent before the windows were up.
				for len(u.openReq) > 0 {
					u.serveLocked(<-u.openReq)
				}
			})
		case <-u.ended:
			return
		}
	}
	u.startIdler()
	u.fa.Run()
}

// Tray reports whether the app lives in a tray icon.
func (u *UI) Tray() bool { return u.tray }

// Window is the main window; nil until it is first needed.
func (u *UI) Window() fyne.Window {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.win
}

// Menu is the tray menu.
func (u *UI) Menu() *fyne.Menu { return u.menu }

// Show brings the main window up at a tab, from any goroutine.
func (u *UI) Show(tab string) { u.open(tab, nil) }

// open shows the windows at a tab ("": leave the main window as it is) and
// then runs then on the UI goroutine. From any goroutine: before the
// windows exist it asks Run for them.
func (u *UI) open(tab string, then func()) {
	req := openRequest{tab: tab, then: then}
	u.mu.Lock()
	if !u.windowsUp {
		select {
		case u.openReq <- req:
		default: // enough requests wait already
		}
		u.mu.Unlock()
		return
	}
	u.mu.Unlock()
	u.do(func() { u.serveLocked(req) })
}

func (u *UI) serveLocked(req openRequest) {
	if req.tab != "" {
		u.showLocked(req.tab)
	}
	if req.then != nil {
		req.then()
	}
}

// showLocked is Show on the UI goroutine with the windows built.
// (Callbacks of widgets run on the UI goroutine; the names that end in
// Locked are for them and for fyne.Do, never for other goroutines.)
func (u *UI) showLocked(tab string) {
	if it, ok := u.tabItems[tab]; ok {
		u.tabs.Select(it)
	}
	u.win.Show()
	u.winShown = true
	u.win.RequestFocus()
}

// closeRequested is the window's close button: it hides the window while
// the tray icon stays (the node keeps serving), and quits where there is
// no tray to come back from.
func (u *UI) closeRequested() {
	if u.tray {
		u.win.Hide()
		u.winShown = false
		return
	}
	u.Quit()
}

// Quit ends the app: OnQuit, or Run returns. From any goroutine, once.
func (u *UI) Quit() {
	u.active() // a wait under way ends, before quitting turns wake off
	if !u.quitting.CompareAndSwap(false, true) {
		return
	}
	u.cancel()
	close(u.ended)
	if u.opts.OnQuit != nil {
		u.opts.OnQuit()
		return
	}
	u.mu.Lock()
	up := u.windowsUp
	u.mu.Unlock()
	if up {
		// From a goroutine of its own: fyne.Do on the UI goroutine
		// itself (the close button) is an error in Fyne.
		go fyne.Do(u.fa.Quit)
	}
}

// Close stops following the node, waits for the calls under way and
// removes the tray icon.
func (u *UI) Close() {
	// Fyne also ends on its own at SIGINT and SIGTERM: a later Quit finds
	// nothing to stop.
	u.quitting.Store(true)
	u.cancel()
	u.calls.Wait()
	if u.tray {
		u.trayIcon.Stop()
	}
	if u.opts.StallFile != "" {
		if err := u.stalls.write(u.opts.StallFile); err != nil {
			u.log.Warn("Cannot write the UI stall figures", "err", err)
		}
	}
}

// follow applies every status the node announces.
func (u *UI) follow() {
	defer u.calls.Done()
	sub, unsubscribe := u.node.Subscribe()
	defer unsubscribe()
	for {
		select {
		case st, ok := <-sub:
			if !ok {
				return
			}
			u.update(st)
		case <-u.ctx.Done():
			return
		}
	}
}

// update shows a new status in the tray, announces new requests and hands
// it to the windows if they exist.
func (u *UI) update(st app.Status) {
	u.mu.Lock()
	prev := u.last
	u.last = st
	up := u.windowsUp
	state := trayState(st)
	iconChanged := state != u.trayState
	u.trayState = state
	label := "Pause sync"
	if st.SyncPaused {
		label = "Resume sync"
	}
	labelChanged := u.pauseItem.Label != label
	u.pauseItem.Label = label
	u.mu.Unlock()

	if u.tray && iconChanged {
		u.trayIcon.SetIcon(u.icons[state].Content())
	}
	if u.tray && labelChanged {
		u.trayIcon.SetLabel(u.pauseAt, label)
	}
	if st.ShowRequests > prev.ShowRequests && prev.State != "" {
		u.Show(TabStatus)
	}
	if st.Pending > 0 && st.Pending != prev.Pending {
		u.announce()
	}
	if up {
		u.push(func() { u.applyLocked(st) })
	}
}

// applyLocked shows a status in the windows.
func (u *UI) applyLocked(st app.Status) {
	prev := u.shown
	u.shown = st
	u.status.show(st)
	if st.Pending != prev.Pending {
		u.pending.load()
	}
	if st.Phones != prev.Phones || st.PushPhones != prev.PushPhones {
		u.phones.load()
	}
	if st.Gateway.LANURL != prev.Gateway.LANURL {
		u.phones.showLAN(st.Gateway.LANURL)
	}
	if st.Settings != prev.Settings || len(st.Accounts) != len(prev.Accounts) || accountProblems(st) != accountProblems(prev) {
		u.accounts.load()
		u.settings.load()
	}
}

// accountProblems is every account's problem, to notice a change.
func accountProblems(st app.Status) string {
	var b strings.Builder
	for _, a := range st.Accounts {
		b.WriteString(a.Problem + "\n")
	}
	return b.String()
}

// openURL opens a provider's sign-in page in the system browser.
func (u *UI) openURL(page string) error {
	parsed, err := url.Parse(page)
	if err != nil {
		return err
	}
	return u.opts.OpenURL(parsed)
}

// announce sends a desktop notification for each request not announced
// before: the person decides on the phone, and learns here that one waits.
// It runs on the status reader, with or without windows.
func (u *UI) announce() {
	ctx, cancel := context.WithTimeout(u.ctx, callTimeout)
	defer cancel()
	pending, err := u.node.Pending(ctx)
	if err != nil {
		u.log.Warn("Cannot list the pending requests", "err", err)
		return
	}
	for _, a := range pending {
		if u.notified[a.ID] {
			continue
		}
		u.notified[a.ID] = true
		n := fyne.NewNotification("mailnode: "+a.Domain+" asks",
			fmt.Sprintf("%s (%s). Match code %s. Decide on your phone.", toolLabel(a.Tool), a.Tier, a.MatchCode))
		if a.Tier == approvals.Send {
			n = fyne.NewNotification("mailnode: a mail waits to be sent",
				fmt.Sprintf("%s wants to send a draft. Only your phone can approve it. Match code %s.", a.Domain, a.MatchCode))
		}
		if u.node.Status().PushUnreachable {
			n.Content += " No paired phone gets push notifications: open the phone app."
		}
		u.fa.SendNotification(n)
	}
}

// refresh reloads what a tab shows when it is opened.
func (u *UI) refresh(tab string) {
	switch tab {
	case TabPending:
		u.pending.load()
	case TabAgents:
		u.agents.load()
	case TabActivity:
		u.activity.load()
	case TabPhones:
		u.phones.load()
	case TabAccounts:
		u.accounts.load()
	case TabSettings:
		u.settings.load()
	}
}

// togglePause pauses or resumes the sync; from any goroutine (the tray
// menu's).
func (u *UI) togglePause() {
	u.mu.Lock()
	paused := !u.last.SyncPaused
	u.mu.Unlock()
	call(u, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, u.node.PauseSync(ctx, paused)
	}, func(_ struct{}, err error) {
		if err == nil {
			return
		}
		u.log.Warn("Cannot pause or resume the sync", "err", err)
		if u.status != nil {
			u.status.fail(err)
		}
	})
}

// do runs f on the UI goroutine with the widgets' lock, without waiting:
// it may be called from the UI goroutine itself (a button) or another.
func (u *UI) do(f func()) {
	fyne.Do(func() { u.locked(f) })
	u.active()
}

// push is do for what the node announces on its own (a status): it is
// shown at once but is not the person's activity, and the loop goes back
// to waiting after it (idle.go).
func (u *UI) push(f func()) {
	fyne.Do(func() { u.locked(f) })
	u.wake()
}

// deliver is do for a node call's result. Before the windows exist
// Fyne's loop does not run and fyne.Do would keep f forever: f runs here,
// with the lock, and touches no widget (none exists).
func (u *UI) deliver(f func()) {
	u.mu.Lock()
	if !u.windowsUp {
		defer u.mu.Unlock()
		f()
		return
	}
	u.mu.Unlock()
	u.do(f)
}

func (u *UI) locked(f func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	f()
}

// callTimeout bounds one node call: the node answers from its own disk.
const callTimeout = 30 * time.Second

// call runs f off the UI goroutine and shows its result with done on it.
func call[T any](u *UI, f func(context.Context) (T, error), done func(T, error)) {
	run(u, true, callTimeout, f, done)
}

// watch is call for a wait of unknown length (a phone that may scan a code
// for minutes): Wait does not wait for it, Close does.
func watch[T any](u *UI, f func(context.Context) (T, error), done func(T, error)) {
	run(u, false, 0, f, done)
}

func run[T any](u *UI, counted bool, timeout time.Duration, f func(context.Context) (T, error), done func(T, error)) {
	u.calls.Add(1)
	if counted {
		u.inflight.Add(1)
	}
	go func() {
		defer u.calls.Done()
		if counted {
			// Counted until the result is shown, so that a call started
			// by done is counted before this one ends.
			defer u.inflight.Add(-1)
		}
		ctx, cancel := context.WithCancel(u.ctx)
		if timeout > 0 {
			ctx, cancel = context.WithTimeout(u.ctx, timeout)
		}
		defer cancel()
		v, err := f(ctx)
		if u.ctx.Err() != nil {
			return // the app is closing: nothing left to show it in
		}
		u.deliver(func() { done(v, err) })
	}()
}

// Wait waits until no node call is under way; tests call it before they
// read what a window shows. A call's result may start another call (a
// decision reloads its list): Wait sees that one too, since the first is
// counted until its result is shown.
func (u *UI) Wait() {
	for u.inflight.Load() > 0 {
		time.Sleep(2 * time.Millisecond)
	}
}
