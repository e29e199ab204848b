package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"mailnode/app"
	"mailnode/app/localapi"
)

// cmdStatus prints the node's state: the running node's, through its
// local API, or what the data directory holds when none runs.
func cmdStatus(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newDataFlags("status", stderr)
	fs.existing = true
	cfg, err := fs.parse(args, getenv)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("status: unexpected %q", fs.Arg(0))}
	}
	b, _, done, err := nodeOrStore(ctx, app.Config{DataDir: cfg.DataDir}, nil)
	if err != nil {
		return err
	}
	defer done()
	st, err := b.NodeStatus(ctx)
	if err != nil {
		return err
	}
	printStatus(stdout, cfg.DataDir, st)
	return nil
}

// printStatus writes st for a person.
func printStatus(w io.Writer, dataDir string, st localapi.NodeStatus) {
	if !st.Running {
		fmt.Fprintf(w, "No node is running on %s.\n", dataDir)
	} else {
		state := st.State
		if st.SyncPaused {
			state += " (sync paused)"
		}
		fmt.Fprintf(w, "The node on %s is running: %s.\n", dataDir, state)
	}
	fmt.Fprintf(w, "Messages: %d. Read from them: %d trips, %d orders, %d bills.\n", st.Messages, st.Trips, st.Orders, st.Bills)
	if st.FactsTotal > 0 {
		fmt.Fprintf(w, "Re-reading %d of %d messages.\n", st.FactsDone, st.FactsTotal)
	}
	if !st.LastSync.IsZero() {
		fmt.Fprintf(w, "Last complete sync: %s.\n", st.LastSync.Local().Format(time.DateTime))
	}
	if st.LastError != "" {
		fmt.Fprintf(w, "Last error: %s.\n", printable(st.LastError))
	}
	if st.Running {
		fmt.Fprintf(w, "Agents' requests waiting: %d. Paired phones: %d.\n", st.Pending, st.Phones)
		if st.GatewayURL != "" {
			fmt.Fprintf(w, "Agents reach it at %s.\n", st.GatewayURL)
		}
		if st.RelayState != "" {
			fmt.Fprintf(w, "Relay: %s", st.RelayState)
			if st.RelayURL != "" {
				fmt.Fprintf(w, ", at %s", st.RelayURL)
			}
			fmt.Fprintln(w, ".")
		}
		if len(st.Accounts) > 0 {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ACCOUNT\tADDRESS\tSERVER\tSTATE")
			for _, a := range st.Accounts {
				state := "syncing"
				if a.Problem != "" {
					state = a.Problem
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", printable(a.Name), printable(a.Username), printable(a.Server), state)
			}
			tw.Flush()
		}
	}
}
