package ui

import (
	"context"
	"fmt"
	"image"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/skip2/go-qrcode"

	"mailnode/app"
	"mailnode/approvals"
)

// pairPoll is how often the window asks whether a phone used the code.
const pairPoll = 500 * time.Millisecond

// phonesView pairs phones (a QR code, then the six-digit code both sides
// show) and lists the paired ones.
type phonesView struct {
	u        *UI
	box      *fyne.Container
	qr       *canvas.Image
	link     *widget.Label
	step     *widget.Label
	confirm  *fyne.Container
	sas      *widget.Label
	list     *fyne.Container
	errLabel *widget.Label
	pairBtn  *widget.Button
	copyLink *widget.Button
	// reach says how the phone reaches the node at the code's URL.
	reach *widget.Label
	// lan says where the node listens on the local network, with a
	// button that stops it; hidden while it does not.
	lan      *fyne.Container
	lanLabel *widget.Label

	offer   app.PairOffer // the code on screen, zero when none
	pending approvals.Phone
	// stopWatch ends the poll of the previous code: a new code (say,
	// over this network after one by the relay name) is watched instead.
	stopWatch context.CancelFunc
}

func newPhonesView(u *UI) *phonesView {
	v := &phonesView{u: u, link: widget.NewLabel(""), step: wrapped(""), list: container.NewVBox(),
		errLabel: errorLabel(), sas: widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})}
	v.qr = canvas.NewImageFromImage(nil)
	// Shown at its own size: every module a whole number of pixels, so
	// that no module is drawn narrower than its neighbours (a camera, and
	// the test's decoder, misread those).
	v.qr.FillMode = canvas.ImageFillOriginal
	v.qr.ScaleMode = canvas.ImageScalePixels
	v.qr.Hide()
	// The link, a word longer than any line, breaks anywhere; it is
	// shown in full and copied whole.
	v.link.Wrapping = fyne.TextWrapBreak
	v.link.Selectable = true
	v.copyLink = widget.NewButton("Copy the link", func() { u.fa.Clipboard().SetContent(v.offer.URL) })
	v.copyLink.Hide()
	v.pairBtn = widget.NewButton("Pair a phone", func() { v.pair() })
	v.reach = wrapped("")
	v.lanLabel = wrapped("")
	v.lan = container.NewVBox(v.lanLabel, buttonRow(widget.NewButton("Stop listening on this network", func() { v.stopLAN() })))
	v.lan.Hide()
	same := widget.NewButton("The phone shows the same code", func() { v.decide(true) })
	same.Importance = widget.HighImportance
	v.confirm = container.NewVBox(v.sas, buttonRow(same,
		widget.NewButton("It shows another code", func() { v.decide(false) })))
	v.confirm.Hide()
	v.box = container.NewBorder(container.NewVBox(v.errLabel,
		buttonRow(v.pairBtn, widget.NewButton("Pair over this network", func() { v.pairWith(app.PairOptions{LAN: true}) })),
		v.step, v.lan), nil, nil, nil,
		container.NewVScroll(container.NewVBox(container.NewCenter(v.qr), v.link, v.copyLink, v.reach, v.confirm, widget.NewSeparator(),
			heading("Paired phones"), v.list)))
	return v
}

// pair asks the node for a one-time code and shows it as a QR code.
func (v *phonesView) pair() { v.pairWith(app.PairOptions{}) }

// pairWith is pair with the person's choice: "Pair over this network"
// has the node listen on the local network first.
func (v *phonesView) pairWith(o app.PairOptions) {
	call(v.u, func(ctx context.Context) (app.PairOffer, error) { return v.u.node.Pair(ctx, o) }, func(offer app.PairOffer, err error) {
		showError(v.errLabel, err)
		if err != nil {
			return
		}
		img, err := qrImage(offer.URL)
		if err != nil {
			showError(v.errLabel, err)
			return
		}
		v.offer = offer
		v.qr.Image = img
		v.qr.Show()
		v.qr.Refresh()
		v.link.SetText(offer.URL)
		v.copyLink.Show()
		v.reach.SetText(offer.Note)
		v.showLAN(v.u.node.Status().Gateway.LANURL)
		v.step.SetText(fmt.Sprintf("Scan this with your phone's camera (or open the link on the phone). "+
			"The code is good for one phone until %s.", offer.Expires.Local().Format("15:04")))
		v.confirm.Hide()
		v.watch(offer)
	})
}

// watch polls until a phone registered with offer, then asks the person to
// compare the codes.
func (v *phonesView) watch(offer app.PairOffer) {
	if v.stopWatch != nil {
		v.stopWatch()
	}
	wctx, stop := context.WithCancel(context.Background())
	v.stopWatch = stop
	watch(v.u, func(ctx context.Context) (app.PairStatus, error) {
		defer stop()
		ctx, cancel := context.WithDeadline(ctx, offer.Expires)
		defer cancel()
		context.AfterFunc(wctx, cancel)
		t := time.NewTicker(pairPoll)
		defer t.Stop()
		for {
			st, err := v.u.node.PairStatus(ctx, offer.ID)
			if err != nil || st.Registered {
				return st, err
			}
			select {
			case <-ctx.Done():
				return app.PairStatus{}, fmt.Errorf("the code expired before a phone used it; pair again")
			case <-t.C:
			}
		}
	}, func(st app.PairStatus, err error) {
		if v.offer.ID != offer.ID {
			return // a newer code is on screen
		}
		if err != nil {
			v.clear()
			showError(v.errLabel, err)
			return
		}
		v.pending = st.Phone
		v.qr.Hide()
		v.link.SetText("")
		v.copyLink.Hide()
		v.reach.SetText("")
		v.step.SetText(fmt.Sprintf("A phone named %q registered. Does it show this code?", st.Phone.Name))
		v.sas.SetText(st.SAS)
		v.confirm.Show()
	})
}

// decide pairs the registered phone, or refuses it when its code differs.
func (v *phonesView) decide(same bool) {
	ph := v.pending
	call(v.u, func(ctx context.Context) (approvals.Phone, error) {
		if same {
			return v.u.node.ConfirmPhone(ctx, ph.ID)
		}
		return ph, v.u.node.RemovePhone(ctx, ph.ID)
	}, func(p approvals.Phone, err error) {
		v.clear()
		showError(v.errLabel, err)
		if err == nil && same {
			v.step.SetText(fmt.Sprintf("Paired %q. Agents' requests now go to it.", p.Name))
		} else if err == nil {
			v.step.SetText("Not paired: the phone was refused. If the codes differed, someone else may have used the QR code.")
		}
		v.load()
	})
}

func (v *phonesView) clear() {
	v.offer = app.PairOffer{}
	v.pending = approvals.Phone{}
	v.qr.Hide()
	v.link.SetText("")
	v.copyLink.Hide()
	v.reach.SetText("")
	v.confirm.Hide()
}

// showLAN shows where the node listens on the local network (the MCP
// URL the status has), or hides the line when it does not.
func (v *phonesView) showLAN(mcpURL string) {
	if mcpURL == "" {
		v.lan.Hide()
		return
	}
	v.lanLabel.SetText(fmt.Sprintf("Listening on this network at %s for phones on it; agents' signed requests are served there too.",
		strings.TrimSuffix(mcpURL, "/mcp")))
	v.lan.Show()
}

// stopLAN has the node stop listening on the local network.
func (v *phonesView) stopLAN() {
	call(v.u, func(ctx context.Context) (app.LANStatus, error) { return v.u.node.SetLAN(ctx, false) },
		func(_ app.LANStatus, err error) {
			showError(v.errLabel, err)
			if err != nil {
				return
			}
			v.showLAN("")
			if v.offer.Reach == app.ReachLAN {
				// The code on screen names the address just closed.
				v.clear()
				v.step.SetText("Stopped listening on this network; that pairing code no longer reaches the node.")
			}
		})
}

func (v *phonesView) load() {
	v.showLAN(v.u.node.Status().Gateway.LANURL)
	call(v.u, v.u.node.Phones, func(phones []approvals.Phone, err error) {
		if err != nil {
			showError(v.errLabel, err)
			return
		}
		v.list.RemoveAll()
		n := 0
		for _, p := range phones {
			if p.State != approvals.PhonePaired {
				continue
			}
			n++
			v.list.Add(container.NewBorder(nil, nil, nil,
				widget.NewButton("Unpair", func() { v.remove(p) }),
				wrapped(fmt.Sprintf("%s, paired %s. Push notifications: %s.", p.Name, p.PairedAt.Local().Format("2 Jan 2006"), p.Push))))
		}
		if n == 0 {
			v.list.Add(wrapped("No phone is paired: requests that need your phone cannot be approved."))
		}
		v.list.Refresh()
	})
}

func (v *phonesView) remove(p approvals.Phone) {
	call(v.u, func(ctx context.Context) (struct{}, error) { return struct{}{}, v.u.node.RemovePhone(ctx, p.ID) },
		func(_ struct{}, err error) { showError(v.errLabel, err); v.load() })
}

// qrModulePixels is the size of the QR code aimed at; each module gets
// the whole number of pixels that comes closest.
const qrModulePixels = 360

// qrImage encodes s as a QR code image with its quiet zone, every module
// a square of the same whole number of pixels.
func qrImage(s string) (image.Image, error) {
	q, err := qrcode.New(s, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("QR code: %w", err)
	}
	// The symbol's side (ISO/IEC 18004: 17 + 4 a version) and go-qrcode's
	// quiet zone of 4 modules a side, known before it is drawn: asking the
	// library (Bitmap) would run its encoding, which appends to its data,
	// a second time.
	modules := 17 + 4*q.VersionNumber + 2*4
	return q.Image(-max(5, qrModulePixels/modules)), nil
}
