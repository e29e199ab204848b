// Command mailnode-phone is the reference phone: in Go, on this machine,
// what the phone app does (docs/phone.md). It pairs with a node by the
// URL of its QR code, shows the requests that wait for the user and
// signs the user's decisions. It links no package of the node: only the
// phone API's messages and cryptography and their client.
package main

import (
	"context"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"mailnode/approvals/phoneapi"
	"mailnode/gateway/phone/phoneclient"
	"mailnode/relay/devnet"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := phone(ctx, args, stdout, stderr)
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "mailnode-phone:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "mailnode-phone:", err)
		if hint := certHint(err); hint != "" {
			fmt.Fprintln(stderr, "mailnode-phone:", hint)
		}
		return 1
	}
}

// certHint says what to do when the node's certificate did not verify.
// A node without a relay name serves TLS from a CA of its own, which no
// system trusts: the bare x509 error ("certificate signed by unknown
// authority") left a newcomer without the flag that fixes it.
func certHint(err error) string {
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		return ""
	}
	return "the node's certificate is not trusted: for a node's own CA pass --ca <node data dir>/ca/ca.pem " +
		"(with every mailnode-phone command)"
}

// usageError is a mistake in how the command was called (exit status 2).
type usageError struct{ error }

// defaultDevice is where the device's keys are kept: the user's
// configuration directory, not a node's data directory, since the phone
// is another device than the node.
func defaultDevice() string {
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "mailnode-phone", "device.json")
	}
	return "mailnode-phone-device.json"
}

const usage = `mailnode-phone is the reference phone: what the phone app does, on this machine.

Usage:
  mailnode-phone pair URL [--name NAME]  register with a node's pairing URL (from mailnode pair)
  mailnode-phone watch                   print each request as it arrives
  mailnode-phone list                    pending requests, grants, phones, recent activity
  mailnode-phone approve|deny|block ID|CODE
  mailnode-phone revoke AGENT [--tier T]
Common flags: --device FILE (default: the user's config directory, mailnode-phone/device.json),
  --ca FILE (trust a node's own CA: the node's DATA_DIR/ca/ca.pem; with every command)
Development, for a node registered at a relay on this machine (as mailnode-agent takes them):
  --dev-dns HOST:PORT (look names up at that relay's DNS), --dev-port N (its SNI port in place of 443)
`

// phone runs one subcommand of the reference phone.
func phone(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{errors.New("give a subcommand")}
	}
	sub := args[0]
	if sub == "-h" || sub == "--help" || sub == "help" {
		fmt.Fprint(stdout, usage)
		return nil
	}
	fs := flag.NewFlagSet("mailnode-phone "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	devicePath := fs.String("device", defaultDevice(), "the device's key file")
	caFile := fs.String("ca", "", "also trust this CA for the node (a node's own CA: DATA_DIR/ca/ca.pem)")
	var dev devnet.Overrides
	fs.StringVar(&dev.DNS, "dev-dns", "", "development: look names up at this DNS server (HOST:PORT, a local relay's --dns-listen)")
	fs.IntVar(&dev.Port, "dev-port", 0, "development: connect to this port where the protocol says 443 (a local relay's --listen)")
	name := fs.String("name", "mailnode phone", "pair: this device's name")
	tier := fs.String("tier", "", "revoke: only this tier")
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if *caFile != "" {
		dev.CAFiles = []string{*caFile}
	}
	if err := dev.Check(); err != nil {
		return usageError{err}
	}
	hc, err := phoneHTTP(dev)
	if err != nil {
		return err
	}
	if sub == "pair" {
		if len(pos) != 1 {
			return usageError{errors.New("pair: give the pairing URL")}
		}
		d, sas, err := phoneclient.Pair(ctx, hc, pos[0], *name)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(*devicePath), 0o700); err != nil {
			return err
		}
		if err := d.Save(*devicePath); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Registered as %s. This device's code: %s\nConfirm on the node that it shows the same code; waiting...\n", d.ID, sas)
		if err := d.WaitPaired(ctx); err != nil {
			return fmt.Errorf("pair: %w", err)
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
			fmt.Fprintln(tw, activityLine(a))
		}
		return tw.Flush()
	case "approve", "deny", "block":
		if len(pos) != 1 {
			return usageError{fmt.Errorf("%s: give the approval id or match code", sub)}
		}
		st, err := d.State(ctx)
		if err != nil {
			return err
		}
		want := strings.ToUpper(strings.ReplaceAll(pos[0], " ", ""))
		for _, text := range st.Pending {
			p, err := phoneclient.ReadPrompt(text)
			if err != nil {
				return err
			}
			if p.ApprovalID != pos[0] && strings.ReplaceAll(p.MatchCode, "-", "") != strings.ReplaceAll(want, "-", "") {
				continue
			}
			v := map[string]phoneapi.Verdict{"approve": phoneapi.Approve, "deny": phoneapi.Deny, "block": phoneapi.DenyAndBlock}[sub]
			state, err := d.Decide(ctx, text, v)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s: %s for %s is %s.\n", p.MatchCode, p.Tool, p.Agent, state)
			return nil
		}
		return fmt.Errorf("%s: no pending request %s", sub, pos[0])
	case "revoke":
		if len(pos) != 1 {
			return usageError{errors.New("revoke: give the agent")}
		}
		n, err := d.Revoke(ctx, pos[0], *tier)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Revoked %d grant(s) of %s.\n", n, pos[0])
		return nil
	}
	fmt.Fprint(stderr, usage)
	return usageError{fmt.Errorf("unknown subcommand %q", sub)}
}

// parseInterspersed parses args with fs, flags before, between or after
// the positional arguments, and returns those: the usage shows "pair URL
// --name NAME", and the flag package alone stops at the URL. After "--"
// everything is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

func printPrompt(w io.Writer, p phoneapi.Prompt) {
	fmt.Fprintf(w, "\nRequest %s  code %s  expires %s\n  agent: %s\n  tool:  %s (%s)\n",
		p.ApprovalID, p.MatchCode, time.Unix(p.ExpiresAt, 0).Local().Format("15:04:05"), p.Agent, p.Tool,
		strings.Join(append([]string{p.Tier}, p.AlsoTiers...), ", "))
	for line := range strings.SplitSeq(p.Details, "\n") {
		fmt.Fprintf(w, "  | %s\n", line)
	}
}

// phoneHTTP is the reference phone's HTTP client: the system roots and
// the development overrides (--ca, --dev-dns, --dev-port), through the
// same package as mailnode-agent's. It has no overall timeout, unlike
// devnet's HTTPClient: watch holds the event stream open for as long as
// it runs.
func phoneHTTP(o devnet.Overrides) (*http.Client, error) {
	tlsConfig, err := o.TLS()
	if err != nil {
		return nil, err
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsConfig
	tr.DialContext = o.Dial()
	return &http.Client{Transport: tr}, nil
}

// activityLine is one call of the activity log as list prints it. A call
// the agent repeated while it waited for the user is one line, with how
// often it was asked.
func activityLine(a phoneapi.Activity) string {
	line := fmt.Sprintf("Call\t%s\t%s\t%s\t%s", a.At.Local().Format(time.DateTime), a.Agent, a.Tool, a.Decision)
	if a.Retries > 0 {
		line += fmt.Sprintf(" (asked %d times)", a.Retries+1)
	}
	return line
}
