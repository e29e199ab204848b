package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"mailnode/app"
	"mailnode/mail/store"
)

// cmdDemo runs the node on the built-in sample mailbox: an IMAP server
// inside the process, a sync into a fresh data directory, and a look at
// what the store now holds.
func cmdDemo(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("mailnode demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", "", "where to put the demo's database (default: a new temporary directory)")
	keep := fs.Bool("keep", false, "keep the temporary data directory")
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
	n, err := app.New(app.Config{DataDir: dir, Demo: true}, logger)
	if err != nil {
		return err
	}
	defer n.Close()

	fmt.Fprintln(stdout, "mailnode demo: an IMAP server with a sample mailbox runs inside this process; no account needed.")
	res, st, err := syncOnce(ctx, n)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Synced %d folders (Trash and Junk are skipped) in %v: %d messages, %d attachments, %.1f KiB of raw mail.\n",
		res.Folders, res.Duration.Round(time.Millisecond), st.Messages, st.Attachments, float64(st.RawBytes)/1024)
	if st.WithProblem > 0 {
		fmt.Fprintf(stdout, "%d message(s) had a MIME part that could not be decoded; they are stored with the problem noted.\n", st.WithProblem)
	}
	fmt.Fprintf(stdout, "Database: %s\n\nNewest messages:\n", n.DBPath())
	recent, err := n.Recent(ctx, 12)
	if err != nil {
		return err
	}
	printSummaries(stdout, recent)

	for _, q := range []string{"booking", "order shipped", "rechnung"} {
		hits, err := n.Search(ctx, q, 5)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nFull-text search %q (best %d):\n", q, len(hits))
		printSummaries(stdout, hits)
	}

	// A second pass finds nothing to do: the copy is incremental.
	res, err = n.Sync(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nA second sync found %d changes in %v.\n", res.Added+res.Flagged+res.Removed, res.Duration.Round(time.Millisecond))
	if *dataDir == "" && !*keep {
		fmt.Fprintln(stdout, "The temporary data directory is removed on exit (use --keep or --data-dir to keep it).")
	}
	return nil
}

func printSummaries(w io.Writer, ms []store.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  FOLDER\tDATE\tFROM\tSUBJECT")
	for _, m := range ms {
		date := "-"
		if !m.Date.IsZero() {
			date = m.Date.Local().Format("2006-01-02 15:04")
		}
		subject := m.Subject
		if m.Attachments > 0 {
			subject += fmt.Sprintf(" [%d attachment(s)]", m.Attachments)
		}
		if !strings.Contains(m.Flags, `\Seen`) {
			subject = "* " + subject
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", m.Folder, date, clip(m.From, 36), clip(subject, 70))
	}
	tw.Flush()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
