package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"mailnode/app"
	"mailnode/app/config"
	"mailnode/app/localapi"
	"mailnode/app/localapi/localclient"
	"mailnode/mail/invisible"
	"mailnode/mail/signin"
)

const accountsUsage = `Usage:
  mailnode accounts [list]                          the accounts, and what each needs from you
  mailnode accounts add --oauth google|microsoft    sign in at your provider and add the account it names
  mailnode accounts remove NAME                     stop syncing an account and forget it (its mail stays)
Flags of add:
  --device      a code to enter on any device (Microsoft; the default where the provider allows it)
  --browser     an address to open in a browser on this computer (Google always: it allows no device sign-in for mail)
  --yes         add the account the provider names without asking (mailnode prints it and asks otherwise)
  --client-id ID [--client-secret S]  the OAuth client registered for mailnode, where this build has none
                (README: "Signing in to Gmail and Microsoft"; or "signin" in the settings file)
  --oauth https://issuer --imap-server HOST:PORT [--imap-security tls|starttls|plain] [--smtp-server HOST:PORT]
                an OpenID Connect provider of your own (a company's), and its mail servers
Common flags: --data-dir DIR --config FILE
`

// cmdAccounts lists the accounts with their state, or adds one by
// signing in at its provider with OAuth 2.0.
func cmdAccounts(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	sub := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("mailnode accounts "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, accountsUsage) }
	var o options
	o.register(fs, false)
	var a addFlags
	if sub == "add" {
		a.register(fs)
	}
	if err := parseFlags(fs, reorder(args)); err != nil {
		return err
	}
	args = fs.Args()
	if sub == "remove" && len(args) == 1 {
		args = nil
	}
	if len(args) > 0 {
		return usageError{fmt.Errorf("accounts %s: unexpected %q\n\n%s", sub, args[0], accountsUsage)}
	}
	dataDir, path := o.paths(getenv)
	switch sub {
	case "list":
		return listAccounts(ctx, dataDir, path, stdout)
	case "add":
		return addAccount(ctx, a, dataDir, path, getenv, stdin, stdout)
	case "remove":
		if fs.NArg() != 1 {
			return usageError{fmt.Errorf("accounts remove: name the account\n\n%s", accountsUsage)}
		}
		return removeAccount(ctx, fs.Arg(0), dataDir, path, getenv, stdout)
	}
	return usageError{fmt.Errorf("accounts: unknown command %q\n\n%s", sub, accountsUsage)}
}

// paths are the data directory and the settings file, as load finds them,
// without resolving any account.
func (o *options) paths(getenv func(string) string) (dataDir, settings string) {
	dataDir = firstNonEmpty(o.dataDir, getenv("MAILNODE_DATA_DIR"))
	settings = o.configPath
	if settings == "" {
		settings = filepath.Join(firstNonEmpty(dataDir, defaultDataDir()), "config.json")
	}
	if dataDir == "" {
		if f, err := config.Load(settings); err == nil && f.DataDir != "" {
			return f.DataDir, settings
		}
		dataDir = defaultDataDir()
	}
	return dataDir, settings
}

// listAccounts prints the settings' accounts and, when a node runs, what
// it says of each: syncing, or what the person must do.
func listAccounts(ctx context.Context, dataDir, path string, stdout io.Writer) error {
	f, err := config.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(stdout, "No accounts. Add one with: mailnode accounts add --oauth google|microsoft, or the desktop app's setup.")
		return nil
	}
	if err != nil {
		return err
	}
	running := map[string]localapi.Account{}
	lc, derr := localclient.Dial(dataDir)
	if derr == nil {
		as, err := lc.Accounts(ctx)
		if err != nil {
			return fmt.Errorf("accounts: %w", err)
		}
		for _, a := range as {
			running[a.Name] = a
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tADDRESS\tSERVER\tSIGNS IN WITH\tSTATE")
	for _, a := range f.Accounts {
		with := "password"
		if a.OAuth.Provider != "" {
			with = a.OAuth.Provider
		}
		state := "not syncing: the node is not running"
		if r, ok := running[a.Name]; ok {
			state = "syncing"
			if r.Problem != "" {
				state = r.Problem + ": its mail is not being copied"
			}
		} else if derr == nil {
			state = "not syncing: added after the node started; restart it"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", a.Name, a.Username, a.Server, with, state)
	}
	if len(f.Accounts) == 0 {
		fmt.Fprintln(tw, "(none)")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range running {
		if r.Problem != "" {
			fmt.Fprintf(stdout, "\n%s for %s: mailnode accounts add --oauth %s\n", r.Problem, r.Username, providerOf(f, r.Name))
		}
	}
	return nil
}

// confirmSignIn prints who the provider signed in and, unless yes, asks
// before the account is added: someone on this computer who read the
// sign-in's address may have signed in first, as himself.
func confirmSignIn(ctx context.Context, stdin io.Reader, stdout io.Writer, address string, again, yes bool) error {
	what := "Add this account"
	if again {
		what = "Use this sign-in for the account"
	}
	fmt.Fprintf(stdout, "Signed in as %s.\n", address)
	if yes {
		return nil
	}
	fmt.Fprintf(stdout, "%s? [y/N] ", what)
	answer := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdin).ReadString('\n')
		answer <- strings.ToLower(strings.TrimSpace(line))
	}()
	select {
	case a := <-answer:
		if a == "y" || a == "yes" {
			return nil
		}
		return app.ErrSignInCancelled
	case <-ctx.Done():
		return ctx.Err()
	}
}

// printable is s without what a terminal would act on or a person not
// see: controls (escape sequences), bidi controls, invisible characters.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) || invisible.Is(r) {
			return -1
		}
		return r
	}, s)
}

func providerOf(f config.File, name string) string {
	if a, ok := f.Account(name); ok {
		return a.OAuth.Provider
	}
	return ""
}

// addFlags are accounts add's own flags.
type addFlags struct {
	provider               string
	device, browser, yes   bool
	clientID, clientSecret string
	imap, imapSecurity     string
	smtp, smtpSecurity     string
	// devCAs trust a provider's private CA: a test's, a company's.
	devCAs stringsFlag
}

func (a *addFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.provider, "oauth", "", "the provider to sign in at: google, microsoft, or an OpenID Connect issuer's https URL")
	fs.BoolVar(&a.device, "device", false, "sign in with a code entered on any device (where the provider allows it for mail: Microsoft)")
	fs.BoolVar(&a.browser, "browser", false, "sign in with a browser on this computer")
	fs.BoolVar(&a.yes, "yes", false, "add the account the provider names without asking")
	fs.StringVar(&a.clientID, "client-id", "", "the OAuth client id registered for mailnode with the provider (saved in the settings' signin)")
	fs.StringVar(&a.clientSecret, "client-secret", "", "the secret Google gives a \"Desktop app\" client (it identifies the program, not you)")
	fs.StringVar(&a.imap, "imap-server", "", "IMAP server host:port (default the provider's)")
	fs.StringVar(&a.imapSecurity, "imap-security", "", "tls, starttls or plain (default tls)")
	fs.StringVar(&a.smtp, "smtp-server", "", "SMTP submission server host:port (default the provider's)")
	fs.StringVar(&a.smtpSecurity, "smtp-security", "", "starttls, tls or plain")
	fs.Var(&a.devCAs, "dev-oauth-ca", "development: trust this PEM CA file for the provider (repeatable)")
}

// addAccount signs in at the provider and saves the account it names.
func addAccount(ctx context.Context, fl addFlags, dataDir, path string, getenv func(string) string, stdin io.Reader, stdout io.Writer) error {
	if fl.provider == "" {
		return usageError{fmt.Errorf("accounts add: name the provider with --oauth google|microsoft\n\n%s", accountsUsage)}
	}
	store := config.NewStore(path)
	f, err := store.Load()
	if err != nil {
		return err
	}
	sc := app.SignInConfig{Clients: signin.Clients{}}
	for id, c := range f.SignIn {
		sc.Clients[id] = signin.Client{ID: c.ID, Secret: c.Secret}
	}
	if fl.clientID != "" {
		sc.Clients[fl.provider] = signin.Client{ID: fl.clientID, Secret: fl.clientSecret}
	}
	if len(fl.devCAs) > 0 {
		cas, err := readCAs("--dev-oauth-ca", fl.devCAs)
		if err != nil {
			return err
		}
		pool := x509.NewCertPool()
		for _, c := range cas {
			pool.AddCert(c)
		}
		sc.HTTP = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	}
	var device bool
	for _, p := range signin.Known() {
		if p.ID == fl.provider {
			// Its token goes to its own servers only (the node refuses
			// others at every start too).
			for _, s := range [][2]string{{firstNonEmpty(fl.imap, p.IMAP), fl.imapSecurity}, {firstNonEmpty(fl.smtp, p.SMTP), fl.smtpSecurity}} {
				if s[0] != "" {
					if err := p.CheckMailServer(s[0], s[1]); err != nil {
						return usageError{fmt.Errorf("accounts add: %w", err)}
					}
				}
			}
			device = p.DeviceAuthURL != "" && !fl.browser
			if fl.device && p.DeviceAuthURL == "" {
				fmt.Fprintf(stdout, "%s. ", p.NoDeviceFlow)
			}
		}
	}
	if strings.HasPrefix(fl.provider, "https://") {
		device = fl.device
		if fl.imap == "" {
			return usageError{errors.New("accounts add: an issuer of your own needs --imap-server (and --smtp-server to send)")}
		}
	}
	flow := app.SignInFlow{Open: func(u string) error {
		fmt.Fprintf(stdout, "Open this address in a browser on this computer (the answer comes back to 127.0.0.1, here):\n  %s\n", u)
		return nil
	}}
	if device {
		flow.Show = func(c app.DeviceCode) error {
			// The provider's words, on the person's terminal: no escape
			// sequence, no bidi control.
			fmt.Fprintf(stdout, "On any device, open %s and enter the code %s (before %s).\n",
				printable(c.URI), printable(c.UserCode), c.Expiry.Local().Format("15:04"))
			return nil
		}
	}
	flow.Confirm = func(ctx context.Context, address string, again bool) error {
		return confirmSignIn(ctx, stdin, stdout, printable(address), again, fl.yes)
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	a, err := app.SignIn(ctx, sc, dataDir, getenv, fl.provider, flow, f.Accounts, nil)
	if err != nil {
		return fmt.Errorf("accounts add: %w", err)
	}
	a.Server = firstNonEmpty(fl.imap, a.Server)
	a.Security = firstNonEmpty(fl.imapSecurity, a.Security)
	if fl.smtp != "" {
		a.SMTP.Server, a.SMTP.Security = fl.smtp, firstNonEmpty(fl.smtpSecurity, "starttls")
	}
	settings, err := json.Marshal(a)
	if err != nil {
		return err
	}
	// The running node keeps the account and syncs it at once; without
	// one, the same method of a node opened here only keeps it.
	node, opened, done, err := nodeOrStore(ctx, app.Config{DataDir: dataDir, Settings: store, SignIn: sc, Getenv: getenv}, nil)
	if err != nil {
		return fmt.Errorf("accounts add: %w", err)
	}
	defer done()
	req := localapi.SaveAccountRequest{Settings: settings}
	if fl.clientID != "" {
		req.ClientID, req.ClientSecret = fl.clientID, fl.clientSecret
	}
	saved, err := node.SaveAccount(ctx, req)
	if err != nil {
		return fmt.Errorf("accounts add: %w", err)
	}
	verb := "Added"
	if saved.Again {
		verb = "Signed in again to"
	}
	fmt.Fprintf(stdout, "%s %s (%s, signed in with %s).\n", verb, saved.Name, saved.Server, fl.provider)
	if opened == nil {
		if saved.Syncing {
			fmt.Fprintln(stdout, "The running node is syncing it now.")
		} else {
			fmt.Fprintln(stdout, "The running node syncs no account now (paused, or started without syncing): it syncs it once it does.")
		}
	}
	return nil
}

// removeAccount stops syncing an account and removes it from the
// settings, through the running node or the data opened here.
func removeAccount(ctx context.Context, name, dataDir, path string, getenv func(string) string, stdout io.Writer) error {
	node, _, done, err := nodeOrStore(ctx, app.Config{DataDir: dataDir, Settings: config.NewStore(path), Getenv: getenv}, nil)
	if err != nil {
		return fmt.Errorf("accounts remove: %w", err)
	}
	defer done()
	if err := node.RemoveAccount(ctx, name); err != nil {
		return fmt.Errorf("accounts remove: %w", err)
	}
	fmt.Fprintf(stdout, "Removed %s: it is no longer synced. Its mail stays in the store; its sign-in or password stays where it was kept.\n", name)
	return nil
}
