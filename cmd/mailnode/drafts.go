package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"mailnode/app"
)

const draftsUsage = `Usage:
  mailnode drafts [list]                                 the drafts agents wrote
  mailnode drafts show ID                                one draft as it would be sent
  mailnode drafts edit ID [--subject S] [--body-file F]  change a draft before approving its send
Common flags: --data-dir DIR
`

// cmdDrafts shows and edits agents' drafts. An edit voids any approval to
// send the old text (docs/phone.md).
func cmdDrafts(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	sub := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := newDataFlags("drafts "+sub, stderr)
	fs.existing = true
	subject := fs.String("subject", "", "edit: the new subject")
	bodyFile := fs.String("body-file", "", "edit: a file holding the new body (- for standard input)")
	cfg, err := fs.parse(args, getenv)
	if err != nil {
		return err
	}
	n, _, done, err := nodeOrStore(ctx, app.Config{DataDir: cfg.DataDir}, nil)
	if err != nil {
		return err
	}
	defer done()
	switch {
	case sub == "list" && fs.NArg() == 0:
		ds, err := n.Drafts(ctx, 50)
		if err != nil {
			return err
		}
		if len(ds) == 0 {
			fmt.Fprintln(stdout, "No drafts.")
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tAGENT\tSTATE\tTO\tSUBJECT\tCREATED")
		for _, d := range ds {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.ID, d.Agent, d.State, clip(strings.Join(d.To, ", "), 40), clip(d.Subject, 40), d.Created.Local().Format(time.DateTime))
		}
		return tw.Flush()
	case sub == "show" && fs.NArg() == 1:
		d, err := n.Draft(ctx, fs.Arg(0))
		if err != nil {
			return fmt.Errorf("drafts show %s: %w", fs.Arg(0), err)
		}
		fmt.Fprintf(stdout, "Draft %s by %s (%s)\n\n%s\n", d.ID, d.Agent, d.State, d.Readable)
		return nil
	case sub == "edit" && fs.NArg() == 1:
		var subj, body *string
		if *subject != "" {
			subj = subject
		}
		if *bodyFile != "" {
			var b []byte
			if *bodyFile == "-" {
				b, err = io.ReadAll(os.Stdin)
			} else {
				b, err = os.ReadFile(*bodyFile)
			}
			if err != nil {
				return fmt.Errorf("drafts edit: %w", err)
			}
			s := string(b)
			body = &s
		}
		if subj == nil && body == nil {
			return usageError{fmt.Errorf("drafts edit: give --subject or --body-file")}
		}
		d, err := n.EditDraft(ctx, fs.Arg(0), subj, body)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Edited %s. An approval to send the old text no longer holds.\n", d.ID)
		return nil
	}
	fmt.Fprint(stderr, draftsUsage)
	return usageError{fmt.Errorf("drafts: bad subcommand or arguments")}
}
