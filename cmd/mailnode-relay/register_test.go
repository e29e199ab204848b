package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/assets"
	"mailnode/mail/demobox"
	"mailnode/relay"
	"mailnode/relay/devnet"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relaystore/pgtest"
)

// TestRegisterUnderAttack (issue 40, items 3 and 4) runs the relay and
// the node as their binaries, with the user's IMAP and submission server
// from demobox. A stranger asks the relay for the user's address first and
// then ten times a second throughout, and puts 40 forged code mails dated 2100
// in the user's INBOX (20 in the old code mail's shape, 20 naming the live
// code, learned by asking). The node registers with the code the
// stranger had mailed, sending no wrong code; it loses its key, starts
// again with a new one and registers again, keeping its name; and the
// relay mails one code in all. It runs on the relay's SQLite and on
// PostgreSQL (MAILNODE_TEST_POSTGRES=1).
func TestRegisterUnderAttack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-tags", "headless", "-o", bin+"/", "mailnode/cmd/mailnode", "mailnode/cmd/mailnode-relay")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The relay's own SQLite, and PostgreSQL as instances share it.
	for _, store := range []string{"sqlite", "postgres"} {
		t.Run(store, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"--data-dir", filepath.Join(dir, "relay")}
			if store == "postgres" {
				args = []string{"--db", pgtest.Need(t)}
			}
			registerUnderAttack(t, bin, dir, args)
		})
	}
}

func registerUnderAttack(t *testing.T, bin, dir string, storeArgs []string) {
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	imap, err := demobox.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer imap.Close()
	if _, err := imap.Seed(assets.DemoMailbox(), time.Now()); err != nil {
		t.Fatal(err)
	}
	smtp, err := demobox.StartSMTP(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer smtp.Close()
	smtp.DeliverLocally(imap.Deliver)
	password := file("password", []byte(demobox.Password))

	ca, err := relaylocal.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue(relaylocal.Zone, "*.agents."+relaylocal.Zone)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	certFile := file("relay.crt", pemBlock("CERTIFICATE", cert.Certificate[0]))
	keyFile := file("relay.key", pemBlock("PRIVATE KEY", keyDER))
	relayCA := file("relay-ca.pem", pemBlock("CERTIFICATE", ca.Cert.Raw))
	smtpCA := file("smtp-ca.pem", pemBlock("CERTIFICATE", smtp.CA.Raw))
	relayProc := start(t, bin, "mailnode-relay", append([]string{"serve", "--zone", relaylocal.Zone,
		"--listen", "127.0.0.1:0", "--dns-listen", "127.0.0.1:0", "--public-ip", "127.0.0.1",
		"--tls-cert", certFile, "--tls-key", keyFile,
		"--smtp-server", smtp.Addr, "--smtp-user", demobox.Username, "--smtp-password-file", password, "--smtp-ca", smtpCA},
		storeArgs...)...)
	tlsAddr := relayProc.await(t, `service=tls addr=(\S+)`, 10*time.Second)
	dnsAddr := relayProc.await(t, `service=dns addr=(\S+)`, 10*time.Second)
	_, port, _ := strings.Cut(tlsAddr, ":")
	p, _ := strconv.Atoi(port)
	hc, err := devnet.Overrides{CAFiles: []string{relayCA}, DNS: dnsAddr, Port: p}.HTTPClient()
	if err != nil {
		t.Fatal(err)
	}

	// The stranger asks first: the relay mails the code to the user.
	s := &rawAsker{hc: hc, url: "https://" + relaylocal.Zone}
	first := s.ask(t, demobox.Address)
	if first.status != http.StatusAccepted {
		t.Fatalf("stranger's first ask = %d", first.status)
	}
	for range 20 {
		code := wrongCode()
		imap.Deliver(forged("mailnode relay code: "+code, "", code))
		imap.Deliver(forged("mailnode relay code, ref "+first.codeID, first.codeID, wrongCode()))
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	answers := map[int]int{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 600 {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			a := s.ask(t, demobox.Address)
			mu.Lock()
			answers[a.status]++
			mu.Unlock()
		}
	}()
	stopped := false
	stopStranger := func() {
		if !stopped {
			close(stop)
			wg.Wait()
			stopped = true
		}
	}
	defer stopStranger()

	nodeData := filepath.Join(dir, "node")
	nodeArgs := []string{"serve", "--data-dir", nodeData,
		"--imap-server", imap.Addr, "--imap-security", "plain", "--imap-user", demobox.Username, "--imap-password-file", password,
		"--relay", "https://" + relaylocal.Zone, "--relay-address", demobox.Address, "--relay-acme", "off",
		"--dev-relay-ca", relayCA, "--dev-relay-dns", dnsAddr, "--dev-relay-port", port}
	node := start(t, bin, "mailnode", nodeArgs...)
	node.await(t, `msg="Registered with the relay"`, 45*time.Second)
	awaitNodes(t, relayCA, dnsAddr, port, 1)
	// Not for want of reading them: the node read the 20 forged mails
	// naming the code, and sent none of theirs.
	if untied, _ := strconv.Atoi(node.await(t, `untiedCandidates=(\d+)`, time.Second)); untied < 20 {
		t.Fatalf("the node read %d forged candidates, want 20 or more", untied)
	}

	// The key is lost: the node starts again with a new one and proves
	// the mailbox again, with the same live code, while the stranger
	// keeps asking.
	node.stop(t)
	if err := os.Remove(filepath.Join(nodeData, "relay", "keys.json")); err != nil {
		t.Fatal(err)
	}
	node = start(t, bin, "mailnode", nodeArgs...)
	node.await(t, `msg="Registered with the relay"`, 45*time.Second)
	awaitNodes(t, relayCA, dnsAddr, port, 1)
	stopStranger()

	out := relayProc.out.String()
	if n := strings.Count(out, `msg="Mailed confirmation code"`); n != 1 {
		t.Fatalf("the relay mailed %d codes, want 1", n)
	}
	if n := strings.Count(out, `msg="Wrong confirmation code"`); n != 0 {
		t.Fatalf("the relay was sent %d wrong codes, want none", n)
	}
	names := regexp.MustCompile(`msg="Registered node".*? hostname=(\S+)`).FindAllStringSubmatch(out, -1)
	if len(names) != 2 || names[0][1] != names[1][1] {
		t.Fatalf("registrations = %v, want two of the same name", names)
	}
	if len(answers) != 1 || answers[http.StatusAccepted] < 5 {
		t.Fatalf("stranger's answers = %v, want only 202", answers)
	}
}

// forged is a code mail such as anyone can send, dated 2100, with the
// relay's subject words many times over so that it ranks first in a
// search for them.
func forged(subject, codeID, code string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: mailnode relay <relay@%s>\r\nTo: <%s>\r\nSubject: %s\r\n", relaylocal.Zone, demobox.Address, subject)
	fmt.Fprintf(&b, "Date: Fri, 01 Jan 2100 00:00:00 +0000\r\nMessage-ID: <%s@%s>\r\n", word(), relaylocal.Zone)
	fmt.Fprintf(&b, "Mailnode-Relay-Code: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nCode: %s\r\n", code, code)
	b.WriteString(strings.Repeat("mailnode relay code "+codeID+"\r\n", 10))
	return b.Bytes()
}

func wrongCode() string {
	s := strings.ToUpper(word() + word())
	return s[0:5] + "-" + s[5:10] + "-" + s[10:15] + "-" + s[15:20] + "-" + s[20:25]
}

func word() string {
	b := make([]byte, 10)
	rand.Read(b)
	return strings.ToLower(base32.StdEncoding.EncodeToString(b))
}

// rawAsker asks for registrations with a key of its own, by hand: the
// signed call and the answer's JSON as they are on the wire.
type rawAsker struct {
	hc  *http.Client
	url string
	key ed25519.PrivateKey
}

type asked struct {
	status int
	codeID string
}

func (s *rawAsker) ask(t *testing.T, address string) asked {
	if s.key == nil {
		_, s.key, _ = ed25519.GenerateKey(nil)
	}
	box := make([]byte, 32)
	rand.Read(box)
	body, _ := json.Marshal(map[string]string{"address": address, "box_key": relay.EncodeKey(box)})
	now := time.Now().Unix()
	nb := make([]byte, 18)
	rand.Read(nb)
	nonce := base64.RawURLEncoding.EncodeToString(nb)
	sig := ed25519.Sign(s.key, relay.NodeSigningString("POST", relaylocal.Zone, relay.PathRegister, now, nonce, body))
	req, _ := http.NewRequest("POST", s.url+relay.PathRegister, bytes.NewReader(body))
	req.Header.Set(relay.HeaderNodeKey, relay.EncodeKey(s.key.Public().(ed25519.PublicKey)))
	req.Header.Set(relay.HeaderNodeTime, strconv.FormatInt(now, 10))
	req.Header.Set(relay.HeaderNodeNonce, nonce)
	req.Header.Set(relay.HeaderNodeSig, base64.RawURLEncoding.EncodeToString(sig))
	resp, err := s.hc.Do(req)
	if err != nil {
		return asked{}
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	id, _ := m["code_id"].(string)
	return asked{status: resp.StatusCode, codeID: id}
}
