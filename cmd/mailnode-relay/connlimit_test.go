package main

import (
	"crypto/x509"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"mailnode/relay/connlimit/connlimittest"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relaystore"
)

// TestSlowClientsBinary is relayserver's TestSlowClients against the
// mailnode-relay binary with its default limits: 2,000 slow connections
// from 127.0.0.2 are cut to the per-address cap at once and at the
// handshake deadline at last, while a client on 127.0.0.1 is served and
// 1,000 tunnels from 127.0.0.3 come up.
func TestSlowClientsBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the relay")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if out, err := exec.Command("go", "build", "-o", bin+"/", "mailnode/cmd/mailnode-relay").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ca, _ := relaylocal.NewCA()
	cert, _ := ca.Issue(relaylocal.Zone, "*.agents."+relaylocal.Zone)
	keyDER, _ := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	certFile := filepath.Join(dir, "relay.crt")
	keyFile := filepath.Join(dir, "relay.key")
	os.WriteFile(certFile, pemBlock("CERTIFICATE", cert.Certificate[0]), 0o600)
	os.WriteFile(keyFile, pemBlock("PRIVATE KEY", keyDER), 0o600)

	data := filepath.Join(dir, "relay")
	nodes := connlimittest.NewNodes(t, 1001)
	st, err := relaystore.OpenSQLite(t.Context(), data)
	if err != nil {
		t.Fatal(err)
	}
	connlimittest.Register(t, st, nodes)
	st.Close()

	// The relay inherits the raised open-file limit.
	connlimittest.RaiseFileLimit(t, 7000)
	p := start(t, bin, "mailnode-relay", "serve", "--data-dir", data, "--zone", relaylocal.Zone,
		"--listen", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile)
	addr := p.await(t, `service=tls addr=(\S+)`, 20*time.Second)
	connlimittest.CheckRelay(t, connlimittest.Relay{Addr: addr, CA: ca, Nodes: nodes})
}
