package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"mailnode/app"
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
			buttons := container.NewHBox(widget.NewButton("Remove", func() { v.confirmRemove(a.Name) }))
			if problem := v.problem(a.Name); problem != "" {
				// The provider refused the account's sign-in: its sync
				// stopped until the person signs in again.
				text += ". " + problem + ": its mail is not being copied."
				buttons.Objects = append([]fyne.CanvasObject{widget.NewButton(problem, func() { v.signInAgain(a.OAuth.Provider) })},
					buttons.Objects...)
			}
			v.list.Add(container.NewBorder(nil, nil, nil, buttons, wrapped(text)))
		}
		v.list.Refresh()
	})
}

// problem is what the node's status says the account needs, if anything.
func (v *accountsView) problem(name string) string {
	for _, a := range v.u.last.Accounts {
		if a.Name == name {
			return a.Problem
		}
	}
	return ""
}

// signInAgain signs in at the account's provider in the system browser;
// the node replaces the account's sign-in and syncs it again.
func (v *accountsView) signInAgain(provider string) {
	call(v.u, func(ctx context.Context) (config.Account, error) {
		return v.u.node.SignInAccount(ctx, provider, app.SignInFlow{Open: v.u.openURL, Confirm: v.confirmSignIn})
	}, func(_ config.Account, err error) { showError(v.errLabel, err); v.load() })
}

// confirmSignIn asks, before a sign-in replaces an account's or adds
// one, whether the address the provider signed in is the person's: one
// who read the sign-in's address may have signed in first, as himself.
func (v *accountsView) confirmSignIn(ctx context.Context, address string, again bool) error {
	what, yes := "Add "+address+" as an account?", "Add"
	if again {
		what, yes = "Sign in to "+address+" again with this sign-in?", "Use this sign-in"
	}
	answer := make(chan bool, 1)
	var d dialog.Dialog
	v.u.deliver(func() {
		c := dialog.NewConfirm("Signed in as "+address, what+" If you did not sign in as "+address+
			", someone else on this computer may have: choose Cancel and mailnode keeps nothing.",
			func(ok bool) { answer <- ok }, v.u.win)
		c.SetConfirmText(yes)
		c.SetDismissText("Cancel")
		c.Show()
		d = c
	})
	select {
	case ok := <-answer:
		if !ok {
			return app.ErrSignInCancelled
		}
		return nil
	case <-ctx.Done():
		v.u.deliver(func() {
			if d != nil {
				d.Hide()
			}
		})
		return ctx.Err()
	}
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
