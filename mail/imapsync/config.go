package imapsync

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"time"

	"mailnode/mail/credential"
)

// Security is how the connection is protected.
type Security int

const (
	// TLS connects with implicit TLS (port 993).
	TLS Security = iota
	// StartTLS connects in clear and upgrades with STARTTLS before login.
	StartTLS
	// Plain never encrypts. It is refused unless the server is on a
	// loopback address or Config.AllowInsecure is set.
	Plain
)

// ParseSecurity reads "tls", "starttls" or "plain".
func ParseSecurity(s string) (Security, error) {
	switch s {
	case "tls", "":
		return TLS, nil
	case "starttls":
		return StartTLS, nil
	case "plain":
		return Plain, nil
	}
	return 0, fmt.Errorf("unknown IMAP security %q (want tls, starttls or plain)", s)
}

func (s Security) String() string {
	switch s {
	case TLS:
		return "tls"
	case StartTLS:
		return "starttls"
	case Plain:
		return "plain"
	}
	return fmt.Sprintf("Security(%d)", int(s))
}

// Config describes one account to sync. The zero value of every optional
// field means its default.
type Config struct {
	// Account is the store's name for this account, e.g. "personal".
	Account string
	// Address is the server's host:port.
	Address  string
	Security Security
	// AllowInsecure permits Plain to a server that is not on loopback.
	AllowInsecure bool
	Username      string
	Password      credential.Secret
	// PasswordSource says where Password came from ("file ...",
	// "environment variable ..."), for logs and the UI. Never the value.
	PasswordSource string
	// OAuth, when set, signs in with an OAuth 2.0 access token instead of
	// Password (Gmail, Microsoft 365): SASL OAUTHBEARER or XOAUTH2,
	// whichever the server advertises. Username is then the address the
	// provider signed in.
	OAuth AccessTokens
	// MinTokenLife is the shortest access token life that reconnects are
	// planned for, and the shortest session after which a planned
	// reconnect is immediate (shorter ones wait with the back-off), so a
	// provider's expires_in of 1 s is not a sign-in and full pass every
	// second. Default a minute; tests with tokens of seconds lower it.
	MinTokenLife time.Duration
	// TLSConfig overrides the TLS settings (e.g. a private CA). ServerName
	// defaults to the host of Address.
	TLSConfig *tls.Config

	// Folders, when set, lists the only folders to sync.
	Folders []string
	// Exclude lists folders never to sync, beside Trash and Junk.
	Exclude []string
	// IncludeTrashJunk syncs the \Trash and \Junk folders too.
	IncludeTrashJunk bool

	// BatchMessages and BatchBytes bound one committed batch.
	// Defaults: 96 messages, 3 MiB. Smaller batches keep the fetch, parse
	// and write stages overlapping, and a batch's full-text postings and
	// bound values then stay within the SQLite allocator's retained pages
	// (it keeps 4 MiB of each size committed) instead of being handed back
	// to the OS (madvise) and faulted in again each batch. 96 was fastest
	// on the benchmark once the store wrote through one connection (125:
	// 7 % slower at 10k, 64 no faster; 250: 16 % slower, 1000: three times
	// slower).
	BatchMessages int
	BatchBytes    int

	// PollInterval is how often INBOX is polled when the server has no
	// IDLE. Default 30s.
	PollInterval time.Duration
	// FullSyncInterval is how often Run passes over every folder, not just
	// INBOX. Default 5m.
	FullSyncInterval time.Duration
	// IdleRestart re-issues IDLE before servers drop it (RFC 2177 advises
	// under 29 minutes). Default 25m.
	IdleRestart time.Duration

	// CommandTimeout is how long the server may take to answer: the TLS
	// handshake, the greeting, login, and each command from the moment it
	// is sent to the first byte of the answer. Default 60s.
	CommandTimeout time.Duration

	// Dial opens the TCP connection. Default: a net.Dialer with a 30 s
	// timeout. Tests use it to cut connections at chosen points.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Trace, when set, receives the raw protocol exchange with the LOGIN
	// and AUTHENTICATE arguments redacted. For development only.
	Trace io.Writer
	// Progress, when set, hears how far each folder's pass has come: when
	// the folder is selected, after every committed batch, and when the
	// pass over it ends. It runs on the sync's goroutines and must not
	// block.
	Progress func(Progress)
}

// AccessTokens hands out an account's OAuth access token (mail/signin's
// Tokens). renew asks for a new one: the server refused the last.
type AccessTokens interface {
	AccessToken(ctx context.Context, renew bool) (credential.Secret, error)
}

// Progress is how far one folder's pass has come. Total is what the
// server holds that the store did not when the pass began, so Done/Total
// is the share of the new mail fetched; a pass with nothing new has Total 0.
type Progress struct {
	Account, Folder string
	Done, Total     int
	Bytes           int64 // raw bytes of the messages Done
	Started         time.Time
	Finished        bool
}

func (c *Config) defaults() {
	if c.MinTokenLife <= 0 {
		c.MinTokenLife = time.Minute
	}
	if c.BatchMessages <= 0 {
		c.BatchMessages = 96
	}
	if c.BatchBytes <= 0 {
		c.BatchBytes = 3 << 20
	}
	if c.PollInterval <= 0 {
		c.PollInterval = 30 * time.Second
	}
	if c.FullSyncInterval <= 0 {
		c.FullSyncInterval = 5 * time.Minute
	}
	if c.IdleRestart <= 0 {
		c.IdleRestart = 25 * time.Minute
	}
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = time.Minute
	}
	if c.Dial == nil {
		d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
		c.Dial = d.DialContext
	}
}

// Validate reports a configuration that cannot work or is unsafe.
func (c *Config) Validate() error {
	host, _, err := net.SplitHostPort(c.Address)
	if err != nil {
		return fmt.Errorf("IMAP address %q: want host:port", c.Address)
	}
	if c.Account == "" {
		return fmt.Errorf("account name is empty")
	}
	if c.Username == "" {
		return fmt.Errorf("IMAP username is empty")
	}
	if c.Security == Plain && !c.AllowInsecure && !isLoopback(host) {
		return fmt.Errorf("refusing plain IMAP to %s: the password would cross the network in clear (use tls or starttls, or allow insecure explicitly)", host)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
