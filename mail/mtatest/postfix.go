// Package mtatest starts Debian's Postfix on loopback for tests: a
// submission server (STARTTLS, or TLS from the first byte, then SASL
// AUTH checked by Dovecot's authentication) that delivers its domain's
// mail into a Dovecot by LMTP, where a test reads it over IMAP. It is the
// kind of server an operator points a program's mail at, so a client
// that works against it works against a real one.
//
// Postfix runs from a configuration directory of its own, with its queue,
// data and logs under a temporary directory, on free loopback ports: it
// touches neither the machine's Postfix nor port 25. Its master process
// must start as root (it binds its ports and drops to mail_owner, the
// Debian package's postfix user), so the tests that use it run as root in
// CI and skip otherwise.
package mtatest

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mailnode/internal/loopback"
	"mailnode/internal/selfsigned"
	"mailnode/mail/imaptest"
)

// EnvRequirePostfix, when "1", turns a Postfix that cannot start (not
// installed, or not root) into a test failure instead of a skip. make test
// and CI set it.
const EnvRequirePostfix = "MAILNODE_TEST_POSTFIX"

// Domain is the one domain Postfix delivers: into Dovecot, by LMTP. It
// relays nowhere else.
const Domain = "example.test"

// postfixBin is Debian's postfix command; it starts master from
// daemon_directory (/usr/lib/postfix/sbin).
const postfixBin = "/usr/sbin/postfix"

// Postfix is a running Postfix and the Dovecot it delivers into. Close
// stops both and removes their files.
type Postfix struct {
	// Submission is host:port of submission with STARTTLS (RFC 6409):
	// no AUTH before TLS, and no mail without AUTH.
	Submission string
	// Submissions is host:port of submission over TLS from the first
	// byte (RFC 8314), otherwise the same.
	Submissions string
	// TLS trusts the certificate the harness made for both ports (for
	// 127.0.0.1); CAFile is that certificate in PEM, for a command's flag.
	TLS    *tls.Config
	CAFile string
	// Username and Password log in (SASL PLAIN or LOGIN): Dovecot's user.
	Username, Password string
	// Sender is the one envelope sender the login may use, as providers
	// allow a login only its own addresses (smtpd_sender_login_maps).
	Sender string
	// Mailbox is the address delivered into the Dovecot user's INBOX;
	// any other address at Domain is an unknown user.
	Mailbox string
	// IMAP is the Dovecot that holds Mailbox.
	IMAP *imaptest.Server

	dovecot *imaptest.Dovecot
	dir     string
	cmd     *exec.Cmd
	done    chan struct{}
}

// New starts Postfix and its Dovecot for the test, and stops them when it
// ends. Without root, Postfix or Dovecot's LMTP it skips, or fails if
// EnvRequirePostfix is set.
func New(t testing.TB) *Postfix {
	t.Helper()
	p, err := Start()
	if err != nil {
		if os.Getenv(EnvRequirePostfix) == "1" {
			t.Fatalf("start Postfix (required by %s=1): %v", EnvRequirePostfix, err)
		}
		t.Skipf("Postfix not available: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("stop Postfix: %v", err)
		}
	})
	return p
}

// Start starts Postfix and its Dovecot outside a test.
func Start() (*Postfix, error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("the Postfix master process starts only as root (it binds its ports, then runs as the postfix user); run the test as root")
	}
	if _, err := os.Stat(postfixBin); err != nil {
		return nil, fmt.Errorf("%s not found (Debian package postfix)", postfixBin)
	}
	for _, name := range []string{"postfix"} {
		if _, err := user.Lookup(name); err != nil {
			return nil, fmt.Errorf("user %s (made by Debian's postfix package): %w", name, err)
		}
	}
	if _, err := user.LookupGroup("postdrop"); err != nil {
		return nil, fmt.Errorf("group postdrop (made by Debian's postfix package): %w", err)
	}
	d, err := imaptest.StartDovecotWith(imaptest.DovecotOptions{LMTP: true})
	if err != nil {
		return nil, fmt.Errorf("start Dovecot to deliver into: %w", err)
	}
	p := &Postfix{dovecot: d, IMAP: d.Server, Username: d.Username, Password: d.Password,
		Sender: "relay@" + Domain, Mailbox: d.Username + "@" + Domain}
	if err := p.start(); err != nil {
		log := p.Log()
		p.Close()
		if log != "" {
			err = fmt.Errorf("%w\n%s", err, log)
		}
		return nil, err
	}
	return p, nil
}

func (p *Postfix) start() error {
	// Not t.TempDir: its parents are private to root, and Postfix's
	// processes reach the queue as the postfix user.
	dir, err := os.MkdirTemp(worldTraversableTemp(), "mailnode-postfix-")
	if err != nil {
		return err
	}
	p.dir = dir
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	etc := filepath.Join(dir, "etc")
	for _, sub := range []string{etc, filepath.Join(dir, "spool")} {
		if err := os.Mkdir(sub, 0o755); err != nil {
			return err
		}
	}
	var ports [2]int
	for i := range ports {
		if ports[i], err = loopback.FreePort(); err != nil {
			return err
		}
	}
	p.Submission = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0]))
	p.Submissions = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[1]))
	cert, err := selfsigned.New("mailnode test submission server", "127.0.0.1")
	if err != nil {
		return err
	}
	if err := cert.WriteFiles(etc); err != nil {
		return err
	}
	p.TLS = cert.ClientConfig()
	p.TLS.ServerName = "127.0.0.1"
	p.CAFile = filepath.Join(etc, "cert.pem")
	mainCF := fmt.Sprintf(mainCF, dir, p.dovecot.LMTPSocket, p.dovecot.AuthSocket, Domain, p.Mailbox, p.Sender, p.Username)
	if err := os.WriteFile(filepath.Join(etc, "main.cf"), []byte(mainCF), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(etc, "master.cf"), []byte(fmt.Sprintf(masterCF, p.Submission, p.Submissions)), 0o644); err != nil {
		return err
	}
	// start-fg keeps master under the postfix-script that started it,
	// a child of this process: it cannot outlive a test that dies.
	cmd := exec.Command(postfixBin, "-c", etc, "start-fg")
	out, err := os.Create(filepath.Join(dir, "postfix.out"))
	if err != nil {
		return err
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postfix: %w", err)
	}
	p.cmd = cmd
	p.done = make(chan struct{})
	go func() { cmd.Wait(); close(p.done) }()
	if err := imaptest.WaitGreeting(p.Submission, "220 ", p.done, 20*time.Second); err != nil {
		return fmt.Errorf("postfix did not answer on %s: %w", p.Submission, err)
	}
	return nil
}

// Close stops Postfix, leaving none of its processes behind, then
// Dovecot, and removes their files.
func (p *Postfix) Close() error {
	var errs []error
	if p.cmd != nil {
		etc := filepath.Join(p.dir, "etc")
		if out, err := exec.Command(postfixBin, "-c", etc, "stop").CombinedOutput(); err != nil {
			errs = append(errs, fmt.Errorf("postfix stop: %v: %s", err, out))
		}
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			errs = append(errs, errors.New("postfix start-fg did not return 10 s after postfix stop"))
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			<-p.done
		}
		// The master has returned; its children end on their own signal,
		// a moment later on a loaded machine (one was seen still there).
		left := p.processes()
		for deadline := time.Now().Add(5 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = p.processes() {
			time.Sleep(50 * time.Millisecond)
		}
		if len(left) > 0 {
			errs = append(errs, fmt.Errorf("processes of Postfix left 5 s after stop: %v", left))
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	if p.dovecot != nil {
		if err := p.dovecot.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if p.dir != "" {
		if err := os.RemoveAll(p.dir); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// processes lists the processes of this Postfix: master hands its
// configuration directory to every daemon in MAIL_CONFIG.
func (p *Postfix) processes() []int {
	want := []byte("MAIL_CONFIG=" + filepath.Join(p.dir, "etc") + "\x00")
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && strings.Contains(string(env), string(want)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Log is Postfix's log (its maillog_file and what start-fg printed), for
// a failing test to show.
func (p *Postfix) Log() string {
	if p.dir == "" {
		return ""
	}
	var b strings.Builder
	for _, f := range []string{"postfix.out", "maillog"} {
		data, _ := os.ReadFile(filepath.Join(p.dir, f))
		b.Write(data)
	}
	return b.String()
}

// worldTraversableTemp returns $TMPDIR if every directory on its path lets
// others through, else /tmp.
func worldTraversableTemp() string {
	dir := os.TempDir()
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return "/tmp"
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}

// mainCF: base dir, LMTP socket, auth socket, domain, mailbox, sender,
// login. Nothing relays: mail to other domains is refused at RCPT
// (reject_unauth_destination), and no transport leaves the machine.
// Restrictions apply at the command they concern (smtpd_delay_reject =
// no), so a refused sender is refused at MAIL.
const mainCF = `compatibility_level = 3.6
queue_directory = %[1]s/spool
data_directory = %[1]s/data
maillog_file = %[1]s/maillog
maillog_file_prefixes = %[1]s
mail_owner = postfix
setgid_group = postdrop
myhostname = mta.%[4]s
mydomain = %[4]s
myorigin = $mydomain
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.1/32
biff = no
default_transport = error:this test server delivers only to %[4]s
relay_transport = error:this test server delivers only to %[4]s
virtual_mailbox_domains = %[4]s
virtual_mailbox_maps = inline:{%[5]s=%[5]s}
virtual_transport = lmtp:unix:%[2]s
smtpd_banner = $myhostname ESMTP mailnode test
smtpd_tls_cert_file = %[1]s/etc/cert.pem
smtpd_tls_key_file = %[1]s/etc/key.pem
smtpd_tls_security_level = encrypt
smtpd_tls_auth_only = yes
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = %[3]s
smtpd_sasl_security_options = noanonymous
smtpd_sender_login_maps = inline:{%[6]s=%[7]s}
smtpd_delay_reject = no
smtpd_client_restrictions =
smtpd_sender_restrictions = reject_sender_login_mismatch
smtpd_relay_restrictions = reject_unauth_destination
smtpd_recipient_restrictions = permit_sasl_authenticated, reject
smtpd_error_sleep_time = 0
`

// masterCF: the two submission addresses. No daemon runs chrooted (the
// queue would need copies of /etc files), none listens on port 25, and
// only the services a delivery to LMTP takes are there.
const masterCF = `%[1]s inet n - n - - smtpd
%[2]s inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
pickup    unix  n - n 60    1 pickup
cleanup   unix  n - n -     0 cleanup
qmgr      unix  n - n 300   1 qmgr
tlsmgr    unix  - - n 1000? 1 tlsmgr
rewrite   unix  - - n -     - trivial-rewrite
bounce    unix  - - n -     0 bounce
defer     unix  - - n -     0 bounce
trace     unix  - - n -     0 bounce
verify    unix  - - n -     1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n -     - proxymap
showq     unix  n - n -     - showq
error     unix  - - n -     - error
retry     unix  - - n -     - error
discard   unix  - - n -     - discard
lmtp      unix  - - n -     - lmtp
anvil     unix  - - n -     1 anvil
scache    unix  - - n -     1 scache
postlog   unix-dgram n - n - 1 postlogd
`
