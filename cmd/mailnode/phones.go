package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mailnode/approvals/phoneapi"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skip2/go-qrcode"

	"mailnode/app"
	"mailnode/app/localapi/localclient"
	"mailnode/approvals"
	"mailnode/gateway/phone/phoneclient"
)

// cmdPair shows a pairing QR code for a phone and confirms the short code
// with the user (docs/phone.md). It needs the node running with a
// gateway: the phone reaches it there.
func cmdPair(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newDataFlags("pair", stderr)
	fs.existing = true
	cfg, err := fs.parse(args, getenv)
	if err != nil {
		return err
	}
	lc, err := localclient.Dial(cfg.DataDir)
	if err != nil {
		return fmt.Errorf("pair: %w; start it first (mailnode serve --listen ...)", err)
	}
	offer, err := lc.Pair(ctx)
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
	fmt.Fprintf(stdout, "This node's code: %s\nDoes the phone show the same code? [y/N] ", st.SAS)
	line, _ := bufio.NewReader(stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		if err := lc.RemovePhone(ctx, st.Phone.ID); err != nil {
			return fmt.Errorf("pair: refuse the phone: %w", err)
		}
		fmt.Fprintln(stdout, "Not paired: the phone was refused. If the codes differed, someone else may have used the QR code.")
		return nil
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
	// The node's own methods, over its socket when it runs.
	type phoneManager interface {
		Phones(ctx context.Context) ([]approvals.Phone, error)
		RemovePhone(ctx context.Context, id string) error
		RenamePhone(ctx context.Context, id, name string) (approvals.Phone, error)
	}
	var pm phoneManager
	if lc, err := localclient.Dial(cfg.DataDir); err == nil {
		pm = lc
	} else {
		n, err := openNode(ctx, app.Config{DataDir: cfg.DataDir}, nil)
		if err != nil {
			return err
		}
		defer n.Stop()
		pm = n
	}
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
		fmt.Fprintln(tw, "ID\tNAME\tSTATE\tSINCE")
		for _, p := range ps {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.ID, p.Name, p.State, p.Created.Local().Format(time.DateTime))
		}
		return tw.Flush()
	case sub == "rename" && fs.NArg() == 2:
		p, err := pm.RenamePhone(ctx, fs.Arg(0), fs.Arg(1))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Renamed %s to %q.\n", p.ID, p.Name)
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

const phoneUsage = `Usage (the reference phone: what the phone app does, on this machine):
  mailnode phone pair URL [--name NAME]  register with a node's pairing URL (from mailnode pair)
  mailnode phone watch                   print each request as it arrives
  mailnode phone list                    pending requests, grants, phones, recent activity
  mailnode phone approve|deny|block ID|CODE
  mailnode phone revoke AGENT [--tier T]
Common flags: --device FILE (default DATA_DIR/phone.json), --ca FILE (trust a node's local CA)
`

// cmdPhone is the reference phone client (gateway/phone/phoneclient).
func cmdPhone(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, phoneUsage)
		return usageError{errors.New("phone: give a subcommand")}
	}
	sub := args[0]
	if sub == "-h" || sub == "--help" || sub == "help" {
		fmt.Fprint(stdout, phoneUsage)
		return nil
	}
	fs := newDataFlags("phone "+sub, stderr)
	devicePath := fs.String("device", "", "the device's key file (default DATA_DIR/phone.json)")
	caFile := fs.String("ca", "", "also trust this CA for the node (a node's local CA)")
	name := fs.String("name", "mailnode phone", "pair: this device's name")
	tier := fs.String("tier", "", "revoke: only this tier")
	cfg, err := fs.parse(args[1:], getenv)
	if err != nil {
		return err
	}
	if *devicePath == "" {
		*devicePath = cfg.DataDir + "/phone.json"
	}
	hc, err := phoneHTTP(*caFile)
	if err != nil {
		return err
	}
	if sub == "pair" {
		if fs.NArg() != 1 {
			return usageError{errors.New("phone pair: give the pairing URL")}
		}
		d, sas, err := phoneclient.Pair(ctx, hc, fs.Arg(0), *name)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
			return err
		}
		if err := d.Save(*devicePath); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Registered as %s. This device's code: %s\nConfirm on the node that it shows the same code; waiting...\n", d.ID, sas)
		if err := d.WaitPaired(ctx); err != nil {
			return fmt.Errorf("phone pair: %w", err)
		}
		fmt.Fprintln(stdout, "Paired.")
		return nil
	}
	d, err := phoneclient.Load(*devicePath)
	if err != nil {
		return err
	}
	d.HTTP = hc
	switch sub {
	case "watch":
		return d.Events(ctx, func(e phoneapi.Event) error {
			switch e.Type {
			case "prompt":
				p, err := phoneclient.ReadPrompt(e.Prompt)
				if err != nil {
					return err
				}
				printPrompt(stdout, p)
			case "decided":
				fmt.Fprintf(stdout, "Decided: %s (%s)\n", e.ApprovalID, e.State)
			}
			return nil
		})
	case "list":
		st, err := d.State(ctx)
		if err != nil {
			return err
		}
		for _, text := range st.Pending {
			p, err := phoneclient.ReadPrompt(text)
			if err != nil {
				return err
			}
			printPrompt(stdout, p)
		}
		if len(st.Pending) == 0 {
			fmt.Fprintln(stdout, "No pending requests.")
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, g := range st.Grants {
			fmt.Fprintf(tw, "Grant\t%s\t%s\tuntil %s\n", g.Agent, g.Tier, g.ExpiresAt.Local().Format("2006-01-02"))
		}
		for _, b := range st.Blocked {
			fmt.Fprintf(tw, "Blocked\t%s\n", b)
		}
		for _, p := range st.Phones {
			me := ""
			if p.ID == d.ID {
				me = " (this device)"
			}
			fmt.Fprintf(tw, "Phone\t%s\t%s\t%s%s\n", p.ID, p.Name, p.State, me)
		}
		for _, a := range st.Activity {
			fmt.Fprintf(tw, "Call\t%s\t%s\t%s\t%s\n", a.At.Local().Format(time.DateTime), a.Agent, a.Tool, a.Decision)
		}
		return tw.Flush()
	case "approve", "deny", "block":
		if fs.NArg() != 1 {
			return usageError{fmt.Errorf("phone %s: give the approval id or match code", sub)}
		}
		st, err := d.State(ctx)
		if err != nil {
			return err
		}
		want := strings.ToUpper(strings.ReplaceAll(fs.Arg(0), " ", ""))
		for _, text := range st.Pending {
			p, err := phoneclient.ReadPrompt(text)
			if err != nil {
				return err
			}
			if p.ApprovalID != fs.Arg(0) && strings.ReplaceAll(p.MatchCode, "-", "") != strings.ReplaceAll(want, "-", "") {
				continue
			}
			v := map[string]approvals.Verdict{"approve": approvals.Approve, "deny": approvals.Deny, "block": approvals.DenyAndBlock}[sub]
			state, err := d.Decide(ctx, text, v)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s: %s for %s is %s.\n", p.MatchCode, p.Tool, p.Agent, state)
			return nil
		}
		return fmt.Errorf("phone %s: no pending request %s", sub, fs.Arg(0))
	case "revoke":
		if fs.NArg() != 1 {
			return usageError{errors.New("phone revoke: give the agent")}
		}
		n, err := d.Revoke(ctx, fs.Arg(0), *tier)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Revoked %d grant(s) of %s.\n", n, fs.Arg(0))
		return nil
	}
	fmt.Fprint(stderr, phoneUsage)
	return usageError{fmt.Errorf("phone: unknown subcommand %q", sub)}
}

func printPrompt(w io.Writer, p approvals.Prompt) {
	fmt.Fprintf(w, "\nRequest %s  code %s  expires %s\n  agent: %s\n  tool:  %s (%s)\n",
		p.ApprovalID, p.MatchCode, time.Unix(p.ExpiresAt, 0).Local().Format("15:04:05"), p.Agent, p.Tool, p.Tier)
	for line := range strings.SplitSeq(p.Details, "\n") {
		fmt.Fprintf(w, "  | %s\n", line)
	}
}

// phoneHTTP is the reference phone's HTTP client: the system roots, and
// caFile's certificates if given.
func phoneHTTP(caFile string) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS13}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("read CA: %w", err)
		}
		roots, err := x509.SystemCertPool()
		if err != nil {
			roots = x509.NewCertPool()
		}
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("read CA %s: no certificate", caFile)
		}
		tr.TLSClientConfig.RootCAs = roots
	}
	return &http.Client{Transport: tr}, nil
}
