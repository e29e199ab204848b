package demo

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"mailnode/agent"
	"mailnode/gateway/localca"
)

// demoAgentDomain is the demo agent's domain. It is not a real domain: the
// node reaches its key document through the development override that
// the demo turns on, and says so in its log.
const demoAgentDomain = "agent.demo.example"

// demoAgent is the web host of the demo's agent: it publishes the agent's
// key document over TLS on loopback, as a real agent's web server does on
// its domain.
type demoAgent struct {
	key     ed25519.PrivateKey
	keyFile string
	addr    string
	ca      *x509.Certificate
	srv     *http.Server
}

// startDemoAgent loads (or makes) the demo agent's key in dir and serves
// its key document until Close.
func startDemoAgent(dir string) (*demoAgent, error) {
	keyFile := filepath.Join(dir, "demo-agent.key")
	key, err := agent.LoadKey(keyFile)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = agent.GenerateKey(keyFile)
	}
	if err != nil {
		return nil, fmt.Errorf("demo agent key: %w", err)
	}
	doc, err := agent.KeyDocument(demoAgentDomain, "k1", key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	ca, err := localca.Open(filepath.Join(dir, "demo-agent-ca"), nil, nil)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/svc-agent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc)
	})
	d := &demoAgent{key: key, keyFile: keyFile, addr: ln.Addr().String(), ca: ca.Cert(),
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second,
			TLSConfig: &tls.Config{MinVersion: tls.VersionTLS13, GetCertificate: ca.GetCertificate(demoAgentDomain)}}}
	go d.srv.ServeTLS(ln, "", "")
	return d, nil
}

func (d *demoAgent) Close() error { return d.srv.Close() }

// session is the demo agent's MCP session with the node at host,
// trusting the node's local CA; dial, if set, is how names are reached
// (the local relay's DNS and SNI port).
func (d *demoAgent) session(host, caFile, version string, dial func(ctx context.Context, network, addr string) (net.Conn, error)) (*agent.Session, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	return agent.NewSession(agent.Config{
		Node:   host,
		Signer: &agent.Signer{Domain: demoAgentDomain, Kid: "k1", Key: d.key},
		HTTPClient: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: dial,
			TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}}},
		ClientName: "mailnode-demo-agent", ClientVersion: version,
	})
}
