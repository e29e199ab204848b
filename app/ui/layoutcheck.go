package ui

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"time"
	_ "unsafe" // go:linkname, for widgetRenderer

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The layout check (issue 42 item 5: no widget ends outside its window)
// runs in two places with the one walk below: TestWindowsFit on Fyne's
// test driver, and the real app under Xvfb with --dev-ui-layout FILE
// (Options.LayoutFile), which app/ui/desktoptest reads.

// widgetRenderer is the renderer Fyne keeps for a widget (creating it if
// the widget has none yet), which holds the widget's parts. Fyne exports
// it only from its test package, whose init makes a test app the current
// one: the real binary cannot import that, so it reaches the function the
// test package calls.
//
//go:linkname widgetRenderer fyne.io/fyne/v2/internal/cache.Renderer
func widgetRenderer(wid fyne.Widget) fyne.WidgetRenderer

// rect is an area of a window's canvas; an infinite side does not clip.
type rect struct{ x0, y0, x1, y1 float32 }

func (r rect) String() string { return fmt.Sprintf("(%g,%g)-(%g,%g)", r.x0, r.y0, r.x1, r.y1) }

// slack absorbs the rounding of Fyne's layouts (half a pixel at most).
const slack = 0.5

// misfits walks a window's canvas as it is laid out now and lists every
// visible object that ends outside the canvas (or, inside a scroll, outside
// the scroll's sides that do not scroll) and every widget laid out smaller
// than its minimum size (its text or parts cut). Each is named with the
// path of types that leads to it and the text it shows. walked counts the
// visible objects it looked at, so that a walk of nothing cannot pass for
// a window that fits. On the real driver it runs on the UI goroutine.
func misfits(c fyne.Canvas) (out []string, walked int) {
	size := c.Size()
	var visit func(o fyne.CanvasObject, at fyne.Position, clip rect, path string)
	visit = func(o fyne.CanvasObject, at fyne.Position, clip rect, path string) {
		if o == nil || !o.Visible() {
			return
		}
		walked++
		pos := at.Add(o.Position())
		sz := o.Size()
		name := path + "/" + strings.TrimPrefix(fmt.Sprintf("%T", o), "*")
		if s := objectText(o); s != "" {
			name += fmt.Sprintf(" %.60q", s)
		}
		if pos.X < clip.x0-slack || pos.Y < clip.y0-slack || pos.X+sz.Width > clip.x1+slack || pos.Y+sz.Height > clip.y1+slack {
			out = append(out, fmt.Sprintf("%s at (%g,%g) size %gx%g ends outside %s", name, pos.X, pos.Y, sz.Width, sz.Height, clip))
			return // its parts would say the same
		}
		// A widget left at 0x0 is one its container never sizes and
		// that draws at its own size: Fyne's dialogs do that to their
		// title.
		if cuttable(o) && !sz.IsZero() {
			if m := o.MinSize(); sz.Width < m.Width-slack || sz.Height < m.Height-slack {
				out = append(out, fmt.Sprintf("%s has %gx%g, less than its minimum %gx%g", name, sz.Width, sz.Height, m.Width, m.Height))
				return
			}
		}
		inner := clip
		if s, ok := o.(*container.Scroll); ok {
			// A scroll clips its content on its own sides and lets it
			// run on along the directions it scrolls.
			inner = rect{max(clip.x0, pos.X), max(clip.y0, pos.Y), min(clip.x1, pos.X+sz.Width), min(clip.y1, pos.Y+sz.Height)}
			if s.Direction == container.ScrollHorizontalOnly || s.Direction == container.ScrollBoth {
				inner.x0, inner.x1 = float32(math.Inf(-1)), float32(math.Inf(1))
			}
			if s.Direction == container.ScrollVerticalOnly || s.Direction == container.ScrollBoth {
				inner.y0, inner.y1 = float32(math.Inf(-1)), float32(math.Inf(1))
			}
		}
		for _, ch := range parts(o) {
			visit(ch, pos, inner, name)
		}
	}
	all := rect{0, 0, size.Width, size.Height}
	visit(c.Content(), fyne.Position{}, all, "")
	for _, o := range c.Overlays().List() {
		visit(o, fyne.Position{}, all, "overlay")
	}
	return out, walked
}

// overgrown names what makes a window's content need more room than the
// window was opened with: Fyne's desktop driver grows the window to its
// content's minimum size (past the screen's edge where no window manager
// stops it), so on screen nothing ends outside the grown window and
// misfits cannot see it. In each direction the content is too big, the
// blame goes down to the part with the largest minimum, which would have
// to give up the excess, until a part gives up the excess of none of its
// own parts: the unwrapped label rather than the tabs around it.
func overgrown(content fyne.CanvasObject, room fyne.Size) []string {
	var out []string
	for _, wide := range []bool{true, false} {
		extent, what := func(s fyne.Size) float32 { return s.Height }, "height"
		if wide {
			extent, what = func(s fyne.Size) float32 { return s.Width }, "width"
		}
		var visit func(o fyne.CanvasObject, path string, room float32) bool
		visit = func(o fyne.CanvasObject, path string, room float32) bool {
			need := extent(o.MinSize())
			if need <= room+slack {
				return false
			}
			name := path + "/" + strings.TrimPrefix(fmt.Sprintf("%T", o), "*")
			if s := objectText(o); s != "" {
				name += fmt.Sprintf(" %.60q", s)
			}
			// Tabs are as big as their biggest tab, shown or not.
			candidates := parts(o)
			tabs, isTabs := o.(*container.AppTabs)
			if isTabs {
				for _, it := range tabs.Items {
					candidates = append(candidates, it.Content)
				}
			}
			var biggest fyne.CanvasObject
			for _, ch := range candidates {
				if ch != nil && (ch.Visible() || isTabs) && (biggest == nil || extent(ch.MinSize()) > extent(biggest.MinSize())) {
					biggest = ch
				}
			}
			if biggest == nil || !visit(biggest, name, extent(biggest.MinSize())-(need-room)) {
				out = append(out, fmt.Sprintf("%s needs a %s of %g where the window leaves it %g", name, what, need, room))
			}
			return true
		}
		visit(content, "", extent(room))
	}
	return out
}

// parts are the objects a container holds or a widget draws with.
func parts(o fyne.CanvasObject) []fyne.CanvasObject {
	switch o := o.(type) {
	case *fyne.Container:
		return o.Objects
	case fyne.Widget:
		if r := widgetRenderer(o); r != nil {
			return r.Objects()
		}
	}
	return nil
}

// cuttable reports whether o is a widget whose text or parts are cut when
// it is laid out smaller than its minimum size. (Fyne's own parts of an
// entry are laid out a pixel smaller than theirs, and show all the same.)
func cuttable(o fyne.CanvasObject) bool {
	switch o.(type) {
	case *widget.Label, *widget.Button, *widget.Check, *widget.Select, *widget.Card, *widget.Hyperlink, *widget.RichText:
		return true
	}
	return false
}

// objectText is what an object shows as text, to name it in a failure.
func objectText(o fyne.CanvasObject) string {
	switch o := o.(type) {
	case *widget.Label:
		return o.Text
	case *widget.Button:
		return o.Text
	case *widget.Check:
		return o.Text
	case *widget.Entry:
		return o.Text
	case *widget.Select:
		return o.Selected
	case *canvas.Text:
		return o.Text
	}
	return ""
}

// contentRoom is the room a window of the given size leaves its content:
// Fyne pads the content on each side.
func contentRoom(given fyne.Size) fyne.Size {
	return given.Subtract(fyne.NewSquareSize(2 * theme.Padding()))
}

// layoutTick is how often --dev-ui-layout checks the windows on screen.
const layoutTick = 200 * time.Millisecond

// LayoutCheck is one line of the --dev-ui-layout file: a window checked
// (Walked objects, no Misfit), or one misfit in it.
type LayoutCheck struct {
	Time   time.Time `json:"time"`
	Window string    `json:"window"`
	// Tab is the main window's selected tab; "" for another window.
	Tab    string  `json:"tab,omitempty"`
	Width  float32 `json:"width"`
	Height float32 `json:"height"`
	Walked int     `json:"walked,omitempty"`
	Misfit string  `json:"misfit,omitempty"`
}

// checkLayouts walks the windows on screen every layoutTick and appends
// to Options.LayoutFile a line per window checked and one per misfit. A
// misfit is written when two checks in a row find it: between them Fyne
// lays a window out again while minimum sizes settle (wrapped text is as
// tall as its width makes it), and a tab just selected may not be laid
// out yet. Each misfit is written once.
func (u *UI) checkLayouts() {
	defer u.calls.Done()
	f, err := os.OpenFile(u.opts.LayoutFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		u.log.Warn("No layout check", "err", err)
		return
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	t := time.NewTicker(layoutTick)
	defer t.Stop()
	results := make(chan []LayoutCheck, 1)
	seen := map[LayoutCheck]int{} // misfits (Time zero) by the run that last found them
	written := map[LayoutCheck]bool{}
	run := 0
	for {
		select {
		case <-u.ctx.Done():
			return
		case <-t.C:
			// Not u.do: a check is no activity, and the idler's
			// waits may delay it (idleShown).
			fyne.Do(func() {
				var checks []LayoutCheck
				u.locked(func() { checks = u.layoutChecksLocked() })
				select {
				case results <- checks:
				default: // the last one is not written yet
				}
			})
		case checks := <-results:
			run++
			for _, c := range checks {
				if c.Misfit == "" {
					if err := enc.Encode(c); err != nil {
						u.log.Warn("Cannot write the layout check", "err", err)
						return
					}
					continue
				}
				key := c
				key.Time = time.Time{}
				prev := seen[key]
				seen[key] = run
				if prev > 0 && prev == run-1 && !written[key] {
					written[key] = true
					if err := enc.Encode(c); err != nil {
						u.log.Warn("Cannot write the layout check", "err", err)
						return
					}
				}
			}
		}
	}
}

// layoutChecksLocked walks the windows on screen, the main window while
// shown and the wizard while open, against the size each opens at (the
// tests do not resize them).
func (u *UI) layoutChecksLocked() []LayoutCheck {
	now := time.Now()
	var out []LayoutCheck
	check := func(w fyne.Window, tab string, given fyne.Size) {
		size := w.Canvas().Size()
		bad, walked := misfits(w.Canvas())
		bad = append(bad, overgrown(w.Content(), contentRoom(given))...)
		out = append(out, LayoutCheck{Time: now, Window: w.Title(), Tab: tab, Width: size.Width, Height: size.Height, Walked: walked})
		for _, m := range bad {
			out = append(out, LayoutCheck{Time: now, Window: w.Title(), Tab: tab, Width: size.Width, Height: size.Height, Misfit: m})
		}
	}
	if u.win != nil && u.winShown {
		tab := ""
		if it := u.tabs.Selected(); it != nil {
			tab = it.Text
		}
		check(u.win, tab, mainWindowSize)
	}
	if u.wiz != nil {
		check(u.wiz.win, "", wizardWindowSize)
	}
	return out
}
