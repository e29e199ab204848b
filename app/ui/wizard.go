package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"mailnode/app"
	"mailnode/app/config"
)

// wizard is the first run: address, servers found for it, password and a
// test login, the relay (its transparency statement first), then pairing a
// phone. Each step is one screen of the wizard's window; every node call
// runs off the UI goroutine.
type wizard struct {
	u        *UI
	win      fyne.Window
	body     *fyne.Container
	errLabel *widget.Label
	step     string // the screen shown, for tests

	address   *widget.Entry
	imap      *widget.Entry
	imapSec   *widget.Select
	user      *widget.Entry
	smtp      *widget.Entry
	smtpSec   *widget.Select
	source    *widget.Label
	note      *widget.Label
	password  *widget.Entry
	relay     *widget.Entry
	statement *widget.Label
	busy      *widget.ProgressBarInfinite

	// signedIn is the address a sign-in named, and answer takes the
	// person's Add (true) or Cancel, on stepConfirm.
	signedIn string
	answer   chan bool
}

// Wizard steps.
const (
	stepAddress  = "address"
	stepServers  = "servers"
	stepPassword = "password"
	stepRelay    = "relay"
	stepPhone    = "phone"
	stepConfirm  = "confirm" // "Signed in as X": Add or Cancel
)

// OpenWizard opens the setup wizard (first run), from any goroutine.
func (u *UI) OpenWizard() { u.open("", u.openWizardLocked) }

// openWizardLocked is OpenWizard on the UI goroutine ("Add an account").
func (u *UI) openWizardLocked() {
	if u.wiz != nil {
		u.wiz.win.Show()
		u.wiz.win.RequestFocus()
		return
	}
	u.wiz = newWizard(u)
	u.wiz.win.Show()
}

func newWizard(u *UI) *wizard {
	w := &wizard{u: u, win: u.fa.NewWindow("Set up mailnode"), body: container.NewVBox(), errLabel: errorLabel(),
		address: widget.NewEntry(), imap: widget.NewEntry(), user: widget.NewEntry(), smtp: widget.NewEntry(),
		source: wrapped(""), note: wrapped(""), password: widget.NewPasswordEntry(),
		relay: widget.NewEntry(), statement: wrapped(""), busy: widget.NewProgressBarInfinite()}
	w.address.SetPlaceHolder("you@example.com")
	w.imapSec = widget.NewSelect([]string{"tls", "starttls", "plain"}, nil)
	w.smtpSec = widget.NewSelect([]string{"tls", "starttls", "plain"}, nil)
	w.note.Importance = widget.WarningImportance
	w.relay.SetPlaceHolder(config.RelayPlaceholder)
	w.busy.Hide()
	w.win.SetContent(container.NewBorder(nil, container.NewVBox(w.busy, w.errLabel), nil, nil, container.NewVScroll(w.body)))
	w.win.Resize(wizardWindowSize)
	w.win.SetOnClosed(func() { u.wiz = nil })
	w.show(stepAddress)
	return w
}

// show switches to a step's screen.
func (w *wizard) show(step string) {
	w.step = step
	showError(w.errLabel, nil)
	w.body.RemoveAll()
	text := wrapped
	switch step {
	case stepAddress:
		w.body.Add(heading("Your e-mail address"))
		w.body.Add(text("mailnode keeps a private copy of this mailbox on this computer and lets the agents " +
			"you allow ask about it. Nothing leaves this computer unless you approve it."))
		w.body.Add(w.address)
		w.body.Add(w.button("Find my mail settings", w.discover))
		// Providers that take no password for mail (Microsoft) or only
		// an app password (Google): sign in at the provider instead, in
		// the system browser; the address is the one it names.
		w.body.Add(widget.NewSeparator())
		w.body.Add(text("Gmail, Google Workspace, Outlook.com or Microsoft 365? Sign in with your provider instead: " +
			"it asks you in your browser, and mailnode never sees your password."))
		var buttons []fyne.CanvasObject
		for _, p := range w.u.node.SignInProviders() {
			buttons = append(buttons, w.button("Sign in with "+p.Name, func() { w.signIn(p.ID, p.Name) }))
		}
		w.body.Add(buttonRow(buttons...))
		if w.u.opts.Restore != nil {
			// Moving computers: the old node's backup, not a new setup.
			w.body.Add(widget.NewSeparator())
			w.body.Add(widget.NewButton("Moving from another computer? Restore its backup", func() {
				w.win.Close()
				w.u.showLocked(TabSettings)
			}))
		}
	case stepConfirm:
		answer := w.answer
		w.body.Add(heading("Signed in as " + w.signedIn))
		w.body.Add(text("Is this the account you meant to add? If you did not sign in as " + w.signedIn +
			", someone else on this computer may have: choose Cancel and mailnode keeps nothing."))
		reply := func(ok bool) func() {
			return func() {
				select {
				case answer <- ok:
				default: // answered already
				}
			}
		}
		w.body.Add(buttonRow(w.button("Cancel", reply(false)), w.button("Add", reply(true))))
	case stepServers:
		w.body.Add(heading("Your mail servers"))
		w.body.Add(w.source)
		if w.note.Text != "" {
			w.body.Add(w.note)
		}
		w.body.Add(widget.NewForm(
			widget.NewFormItem("IMAP server", w.imap), widget.NewFormItem("Security", w.imapSec),
			widget.NewFormItem("Username", w.user),
			widget.NewFormItem("SMTP server", w.smtp), widget.NewFormItem("SMTP security", w.smtpSec)))
		w.body.Add(w.button("Next", func() { w.show(stepPassword) }))
	case stepPassword:
		w.body.Add(heading("Your password for " + w.user.Text))
		w.body.Add(text("mailnode keeps it in your system's keyring (or, where there is none, in a file only you can read) " +
			"and sends it only to " + w.imap.Text + " and " + w.smtp.Text + "."))
		if w.note.Text != "" {
			w.body.Add(w.note)
		}
		w.body.Add(w.password)
		w.body.Add(buttonRow(w.button("Back", func() { w.show(stepServers) }),
			w.button("Log in and start copying", w.login)))
	case stepRelay:
		w.body.Add(heading("Reach your agents from anywhere"))
		w.body.Add(text("A relay lets agents outside your home network reach this computer by your address. " +
			"It carries their encrypted connections and cannot read them. This project runs no public relay yet: " +
			"enter one that you or someone you trust runs (docs/relay-deploy.md says how), or skip; agents on this " +
			"computer still reach mailnode without one. Read what a relay can see before you register:"))
		w.body.Add(widget.NewForm(widget.NewFormItem("Relay", w.relay)))
		w.body.Add(w.button("Show what this relay can see", w.transparency))
		w.body.Add(w.statement)
		register := w.button("Register at this relay", w.register)
		if w.statement.Text == "" {
			register.Disable() // the statement comes first
		} else {
			w.body.Add(text("Registering makes " + strings.TrimSpace(w.address.Text) + " your address at this relay."))
		}
		w.body.Add(buttonRow(w.button("Skip", func() { w.show(stepPhone) }), register))
	case stepPhone:
		w.body.Add(heading("Pair your phone"))
		w.body.Add(text("Your phone is where you approve what agents ask. Pair it now: mailnode shows a QR code " +
			"to scan with the phone's camera."))
		w.body.Add(buttonRow(w.button("Later", w.finish),
			w.button("Pair a phone now", func() { w.finish(); w.u.showLocked(TabPhones); w.u.phones.pair() })))
	}
	w.body.Refresh()
}

func (w *wizard) button(label string, f func()) *widget.Button {
	return widget.NewButton(label, f)
}

func (w *wizard) working(on bool) {
	if on {
		w.busy.Show()
		w.busy.Start()
	} else {
		w.busy.Stop()
		w.busy.Hide()
	}
}

func (w *wizard) discover() {
	address := strings.TrimSpace(w.address.Text)
	w.working(true)
	call(w.u, func(ctx context.Context) (app.DiscoveredAccount, error) {
		return w.u.node.DiscoverAccount(ctx, address)
	}, func(s app.DiscoveredAccount, err error) {
		w.working(false)
		switch {
		case errors.Is(err, app.ErrNoAccountSettings):
			w.source.SetText("mailnode found no settings for " + address + ": type them from your provider's help pages.")
			w.user.SetText(address)
			w.imapSec.SetSelected("tls")
			w.smtpSec.SetSelected("starttls")
		case err != nil:
			showError(w.errLabel, err)
			return
		default:
			w.source.SetText(fmt.Sprintf("Found for %s (from %s).", s.Provider, s.Source))
			w.imap.SetText(s.IMAP.Addr())
			w.imapSec.SetSelected(s.IMAP.Security)
			w.user.SetText(s.IMAP.Username)
			w.smtp.SetText(s.SMTP.Addr())
			w.smtpSec.SetSelected(s.SMTP.Security)
		}
		w.note.SetText(s.Note)
		w.show(stepServers)
	})
}

// account is the account the screens describe, without its password.
func (w *wizard) account() config.Account {
	return config.Account{Name: strings.TrimSpace(w.address.Text), Server: strings.TrimSpace(w.imap.Text),
		Security: w.imapSec.Selected, Username: strings.TrimSpace(w.user.Text),
		SMTP: config.SMTP{Server: strings.TrimSpace(w.smtp.Text), Security: w.smtpSec.Selected,
			From: strings.TrimSpace(w.address.Text)}}
}

// login keeps the password, logs in once and adds the account.
func (w *wizard) login() {
	a, password := w.account(), w.password.Text
	if _, port, err := net.SplitHostPort(a.Server); err != nil || port == "" {
		showError(w.errLabel, errors.New("the IMAP server is host:port, for example imap.example.com:993"))
		return
	} else if p, _ := strconv.Atoi(port); p < 1 || p > 65535 {
		showError(w.errLabel, errors.New("the IMAP server's port is a number from 1 to 65535"))
		return
	}
	w.working(true)
	call(w.u, func(ctx context.Context) (struct{}, error) {
		where, err := w.u.node.StorePassword(ctx, a.Username, password)
		if err != nil {
			return struct{}{}, err
		}
		a.Password = where
		if err := w.u.node.CheckLogin(ctx, a); err != nil {
			return struct{}{}, err
		}
		return struct{}{}, w.u.node.AddAccount(ctx, a)
	}, func(_ struct{}, err error) {
		w.working(false)
		if err != nil {
			showError(w.errLabel, err)
			return
		}
		w.password.SetText("")
		w.u.accounts.load()
		w.show(stepRelay)
	})
}

// signInTimeout bounds a sign-in in the browser: a person reads the
// provider's pages, may type a password and a second factor.
const signInTimeout = 10 * time.Minute

// signIn signs in at a provider in the system browser and adds the
// account it names. Without a client id for the provider the error says
// what to register (docs/accounts.md).
func (w *wizard) signIn(provider, name string) {
	w.working(true)
	showError(w.errLabel, nil)
	run(w.u, true, signInTimeout, func(ctx context.Context) (config.Account, error) {
		return w.u.node.SignInAccount(ctx, provider, app.SignInFlow{Open: w.u.openURL, Confirm: w.confirmSignIn})
	}, func(a config.Account, err error) {
		w.working(false)
		if err != nil {
			if w.step == stepConfirm {
				w.show(stepAddress)
			}
			showError(w.errLabel, err)
			return
		}
		w.address.SetText(a.Username)
		w.u.accounts.load()
		w.show(stepRelay)
	})
}

// confirmSignIn is the wizard's SignInFlow.Confirm: it shows the address
// the provider signed in, with Add and Cancel, and waits for the person.
// Someone else on this computer who read the sign-in's address may have
// signed in first, as himself: nothing is added until the person says
// this is the account.
func (w *wizard) confirmSignIn(ctx context.Context, address string, again bool) error {
	answer := make(chan bool, 1)
	w.u.deliver(func() {
		w.signedIn, w.answer = address, answer
		w.working(false)
		w.show(stepConfirm)
	})
	select {
	case ok := <-answer:
		w.u.deliver(func() { w.working(true) })
		if !ok {
			return app.ErrSignInCancelled
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *wizard) transparency() {
	url := strings.TrimSpace(w.relay.Text)
	if url == "" {
		showError(w.errLabel, errors.New("enter the address of the relay to use, or skip this step"))
		return
	}
	w.working(true)
	call(w.u, func(ctx context.Context) (app.Transparency, error) {
		return w.u.node.RelayTransparency(ctx, url)
	}, func(t app.Transparency, err error) {
		w.working(false)
		if err != nil {
			showError(w.errLabel, err)
			return
		}
		w.statement.SetText(t.Text)
		w.show(stepRelay)
	})
}

func (w *wizard) register() {
	url, address := strings.TrimSpace(w.relay.Text), strings.TrimSpace(w.address.Text)
	call(w.u, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, w.u.node.UseRelay(ctx, url, address)
	}, func(_ struct{}, err error) {
		if err != nil {
			showError(w.errLabel, err)
			return
		}
		w.show(stepPhone)
	})
}

func (w *wizard) finish() {
	w.win.Close()
}
