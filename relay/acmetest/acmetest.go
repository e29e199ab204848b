// Package acmetest runs Pebble, the ACME test server Let's Encrypt
// publishes (github.com/letsencrypt/pebble, MPL-2.0), inside a test
// process: the real protocol code of a CA, with its validation authority
// asking a given DNS server (a relay's zone) for DNS-01 challenges. Tests
// and the cross-process harness use it; no binary links it.
package acmetest

import (
	"crypto/x509"
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"

	"github.com/letsencrypt/pebble/v2/ca"
	"github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
)

// CA is a running Pebble.
type CA struct {
	// DirectoryURL is the ACME directory.
	DirectoryURL string
	// HTTP trusts the directory's own TLS certificate (not the roots the
	// CA issues from).
	HTTP *http.Client
	// Roots are the roots of the certificates the CA issues: what an
	// agent trusts in place of the public roots.
	Roots *x509.CertPool
	// RootPEM is Roots as PEM, for a process's --ca flag.
	RootPEM []byte

	srv *httptest.Server
}

// Pebble reads its test knobs from the environment when it starts; the
// lock keeps two starts from seeing each other's.
var envMu sync.Mutex

// Start starts a CA whose validation authority resolves DNS-01
// challenges at dnsAddr (host:port, over TCP), with certificates valid
// for validitySeconds (0: Pebble's 90 days). logTo receives Pebble's log;
// nil discards it.
func Start(dnsAddr string, validitySeconds uint64, logTo io.Writer) *CA {
	if logTo == nil {
		logTo = io.Discard
	}
	logger := log.New(logTo, "pebble ", log.LstdFlags)
	envMu.Lock()
	// No random validation delay (up to 15 s by default) and no
	// deliberately refused nonces: tests want the protocol, fast.
	restore := setenv(map[string]string{"PEBBLE_VA_NOSLEEP": "1", "PEBBLE_WFE_NONCEREJECT": "0"})
	store := db.NewMemoryStore()
	authority := ca.New(logger, store, "", "ecdsa", 0, 1, map[string]ca.Profile{
		"default": {Description: "mailnode tests", ValidityPeriod: validitySeconds},
	})
	validator := va.New(logger, 0, 0, false, dnsAddr, store)
	front := wfe.New(logger, store, validator, authority, []string{"pebble.letsencrypt.org"}, false, false, 0, 0)
	restore()
	envMu.Unlock()

	srv := httptest.NewTLSServer(front.Handler())
	root := authority.GetRootCert(0).Cert
	roots := x509.NewCertPool()
	roots.AddCert(root)
	return &CA{
		DirectoryURL: srv.URL + wfe.DirectoryPath,
		HTTP:         srv.Client(),
		Roots:        roots,
		RootPEM:      pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: root.Raw}),
		srv:          srv,
	}
}

// Close stops the CA's HTTP server.
func (c *CA) Close() { c.srv.Close() }

// ServerPEM is the directory's own TLS certificate, for a process that
// must trust it (the node's --dev-relay-ca).
func (c *CA) ServerPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.srv.Certificate().Raw})
}

func setenv(vars map[string]string) (restore func()) {
	old := map[string]*string{}
	for k, v := range vars {
		if o, ok := os.LookupEnv(k); ok {
			old[k] = &o
		} else {
			old[k] = nil
		}
		os.Setenv(k, v)
	}
	return func() {
		for k, o := range old {
			if o == nil {
				os.Unsetenv(k)
			} else {
				os.Setenv(k, *o)
			}
		}
	}
}

// VAWorker is the function of the goroutine Pebble's validation
// authority starts and never stops: a leak check ignores it
// (goleak.IgnoreTopFunction(acmetest.VAWorker)).
const VAWorker = "github.com/letsencrypt/pebble/v2/va.VAImpl.processTasks"
