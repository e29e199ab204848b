package ui

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"mailnode/app"
	"mailnode/assets"
)

// The tray icon's states, most urgent first: the icon shows the first that
// holds.
const (
	iconError    = "error"
	iconApproval = "approval"
	iconOffline  = "offline"
	iconSyncing  = "syncing"
	iconPaused   = "paused"
	iconStarting = "starting"
	iconSynced   = "synced"
)

// trayState picks the icon for a status. A request waiting for the phone
// outranks everything but an error: it is the one thing the person must act
// on.
func trayState(st app.Status) string {
	switch {
	case st.State == app.StateError || accountProblem(st) != "":
		return iconError
	case st.Pending > 0:
		return iconApproval
	case st.State == app.StateOffline:
		return iconOffline
	case st.State == app.StateSyncing:
		return iconSyncing
	case st.State == app.StatePaused:
		return iconPaused
	case st.State == app.StateStarting || st.State == "":
		return iconStarting
	}
	return iconSynced
}

// badge is the colour of each state's dot on the icon.
var badge = map[string]color.NRGBA{
	iconError:    {0xd3, 0x2f, 0x2f, 0xff}, // red
	iconApproval: {0xf5, 0x9e, 0x0b, 0xff}, // amber
	iconOffline:  {0x9e, 0x9e, 0x9e, 0xff}, // grey
	iconSyncing:  {0x1e, 0x88, 0xe5, 0xff}, // blue
	iconPaused:   {0x75, 0x75, 0x75, 0xff},
	iconStarting: {0x9e, 0x9e, 0x9e, 0xff},
	iconSynced:   {0x2e, 0x7d, 0x32, 0xff}, // green
}

// makeIcons draws the tray icon of every state: the application icon with
// a dot in the state's colour in its lower right corner.
func makeIcons() map[string]fyne.Resource {
	base, err := png.Decode(bytes.NewReader(assets.Icon()))
	if err != nil {
		panic(err) // embedded at build time; TestTrayIcons decodes it
	}
	icons := make(map[string]fyne.Resource, len(badge))
	for state, c := range badge {
		icons[state] = fyne.NewStaticResource("mailnode-"+state+".png", withBadge(base, c))
	}
	return icons
}

func withBadge(base image.Image, c color.NRGBA) []byte {
	b := base.Bounds()
	img := image.NewNRGBA(b)
	draw.Draw(img, b, base, b.Min, draw.Src)
	r := b.Dx() * 3 / 16
	cx, cy := b.Max.X-r-b.Dx()/32, b.Max.Y-r-b.Dy()/32
	ring := color.NRGBA{0xff, 0xff, 0xff, 0xff}
	for y := cy - r - 3; y <= cy+r+3; y++ {
		for x := cx - r - 3; x <= cx+r+3; x++ {
			d := (x-cx)*(x-cx) + (y-cy)*(y-cy)
			switch {
			case d <= r*r:
				img.SetNRGBA(x, y, c)
			case d <= (r+3)*(r+3):
				img.SetNRGBA(x, y, ring)
			}
		}
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		panic(err) // encoding an in-memory image does not fail
	}
	return out.Bytes()
}

// errorLabel is a label for a window's own errors, hidden until one comes.
func errorLabel() *widget.Label {
	l := widget.NewLabel("")
	l.Importance = widget.DangerImportance
	l.Wrapping = fyne.TextWrapWord
	l.Hide()
	return l
}

// showError shows err in a window's error label, or hides it for nil.
func showError(l *widget.Label, err error) {
	if err == nil {
		l.Hide()
		return
	}
	l.SetText(err.Error())
	l.Show()
}
