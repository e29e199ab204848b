// Command mailnode-agent is the agent side's command line: for now, making
// the key an agent signs with and the key document it publishes. It uses
// the agent package, as any Go agent would.
package main

import (
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"mailnode/agent"
)

const usage = `mailnode-agent is the agent side of mailnode.

Usage:
  mailnode-agent keygen --domain DOMAIN [--kid ID] [--key-file FILE] [--doc-file FILE]
      Make an Ed25519 key (FILE, mode 0600, never overwritten) and the key document to
      publish at https://DOMAIN/.well-known/svc-agent.
  mailnode-agent serve-doc [--doc-file svc-agent.json] [--listen 127.0.0.1:9443] [--cert-file F]
      Development: serve the key document over HTTPS on loopback with a throwaway certificate,
      to try an agent against a local node (mailnode serve --dev-agent, --dev-agent-ca).
  mailnode-agent call --domain DOMAIN --key FILE (--node HOST[:PORT] | --relay URL --address ADDR)
                      [--kid ID] [--ca FILE] [--wait 10m] TOOL ['{"arg":"value"}']
      Call a tool on a node: initialize, tools/list, then the call, signed. If the node
      asks for the user's approval, print the match code and retry until approved.
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
	domain := fs.String("domain", "", "the agent domain that will serve the key document (required)")
	kid := fs.String("kid", "k1", "the key's id in the document")
	keyFile := fs.String("key-file", "agent.key", "where to write the private key")
	docFile := fs.String("doc-file", "svc-agent.json", "where to write the key document")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *domain == "" {
		fmt.Fprintln(stderr, "mailnode-agent keygen: --domain is required")
		return 2
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
