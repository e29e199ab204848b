package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"mailnode/agent"
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
	cert, pemCert, err := selfSigned(d.Domain)
	if err != nil {
		return err
	}
	if err := os.WriteFile(certFile, pemCert, 0o644); err != nil {
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
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
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

// selfSigned makes a one-day certificate for domain that is its own CA.
func selfSigned(domain string) (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: domain}, DNSNames: []string{domain},
		NotBefore: time.Now().Add(-time.Minute), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}
