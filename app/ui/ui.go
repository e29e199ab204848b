package ui

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"

	"mailnode/app"
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

// Options are the desktop app's settings.
type Options struct {
	Logger *slog.Logger
	// Minimized starts with the window hidden (autostart at login); it
	// has no effect where no tray host runs.
	Minimized bool
	// TrayHost reports whether a tray host runs. Default: ask the session
	// bus for org.kde.StatusNotifierWatcher.
	TrayHost func() bool
	// Version is shown in the settings.
	Version string
	// Autostart is the XDG autostart entry the settings switch writes;
	// zero: not offered.
	Autostart Autostart
	// OnQuit is called once when the user quits, after the window closed;
	// the caller stops the node. Default: fyne's Quit.
	OnQuit func()
	// StallFile, if set, is where Close writes how long the UI goroutine
	// was kept from running work handed to it (a 10 ms ticker's fyne.Do
	// latency): the figure docs/benchmarks.md reports for an initial sync.
	StallFile string
}

// UI is the desktop app over one node.
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

	// mu serialises changes to the widgets. On the real driver every change
	// already runs on the UI goroutine and mu is never contended; Fyne's test
	// driver runs fyne.Do on the caller's goroutine, and mu keeps those
	// changes from racing.
	mu        sync.Mutex
	win       fyne.Window
	tabs      *container.AppTabs
	tabItems  map[string]*container.TabItem
	tray      bool
	trayIcon  string // the state whose icon the tray shows
	menu      *fyne.Menu
	pauseItem *fyne.MenuItem
	status    *statusView
	pending   *pendingView
	agents    *agentsView
	activity  *activityView
	phones    *phonesView
	accounts  *accountsView
	settings  *settingsView
	last      app.Status
	notified  map[string]bool // approval IDs already announced
	icons     map[string]fyne.Resource
	wiz       *wizard // the setup wizard while it is open
	stalls    stallMeter
}

// New builds the app's windows and tray over a started node. Call Start,
// then the fyne app's Run.
func New(fa fyne.App, node *app.Node, opts Options) *UI {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.TrayHost == nil {
		opts.TrayHost = trayHostOnSessionBus
	}
	ctx, cancel := context.WithCancel(context.Background())
	u := &UI{fa: fa, node: node, opts: opts, log: opts.Logger.With("component", "ui"),
		ctx: ctx, cancel: cancel, notified: map[string]bool{}, icons: makeIcons()}
	u.build()
	return u
}

func (u *UI) build() {
	u.win = u.fa.NewWindow("mailnode")
	u.status = newStatusView(u)
	u.pending = newPendingView(u)
	u.agents = newAgentsView(u)
	u.activity = newActivityView(u)
	u.phones = newPhonesView(u)
	u.accounts = newAccountsView(u)
	u.settings = newSettingsView(u)
	u.tabItems = map[string]*container.TabItem{
		TabStatus:   container.NewTabItem(TabStatus, u.status.box),
		TabPending:  container.NewTabItem(TabPending, u.pending.box),
		TabAgents:   container.NewTabItem(TabAgents, u.agents.box),
		TabActivity: container.NewTabItem(TabActivity, u.activity.box),
		TabPhones:   container.NewTabItem(TabPhones, u.phones.box),
		TabAccounts: container.NewTabItem(TabAccounts, u.accounts.box),
		TabSettings: container.NewTabItem(TabSettings, u.settings.box),
	}
	u.tabs = container.NewAppTabs()
	for _, name := range []string{TabStatus, TabPending, TabAgents, TabActivity, TabPhones, TabAccounts, TabSettings} {
		u.tabs.Append(u.tabItems[name])
	}
	u.tabs.SetTabLocation(container.TabLocationLeading)
	u.tabs.OnSelected = func(t *container.TabItem) { u.refresh(t.Text) }
	u.win.SetContent(u.tabs)
	u.win.Resize(fyne.NewSize(820, 560))

	u.pauseItem = fyne.NewMenuItem("Pause sync", func() { u.togglePause() })
	u.menu = fyne.NewMenu("mailnode",
		fyne.NewMenuItem("Open", func() { u.showLocked(TabStatus) }),
		fyne.NewMenuItem("Pair a phone", func() { u.showLocked(TabPhones); u.phones.pair() }),
		fyne.NewMenuItem(TabPending, func() { u.showLocked(TabPending) }),
		fyne.NewMenuItem(TabAgents, func() { u.showLocked(TabAgents) }),
		fyne.NewMenuItem(TabActivity, func() { u.showLocked(TabActivity) }),
		fyne.NewMenuItem(TabAccounts, func() { u.showLocked(TabAccounts) }),
		u.pauseItem,
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Quit", func() { u.Quit() }),
	)
	// Quit is the menu's own item: Fyne would add one more.
	u.menu.Items[len(u.menu.Items)-1].IsQuit = true
}

// Start puts the icon in the tray (or opens the window where there is no
// tray) and begins following the node's status.
func (u *UI) Start() {
	u.tray = u.opts.TrayHost()
	if d, ok := u.fa.(desktop.App); ok && u.tray {
		d.SetSystemTrayMenu(u.menu)
		d.SetSystemTrayIcon(u.icons[trayState(u.node.Status())])
		d.SetSystemTrayWindow(u.win)
	} else {
		u.tray = false
	}
	u.win.SetCloseIntercept(u.closeRequested)
	if !u.tray {
		u.log.Warn("No tray host on this desktop: keeping a window open instead of a tray icon " +
			"(on GNOME, install the AppIndicator extension for a tray icon)")
		u.status.note("There is no tray on this desktop, so mailnode keeps this window open. " +
			"Closing it quits mailnode. (On GNOME, the AppIndicator extension adds a tray.)")
	}
	u.apply(u.node.Status())
	u.calls.Add(1)
	go u.follow()
	if u.opts.StallFile != "" {
		u.calls.Add(1)
		go u.meterStalls()
	}
	if !u.opts.Minimized || !u.tray {
		u.win.Show()
	}
}

// Tray reports whether the app lives in a tray icon.
func (u *UI) Tray() bool { return u.tray }

// Window is the main window.
func (u *UI) Window() fyne.Window { return u.win }

// Menu is the tray menu.
func (u *UI) Menu() *fyne.Menu { return u.menu }

// Show brings the main window up at a tab, from any goroutine.
func (u *UI) Show(tab string) { u.do(func() { u.showLocked(tab) }) }

// showLocked is Show on the UI goroutine: menu items and buttons call it.
// (Callbacks of widgets and menus run on the UI goroutine; the names that
// end in Locked are for them and for fyne.Do, never for other goroutines.)
func (u *UI) showLocked(tab string) {
	if it, ok := u.tabItems[tab]; ok {
		u.tabs.Select(it)
	}
	u.win.Show()
	u.win.RequestFocus()
}

// closeRequested is the window's close button: it hides the window while
// the tray icon stays (the node keeps serving), and quits where there is
// no tray to come back from.
func (u *UI) closeRequested() {
	if u.tray {
		u.win.Hide()
		return
	}
	u.Quit()
}

// Quit closes every window and hands over to OnQuit, which stops the node.
func (u *UI) Quit() {
	if !u.quitting.CompareAndSwap(false, true) {
		return
	}
	u.cancel()
	if u.opts.OnQuit != nil {
		u.opts.OnQuit()
		return
	}
	u.fa.Quit()
}

// Close stops following the node and waits for the calls under way.
func (u *UI) Close() {
	u.cancel()
	u.calls.Wait()
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
			fyne.Do(func() { u.locked(func() { u.applyLocked(st) }) })
		case <-u.ctx.Done():
			return
		}
	}
}

// apply shows a status.
func (u *UI) apply(st app.Status) { u.do(func() { u.applyLocked(st) }) }

func (u *UI) applyLocked(st app.Status) {
	prev := u.last
	u.last = st
	if st.ShowRequests > prev.ShowRequests && prev.State != "" {
		u.showLocked(TabStatus)
	}
	state := trayState(st)
	if u.tray && state != u.trayIcon {
		if d, ok := u.fa.(desktop.App); ok {
			d.SetSystemTrayIcon(u.icons[state])
		}
	}
	u.trayIcon = state
	label := "Pause sync"
	if st.SyncPaused {
		label = "Resume sync"
	}
	if u.pauseItem.Label != label {
		// A refresh makes the tray export the menu anew (new item ids
		// for the panel): only when it changed.
		u.pauseItem.Label = label
		u.menu.Refresh()
	}
	u.status.show(st)
	if st.Pending != prev.Pending || st.Pending > 0 && len(u.notified) == 0 {
		u.pending.load()
	}
	if st.Phones != prev.Phones {
		u.phones.load()
	}
	if st.Settings != prev.Settings || len(st.Accounts) != len(prev.Accounts) {
		u.accounts.load()
		u.settings.load()
	}
}

// announce sends a desktop notification for each request not announced
// before: the person decides on the phone, and learns here that one waits.
func (u *UI) announceLocked(pending []approvals.Approval) {
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

func (u *UI) togglePause() {
	paused := !u.last.SyncPaused
	call(u, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, u.node.PauseSync(ctx, paused)
	}, func(_ struct{}, err error) {
		if err != nil {
			u.status.fail(err)
		}
	})
}

// do runs f on the UI goroutine with the widgets' lock, without waiting:
// it may be called from the UI goroutine itself (a menu item) or another.
func (u *UI) do(f func()) {
	fyne.Do(func() { u.locked(f) })
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
		fyne.Do(func() { u.locked(func() { done(v, err) }) })
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
