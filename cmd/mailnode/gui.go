//go:build !headless

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"mailnode/app"
	"mailnode/app/localapi/localclient"
	"mailnode/app/ui"
	"mailnode/assets"
)

// appID is the desktop app's identity (FyneApp.toml's ID): its settings,
// its notifications and its autostart entry are filed under it.
const appID = "app.mailnode.node"

// desktopListen is where the desktop app's gateway listens when the
// settings name no address: phones on this network pair and reach the node
// there.
const desktopListen = ":8443"

// runDesktop is mailnode without a command: the node with its tray icon and
// windows until the person quits (or a signal comes).
func runDesktop(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("mailnode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	o.register(fs, true)
	minimized := fs.Bool("minimized", false, "start in the tray, without a window (as autostart at login does)")
	demo := fs.Bool("demo", false, "try the app on the built-in sample mailbox (no mail account needed)")
	stallFile := fs.String("dev-ui-stall", "", "development: on exit, write how long the UI was kept waiting (JSON) to this file")
	cpuProfile := fs.String("dev-cpuprofile", "", "development: write a CPU profile of the whole run to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unknown command %q", fs.Arg(0))}
	}
	logger, err := newLogger(stderr, o.logLevel, getenv("MAILNODE_LOG_LEVEL"))
	if err != nil {
		return usageError{err}
	}
	cfg, err := o.load(getenv)
	if err != nil {
		return usageError{err}
	}
	if *demo {
		// The sample mailbox stays out of the person's own data and
		// settings unless a directory is named.
		cfg.Demo, cfg.Settings = true, nil
		if o.dataDir == "" && getenv("MAILNODE_DATA_DIR") == "" {
			cfg.DataDir = filepath.Join(os.TempDir(), "mailnode-demo-app")
		}
	}
	// A second launch shows the running app's window and exits.
	if lc, err := localclient.Dial(cfg.DataDir); err == nil {
		if err := lc.Show(ctx); err != nil {
			return fmt.Errorf("mailnode already runs on %s, but did not answer: %w", cfg.DataDir, err)
		}
		fmt.Fprintln(stdout, "mailnode is already running; its window is shown.")
		return nil
	}
	// With no address of its own (or only the loopback one a relay implies),
	// the desktop node listens where phones on this network reach it.
	explicit := o.gateway.Listen != "" || getenv("MAILNODE_LISTEN") != ""
	if cfg.Gateway.Listen == "" || cfg.Gateway.Listen == "127.0.0.1:0" && !explicit {
		cfg.Gateway.Listen = desktopListen
	}
	cfg.Services = app.Services{Sync: true, Gateway: true, LocalAPI: true, Relay: cfg.Relay.URL != ""}
	// Fyne runs the UI on the main thread, which OpenGL needs. While an
	// initial sync keeps every processor busy, that goroutine waits for the
	// scheduler's 10 ms preemption before it runs; one processor more than
	// there are cores lets the OS schedule it at once (docs/benchmarks.md:
	// at 10,000 messages the median UI delay went from 7-9 ms to 4 ms).
	if getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.NumCPU() + 1)
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
	autostart, err := ui.DefaultAutostart(appID)
	if err != nil {
		logger.Warn("No autostart entry", "err", err)
	}
	u := ui.New(fa, n, ui.Options{Logger: logger, Minimized: *minimized, Version: version, Autostart: autostart,
		StallFile: *stallFile})
	u.Start()
	if len(cfg.Accounts) == 0 && !cfg.Demo {
		u.OpenWizard()
	}
	// A signal, or the node stopping on its own, ends the app as Quit does.
	stop := context.AfterFunc(ctx, func() { fyne.Do(fa.Quit) })
	defer stop()
	appDone := make(chan struct{})
	go func() {
		n.Wait()
		select {
		case <-appDone: // the app ended first and stopped the node
		default:
			fyne.Do(fa.Quit)
		}
	}()
	fa.Run()
	stop() // Fyne has ended: a late signal must not ask it to quit again
	close(appDone)
	u.Close()
	if err := n.Stop(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return n.Wait()
}
