//go:build !headless

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"syscall"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"mailnode/app"
	"mailnode/app/autostart"
	"mailnode/app/backup"
	"mailnode/app/demo"
	"mailnode/app/localapi/localclient"
	"mailnode/app/ui"
	_ "mailnode/app/ui/clocale" // before Fyne reads the locale: see the package
	"mailnode/assets"
)

// appID is the desktop app's identity (FyneApp.toml's ID): its settings,
// its notifications and its autostart entry are filed under it.
const appID = "app.mailnode.node"

// desktopListen is where the desktop app's gateway listens when the
// settings name no address: this computer only. Agents elsewhere reach
// the node through its relay, which the node dials out to, and a phone
// pairs by the relay's name; nothing needs the node open to the local
// network until the person chooses so (--listen, or MAILNODE_LISTEN).
const desktopListen = "127.0.0.1:8443"

// runDesktop is mailnode without a command: the node with its tray icon and
// windows until the person quits (or a signal comes).
func runDesktop(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("mailnode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	o.register(fs, true)
	minimized := fs.Bool("minimized", false, "start in the tray, without a window (as autostart at login does)")
	demoMode := fs.Bool("demo", false, "try the app on the built-in sample mailbox (no mail account needed)")
	stallFile := fs.String("dev-ui-stall", "", "development: on exit, write how long the UI was kept waiting (JSON) to this file")
	stallTrace := fs.String("dev-ui-stall-trace", "", "development: with --dev-ui-stall, write the execution trace of the seconds up to the longest UI stall to this file")
	cpuProfile := fs.String("dev-cpuprofile", "", "development: write a CPU profile of the whole run to this file")
	memFile := fs.String("dev-memstats", "", "development: when Quit is chosen, write the Go runtime's memory (JSON) to this file and a heap profile to FILE.heap")
	layoutFile := fs.String("dev-ui-layout", "", "development: every 200 ms, check the windows on screen for a widget outside its window or cut, appending JSON lines to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unknown command %q", fs.Arg(0))}
	}
	if err := haveDisplay(runtime.GOOS, getenv); err != nil {
		return err
	}
	logger, err := newLogger(stderr, o.logLevel, getenv("MAILNODE_LOG_LEVEL"))
	if err != nil {
		return usageError{err}
	}
	cfg, err := o.load(getenv)
	if err != nil {
		return usageError{err}
	}
	if *demoMode {
		// The sample mailbox stays out of the person's own data and
		// settings unless a directory is named.
		cfg.Settings = nil
		if o.dataDir == "" && getenv("MAILNODE_DATA_DIR") == "" {
			cfg.DataDir = filepath.Join(os.TempDir(), "mailnode-demo-app")
		}
	}
	// A second launch shows the running app's window and exits.
	lc, err := localclient.Dial(cfg.DataDir)
	if errors.Is(err, localclient.ErrNodeUnreachable) {
		fmt.Fprintln(stdout, "mailnode is already running; this system cannot ask it to show its window (it has no AF_UNIX sockets).")
		return nil
	}
	if err == nil {
		if err := lc.Show(ctx); err != nil {
			return fmt.Errorf("mailnode already runs on %s, but did not answer: %w", cfg.DataDir, err)
		}
		fmt.Fprintln(stdout, "mailnode is already running; its window is shown.")
		return nil
	}
	// With no address of its own (or only the loopback one a relay implies),
	// the desktop node listens on this computer's port 8443, as the CLI's
	// demo does and the Status page says.
	explicit := o.gateway.Listen != "" || getenv("MAILNODE_LISTEN") != ""
	if cfg.Gateway.Listen == "" || cfg.Gateway.Listen == "127.0.0.1:0" && !explicit {
		cfg.Gateway.Listen = desktopListen
	}
	cfg.Services = app.Services{Sync: true, Gateway: true, LocalAPI: true, Relay: cfg.Relay.URL != ""}
	// Fyne runs the UI on the main thread, which OpenGL needs. While an
	// initial sync keeps every processor busy, that goroutine waits for the
	// scheduler's 10 ms preemption before it runs, or, when the processors
	// are held by the sync's low-priority threads that the kernel leaves
	// waiting, for as long as the kernel does. The sync holds one processor
	// per core and one for its committer (imapsync); two more than there
	// are cores leave one for the UI and the gateway (docs/benchmarks.md).
	if getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.NumCPU() + 2)
	}
	app.SetMemoryLimit(app.DesktopMemoryLimit)
	if *demoMode {
		// The sample mailbox's servers run beside the node, which syncs
		// them as it would a person's account.
		box, err := demo.StartMailbox(demo.MailboxOptions{Logger: logger})
		if err != nil {
			return err
		}
		defer box.Close()
		if cfg, err = box.Config(cfg); err != nil {
			return err
		}
	}
	n, err := app.New(cfg, logger)
	if err != nil {
		return usageError{err}
	}
	if err := n.Start(ctx); err != nil {
		return err
	}
	defer n.Stop()

	fa := fyneapp.NewWithID(appID)
	fa.SetIcon(fyne.NewStaticResource("mailnode.png", assets.Icon()))
	atLogin, err := autostart.Default(appID, "--minimized")
	if err != nil {
		logger.Warn("No autostart entry", "err", err)
	}
	// Restoring another computer's node: checked here, done once this
	// node has stopped, then the app starts again as the restored node.
	var restore struct {
		sync.Mutex
		sealed []byte
		pass   string
	}
	var u *ui.UI
	u = ui.New(fa, n, ui.Options{Logger: logger, Minimized: *minimized, Version: version, Autostart: atLogin,
		StallFile: *stallFile, StallTrace: *stallTrace, LayoutFile: *layoutFile,
		Restore: func(_ context.Context, sealed []byte, pass string) error {
			if _, err := backup.Open(sealed, pass); err != nil {
				return err
			}
			restore.Lock()
			restore.sealed, restore.pass = sealed, pass
			restore.Unlock()
			go u.Quit()
			return nil
		}})
	u.Start()
	if len(cfg.Accounts) == 0 {
		u.OpenWizard()
	}
	// A signal, or the node stopping on its own, ends the app as Quit does.
	stop := context.AfterFunc(ctx, u.Quit)
	defer stop()
	go func() {
		n.Wait()
		u.Quit()
	}()
	// In the tray alone Run only waits; Fyne's loop starts with the first
	// window.
	u.Run()
	if *memFile != "" {
		if err := writeMemStats(*memFile); err != nil {
			logger.Warn("No memory figures", "err", err)
		}
	}
	stop()
	u.Close()
	if err := n.Stop(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	if err := n.Wait(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	restore.Lock()
	defer restore.Unlock()
	if restore.sealed == nil {
		return nil
	}
	res, aside, err := app.ReplaceWithBackup(ctx, cfg.DataDir, o.configPath, restore.sealed, restore.pass, logger)
	if err != nil {
		return fmt.Errorf("restore: %w (this computer's node is unchanged)", err)
	}
	logger.Info("Restored the node from a backup; starting it", "relayName", res.RelayName, "phones", res.Phones,
		"grants", res.Grants, "accounts", res.Accounts, "replacedNodeKeptIn", aside)
	return restart(args)
}

// restart runs this program again in place of this process, without
// --minimized: the person who restored is looking at the window.
func restart(args []string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("restart after the restore (start mailnode again): %w", err)
	}
	argv := []string{exe}
	for _, a := range args {
		if a != "--minimized" && a != "-minimized" {
			argv = append(argv, a)
		}
	}
	if err := syscall.Exec(exe, argv, os.Environ()); err != nil {
		return fmt.Errorf("restart after the restore (start mailnode again): %w", err)
	}
	return nil
}

// writeMemStats writes how much of the process's memory the Go runtime
// holds, as the moment Quit was chosen found it: the desktop benchmark
// sets it against the process's anonymous RSS to tell Go's share (heap,
// stacks) from the C libraries' (OpenGL, GLFW).
func writeMemStats(path string) error {
	names := []string{"/memory/classes/total:bytes", "/memory/classes/heap/released:bytes", "/memory/classes/heap/objects:bytes",
		"/memory/classes/heap/unused:bytes", "/memory/classes/heap/free:bytes", "/memory/classes/heap/stacks:bytes",
		"/gc/heap/goal:bytes", "/gc/heap/live:bytes"}
	samples := make([]metrics.Sample, len(names))
	for i, n := range names {
		samples[i].Name = n
	}
	metrics.Read(samples)
	out := map[string]uint64{}
	for _, s := range samples {
		if s.Value.Kind() == metrics.KindUint64 {
			out[s.Name] = s.Value.Uint64()
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return err
	}
	// Beside the figures, what holds the live heap (go tool pprof).
	f, err := os.OpenFile(path+".heap", os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	runtime.GC() // the profile's in-use figures are as of the last collection
	return pprof.Lookup("heap").WriteTo(f, 0)
}
