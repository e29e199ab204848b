package ui

import (
	"sync"

	"fyne.io/systray"
)

// Tray is the icon in the desktop's tray and its menu. It lives apart from
// Fyne's driver because Fyne's event loop, once started, wakes 60 times a
// second for the rest of the process: the app starts that loop only when a
// window is first needed, and until then the tray is all there is
// (docs/desktop.md). Every method may be called from any goroutine.
type Tray interface {
	// Start shows the icon and its menu. Items' actions and tapped (a
	// click on the icon itself) run on a goroutine of the tray's.
	Start(items []TrayItem, tapped func())
	// SetIcon shows a PNG image as the icon.
	SetIcon(png []byte)
	// SetLabel renames the item at an index of Start's items.
	SetLabel(index int, label string)
	// Stop removes the icon.
	Stop()
}

// TrayItem is one entry of the tray menu; a separator has no label.
type TrayItem struct {
	Label  string
	Action func()
}

// statusNotifierTray is Tray as a StatusNotifierItem with a dbusmenu on the
// session bus (fyne.io/systray, the library Fyne's own tray uses), on macOS
// and Windows through the same library's native code.
type statusNotifierTray struct {
	title string

	mu      sync.Mutex
	ready   bool
	icon    []byte
	items   map[int]*systray.MenuItem
	pending map[int]string // labels set before the menu existed
	end     func()
	stop    chan struct{}
}

func newStatusNotifierTray(title string) *statusNotifierTray {
	return &statusNotifierTray{title: title, items: map[int]*systray.MenuItem{}, pending: map[int]string{},
		stop: make(chan struct{})}
}

func (t *statusNotifierTray) Start(items []TrayItem, tapped func()) {
	start, end := systray.RunWithExternalLoop(func() {
		// Some panels misbehave with an item that has no title.
		systray.SetTitle(t.title)
		systray.SetTooltip(t.title)
		systray.SetOnTapped(tapped)
		t.mu.Lock()
		defer t.mu.Unlock()
		for i, it := range items {
			if it.Label == "" {
				systray.AddSeparator()
				continue
			}
			label := it.Label
			if l, ok := t.pending[i]; ok {
				label = l
			}
			mi := systray.AddMenuItem(label, "")
			t.items[i] = mi
			go t.serve(mi, it.Action)
		}
		if t.icon != nil {
			systray.SetIcon(t.icon)
		}
		t.ready = true
	}, nil)
	t.mu.Lock()
	t.end = end
	t.mu.Unlock()
	start()
}

// serve runs an item's action for each click until the tray stops.
func (t *statusNotifierTray) serve(mi *systray.MenuItem, action func()) {
	for {
		select {
		case <-mi.ClickedCh:
			if action != nil {
				action()
			}
		case <-t.stop:
			return
		}
	}
}

func (t *statusNotifierTray) SetIcon(png []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.icon = png
	if t.ready {
		systray.SetIcon(png)
	}
}

func (t *statusNotifierTray) SetLabel(index int, label string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if mi, ok := t.items[index]; ok {
		mi.SetTitle(label)
		return
	}
	t.pending[index] = label
}

func (t *statusNotifierTray) Stop() {
	t.mu.Lock()
	end := t.end
	t.end = nil
	t.mu.Unlock()
	if end != nil {
		close(t.stop)
		end()
	}
}
