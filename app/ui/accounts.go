package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"mailnode/app/config"
)

// accountsView lists the mailboxes the node copies, adds one with the
// wizard and removes one (the mail already copied stays).
type accountsView struct {
	u        *UI
	box      *fyne.Container
	list     *fyne.Container
	errLabel *widget.Label
}

func newAccountsView(u *UI) *accountsView {
	v := &accountsView{u: u, list: container.NewVBox(), errLabel: errorLabel()}
	add := widget.NewButton("Add an account", func() { u.openWizardLocked() })
	v.box = container.NewBorder(container.NewVBox(v.errLabel, add), nil, nil, nil, container.NewVScroll(v.list))
	return v
}

func (v *accountsView) load() {
	call(v.u, func(context.Context) (config.File, error) { return v.u.node.Settings() }, func(f config.File, err error) {
		v.list.RemoveAll()
		if err != nil {
			// A node started without a settings file (the demo) shows
			// what it syncs from its status instead.
			for _, a := range v.u.last.Accounts {
				v.list.Add(wrapped(fmt.Sprintf("%s: %s on %s (password: %s)", a.Name, a.Username, a.Server, a.PasswordSource)))
			}
			if len(v.u.last.Accounts) == 0 {
				v.list.Add(wrapped("This node has no settings file to add accounts to."))
			}
			v.list.Refresh()
			return
		}
		if len(f.Accounts) == 0 {
			v.list.Add(wrapped("No mail account yet: add one to start."))
		}
		for _, a := range f.Accounts {
			text := fmt.Sprintf("%s: %s on %s", a.Name, a.Username, a.Server)
			if a.SMTP.Server != "" {
				text += ", sending through " + a.SMTP.Server
			}
			v.list.Add(container.NewBorder(nil, nil, nil,
				widget.NewButton("Remove", func() { v.confirmRemove(a.Name) }), wrapped(text)))
		}
		v.list.Refresh()
	})
}

func (v *accountsView) confirmRemove(name string) {
	dialog.ShowConfirm("Remove "+name+"?",
		"mailnode stops copying this mailbox. The mail already copied stays on this computer.",
		func(ok bool) {
			if ok {
				v.remove(name)
			}
		}, v.u.win)
}

func (v *accountsView) remove(name string) {
	call(v.u, func(ctx context.Context) (struct{}, error) { return struct{}{}, v.u.node.RemoveAccount(ctx, name) },
		func(_ struct{}, err error) { showError(v.errLabel, err); v.load() })
}
