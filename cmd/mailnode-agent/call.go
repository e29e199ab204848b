package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
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
	domain := fs.String("domain", "", "the agent domain whose key document the node fetches (required)")
	kid := fs.String("kid", "k1", "the key's id in the key document")
	keyFile := fs.String("key", "agent.key", "the agent's private key file")
	node := fs.String("node", "", "the node's hostname[:port]")
	relay := fs.String("relay", "", "a relay base URL, to resolve --address")
	address := fs.String("address", "", "the user's e-mail address, resolved through --relay")
	caFile := fs.String("ca", "", "development: also trust this CA for the node (a node's local CA)")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for the user's approval")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *domain == "" || fs.NArg() < 1 || fs.NArg() > 2 || (*node == "") == (*relay == "" || *address == "") {
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
	key, err := agent.LoadKey(*keyFile)
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-agent:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS13}
	if *caFile != "" {
		pem, err := os.ReadFile(*caFile)
		if err != nil {
			fmt.Fprintln(stderr, "mailnode-agent:", err)
			return 1
		}
		roots, err := x509.SystemCertPool()
		if err != nil {
			roots = x509.NewCertPool()
		}
		if !roots.AppendCertsFromPEM(pem) {
			fmt.Fprintln(stderr, "mailnode-agent: no certificate in", *caFile)
			return 1
		}
		tlsConfig.RootCAs = roots
	}
	cfg := agent.Config{
		Node:       *node,
		Signer:     &agent.Signer{Domain: *domain, Kid: *kid, Key: key},
		HTTPClient: &http.Client{Transport: &http.Transport{TLSClientConfig: tlsConfig, TLSHandshakeTimeout: 10 * time.Second}, Timeout: 30 * time.Second},
		ClientName: "mailnode-agent", ClientVersion: "1",
	}
	if *relay != "" {
		r := &agent.Relay{BaseURL: *relay}
		res, err := r.Resolve(ctx, *address)
		if err != nil {
			fmt.Fprintln(stderr, "mailnode-agent: resolve:", err)
			return 1
		}
		cfg.Node = res.Hostname
		cfg.Queue = &agent.Queue{Relay: r, Resolution: res}
	}
	s, err := agent.NewSession(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-agent:", err)
		return 1
	}
	wctx, cancel := context.WithTimeout(ctx, *wait)
	defer cancel()
	out, err := s.CallAndWait(wctx, tool, toolArgs, 2*time.Second, func(ar *agent.ApprovalRequired) {
		fmt.Fprintf(stderr, "Waiting for the user to approve on their phone: agent %s, %s (%s).\nMatch code: %s\n",
			ar.Agent, ar.Tool, ar.Tier, ar.MatchCode)
	})
	var qe *agent.QueuedError
	switch {
	case errors.As(err, &qe):
		fmt.Fprintln(stderr, "mailnode-agent:", err, "- retry later for the answer")
		return 3
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
