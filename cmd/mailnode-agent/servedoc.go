package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"mailnode/agent"
	"mailnode/internal/selfsigned"
)

// serveDoc serves a key document over HTTPS on loopback with a throwaway
// certificate, so that one's own agent can be tried against a local node
// (mailnode serve --dev-agent DOMAIN=ADDR --dev-agent-ca CERT) before it
// has a domain with a public certificate.
func serveDoc(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mailnode-agent serve-doc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	docFile := fs.String("doc-file", "svc-agent.json", "the key document keygen wrote")
	listen := fs.String("listen", "127.0.0.1:9443", "loopback address to serve it on")
	certFile := fs.String("cert-file", "svc-agent-ca.pem", "where to write the certificate the node must trust (--dev-agent-ca)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runServeDoc(ctx, *docFile, *listen, *certFile, stdout, nil); err != nil {
		fmt.Fprintln(stderr, "mailnode-agent serve-doc:", err)
		return 1
	}
	return 0
}

// runServeDoc serves until ctx ends; ready, if set, gets the address.
func runServeDoc(ctx context.Context, docFile, listen, certFile string, stdout io.Writer, ready func(addr string)) error {
	doc, err := os.ReadFile(docFile)
	if err != nil {
		return err
	}
	var d struct {
		Domain string `json:"domain"`
	}
	if err := json.Unmarshal(doc, &d); err != nil || d.Domain == "" {
		return fmt.Errorf("%s is not a key document", docFile)
	}
	host, _, err := net.SplitHostPort(listen)
	if ip := net.ParseIP(host); err != nil || host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return errors.New("--listen must be a loopback address, e.g. 127.0.0.1:9443")
	}
	cert, err := selfsigned.New(d.Domain, d.Domain)
	if err != nil {
		return err
	}
	if err := os.WriteFile(certFile, cert.CertPEM, 0o644); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != agent.KeyDocumentPath {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(doc)
		}),
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert.TLS}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 5 * time.Second,
	}
	fmt.Fprintf(stdout, "Serving the key document of %s at https://%s%s (certificate: %s).\n"+
		"Run the node with: mailnode serve --dev-agent %s=%s --dev-agent-ca %s ...\n",
		d.Domain, ln.Addr(), agent.KeyDocumentPath, certFile, d.Domain, ln.Addr(), certFile)
	if ready != nil {
		ready(ln.Addr().String())
	}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.ServeTLS(ln, "", ""); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
