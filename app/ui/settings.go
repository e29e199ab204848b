package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"mailnode/app/config"
)

// settingsView: start at login, the data directory, pausing the sync, the
// relay, the version.
type settingsView struct {
	u         *UI
	box       *fyne.Container
	autostart *widget.Check
	pause     *widget.Check
	relay     *widget.Entry
	dataDir   *widget.Label
	errLabel  *widget.Label
	info      *widget.Label
	loading   bool // set while load fills the widgets, so their callbacks do nothing
}

func newSettingsView(u *UI) *settingsView {
	v := &settingsView{u: u, errLabel: errorLabel(), dataDir: widget.NewLabel(u.node.DataDir()),
		relay: widget.NewEntry(), info: widget.NewLabel("")}
	v.autostart = widget.NewCheck("Start mailnode when I log in", func(on bool) {
		if v.loading {
			return
		}
		showError(v.errLabel, u.opts.Autostart.Set(on))
	})
	if u.opts.Autostart.Path == "" {
		v.autostart.Disable()
	}
	v.pause = widget.NewCheck("Pause copying mail (agents are still served from what is copied)", func(on bool) {
		if v.loading {
			return
		}
		call(u, func(ctx context.Context) (struct{}, error) { return struct{}{}, u.node.PauseSync(ctx, on) },
			func(_ struct{}, err error) { showError(v.errLabel, err) })
	})
	v.relay.SetPlaceHolder(config.DefaultRelay)
	saveRelay := widget.NewButton("Use this relay", func() {
		url := v.relay.Text
		call(u, func(ctx context.Context) (struct{}, error) { return struct{}{}, u.node.SetRelay(ctx, url) },
			func(_ struct{}, err error) { showError(v.errLabel, err) })
	})
	v.info.Wrapping = fyne.TextWrapWord
	v.box = container.NewVBox(v.errLabel, v.autostart, v.pause,
		widget.NewForm(
			widget.NewFormItem("Relay", container.NewBorder(nil, nil, nil, saveRelay, v.relay)),
			widget.NewFormItem("Data directory", v.dataDir),
			widget.NewFormItem("Version", widget.NewLabel(u.opts.Version)),
		), v.info)
	return v
}

func (v *settingsView) load() {
	call(v.u, func(context.Context) (config.File, error) { return v.u.node.Settings() }, func(f config.File, err error) {
		v.loading = true
		defer func() { v.loading = false }()
		v.autostart.SetChecked(v.u.opts.Autostart.Path != "" && v.u.opts.Autostart.Enabled())
		v.pause.SetChecked(v.u.last.SyncPaused)
		if err != nil {
			v.info.SetText("This node runs without a settings file: changes here last until it stops.")
			return
		}
		v.relay.SetText(f.Relay.URL)
	})
}
