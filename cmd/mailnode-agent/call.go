package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"mailnode/agent"
)

// call runs one tool call as an agent, through the SDK.
func call(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mailnode-agent call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf nodeFlags
	nf.register(fs)
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for the user's approval")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := nf.check(); err != nil || fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprint(stderr, "mailnode-agent call: give --domain, --key, either --node or --relay with --address, and TOOL ['JSON arguments']\n")
		return 2
	}
	tool := fs.Arg(0)
	var toolArgs any = map[string]any{}
	if fs.NArg() == 2 {
		raw := json.RawMessage(fs.Arg(1))
		if !json.Valid(raw) {
			fmt.Fprintln(stderr, "mailnode-agent call: the arguments are not JSON")
			return 2
		}
		toolArgs = raw
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := nf.session(ctx, "mailnode-agent", func(qe *agent.QueuedError) {
		fmt.Fprintf(stderr, "The node is unreachable: the call waits in the relay's queue as %s (until %s).\n"+
			"When the node takes it, it asks the user if it must; then the call is made again live.\n",
			qe.RequestID, time.Unix(qe.ExpiresAt, 0).UTC().Format(time.RFC3339))
	})
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-agent:", err)
		return 1
	}
	wctx, cancel := context.WithTimeout(ctx, *wait)
	defer cancel()
	out, err := s.CallAndWait(wctx, tool, toolArgs, 2*time.Second, func(ar *agent.ApprovalRequired) {
		fmt.Fprintf(stderr, "Waiting for the user to approve %s: agent %s, %s (%s).\nMatch code: %s\n",
			ar.Where(), ar.Agent, ar.Tool, ar.Tier, ar.MatchCode)
	})
	var qe *agent.QueuedError
	var ue *agent.UntrustedCertError
	switch {
	case errors.As(err, &qe), errors.Is(err, context.DeadlineExceeded) && strings.Contains(err.Error(), "queued request"):
		fmt.Fprintln(stderr, "mailnode-agent:", err, "- retry later for the answer")
		return 3
	case errors.As(err, &ue):
		// The node is online: queueing would not help, trusting it would.
		fmt.Fprintln(stderr, "mailnode-agent:", err)
		fmt.Fprintln(stderr, "The node is online; the call was not queued. If it is a development node with its own CA, "+
			"give that CA with --ca (the node's DATA_DIR/ca/ca.pem; with a relay, in the same PEM file as the relay's CA).")
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "mailnode-agent:", err)
		return 1
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, out, "", "  ") != nil {
		pretty.Write(out)
	}
	fmt.Fprintln(stdout, strings.TrimSpace(pretty.String()))
	return 0
}
