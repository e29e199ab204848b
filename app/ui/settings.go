package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"mailnode/app/backup"
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

	// Moving to a new computer: the backup's file and passphrase. Both
	// passphrase fields left empty take backupOffer, six random words
	// shown in backupOfferLabel.
	backupPath       *widget.Entry
	backupPass       *widget.Entry
	backupAgain      *widget.Entry
	backupOffer      string
	backupOfferLabel *widget.Label
	backupDone       *widget.Label
	// Coming from another computer: its backup replaces this node.
	restorePath *widget.Entry
	restorePass *widget.Entry
	restoreDone *widget.Label
}

func newSettingsView(u *UI) *settingsView {
	v := &settingsView{u: u, errLabel: errorLabel(), dataDir: widget.NewLabel(u.node.DataDir()),
		relay: widget.NewEntry(), info: wrapped("")}
	// A path is one long word: it breaks anywhere, and can be selected.
	v.dataDir.Wrapping = fyne.TextWrapBreak
	v.dataDir.Selectable = true
	v.autostart = widget.NewCheck("Start mailnode when I log in", func(on bool) {
		if v.loading {
			return
		}
		showError(v.errLabel, u.opts.Autostart.Set(on))
	})
	if !u.opts.Autostart.Available() {
		v.autostart.Disable()
	}
	v.pause = widget.NewCheck("Pause copying mail (agents are still served from what is copied)", func(on bool) {
		if v.loading {
			return
		}
		call(u, func(ctx context.Context) (struct{}, error) { return struct{}{}, u.node.PauseSync(ctx, on) },
			func(_ struct{}, err error) { showError(v.errLabel, err) })
	})
	v.relay.SetPlaceHolder(config.RelayPlaceholder)
	saveRelay := widget.NewButton("Use this relay", func() {
		url := v.relay.Text
		call(u, func(ctx context.Context) (struct{}, error) { return struct{}{}, u.node.SetRelay(ctx, url) },
			func(_ struct{}, err error) { showError(v.errLabel, err) })
	})
	v.backupPath, v.backupPass, v.backupAgain = widget.NewEntry(), widget.NewPasswordEntry(), widget.NewPasswordEntry()
	v.backupPath.SetText(defaultBackupPath())
	v.backupPass.SetPlaceHolder("empty: the words above")
	v.backupAgain.SetPlaceHolder("empty: the words above")
	v.backupOfferLabel = wrapped("")
	v.newOffer()
	v.backupDone = wrapped("")
	v.box = container.NewVBox(v.errLabel, v.autostart, v.pause,
		widget.NewForm(
			widget.NewFormItem("Relay", container.NewBorder(nil, nil, nil, saveRelay, v.relay)),
			widget.NewFormItem("Data directory", v.dataDir),
			widget.NewFormItem("Version", widget.NewLabel(u.opts.Version)),
		), v.info, widget.NewSeparator(),
		heading("Move to a new computer"),
		wrapped("Seal this node's keys, relay name, grants, paired phones and settings into one file. "+
			"The mail is not in it: it copies again. On the new computer: mailnode restore FILE."),
		container.NewBorder(nil, nil, nil, widget.NewButton("Other words", v.newOffer), v.backupOfferLabel),
		widget.NewForm(widget.NewFormItem("File", v.backupPath), widget.NewFormItem("Passphrase", v.backupPass),
			widget.NewFormItem("Again", v.backupAgain)),
		widget.NewButton("Save the backup", v.saveBackup), v.backupDone)
	if u.opts.Restore != nil {
		v.restorePath, v.restorePass = widget.NewEntry(), widget.NewPasswordEntry()
		v.restorePath.SetText(defaultBackupPath())
		v.restoreDone = wrapped("")
		v.box.Add(widget.NewSeparator())
		v.box.Add(heading("Restore from another computer"))
		v.box.Add(wrapped("The backup's node takes this one's place: the same relay name, agents and phones. " +
			"This computer's node is kept in the data directory, in a folder named replaced-…; mailnode restarts."))
		v.box.Add(widget.NewForm(widget.NewFormItem("File", v.restorePath), widget.NewFormItem("Passphrase", v.restorePass)))
		v.box.Add(widget.NewButton("Restore and restart", v.restore))
		v.box.Add(v.restoreDone)
	}
	return v
}

// restore hands the chosen backup to Options.Restore, which checks the
// passphrase before anything changes and then restarts the app.
func (v *settingsView) restore() {
	path, pass := v.restorePath.Text, v.restorePass.Text
	call(v.u, func(ctx context.Context) (struct{}, error) {
		sealed, err := os.ReadFile(path)
		if err != nil {
			return struct{}{}, fmt.Errorf("cannot read the backup: %w", err)
		}
		return struct{}{}, v.u.opts.Restore(ctx, sealed, pass)
	}, func(_ struct{}, err error) {
		showError(v.errLabel, err)
		if err == nil {
			v.restorePass.SetText("")
			v.restoreDone.SetText("Restoring " + path + ": mailnode restarts with the node it holds.")
		}
	})
}

func defaultBackupPath() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return "mailnode-backup.mnb"
	}
	return filepath.Join(home, "mailnode-backup.mnb")
}

// newOffer makes the passphrase offered for the backup: six words from the
// EFF's list, about 77 bits, where most people's own are far weaker.
func (v *settingsView) newOffer() {
	offer, err := backup.NewPassphrase()
	if err != nil {
		showError(v.errLabel, err)
		return
	}
	v.backupOffer = offer
	v.backupOfferLabel.SetText("Passphrase made for you: " + offer + "\n" +
		"Write it down: the backup cannot be opened without it. Leave both fields empty to use it, or type your own twice.")
}

// saveBackup seals the node's identity into the chosen file (mode 0600,
// never over an existing one), with the offered passphrase when both
// fields are empty.
func (v *settingsView) saveBackup() {
	path, pass := v.backupPath.Text, v.backupPass.Text
	switch {
	case pass == "" && v.backupAgain.Text == "":
		pass = v.backupOffer
	case pass != v.backupAgain.Text:
		showError(v.errLabel, errors.New("the two passphrases differ"))
		return
	}
	call(v.u, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, v.u.node.WriteBackup(ctx, path, pass)
	}, func(_ struct{}, err error) {
		showError(v.errLabel, err)
		if err == nil {
			v.backupPass.SetText("")
			v.backupAgain.SetText("")
			v.backupDone.SetText("Saved " + path + ". Keep it and the passphrase apart; anyone with both is this node.")
		}
	})
}

func (v *settingsView) load() {
	call(v.u, func(context.Context) (config.File, error) { return v.u.node.Settings() }, func(f config.File, err error) {
		v.loading = true
		defer func() { v.loading = false }()
		v.autostart.SetChecked(v.u.opts.Autostart.Enabled())
		v.pause.SetChecked(v.u.last.SyncPaused)
		if err != nil {
			v.info.SetText("This node runs without a settings file: changes here last until it stops.")
			return
		}
		v.relay.SetText(f.Relay.URL)
	})
}
