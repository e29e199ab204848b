package imaptest

import (
	"bufio"
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
	"mailnode/mail/demobox"
)

// EnvRequireDovecot, when "1", turns a missing Dovecot into a test failure
// instead of a skip. CI sets it.
const EnvRequireDovecot = "MAILNODE_TEST_DOVECOT"

// unprivilegedUser runs Dovecot when the tests run as root: Dovecot refuses
// to run its mail processes as root.
const unprivilegedUser = "mailnodetest"

// NewDovecot starts a Dovecot IMAP server on a loopback port with one user
// and a fresh Maildir, run as an unprivileged user. It has CONDSTORE,
// QRESYNC, IDLE and SPECIAL-USE (Sent, Drafts, Trash, Junk exist). It stops
// and its files are removed when the test ends.
func NewDovecot(t testing.TB) *Server {
	t.Helper()
	d, err := StartDovecot()
	if err != nil {
		if os.Getenv(EnvRequireDovecot) == "1" {
			t.Fatalf("start Dovecot (required by %s=1): %v", EnvRequireDovecot, err)
		}
		t.Skipf("Dovecot not available: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d.Server
}

// Dovecot is a running Dovecot; Close stops it and removes its files.
type Dovecot struct {
	*Server
	// MailDir is the user's Maildir root.
	MailDir string
	// LMTPSocket and AuthSocket are the unix sockets of Dovecot's LMTP
	// server and of its authentication for a mail server (Postfix's
	// smtpd_sasl_type = dovecot), when started with DovecotOptions.LMTP.
	LMTPSocket, AuthSocket string
	dir                    string
	cmd                    *exec.Cmd
}

// DovecotOptions adds to the IMAP server; the zero value adds nothing.
type DovecotOptions struct {
	// LMTP also runs Dovecot's LMTP server, so that a mail server on the
	// machine delivers into the user's Maildir, and offers Dovecot's
	// authentication to that mail server's SASL. Both listen on unix
	// sockets any local user may connect to (Postfix's processes run as
	// its own user). LMTP recipients are addresses (user@domain) of which
	// only the user part is looked up. Needs Debian's dovecot-lmtpd.
	LMTP bool
	// OAuth2 also signs in with OAuth 2.0 access tokens (SASL
	// OAUTHBEARER and XOAUTH2), which Dovecot's own oauth2 passdb checks
	// against an authorization server's introspection endpoint (RFC 7662).
	OAuth2 *OAuth2
}

// OAuth2 is how Dovecot checks a token, in the words of its oauth2
// passdb (doc.dovecot.org, "OAuth2 authentication", 2.3).
type OAuth2 struct {
	// User is the mailbox's user name, and the name a token's
	// UsernameAttribute must carry (the address the node signs in as).
	User string
	// IntrospectionURL is the endpoint with the server's client
	// credentials in it (https://id:secret@host/...); Dovecot POSTs the
	// token there (introspection_mode = post).
	IntrospectionURL string
	// UsernameAttribute is the introspection answer's field holding the
	// user name ("sub"); it must be one the server actually returns.
	UsernameAttribute string
	// CAFile is the PEM Dovecot trusts for the introspection endpoint.
	CAFile string
	// Mechanisms are the token mechanisms offered, Dovecot's names
	// ("xoauth2 oauthbearer", the default, or one of them).
	Mechanisms string
}

// StartDovecot starts Dovecot outside a test (the benchmark uses it).
func StartDovecot() (*Dovecot, error) { return StartDovecotWith(DovecotOptions{}) }

// StartDovecotWith starts Dovecot with more than IMAP, outside a test.
func StartDovecotWith(o DovecotOptions) (*Dovecot, error) {
	bin, err := exec.LookPath("dovecot")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/dovecot"); serr != nil {
			return nil, fmt.Errorf("dovecot binary not found (Debian package dovecot-imapd)")
		}
		bin = "/usr/sbin/dovecot"
	}
	if o.LMTP {
		if _, err := os.Stat("/usr/lib/dovecot/lmtp"); err != nil {
			return nil, fmt.Errorf("dovecot lmtp binary not found (Debian package dovecot-lmtpd)")
		}
	}
	runAs, cred, err := runIdentity()
	if err != nil {
		return nil, err
	}
	// Not t.TempDir: its parents are private to root, and Dovecot's
	// processes must reach the files as the unprivileged user.
	dir, err := os.MkdirTemp(worldTraversableTemp(), "mailnode-dovecot-")
	if err != nil {
		return nil, err
	}
	port, err := loopback.FreePort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	username := demobox.Username
	if o.OAuth2 != nil {
		username = o.OAuth2.User
	}
	d := &Dovecot{dir: dir, MailDir: filepath.Join(dir, "mail", username)}
	d.Server = &Server{Kind: "dovecot", Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		Username: username, Password: demobox.Password}
	for _, sub := range []string{"run", "state", "mail"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
	}
	conf := fmt.Sprintf(dovecotConf, dir, runAs.Username, runAs.group, port)
	if o.LMTP {
		// The mail server's processes reach the sockets through dir.
		if err := os.Chmod(dir, 0o755); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		d.LMTPSocket = filepath.Join(dir, "run", "lmtp-mta")
		d.AuthSocket = filepath.Join(dir, "run", "auth-mta")
		conf = strings.Replace(conf, "protocols = imap\n", "protocols = imap lmtp\n", 1) + dovecotLMTPConf
	}
	if a := o.OAuth2; a != nil {
		// The password stays for the test's own client (Server.Dial);
		// the tokens go to the oauth2 passdb.
		mechs := a.Mechanisms
		if mechs == "" {
			mechs = "xoauth2 oauthbearer"
		}
		conf = strings.Replace(conf, "auth_mechanisms = plain login\n", "auth_mechanisms = plain login "+mechs+"\nauth_failure_delay = 0\nauth_debug = yes\n", 1)
		conf = strings.Replace(conf, "passdb {\n  driver = passwd-file\n", "passdb {\n  driver = passwd-file\n  mechanisms = plain login\n", 1)
		conf += fmt.Sprintf(dovecotOAuth2Conf, dir, mechs)
		oconf := fmt.Sprintf(oauth2Conf, a.IntrospectionURL, a.UsernameAttribute, a.CAFile)
		// 0600: it holds the introspection client's secret.
		if err := os.WriteFile(filepath.Join(dir, "oauth2.conf"), []byte(oconf), 0o600); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "dovecot.conf"), []byte(conf), 0o644); err != nil {
		return nil, err
	}
	passwd := fmt.Sprintf("%s:{PLAIN}%s\n", username, demobox.Password)
	if err := os.WriteFile(filepath.Join(dir, "passwd"), []byte(passwd), 0o644); err != nil {
		return nil, err
	}
	if cred != nil {
		if err := chownR(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, err
		}
	}
	cmd := exec.Command(bin, "-F", "-c", filepath.Join(dir, "dovecot.conf"))
	out, _ := os.Create(filepath.Join(dir, "stdout.log"))
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start dovecot: %w", err)
	}
	d.cmd = cmd
	if err := WaitGreeting(d.Addr, "* OK", nil, 15*time.Second); err != nil {
		log := d.log()
		d.Close()
		return nil, fmt.Errorf("dovecot did not answer on %s: %v\n%s", d.Addr, err, log)
	}
	return d, nil
}

// Close stops Dovecot and removes its files.
func (d *Dovecot) Close() error {
	if d.cmd != nil && d.cmd.Process != nil {
		syscall.Kill(-d.cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { d.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	return os.RemoveAll(d.dir)
}

// Log is what Dovecot wrote, for a failing test to show.
func (d *Dovecot) Log() string { return d.log() }

func (d *Dovecot) log() string {
	var b strings.Builder
	for _, f := range []string{"stdout.log", "dovecot.log"} {
		data, _ := os.ReadFile(filepath.Join(d.dir, f))
		b.Write(data)
	}
	return b.String()
}

type identity struct {
	*user.User
	group string
}

// runIdentity picks who Dovecot runs as: the current user, or when that is
// root, an unprivileged system user created for the purpose.
func runIdentity() (identity, *syscall.Credential, error) {
	if os.Geteuid() != 0 {
		u, err := user.Current()
		if err != nil {
			return identity{}, nil, err
		}
		g, err := user.LookupGroupId(u.Gid)
		if err != nil {
			return identity{}, nil, err
		}
		return identity{u, g.Name}, nil, nil
	}
	u, err := user.Lookup(unprivilegedUser)
	if err != nil {
		out, aerr := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", unprivilegedUser).CombinedOutput()
		if aerr != nil {
			return identity{}, nil, fmt.Errorf("create user %s for Dovecot: %v: %s", unprivilegedUser, aerr, out)
		}
		if u, err = user.Lookup(unprivilegedUser); err != nil {
			return identity{}, nil, err
		}
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		return identity{}, nil, err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return identity{u, g.Name}, &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
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

func chownR(dir string, uid, gid int) error {
	return filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

// WaitGreeting waits until a server on addr greets with a line starting
// with prefix ("* OK" for IMAP, "220 " for SMTP), or exited is closed
// (nil: never), or timeout passes. Mail server harnesses start their
// daemon and wait here.
func WaitGreeting(addr, prefix string, exited <-chan struct{}, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var lastErr error
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("it exited")
		default:
		}
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.SetDeadline(time.Now().Add(5 * time.Second))
			line, rerr := bufio.NewReader(conn).ReadString('\n')
			conn.Close()
			if rerr == nil && strings.HasPrefix(line, prefix) {
				return nil
			}
			lastErr = fmt.Errorf("greeting %q: %v", line, rerr)
		} else {
			lastErr = err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return lastErr
}

// dovecotLMTPConf is added to dovecotConf for DovecotOptions.LMTP. LMTP
// looks the recipient's local part up (%Ln), so user@any.domain reaches
// user. No failure delay: a test's wrong password is answered at once.
const dovecotLMTPConf = `auth_failure_delay = 0
service lmtp {
  unix_listener lmtp-mta {
    mode = 0666
  }
}
service auth {
  unix_listener auth-mta {
    mode = 0666
  }
}
protocol lmtp {
  auth_username_format = %Ln
}
`

// dovecotOAuth2Conf is added for DovecotOptions.OAuth2: a passdb for the
// token mechanisms only. Base dir.
const dovecotOAuth2Conf = `passdb {
  driver = oauth2
  mechanisms = %[2]s
  args = %[1]s/oauth2.conf
}
`

// oauth2Conf is the oauth2 passdb's settings: introspection URL, username
// attribute, CA file. The token is POSTed to the endpoint with the
// client's credentials from the URL; a token counts only when the answer
// says "active": true, and names the user in the username attribute.
const oauth2Conf = `debug = yes
introspection_mode = post
introspection_url = %s
username_attribute = %s
active_attribute = active
active_value = true
tls_ca_cert_file = %s
`

// dovecotConf: base dir, user, group, port. Everything lives under the base
// dir; no chroot (it needs root), no TLS (loopback only).
const dovecotConf = `base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = %[2]s
default_internal_group = %[3]s
default_login_user = %[2]s
mail_location = maildir:%[1]s/mail/%%u
mail_fsync = never
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%%u %[1]s/passwd
}
userdb {
  driver = static
  args = uid=%[2]s gid=%[3]s home=%[1]s/mail/%%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = %[4]d
  }
  inet_listener imaps {
    port = 0
  }
}
service imap {
  process_limit = 64
}
service anvil {
  chroot =
}
service stats {
  chroot =
}
protocol imap {
  mail_max_userip_connections = 64
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \Sent
    auto = create
  }
  mailbox Drafts {
    special_use = \Drafts
    auto = create
  }
  mailbox Trash {
    special_use = \Trash
    auto = create
  }
  mailbox Junk {
    special_use = \Junk
    auto = create
  }
}
`

// Kick ends every IMAP session of user with doveadm kick, as an
// administrator (or a provider whose token lapsed) ends one: Dovecot
// itself never ends a logged-in session when the token it took lapses.
// It returns how many sessions ended.
func (d *Dovecot) Kick(user string) (int, error) {
	bin, err := exec.LookPath("doveadm")
	if err != nil {
		return 0, fmt.Errorf("doveadm not found (Debian package dovecot-core): %w", err)
	}
	out, err := exec.Command(bin, "-c", filepath.Join(d.dir, "dovecot.conf"), "kick", user).CombinedOutput()
	// doveadm kick exits 68 (EX_NOUSER) when the user had no session.
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 68 {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("doveadm kick %s: %w: %s", user, err, out)
	}
	// "user\n" for one session, "user (N)\n" for N.
	s := strings.TrimSpace(string(out))
	if s == "" {
		return 0, nil
	}
	if i := strings.LastIndex(s, "("); i >= 0 {
		if n, err := strconv.Atoi(strings.TrimSuffix(s[i+1:], ")")); err == nil {
			return n, nil
		}
	}
	return 1, nil
}
