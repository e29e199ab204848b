package main

import (
	"crypto/x509"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"mailnode/relay/relaylocal"
)

// relayBuild is the mailnode-relay binary the tests run, built once for
// the whole test binary (each test used to build its own copy) and
// removed by TestMain.
var relayBuild struct {
	once sync.Once
	dir  string
	out  []byte
	err  error
}

// relayBinary returns the directory holding the built mailnode-relay.
func relayBinary(t *testing.T) string {
	t.Helper()
	relayBuild.once.Do(func() {
		relayBuild.dir, relayBuild.err = os.MkdirTemp("", "mailnode-relay-test-bin")
		if relayBuild.err == nil {
			relayBuild.out, relayBuild.err = exec.Command("go", "build", "-o", relayBuild.dir+"/", "mailnode/cmd/mailnode-relay").CombinedOutput()
		}
	})
	if relayBuild.err != nil {
		t.Fatalf("go build: %v\n%s", relayBuild.err, relayBuild.out)
	}
	return relayBuild.dir
}

// relayCert makes the relay's certificate for its zone and hosted agents
// from a new local CA, and writes it and its key (0600) into dir.
func relayCert(t *testing.T, dir string) (ca *relaylocal.CA, certFile, keyFile string) {
	t.Helper()
	ca, err := relaylocal.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue(relaylocal.Zone, "*.agents."+relaylocal.Zone)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "relay.crt"), filepath.Join(dir, "relay.key")
	if err := os.WriteFile(certFile, pemBlock("CERTIFICATE", cert.Certificate[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pemBlock("PRIVATE KEY", keyDER), 0o600); err != nil {
		t.Fatal(err)
	}
	return ca, certFile, keyFile
}
