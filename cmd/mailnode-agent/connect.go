package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"strings"

	"mailnode/agent"
	"mailnode/relay/devnet"
)

// nodeFlags are the flags of every command that talks to a node: who the
// agent is, and how to find the node (directly, or by the user's address
// through a relay).
type nodeFlags struct {
	domain, kid, keyFile string
	node                 string
	relay, address       string
	netFlags
}

func (f *nodeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.domain, "domain", "", "the agent domain whose key document the node fetches (required)")
	fs.StringVar(&f.kid, "kid", "k1", "the key's id in the key document")
	fs.StringVar(&f.keyFile, "key", "agent.key", "the agent's private key file")
	fs.StringVar(&f.node, "node", "", "the node's hostname[:port]")
	fs.StringVar(&f.relay, "relay", "", "a relay base URL, to resolve --address")
	fs.StringVar(&f.address, "address", "", "the user's e-mail address, resolved through --relay")
	f.netFlags.register(fs)
}

// netFlags are the development overrides for reaching a node or relay on
// loopback: off unless given.
type netFlags struct {
	caFiles caList
	devDNS  string
	devPort int
}

func (f *netFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.caFiles, "ca", "development: also trust the CA certificates in this PEM file (a node's or a local relay's CA; repeatable)")
	fs.StringVar(&f.devDNS, "dev-dns", "", "development: look names up at this DNS server (HOST:PORT, a local relay's --dns-listen)")
	fs.IntVar(&f.devPort, "dev-port", 0, "development: connect to this port where the protocol says 443 (a local relay's --listen)")
}

// check reports a usage error.
func (f *nodeFlags) check() error {
	if f.domain == "" {
		return errors.New("--domain is required")
	}
	if (f.node == "") == (f.relay == "" || f.address == "") {
		return errors.New("give either --node or --relay with --address")
	}
	return f.netFlags.check()
}

func (f *netFlags) check() error {
	return f.overrides().Check()
}

func (f *netFlags) overrides() devnet.Overrides {
	return devnet.Overrides{DNS: f.devDNS, Port: f.devPort, CAFiles: f.caFiles}
}

// caList collects a repeatable --ca: an agent through a development
// relay trusts the relay's CA and the node's.
type caList []string

func (l *caList) String() string     { return strings.Join(*l, ",") }
func (l *caList) Set(s string) error { *l = append(*l, s); return nil }

// httpClient is TLS 1.3 with the system roots plus --ca, dialing through
// the development overrides when they are given.
func (f *netFlags) httpClient() (*http.Client, error) {
	return f.overrides().HTTPClient()
}

// session loads the key, resolves the address when a relay is given, and
// returns a session with the node (no I/O with the node yet).
func (f *nodeFlags) session(ctx context.Context, clientName string, onQueued ...func(*agent.QueuedError)) (*agent.Session, error) {
	key, err := agent.LoadKey(f.keyFile)
	if err != nil {
		return nil, err
	}
	hc, err := f.httpClient()
	if err != nil {
		return nil, err
	}
	cfg := agent.Config{
		Node:       f.node,
		Signer:     &agent.Signer{Domain: f.domain, Kid: f.kid, Key: key},
		HTTPClient: hc,
		ClientName: clientName, ClientVersion: "1",
	}
	if f.relay != "" {
		r := &agent.Relay{BaseURL: f.relay, HTTPClient: hc}
		res, err := r.Resolve(ctx, f.address)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", f.address, err)
		}
		cfg.Node = res.Hostname
		cfg.Queue = &agent.Queue{Relay: r, Resolution: res}
		if len(onQueued) > 0 {
			cfg.OnQueued = onQueued[0]
		}
	}
	return agent.NewSession(cfg)
}
