package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skip2/go-qrcode"

	"mailnode/app"
	"mailnode/app/localapi"
	"mailnode/app/localapi/localclient"
)

// cmdPair shows a pairing QR code for a phone and confirms the short code
// with the user (docs/phone.md). It needs the node running with a
// gateway: the phone reaches it there. It says how the phone reaches the
// node; --lan pairs over this computer's local network, which has the
// node listen there too until `mailnode phones lan off`.
func cmdPair(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newDataFlags("pair", stderr)
	fs.existing = true
	yes := fs.Bool("yes", false, "confirm the phone without asking: for a script that can see that both codes match (the node prints its code)")
	lan := fs.Bool("lan", false, "pair over this network: the node also listens on this computer's local network address, for a phone on the same network, until mailnode phones lan off")
	cfg, err := fs.parse(args, getenv)
	if err != nil {
		return err
	}
	lc, err := localclient.Dial(cfg.DataDir)
	if err != nil {
		return fmt.Errorf("pair: %w; start it first (mailnode serve --listen ...)", err)
	}
	offer, err := lc.Pair(ctx, localapi.PairOptions{LAN: *lan})
	if err != nil {
		return fmt.Errorf("pair: %w", err)
	}
	qr, err := qrcode.New(offer.URL, qrcode.Medium)
	if err != nil {
		return fmt.Errorf("pair: %w", err)
	}
	fmt.Fprint(stdout, qr.ToSmallString(false))
	fmt.Fprintf(stdout, "Scan this with the phone's camera, or open on the phone:\n  %s\n", offer.URL)
	fmt.Fprintf(stdout, "The code is good for one phone until %s.\n", offer.Expires.Local().Format("15:04:05"))
	fmt.Fprintln(stdout, offer.Note)
	switch offer.Reach {
	case localapi.ReachLAN:
		fmt.Fprintln(stdout, "Stop listening on the local network with: mailnode phones lan off")
	case localapi.ReachLocal:
		fmt.Fprintln(stdout, "Pair over this network with: mailnode pair --lan")
	}

	var st app.PairStatus
	for !st.Registered {
		if time.Now().After(offer.Expires) {
			return errors.New("pair: the code expired before a phone used it; run mailnode pair again")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
		if st, err = lc.PairStatus(ctx, offer.ID); err != nil {
			return fmt.Errorf("pair: %w", err)
		}
	}
	fmt.Fprintf(stdout, "\nA phone named %q registered. It shows a six-digit code.\n", st.Phone.Name)
	if *yes {
		fmt.Fprintf(stdout, "This node's code: %s (confirmed without asking: --yes)\n", st.SAS)
	} else {
		fmt.Fprintf(stdout, "This node's code: %s\nDoes the phone show the same code? [y/N] ", st.SAS)
		line, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			if err := lc.RemovePhone(ctx, st.Phone.ID); err != nil {
				return fmt.Errorf("pair: refuse the phone: %w", err)
			}
			fmt.Fprintln(stdout, "Not paired: the phone was refused. If the codes differed, someone else may have used the QR code.")
			if a == "" && !isTerminal(stdin) {
				// A script got here: nobody could answer.
				fmt.Fprintln(stdout, "No answer came: standard input is not a terminal. A script that checks the codes itself can pass --yes.")
			}
			return nil
		}
	}
	ph, err := lc.ConfirmPhone(ctx, st.Phone.ID)
	if err != nil {
		return fmt.Errorf("pair: %w", err)
	}
	fmt.Fprintf(stdout, "Paired %q (%s). Agents' requests now go to it.\n", ph.Name, ph.ID)
	return nil
}

const phonesUsage = `Usage:
  mailnode phones [list]           the paired phones
  mailnode phones rename ID NAME   name a phone
  mailnode phones remove ID        unpair a phone
  mailnode phones lan on|off       listen on this computer's local network address for phones (and agents) on it, or stop
Common flags: --data-dir DIR
`

// cmdPhones manages the paired phones from the node's side.
func cmdPhones(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	sub := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := newDataFlags("phones "+sub, stderr)
	fs.existing = true
	cfg, err := fs.parse(args, getenv)
	if err != nil {
		return err
	}
	pm, done, err := backend(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer done()
	switch {
	case sub == "list" && fs.NArg() == 0:
		ps, err := pm.Phones(ctx)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			fmt.Fprintln(stdout, "No phones. Pair one with: mailnode pair")
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tSTATE\tSINCE\tPUSH")
		for _, p := range ps {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.ID, p.Name, p.State, p.Created.Local().Format(time.DateTime), p.Push)
		}
		return tw.Flush()
	case sub == "rename" && fs.NArg() == 2:
		p, err := pm.RenamePhone(ctx, fs.Arg(0), fs.Arg(1))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Renamed %s to %q.\n", p.ID, p.Name)
		return nil
	case sub == "lan" && fs.NArg() == 1 && (fs.Arg(0) == "on" || fs.Arg(0) == "off"):
		st, err := pm.SetLAN(ctx, fs.Arg(0) == "on")
		if err != nil {
			return err
		}
		if st.URL == "" {
			fmt.Fprintln(stdout, "The node no longer listens on the local network: only on this computer, and through its relay if it has one.")
			return nil
		}
		fmt.Fprintln(stdout, st.Note)
		return nil
	case sub == "remove" && fs.NArg() == 1:
		if err := pm.RemovePhone(ctx, fs.Arg(0)); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Removed %s: it can no longer approve anything.\n", fs.Arg(0))
		return nil
	}
	fmt.Fprint(stderr, phonesUsage)
	return usageError{fmt.Errorf("phones: bad subcommand or arguments")}
}

// isTerminal reports whether r is a terminal, where a person can answer
// a question.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
