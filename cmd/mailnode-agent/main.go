// Command mailnode-agent is the agent side's command line: the key an agent
// signs with and its key document (published on the agent's domain or
// hosted by a relay), one-off calls, and a stdio MCP server through which
// any MCP client reaches a node. It uses the agent package, as any Go
// agent would.
package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"mailnode/agent"
	"mailnode/relay/relayclient"
)

const usage = `mailnode-agent is the agent side of mailnode.

Usage:
  mailnode-agent keygen --domain DOMAIN [--kid ID] [--key-file FILE] [--doc-file FILE]
      Make an Ed25519 key (FILE, mode 0600, never overwritten) and the key document to
      publish at https://DOMAIN/.well-known/svc-agent.
  mailnode-agent keygen --relay URL [--kid ID] [--key-file FILE]
      For an agent without a domain: make the key and have the relay host its key
      document; prints the agent domain the relay gave it.
  mailnode-agent serve-doc [--doc-file svc-agent.json] [--listen 127.0.0.1:9443] [--cert-file F]
      Development: serve the key document over HTTPS on loopback with a throwaway certificate,
      to try an agent against a local node (mailnode serve --dev-agent, --dev-agent-ca).
  mailnode-agent call --domain DOMAIN --key FILE (--node HOST[:PORT] | --relay URL --address ADDR)
                      [--kid ID] [--ca FILE] [--wait 10m] TOOL ['{"arg":"value"}']
      Call a tool on a node: initialize, tools/list, then the call, signed. If the node
      asks for the user's approval, print the match code and retry until approved.
  mailnode-agent mcp --domain DOMAIN --key FILE (--node HOST[:PORT] | --relay URL --address ADDR)
      A stdio MCP server for MCP clients (Claude, VS Code, Cursor, ...): lists the node's
      tools and forwards each call, signed. A call that needs the user's approval answers
      with the match code at once; the same call made again runs once approved.

Development flags of call and mcp (and keygen --relay): --ca FILE trusts a local CA (repeatable),
--dev-dns HOST:PORT looks names up at a local relay's DNS, --dev-port PORT connects
there instead of 443.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "keygen":
		return keygen(args[1:], stdout, stderr)
	case "call":
		return call(args[1:], stdout, stderr)
	case "mcp":
		return mcpCommand(args[1:], os.Stdin, os.Stdout, stderr)
	case "serve-doc":
		return serveDoc(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "mailnode-agent: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func keygen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mailnode-agent keygen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	domain := fs.String("domain", "", "the agent domain that will serve the key document")
	relayURL := fs.String("relay", "", "instead of --domain: a relay base URL that hosts the key document")
	var nf netFlags
	nf.register(fs)
	kid := fs.String("kid", "k1", "the key's id in the document")
	keyFile := fs.String("key-file", "agent.key", "where to write the private key")
	docFile := fs.String("doc-file", "svc-agent.json", "where to write the key document")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if (*domain == "") == (*relayURL == "") || nf.check() != nil {
		fmt.Fprintln(stderr, "mailnode-agent keygen: give --domain or --relay")
		return 2
	}
	if *relayURL != "" {
		// An existing key is offered again: hosting is idempotent, and a
		// first attempt may have met a rate limit.
		priv, err := agent.LoadKey(*keyFile)
		if errors.Is(err, os.ErrNotExist) {
			priv, err = agent.GenerateKey(*keyFile)
		}
		if err != nil {
			fmt.Fprintln(stderr, "mailnode-agent:", err)
			return 1
		}
		return hostKey(*relayURL, *kid, *keyFile, priv, &nf, stdout, stderr)
	}
	priv, err := agent.GenerateKey(*keyFile)
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-agent:", err)
		return 1
	}
	doc, err := agent.KeyDocument(*domain, *kid, priv.Public().(ed25519.PublicKey))
	if err == nil {
		err = os.WriteFile(*docFile, append(doc, '\n'), 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-agent: key document:", err)
		return 1
	}
	fmt.Fprintf(stdout, "Private key: %s (keep it secret)\nKey document: %s\nPublish it at https://%s/.well-known/svc-agent over HTTPS, without redirects.\nSign with keyid %s#%s.\n",
		*keyFile, *docFile, *domain, *domain, *kid)
	return 0
}

// hostKey has the relay host the agent's key document. The key stays on
// disk if the relay refuses, so the same key can be offered again.
func hostKey(relayURL, kid, keyFile string, priv ed25519.PrivateKey, nf *netFlags, stdout, stderr io.Writer) int {
	hc, err := nf.httpClient()
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-agent:", err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := (&relayclient.API{BaseURL: relayURL, Key: priv, HTTP: hc}).HostAgentKey(ctx, kid)
	if err != nil {
		fmt.Fprintf(stderr, "mailnode-agent: the relay did not host the key document: %v\nThe key is in %s; run the same command again later.\n", err, keyFile)
		return 1
	}
	fmt.Fprintf(stdout, "Private key: %s (keep it secret)\nThe relay hosts the key document at https://%s/.well-known/svc-agent.\nAgent domain: %s\nSign with keyid %s.\n",
		keyFile, res.Domain, res.Domain, res.KeyID)
	return 0
}
