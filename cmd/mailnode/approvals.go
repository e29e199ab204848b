package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"mailnode/app/localapi"
	"mailnode/approvals"
)

const approvalsUsage = `Usage:
  mailnode approvals list [--audit N]       pending requests, grants (and the last N calls)
  mailnode approvals approve ID|CODE        approve a pending request
  mailnode approvals deny ID|CODE [--block | --block-site]
                                            refuse it (and block the agent, or every agent
                                            of its site: its registrable domain, or
                                            its own name when a relay hosts it)
  mailnode approvals revoke AGENT [--tier T] remove an agent's grants (one tier, or all)
  mailnode approvals block AGENT|*.DOMAIN   block an agent, or every agent of DOMAIN's site
Common flags: --data-dir DIR
`

// cmdApprovals decides on agents' requests until the phone does (issue 5).
// It talks to the running node over its local API, or opens the data
// directory itself when no node runs there.
func cmdApprovals(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, approvalsUsage)
		return usageError{errors.New("approvals: give a subcommand")}
	}
	sub := args[0]
	if sub == "-h" || sub == "--help" || sub == "help" {
		fmt.Fprint(stdout, approvalsUsage)
		return nil
	}
	fs := newDataFlags("approvals "+sub, stderr)
	fs.existing = true
	audit := fs.Int("audit", 0, "list: also show the last N agent calls")
	block := fs.Bool("block", false, "deny: also block the agent")
	blockSite := fs.Bool("block-site", false, "deny: also block every agent of the agent's site (its registrable domain, or its own name when a relay hosts it)")
	tier := fs.String("tier", "", "revoke: only this tier (structured_read, free_form_read, compose)")
	cfg, err := fs.parse(args[1:], getenv)
	if err != nil {
		return err
	}
	logger, err := newLogger(stderr, fs.o.logLevel, firstNonEmpty(getenv("MAILNODE_LOG_LEVEL"), "warn"))
	if err != nil {
		return err
	}
	a, done, err := backend(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer done()

	arg := func() (string, error) {
		if fs.NArg() != 1 {
			return "", usageError{fmt.Errorf("approvals %s: give one argument", sub)}
		}
		return fs.Arg(0), nil
	}
	switch sub {
	case "list":
		return listApprovals(ctx, a, *audit, stdout)
	case "approve", "deny":
		id, err := arg()
		if err != nil {
			return err
		}
		ap, err := a.Decide(ctx, id, sub == "approve")
		if err != nil {
			return fmt.Errorf("%s %s: %w", sub, id, err)
		}
		if sub == "approve" {
			if err := sayGranted(ctx, a, ap, stdout); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(stdout, "Denied: %s may not %s (%s, %s); the same request is refused for an hour.\n", ap.Domain, ap.Tool, ap.Tier, ap.ID)
		}
		switch {
		case sub == "deny" && *blockSite:
			// The site the node recorded with the request.
			if _, err := a.Block(ctx, "*."+ap.Site); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Blocked every agent under %s: their calls are refused from now on.\n", ap.Site)
		case sub == "deny" && *block:
			if _, err := a.Block(ctx, ap.Domain); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Blocked %s: its calls are refused from now on.\n", ap.Domain)
		}
		return nil
	case "block":
		agent, err := arg()
		if err != nil {
			return err
		}
		blocked, err := a.Block(ctx, agent)
		if err != nil {
			return err
		}
		if site, ok := strings.CutPrefix(blocked, "*."); ok {
			fmt.Fprintf(stdout, "Blocked every agent under %s.\n", site)
		} else {
			fmt.Fprintf(stdout, "Blocked %s.\n", blocked)
		}
		return nil
	case "revoke":
		agent, err := arg()
		if err != nil {
			return err
		}
		n, err := a.Revoke(ctx, agent, approvals.Tier(*tier))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Revoked %d grant(s) of %s.\n", n, agent)
		return nil
	}
	fmt.Fprint(stderr, approvalsUsage)
	return usageError{fmt.Errorf("approvals: unknown subcommand %q", sub)}
}

// sayGranted tells what approving ap allowed, and until when.
func sayGranted(ctx context.Context, a localapi.Backend, ap approvals.Approval, w io.Writer) error {
	grants, err := a.Grants(ctx)
	if err != nil {
		return err
	}
	for _, g := range grants {
		if g.Domain == ap.Domain && g.Tier == ap.Tier {
			fmt.Fprintf(w, "Approved: %s may use %s until %s (unless you revoke it: mailnode approvals revoke %s).\n  %s\n",
				ap.Domain, ap.Tier, g.ExpiresAt.Local().Format("2006-01-02 15:04"), ap.Domain, ap.Details)
			return nil
		}
	}
	fmt.Fprintf(w, "Approved: %s may call %s once (%s).\n", ap.Domain, ap.Tool, ap.ID)
	return nil
}

func listApprovals(ctx context.Context, a localapi.Backend, audit int, w io.Writer) error {
	pending, err := a.Pending(ctx)
	if err != nil {
		return err
	}
	grants, err := a.Grants(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if len(pending) == 0 {
		fmt.Fprintln(tw, "No pending requests.")
	} else {
		fmt.Fprintln(tw, "Pending requests:")
		tw.Flush()
		for _, p := range pending {
			where := "approve or deny here"
			if p.Tier.PerCall() {
				where = "approve on your phone; deny here or there"
			}
			fmt.Fprintf(w, "  %s  %s asks for %s (%s), expires %s, %s; id %s\n", p.MatchCode, agentLabel(p.Domain, p.KeyFP), p.Tool, p.Tier,
				p.ExpiresAt.Local().Format("15:04:05"), where, p.ID)
			// What the user would approve, as the phone shows it: whole.
			for line := range strings.SplitSeq(p.Details, "\n") {
				fmt.Fprintf(w, "      %s\n", line)
			}
		}
		phones, err := a.Phones(ctx)
		if err != nil {
			return err
		}
		if !approvals.AnyPushReachable(phones) {
			fmt.Fprintln(w, "No paired phone gets push notifications (mailnode phones says why): nobody is told of these requests until a phone's app is opened.")
		}
	}
	if len(grants) == 0 {
		fmt.Fprintln(tw, "No grants.")
	} else {
		fmt.Fprintln(tw, "Grants:\n  AGENT\tTIER\tKEY\tUNTIL")
		for _, g := range grants {
			key := clip(g.KeyFP, 20)
			if approvals.IsOAuthKey(g.KeyFP) {
				key = "OAuth client"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", g.Domain, g.Tier, key, g.ExpiresAt.Local().Format("2006-01-02"))
		}
	}
	if audit > 0 {
		log, err := a.Audit(ctx, audit)
		if err != nil {
			return err
		}
		fmt.Fprintln(tw, "Agent calls, newest first:\n  TIME\tAGENT\tTOOL\tDECISION")
		for _, e := range log {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", e.At.Local().Format(time.DateTime), agentLabel(e.Domain, e.KeyFP), e.Tool, auditDecision(e))
		}
	}
	return tw.Flush()
}

// agentLabel names an agent as the lists show it: an OAuth client
// (gateway/oauth) is marked so, as its identity is a client id's host or
// a registered id rather than a domain that signed.
func agentLabel(domain, key string) string {
	if approvals.IsOAuthKey(key) {
		return "OAuth client " + domain
	}
	return domain
}

// reorder moves flags before positional arguments, so that
// "approve K7P-4QX --data-dir D" works like "approve --data-dir D K7P-4QX".
func reorder(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
			if !strings.Contains(a, "=") && i+1 < len(args) && needsValue(a) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	return append(flags, pos...)
}

func needsValue(flag string) bool {
	switch strings.TrimLeft(flag, "-") {
	case "block", "block-site", "yes", "h", "help", "device", "browser":
		return false
	}
	return true
}

// auditDecision is an audit entry's outcome as list prints it, with how
// often the agent asked when it repeated a call waiting for the user (one
// entry however often: approvals.AuditEntry).
func auditDecision(e approvals.AuditEntry) string {
	if e.Retries > 0 {
		return fmt.Sprintf("%s (asked %d times)", e.Decision, e.Calls())
	}
	return string(e.Decision)
}
