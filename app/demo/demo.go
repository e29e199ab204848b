// Package demo runs the node on the built-in sample mailbox and tells
// what happens, step by step: an IMAP server inside the process, a sync
// into the data directory, searches, a demo agent's signed calls (one
// approved as on the command line, one only a paired phone may approve),
// the reference phone pairing and deciding, and a relay in the process
// that the node registers at and the agent reaches it through. The command line's
// "mailnode demo" and the desktop app's "Try the demo" are this one
// function with different Reporters.
package demo

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/approvals"
	"mailnode/approvals/phoneapi"
	"mailnode/assets"
	"mailnode/gateway/phone/phoneclient"
	"mailnode/mail/demobox"
)

// Reporter hears the demo's story.
type Reporter interface {
	// Step is a sentence or a paragraph, to be shown as it is, on lines
	// of its own.
	Step(text string)
	// Messages is a list of messages under title ("" for none).
	Messages(title string, ms []app.Summary)
}

// Options are the demo's settings.
type Options struct {
	DataDir string // created if missing
	Listen  string // where the demo serves agents
	// Serve keeps the node serving agents after the story, until ctx ends.
	Serve   bool
	Logger  *slog.Logger
	Version string // the agent's client version
}

// Run tells the demo to r, and with Serve keeps serving until ctx ends.
func Run(ctx context.Context, o Options, r Reporter) error {
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return err
	}
	demoAgent, err := startDemoAgent(o.DataDir)
	if err != nil {
		return err
	}
	defer demoAgent.Close()
	box, err := StartMailbox(MailboxOptions{Logger: o.Logger})
	if err != nil {
		return err
	}
	defer box.Close()
	cfg, err := box.Config(app.Config{DataDir: o.DataDir, Gateway: app.GatewayConfig{
		Listen: o.Listen,
		// The demo agent's key document is on loopback under a made-up
		// domain: the development overrides, which the node logs loudly.
		DevAgentAddrs: map[string]string{demoAgentDomain: demoAgent.addr},
		DevAgentCAs:   []*x509.Certificate{demoAgent.ca},
	}, Services: app.Services{Gateway: true, LocalAPI: o.Serve}})
	if err != nil {
		return err
	}
	n, err := app.New(cfg, o.Logger)
	if err != nil {
		return err
	}
	if err := n.Start(ctx); err != nil {
		return err
	}
	defer n.Stop()

	r.Step("mailnode demo: an IMAP server with a sample mailbox runs inside this process; no account needed.")
	res, err := n.Sync(ctx)
	if err != nil {
		return err
	}
	st, err := n.Stats(ctx)
	if err != nil {
		return err
	}
	r.Step(fmt.Sprintf("Synced %d folders (Trash and Junk are skipped) in %v: %d messages, %d attachments, %.1f KiB of raw mail.",
		res.Folders, res.Duration.Round(time.Millisecond), st.Messages, st.Attachments, float64(st.RawBytes)/1024))
	if st.WithProblem > 0 {
		r.Step(problemStep(st.WithProblem, brokenOnPurpose(assets.DemoMailbox())))
	}
	r.Step(fmt.Sprintf("Database: %s\n\nNewest messages:", n.DBPath()))
	recent, err := n.Recent(ctx, 12)
	if err != nil {
		return err
	}
	r.Messages("", recent)

	for _, q := range []string{"booking", "order shipped", "rechnung"} {
		hits, err := n.Search(ctx, q, 5)
		if err != nil {
			return err
		}
		r.Messages(fmt.Sprintf("\nFull-text search %q (best %d):", q, len(hits)), hits)
	}

	// A second pass finds nothing to do: the copy is incremental.
	res, err = n.Sync(ctx)
	if err != nil {
		return err
	}
	r.Step(fmt.Sprintf("\nA second sync found %d changes in %v.", res.Added+res.Flagged+res.Removed, res.Duration.Round(time.Millisecond)))

	if err := agentCall(ctx, n, box, demoAgent, o, r); err != nil {
		return err
	}
	return nil
}

// agentCall serves agents on loopback and lets the demo agent make a
// signed call: the first asks for the user's approval, the demo approves
// it as the user would, and the retried call gets its answer.
func agentCall(ctx context.Context, n *app.Node, box *Mailbox, a *demoAgent, o Options, r Reporter) error {
	url := n.GatewayURL()
	r.Step(fmt.Sprintf("\nServing agents at %s (TLS from the node's own CA, %s).", url, n.CAFile()))
	s, err := a.session(strings.TrimSuffix(strings.TrimPrefix(url, "https://"), "/mcp"), n.CAFile(), o.Version, nil)
	if err != nil {
		return err
	}
	r.Step(fmt.Sprintf("The demo agent %s calls get_upcoming_travel, signed with its key.", demoAgentDomain))
	out, err := s.CallAndWait(ctx, "get_upcoming_travel", nil, 100*time.Millisecond, func(ar *agent.ApprovalRequired) {
		r.Step(fmt.Sprintf("The node answers approval_required: agent %s asks for %s, match code %s.", ar.Agent, ar.Tier, ar.MatchCode))
		r.Step(fmt.Sprintf("The user approves (as with: mailnode approvals approve %s).", ar.MatchCode))
		if _, err := n.Decide(ctx, ar.MatchCode, true); err != nil {
			r.Step(fmt.Sprint("Approval failed:", err))
		}
	})
	if err != nil {
		return fmt.Errorf("demo agent call: %w", err)
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, out, "  ", "  ")
	r.Step(fmt.Sprintf("The retried call runs. get_upcoming_travel returned:\n  %s", clip(pretty.String(), 1200)))
	if err := phoneExcerpt(ctx, n, s, r); err != nil {
		return err
	}
	rl, err := viaRelay(ctx, n, box, a, o, r)
	if err != nil {
		return err
	}
	defer rl.Close()
	if !o.Serve {
		return nil
	}
	host := strings.TrimSuffix(strings.TrimPrefix(url, "https://"), "/mcp")
	bundle, err := caBundle(o.DataDir, n.CAFile(), rl)
	if err != nil {
		return err
	}
	_, relayPort, _ := net.SplitHostPort(rl.Addr)
	r.Step(strings.TrimSuffix(fmt.Sprintf(`
Still serving agents until Ctrl-C. From another terminal, as the demo agent:
  go run ./cmd/mailnode-agent call --node %s --ca %s --domain %s --key %s ask '{"question":"When does my flight to New York leave?"}'
or the same through the relay, by the user's address:
  go run ./cmd/mailnode-agent call --relay %s --address %s --ca %s --dev-dns %s --dev-port %s --domain %s --key %s bills_due
and approve its request as the user:
  go run -tags headless ./cmd/mailnode approvals list --data-dir %s
  go run -tags headless ./cmd/mailnode approvals approve CODE --data-dir %s
`, host, n.CAFile(), demoAgentDomain, a.keyFile, rl.URL, demobox.Address, bundle, rl.DNSAddr, relayPort, demoAgentDomain, a.keyFile,
		o.DataDir, o.DataDir), "\n"))
	stop := context.AfterFunc(ctx, func() { n.Stop() })
	defer stop()
	return n.Wait()
}

// phoneExcerpt pairs the reference phone with the node and shows a
// get_excerpt, which only a paired phone may approve, and every time.
func phoneExcerpt(ctx context.Context, n *app.Node, s *agent.Session, r Reporter) error {
	pem, err := os.ReadFile(n.CAFile())
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}}}
	offer, err := n.Pair(ctx, app.PairOptions{})
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
	r.Step(fmt.Sprintf("\nA phone pairs by the QR code's URL (the reference phone, as mailnode-phone pair does); both screens show %s and the user confirms.", sas))
	prompts := make(chan string, 8)
	go phone.Events(ctx, func(ev phoneapi.Event) error {
		if ev.Type == "prompt" {
			prompts <- ev.Prompt
		}
		return nil
	})
	args := map[string]string{"query": "flight to New York departure"}
	r.Step("The demo agent calls get_excerpt (raw_read): it needs the phone's approval every time; the command line may not approve it.")
	out, err := s.CallAndWait(ctx, "get_excerpt", args, 100*time.Millisecond, func(ar *agent.ApprovalRequired) {
		if _, err := n.Decide(ctx, ar.MatchCode, true); err != nil {
			r.Step(fmt.Sprintf("mailnode approvals approve %s: %v", ar.MatchCode, err))
		}
		for text := range prompts {
			p, err := phoneclient.ReadPrompt(text)
			if err != nil || p.ApprovalID != ar.ApprovalID {
				continue
			}
			r.Step(fmt.Sprintf("The phone shows: %s asks for %s, match code %s (the agent shows %s):\n  %s", p.Agent, p.Tool, p.MatchCode, ar.MatchCode, p.Details))
			if _, err := phone.Decide(ctx, text, approvals.Approve); err != nil {
				r.Step(fmt.Sprint("Phone approval failed:", err))
			}
			r.Step("The user approves on the phone.")
			return
		}
	})
	if err != nil {
		return fmt.Errorf("demo agent excerpt: %w", err)
	}
	r.Step(fmt.Sprintf("The retried get_excerpt runs once, on that approval:\n  %s", clip(string(out), 600)))
	return nil
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// brokenOnPurpose counts the sample mails that are broken on purpose
// (named NN-broken-*.eml): they show that a message the decoder cannot
// fully read is still stored, and its readable text found.
func brokenOnPurpose(mailbox fs.FS) int {
	n := 0
	fs.WalkDir(mailbox, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(path.Base(p), "-broken-") {
			n++
		}
		return nil
	})
	return n
}

// problemStep tells of the messages with a part that could not be decoded:
// on the sample mailbox those broken on purpose, which are no error of
// the demo's, and any others, which are.
func problemStep(problems, onPurpose int) string {
	if problems <= onPurpose {
		return fmt.Sprintf("The sample mailbox holds %s broken on purpose (a MIME part that cannot be decoded): stored with the problem noted, its readable text searchable.",
			messages(problems))
	}
	return fmt.Sprintf("%s had a MIME part that could not be decoded (%d of them broken on purpose in the sample mailbox); they are stored with the problem noted.",
		messages(problems), onPurpose)
}

func messages(n int) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}
