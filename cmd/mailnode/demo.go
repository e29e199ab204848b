package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"mailnode/app"
	"mailnode/app/demo"
)

// cmdDemo runs the node on the built-in sample mailbox: an IMAP server
// inside the process, a sync into a fresh data directory, and a look at
// what the store now holds.
func cmdDemo(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("mailnode demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", "", "where to put the demo's database (default: a new temporary directory)")
	keep := fs.Bool("keep", false, "keep the temporary data directory")
	serve := fs.Bool("serve", false, "keep serving agents on --listen after the demo, until Ctrl-C")
	listen := fs.String("listen", "", "where the demo serves agents (default: 127.0.0.1:8443 with --serve, else any free loopback port)")
	logLevel := fs.String("log-level", "", "debug, info, warn or error (default warn)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	logger, err := newLogger(stderr, *logLevel, firstNonEmpty(getenv("MAILNODE_LOG_LEVEL"), "warn"))
	if err != nil {
		return err
	}
	dir := *dataDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "mailnode-demo-"); err != nil {
			return err
		}
		if !*keep {
			defer os.RemoveAll(dir)
		}
	}
	if *listen == "" {
		// A one-shot demo needs no fixed port, so nothing already on 8443
		// can make it fail; --serve gets the stable address the README uses.
		*listen = "127.0.0.1:0"
		if *serve {
			*listen = "127.0.0.1:8443"
		}
	}
	err = demo.Run(ctx, demo.Options{DataDir: dir, Listen: *listen, Serve: *serve, Logger: logger, Version: version}, textReporter{stdout})
	if *serve {
		// Serving runs until Ctrl-C, at any step of the story.
		err = requestedStop(ctx, err)
	}
	if err == nil && *dataDir == "" && !*keep {
		fmt.Fprintln(stdout, "The temporary data directory is removed on exit (use --keep or --data-dir to keep it).")
	}
	return err
}

// textReporter prints the demo's story.
type textReporter struct{ w io.Writer }

func (t textReporter) Step(text string) { fmt.Fprintln(t.w, text) }

func (t textReporter) Messages(title string, ms []app.Summary) {
	if title != "" {
		fmt.Fprintln(t.w, title)
	}
	printSummaries(t.w, ms)
}

// printSummaries prints ms as a table. A "* " marks an unread message's
// subject, and the header then says so.
func printSummaries(w io.Writer, ms []app.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	legend := ""
	if slices.ContainsFunc(ms, unread) {
		legend = " (* unread)"
	}
	fmt.Fprintf(tw, "  FOLDER\tDATE\tFROM\tSUBJECT%s\n", legend)
	for _, m := range ms {
		date := "-"
		if !m.Date.IsZero() {
			date = m.Date.Local().Format("2006-01-02 15:04")
		}
		subject := m.Subject
		if m.Attachments > 0 {
			subject += fmt.Sprintf(" [%d attachment(s)]", m.Attachments)
		}
		if unread(m) {
			subject = "* " + subject
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", m.Folder, date, clip(m.From, 36), clip(subject, 70))
	}
	tw.Flush()
}

func unread(m app.Summary) bool { return !strings.Contains(m.Flags, `\Seen`) }

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
