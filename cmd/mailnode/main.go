// Command mailnode is the node: it keeps a local copy of the user's mailbox
// and (in later versions) serves agents and shows a tray icon. Every
// subcommand drives the same app.Node; this file only parses flags, wires
// signals and maps errors to exit codes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"

	"mailnode/app"
	"mailnode/app/demo"
	"mailnode/app/localapi"
	"mailnode/app/localapi/localclient"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

const usage = `mailnode keeps a private, local copy of your mailbox.

Usage:
  mailnode        [--minimized] [--data-dir DIR]  the desktop app: tray icon, windows, first-run setup
  mailnode demo   [--data-dir DIR] [--keep]   sync a built-in sample mailbox and show what was stored
  mailnode sync   [account flags]              one sync pass, then exit
  mailnode serve  [account flags]              sync, then keep the copy current (IDLE) until stopped
  mailnode serve  --demo [--demo-mx ADDR]      the same on the built-in sample mailbox (try a relay with it)
  mailnode search [--data-dir DIR] WORDS...     full-text search over the local copy
  mailnode status [--data-dir DIR]             the node's state: running or not, accounts, messages, agents' reach
  mailnode approvals list|approve|deny|revoke   decide on agents' requests from this machine
  mailnode pair   [--data-dir DIR] [--yes] [--lan]  pair a phone: show a QR code, confirm its short code
  mailnode phones [list|rename|remove|lan]     the paired phones; lan on|off: listen for phones on this network
  mailnode drafts [list|show|edit]             the drafts agents wrote
  mailnode accounts [list|add --oauth google|microsoft|remove NAME]  the accounts and their state; sign in at Google or Microsoft
  mailnode backup  [--out FILE]                 seal this node's keys, relay name, grants, phones and settings (not the mail)
  mailnode restore [--data-dir DIR] FILE        put a backup into a new data directory: the same node on a new computer
  mailnode extract [--merged] FILE.eml...       show the trips, orders and bills the node reads from mails
  mailnode version

Account flags (or MAILNODE_* environment variables, or a config file):
  --imap-server host:port  --imap-user NAME  --imap-security tls|starttls|plain
  --imap-password-file FILE | MAILNODE_IMAP_PASSWORD | --imap-keyring
  --smtp-server host:port --smtp-security starttls|tls|plain --from "Name <address>"  (sending approved drafts)
  --allow-insecure  (development: plain IMAP or SMTP to a server not on loopback)
The password is never taken from a command-line argument.
Agents: serve --listen :443 --hostname node.example.net (or MAILNODE_LISTEN, MAILNODE_HOSTNAME),
  or through a relay: serve --relay https://relay.example.net (README: "Through a relay").
Trusted senders: MAILNODE_AUTHSERV_IDS=mx.google.com (your provider's Authentication-Results id),
  MAILNODE_VERIFY_DKIM=1 (check DKIM over DNS too); or "facts" in the config file.

While a node runs (mailnode serve, or the desktop app) every command asks it, through its local
API; otherwise the command opens the data directory itself.
Run "mailnode COMMAND -h" for every flag of a command.
`

func main() {
	attachConsole()
	privateFiles()
	app.SetRuntime()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runContext(ctx, args, stdout, stderr, getenv)
}

// runContext is run under ctx, which a signal cancels: a test cancels it
// as Ctrl-C would.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	stdout, stderr = syncWriter(stdout), syncWriter(stderr)
	var err error
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && !isHelp(args[0]) {
		// No command: the desktop app (gui.go), or the usage in a
		// headless build (gui_headless.go). Quitting it by a signal is
		// a requested stop.
		err = requestedStop(ctx, runDesktop(ctx, args, stdout, stderr, getenv))
		return exitCode(ctx, err, stderr)
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "demo":
		err = cmdDemo(ctx, rest, stdout, stderr, getenv)
	case "sync":
		err = cmdSync(ctx, rest, stdout, stderr, getenv)
	case "serve":
		err = cmdServe(ctx, rest, stdout, stderr, getenv)
	case "search":
		err = cmdSearch(ctx, rest, stdout, stderr, getenv)
	case "status":
		err = cmdStatus(ctx, rest, stdout, stderr, getenv)
	case "approvals":
		err = cmdApprovals(ctx, rest, stdout, stderr, getenv)
	case "pair":
		err = cmdPair(ctx, rest, os.Stdin, stdout, stderr, getenv)
	case "phones":
		err = cmdPhones(ctx, rest, stdout, stderr, getenv)
	case "accounts":
		err = cmdAccounts(ctx, rest, os.Stdin, stdout, stderr, getenv)
	case "phone":
		fmt.Fprintln(stderr, "mailnode: the reference phone is its own command now: mailnode-phone (go run ./cmd/mailnode-phone)")
		return 2
	case "drafts":
		err = cmdDrafts(ctx, rest, stdout, stderr, getenv)
	case "backup":
		err = cmdBackup(ctx, rest, os.Stdin, stdout, stderr, getenv)
	case "restore":
		err = cmdRestore(ctx, rest, os.Stdin, stdout, stderr, getenv)
	case "extract":
		err = cmdExtract(ctx, rest, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "mailnode", version)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "mailnode: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	return exitCode(ctx, err, stderr)
}

func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "-help" }

// exitCode reports err and maps it to the exit status. ctx is the
// signal context: a one-shot command that a signal cut short says so, not
// "context canceled" from deep inside, and still fails (exit 1), since it
// did not finish.
func exitCode(ctx context.Context, err error, stderr io.Writer) int {
	var ue usageError
	var fe flagError
	switch {
	case err == nil:
		return 0
	case interrupted(ctx, err):
		fmt.Fprintf(stderr, "mailnode: stopped before it finished (%v)\n", context.Cause(ctx))
		return 1
	case errors.Is(err, flag.ErrHelp):
		return 0 // -h: the flag package has printed the command's flags
	case errors.As(err, &fe):
		return 2 // the flag package has printed the problem and the flags
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "mailnode:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "mailnode:", err)
		return 1
	}
}

// interrupted reports whether err is how the command ended because ctx,
// the signal context, was cancelled (Ctrl-C, or SIGTERM from a service
// manager) rather than a failure of its own. Code below cmd/ sees either
// context.Canceled or the signal as the context's cause (an HTTP client
// reports the cause).
func interrupted(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil &&
		(errors.Is(err, context.Canceled) || errors.Is(err, context.Cause(ctx)))
}

// requestedStop is err of a command that runs until stopped (serve, demo
// --serve, the desktop app): a signal is how the user asks it to stop,
// so the error that cancellation causes is no failure (exit 0, quietly).
func requestedStop(ctx context.Context, err error) error {
	if interrupted(ctx, err) {
		return nil
	}
	return err
}

// usageError is a mistake in how mailnode was called (exit status 2).
type usageError struct{ error }

// flagError is a usageError the flag package has already reported.
type flagError struct{ error }

// dataFlags is the flag set of a command that works on the data
// directory: the data-directory flags, then the command's own.
type dataFlags struct {
	*flag.FlagSet
	o options
	// existing: the command reads a node's data, so a data directory
	// that holds none (a mistyped --data-dir) is an error, not an empty
	// answer.
	existing bool
}

func newDataFlags(name string, stderr io.Writer) *dataFlags {
	d := &dataFlags{FlagSet: flag.NewFlagSet("mailnode "+name, flag.ContinueOnError)}
	d.SetOutput(stderr)
	d.o.register(d.FlagSet, false)
	return d
}

// parse reads args, flags anywhere among them, and the configuration.
func (d *dataFlags) parse(args []string, getenv func(string) string) (app.Config, error) {
	if err := parseFlags(d.FlagSet, reorder(args)); err != nil {
		return app.Config{}, err
	}
	cfg, err := d.o.load(getenv)
	if err != nil {
		return app.Config{}, usageError{err}
	}
	if d.existing {
		if err := requireData(cfg.DataDir); err != nil {
			return app.Config{}, err
		}
	}
	return cfg, nil
}

// requireData refuses a data directory that holds no node, so that a
// mistyped --data-dir says so instead of answering from an empty
// database it just created.
func requireData(dir string) error {
	if !app.HasData(dir) {
		return fmt.Errorf("%s holds no mailnode data: check --data-dir (or MAILNODE_DATA_DIR), or run mailnode sync or mailnode demo first", dir)
	}
	return nil
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return flagError{err}
	}
	return err
}

func newLogger(w io.Writer, level, env string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(firstNonEmpty(level, env, "info"))); err != nil {
		return nil, usageError{fmt.Errorf("log level: %w", err)}
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}

// setupConfig parses flags and builds the node for serve, also returning
// the configuration; services, if set, chooses the node's services from
// it. With --demo it starts the sample mailbox (app/demo), which box
// names and the caller closes after the node has stopped; else box is nil.
func setupConfig(name string, args []string, stderr io.Writer, getenv func(string) string, services func(app.Config) app.Services) (_ *app.Node, _ *flag.FlagSet, _ app.Config, box *demo.Mailbox, err error) {
	defer func() {
		if err != nil && box != nil {
			box.Close()
			box = nil
		}
	}()
	fs := flag.NewFlagSet("mailnode "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	o.register(fs, true)
	var demoMode bool
	var demoMX string
	if name == "serve" {
		fs.BoolVar(&demoMode, "demo", false, "serve the built-in sample mailbox (an IMAP server in this process) instead of an account; data in --data-dir (default "+filepath.Join(os.TempDir(), "mailnode-demo-serve")+")")
		fs.StringVar(&demoMX, "demo-mx", "", "with --demo: also take mail for the demo address from anyone on this loopback address, as its mail exchanger (a development relay's --smtp-server)")
	}
	if err := parseFlags(fs, args); err != nil {
		return nil, nil, app.Config{}, nil, err
	}
	if demoMode {
		if o.acct.Server != "" {
			return nil, nil, app.Config{}, nil, usageError{errors.New("--demo serves the sample mailbox: give it no --imap-server")}
		}
		if o.dataDir == "" && getenv("MAILNODE_DATA_DIR") == "" {
			// The sample mailbox stays out of the person's own data.
			o.dataDir = filepath.Join(os.TempDir(), "mailnode-demo-serve")
		}
	} else if demoMX != "" {
		return nil, nil, app.Config{}, nil, usageError{errors.New("--demo-mx goes with --demo")}
	}
	logger, err := newLogger(stderr, o.logLevel, getenv("MAILNODE_LOG_LEVEL"))
	if err != nil {
		return nil, nil, app.Config{}, nil, err
	}
	cfg, err := o.load(getenv)
	if err != nil {
		return nil, nil, app.Config{}, nil, usageError{err}
	}
	if demoMode {
		if box, err = demo.StartMailbox(demo.MailboxOptions{Logger: logger, MX: demoMX}); err != nil {
			return nil, nil, app.Config{}, nil, err
		}
		if cfg, err = box.Config(cfg); err != nil {
			return nil, nil, app.Config{}, nil, err
		}
	}
	if services != nil {
		cfg.Services = services(cfg)
	}
	n, err := app.New(cfg, logger)
	if err != nil {
		return nil, nil, app.Config{}, nil, usageError{err}
	}
	return n, fs, cfg, box, nil
}

// openNode starts a node that runs no service: a handle on the store
// for one command.
func openNode(ctx context.Context, cfg app.Config, logger *slog.Logger) (*app.Node, error) {
	n, err := app.New(cfg, logger)
	if err != nil {
		return nil, usageError{err}
	}
	if err := n.Start(ctx); err != nil {
		return nil, err
	}
	return n, nil
}

// backend is the node of cfg's data directory for a command that reads
// or changes its approvals and phones: the running node over its local
// API, or, when none runs, the data opened directly, knowing the same
// sites as the node (its hosting suffixes and relay). done releases it.
func backend(ctx context.Context, cfg app.Config, logger *slog.Logger) (b localapi.Backend, done func(), err error) {
	b, _, done, err = nodeOrStore(ctx, app.Config{DataDir: cfg.DataDir,
		Gateway: app.GatewayConfig{HostingSuffixes: cfg.Gateway.HostingSuffixes}, Relay: app.RelayConfig{URL: cfg.Relay.URL}}, logger)
	return b, done, err
}

// nodeOrStore is the one way every command reaches a node's data: the
// running node over its local API (the only process that opens the store
// while it runs), or, when none runs, a node opened on cfg that runs no
// service. Either way the command calls the same app.Node methods
// (localapi.Backend), so it prints the same answer. n is the opened node,
// nil when a running node answers; done releases it.
func nodeOrStore(ctx context.Context, cfg app.Config, logger *slog.Logger) (b localapi.Backend, n *app.Node, done func(), err error) {
	lc, err := localclient.Dial(cfg.DataDir)
	if err == nil {
		return lc, nil, func() {}, nil
	}
	if errors.Is(err, localclient.ErrNodeUnreachable) {
		return nil, nil, nil, err
	}
	n, err = openNode(ctx, cfg, logger)
	if err != nil {
		return nil, nil, nil, err
	}
	return n, n, func() { n.Stop() }, nil
}

func cmdSync(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("mailnode sync", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	o.register(fs, true)
	cpuProfile := fs.String("dev-cpuprofile", "", "development: write a CPU profile of the sync to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	logger, err := newLogger(stderr, o.logLevel, getenv("MAILNODE_LOG_LEVEL"))
	if err != nil {
		return err
	}
	cfg, err := o.load(getenv)
	if err != nil {
		return usageError{err}
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	lc, err := localclient.Dial(cfg.DataDir)
	if errors.Is(err, localclient.ErrNodeUnreachable) {
		return err
	}
	if err == nil {
		if o.namesAccount(getenv) {
			return usageError{fmt.Errorf("a node is running on %s and syncs the accounts it has: stop it to sync an account given by flags or MAILNODE_IMAP_*, or add the account to it", cfg.DataDir)}
		}
		rep, err := lc.SyncNow(ctx)
		if err != nil {
			return err
		}
		printSync(stdout, cfg.DataDir, rep)
		return nil
	}
	n, err := app.New(cfg, logger)
	if err != nil {
		return usageError{err}
	}
	if err := n.Start(ctx); err != nil {
		return err
	}
	defer n.Stop()
	sub, unsubscribe := n.Subscribe()
	stopProgress := showProgress(stderr, sub)
	rep, err := n.SyncNow(ctx)
	stopProgress()
	unsubscribe()
	if err != nil {
		return err
	}
	printSync(stdout, cfg.DataDir, rep)
	return nil
}

// startCPUProfile writes a CPU profile of the rest of the run to path (the
// development flag --dev-cpuprofile); the profile is complete once stop
// returns. An empty path profiles nothing.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("the CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("the CPU profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// printSync says what a sync did, from a running node or the store.
func printSync(stdout io.Writer, dataDir string, rep localapi.SyncReport) {
	if rep.Continuous {
		fmt.Fprintf(stdout, "The node running on %s keeps its accounts current itself, so no pass was needed. The store holds %d messages (%s).\n",
			dataDir, rep.Stats.Messages, rep.DBPath)
		return
	}
	res := rep.Result
	fmt.Fprintf(stdout, "Synced %d folders in %v: %d new, %d flag changes, %d removed. The store holds %d messages (%s).\n",
		res.Folders, res.Duration.Round(1e6), res.Added, res.Flagged, res.Removed, rep.Stats.Messages, rep.DBPath)
}

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	n, _, cfg, box, err := setupConfig("serve", args, stderr, getenv, func(cfg app.Config) app.Services {
		return app.Services{Sync: len(cfg.Accounts) > 0, Gateway: cfg.Gateway.Listen != "", LocalAPI: true,
			Relay: cfg.Relay.URL != ""}
	})
	if err != nil {
		return err
	}
	if box != nil {
		defer box.Close()
	}
	if cfg.Services.Relay {
		// Without an address the relay service could only stop itself
		// once running, and the node would serve on without the relay
		// it was asked for.
		if _, err := app.RelayAddress(cfg); err != nil {
			return usageError{err}
		}
	}
	if len(cfg.Accounts) == 0 {
		// No account to sync: agents are served from the mail already
		// in the store, which must exist.
		if cfg.Gateway.Listen == "" {
			return usageError{errors.New("serve: no IMAP account to sync and no --listen to serve agents on; nothing to do")}
		}
		if err := requireData(cfg.DataDir); err != nil {
			return err
		}
	}
	return requestedStop(ctx, runUntilSignal(ctx, n, func() {
		// Once started: a second node on the directory says only that.
		if len(cfg.Accounts) == 0 {
			fmt.Fprintf(stdout, "mailnode serving agents from the mail in %s (no IMAP account configured, so not syncing); Ctrl-C to stop.\n", n.DBPath())
		} else {
			fmt.Fprintf(stdout, "mailnode serving from %s; Ctrl-C to stop.\n", n.DBPath())
		}
		if cfg.Services.Relay {
			go reportRelay(ctx, n, stdout)
		}
		sub, _ := n.Subscribe() // closed when the node stops
		go reportRereading(stdout, sub)
	}))
}

// reportRelay prints each step of the relay registration once, in words:
// the log says it too, but a person following the README watches for the
// name agents will reach.
func reportRelay(ctx context.Context, n *app.Node, stdout io.Writer) {
	sub, unsubscribe := n.Subscribe()
	defer unsubscribe()
	var last string
	for {
		var st app.Status
		select {
		case <-ctx.Done():
			return
		case st = <-sub:
		}
		r := st.Gateway.Relay
		if r.State == last {
			continue
		}
		last = r.State
		switch r.State {
		case "awaiting code":
			fmt.Fprintf(stdout, "Relay %s mailed a confirmation code to %s; waiting for it in the INBOX.\n", r.URL, r.Address)
		case "connected":
			fmt.Fprintf(stdout, "Relay %s: connected. Agents reach %s at %s.\n", r.URL, r.Address, r.PublicURL)
			// The OAuth front door (docs/protocol.md): the address a
			// person pastes into claude.ai, ChatGPT or another hosted client.
			fmt.Fprintf(stdout, "Claude, ChatGPT and other hosted MCP clients connect at %s/oauth/mcp.\n", strings.TrimSuffix(r.PublicURL, "/mcp"))
		case "disconnected":
			if r.LastError != "" {
				fmt.Fprintf(stdout, "Relay %s: disconnected (%s); retrying.\n", r.URL, r.LastError)
			}
		}
	}
}

// runUntilSignal starts n, calls started, and stops n when ctx ends (a
// signal); it returns why the node stopped.
func runUntilSignal(ctx context.Context, n *app.Node, started func()) error {
	if err := n.Start(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting: not a failure
		}
		return err
	}
	started()
	stop := context.AfterFunc(ctx, func() { n.Stop() })
	defer stop()
	return n.Wait()
}

func cmdSearch(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newDataFlags("search", stderr)
	fs.existing = true
	cfg, err := fs.parse(args, getenv)
	if err != nil {
		return err
	}
	q := strings.Join(fs.Args(), " ")
	if q == "" {
		return usageError{errors.New("search: give some words to look for")}
	}
	logger, err := newLogger(stderr, fs.o.logLevel, getenv("MAILNODE_LOG_LEVEL"))
	if err != nil {
		return err
	}
	b, _, done, err := nodeOrStore(ctx, app.Config{DataDir: cfg.DataDir}, logger)
	if err != nil {
		return err
	}
	defer done()
	hits, err := b.Search(ctx, q, 20)
	if err != nil {
		return err
	}
	printSummaries(stdout, hits)
	if len(hits) == 0 {
		fmt.Fprintln(stdout, "No messages match.")
	}
	return nil
}

// syncWriter makes w safe for the goroutines that write to it at once:
// the log handler (a facts pass after a sync logs) and the progress
// display share stderr. A file is already: each write is one system call.
func syncWriter(w io.Writer) io.Writer {
	if _, ok := w.(*os.File); ok {
		return w
	}
	return &lockedWriter{w: w}
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
