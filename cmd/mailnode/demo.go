package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mailnode/approvals/phoneapi"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/approvals"
	"mailnode/gateway/phone/phoneclient"
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
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	demoAgent, err := startDemoAgent(dir)
	if err != nil {
		return err
	}
	defer demoAgent.Close()
	n, err := app.New(app.Config{DataDir: dir, Demo: true, Gateway: app.GatewayConfig{
		Listen: *listen,
		// The demo agent's key document is on loopback under a made-up
		// domain: the development overrides, which the node logs loudly.
		DevAgentAddrs: map[string]string{demoAgentDomain: demoAgent.addr},
		DevAgentCAs:   []*x509.Certificate{demoAgent.ca},
	}, Services: app.Services{Gateway: true, LocalAPI: *serve}}, logger)
	if err != nil {
		return err
	}
	if err := n.Start(ctx); err != nil {
		return err
	}
	defer n.Stop()

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

	if err := demoAgentCall(ctx, n, demoAgent, *serve, dir, stdout); err != nil {
		return err
	}
	if *dataDir == "" && !*keep {
		fmt.Fprintln(stdout, "The temporary data directory is removed on exit (use --keep or --data-dir to keep it).")
	}
	return nil
}

// demoAgentCall serves agents on loopback and lets the demo agent make a
// signed call: the first asks for the user's approval, the demo approves
// it as the user would, and the retried call gets its answer.
func demoAgentCall(ctx context.Context, n *app.Node, a *demoAgent, serve bool, dir string, stdout io.Writer) error {
	url := n.GatewayURL()
	fmt.Fprintf(stdout, "\nServing agents at %s (TLS from the node's own CA, %s).\n", url, n.CAFile())
	s, err := a.session(url, n.CAFile())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "The demo agent %s calls get_upcoming_travel, signed with its key.\n", demoAgentDomain)
	out, err := s.CallAndWait(ctx, "get_upcoming_travel", nil, 100*time.Millisecond, func(ar *agent.ApprovalRequired) {
		fmt.Fprintf(stdout, "The node answers approval_required: agent %s asks for %s, match code %s.\n", ar.Agent, ar.Tier, ar.MatchCode)
		fmt.Fprintf(stdout, "The user approves (as with: mailnode approvals approve %s).\n", ar.MatchCode)
		if _, err := n.Decide(ctx, ar.MatchCode, true); err != nil {
			fmt.Fprintln(stdout, "Approval failed:", err)
		}
	})
	if err != nil {
		return fmt.Errorf("demo agent call: %w", err)
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, out, "  ", "  ")
	fmt.Fprintf(stdout, "The retried call runs. get_upcoming_travel returned:\n  %s\n", clip(pretty.String(), 1200))
	if err := demoPhoneExcerpt(ctx, n, s, stdout); err != nil {
		return err
	}
	if !serve {
		return nil
	}
	host := strings.TrimSuffix(strings.TrimPrefix(url, "https://"), "/mcp")
	fmt.Fprintf(stdout, `
Still serving agents until Ctrl-C. From another terminal, as the demo agent:
  go run ./cmd/mailnode-agent call --node %s --ca %s --domain %s --key %s ask '{"question":"When does my flight to New York leave?"}'
and approve its request as the user:
  go run ./cmd/mailnode approvals list --data-dir %s
  go run ./cmd/mailnode approvals approve CODE --data-dir %s
`, host, n.CAFile(), demoAgentDomain, a.keyFile, dir, dir)
	stop := context.AfterFunc(ctx, func() { n.Stop() })
	defer stop()
	return n.Wait()
}

// demoPhoneExcerpt pairs the reference phone with the node and shows a
// get_excerpt, which only a paired phone may approve, and every time.
func demoPhoneExcerpt(ctx context.Context, n *app.Node, s *agent.Session, stdout io.Writer) error {
	pem, err := os.ReadFile(n.CAFile())
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}}}
	offer, err := n.Pair(ctx)
	if err != nil {
		return err
	}
	phone, sas, err := phoneclient.Pair(ctx, hc, offer.URL, "Demo phone")
	if err != nil {
		return fmt.Errorf("pair the demo phone: %w", err)
	}
	if _, err := n.ConfirmPhone(ctx, phone.ID); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nA phone pairs by the QR code's URL (the reference phone, as mailnode phone pair does); both screens show %s and the user confirms.\n", sas)
	prompts := make(chan string, 8)
	go phone.Events(ctx, func(ev phoneapi.Event) error {
		if ev.Type == "prompt" {
			prompts <- ev.Prompt
		}
		return nil
	})
	args := map[string]string{"query": "flight to New York departure"}
	fmt.Fprintf(stdout, "The demo agent calls get_excerpt (raw_read): it needs the phone's approval every time; the command line may not approve it.\n")
	out, err := s.CallAndWait(ctx, "get_excerpt", args, 100*time.Millisecond, func(ar *agent.ApprovalRequired) {
		if _, err := n.Decide(ctx, ar.MatchCode, true); err != nil {
			fmt.Fprintf(stdout, "mailnode approvals approve %s: %v\n", ar.MatchCode, err)
		}
		for text := range prompts {
			p, err := phoneclient.ReadPrompt(text)
			if err != nil || p.ApprovalID != ar.ApprovalID {
				continue
			}
			fmt.Fprintf(stdout, "The phone shows: %s asks for %s, match code %s (the agent shows %s):\n  %s\n", p.Agent, p.Tool, p.MatchCode, ar.MatchCode, p.Details)
			if _, err := phone.Decide(ctx, text, approvals.Approve); err != nil {
				fmt.Fprintln(stdout, "Phone approval failed:", err)
			}
			fmt.Fprintln(stdout, "The user approves on the phone.")
			return
		}
	})
	if err != nil {
		return fmt.Errorf("demo agent excerpt: %w", err)
	}
	fmt.Fprintf(stdout, "The retried get_excerpt runs once, on that approval:\n  %s\n", clip(string(out), 600))
	return nil
}

func printSummaries(w io.Writer, ms []app.Summary) {
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
