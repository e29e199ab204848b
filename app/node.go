// Package app is the node as one object. The CLI and the tray both drive a
// Node; neither touches mail/ or the store directly. New does no I/O;
// Start opens the store, attaches every component once and starts the
// services (services.go); Wait returns why the node stopped; Stop stops it.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mailnode/mail/autoconfig"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/thejerf/suture/v4"

	"mailnode/app/config"
	"mailnode/approvals"
	"mailnode/approvals/site"
	"mailnode/extract/facts"
	"mailnode/gateway/nonces"
	"mailnode/gateway/oauth"
	"mailnode/internal/privdir"
	"mailnode/mail/drafts"
	"mailnode/mail/imapsync"
	"mailnode/mail/store"
	"mailnode/relay/relayclient"
)

// Config is everything the node needs. cmd/mailnode fills it from the
// config file, the environment and flags.
type Config struct {
	// DataDir holds the database (node.db) and, later, keys and
	// certificates. Created with mode 0700 if missing.
	DataDir string
	// Accounts to sync. Passwords are already resolved.
	Accounts []imapsync.Config
	// Gateway is how agents reach the node; its zero value serves none.
	Gateway GatewayConfig
	// Facts is how the node trusts senders when it reads facts.
	Facts FactsConfig
	// Outgoing is how approved drafts are sent.
	Outgoing Outgoing
	// Relay is how agents outside the node's network reach it.
	Relay RelayConfig
	// Services are what Start runs.
	Services Services
	// Settings, if set, is the settings file that the node's own changes
	// (AddAccount, RemoveAccount, SetGateway, SetRelay) are saved to.
	Settings *config.Store
	// Getenv looks up the passwords of accounts added while the node
	// runs; default os.Getenv.
	Getenv func(string) string
	// Autoconfig is how DiscoverAccount reaches the network; the zero
	// value uses the system's resolver and HTTPS.
	Autoconfig autoconfig.Config
	// SignIn is how accounts sign in with OAuth 2.0 (Gmail, Microsoft):
	// the client ids, and the providers beside the known ones.
	SignIn SignInConfig
}

// Services are the long-running parts Start runs. The zero value runs
// none: the node is then a handle on its store for one-shot commands
// (search, drafts, one sync pass).
type Services struct {
	// Sync keeps every account current: a first pass, then IDLE.
	Sync bool
	// Gateway serves agents and phones on Config.Gateway.Listen.
	Gateway bool
	// LocalAPI answers the command line on the data directory's socket.
	LocalAPI bool
	// Relay registers with Config.Relay.URL and keeps the tunnel up; the
	// gateway then also serves agents arriving through it.
	Relay bool
}

// Node is the node: its components, opened once by Start, and the
// services that run on them until Stop (services.go).
type Node struct {
	cfg Config
	log *slog.Logger

	// lanMu serializes turning the LAN listener on and off.
	lanMu sync.Mutex

	mu      sync.Mutex // guards the fields below
	started bool
	stopped bool
	c       *components // nil before Start and after Stop
	cancel  context.CancelFunc
	done    chan struct{} // closed when the node has stopped
	err     error         // why it stopped, once done is closed
	// startErr is why Start failed, once it has.
	startErr error
	status   Status
	subs     map[chan Status]struct{}
	// relayLn is the tunnel's streams, served by the gateway; set by
	// New and never changed.
	relayLn *relayclient.Listener
	// released is when releaseAfterPass last released memory.
	released time.Time
	// extra are services tests add to see the supervisor's policy at work.
	extra []service
	// root supervises every service; tokens name the ones that may be
	// removed while the node runs (an account's sync).
	root   *suture.Supervisor
	tokens map[string]suture.ServiceToken
	// paused is set while the user has paused syncing (PauseSync).
	paused bool
	// autoconfig finds account settings for the desktop app's wizard,
	// made on first use.
	autoconfig *autoconfig.Finder
	// kick tells the facts service that a sync pass ended.
	kick chan struct{}
	// factsProgress, if set (by tests), sees each report of a facts pass
	// after the status does, on the pass's goroutine.
	factsProgress func(facts.Progress)
	// sites is the node's one notion of a site, given to the approvals
	// and the gateway alike; the relay's agents zone is added to it
	// once known (relay.go).
	sites *site.Sites

	// gws is the running gateway's state, under a mutex of its own
	// (gatewaystate.go).
	gws gatewayState
}

// components are what Start opens; every service and method uses these
// same instances.
type components struct {
	store     *store.Store
	facts     *facts.Store
	approvals *approvals.Manager
	phones    *approvals.Phones
	// approvalTables is the approvals' part of the store, for backups.
	approvalTables approvals.File
	// oauthTables are the OAuth front door's (package gateway/oauth).
	oauthTables oauth.File
	drafts      *drafts.Store
	nonces      *nonces.Store
	mu          sync.Mutex // guards accounts
	accounts    []imapsync.Config
}

// New returns a Node for cfg. It does no I/O.
func New(cfg Config, logger *slog.Logger) (*Node, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("no data directory configured")
	}
	for i := range cfg.Accounts {
		if err := cfg.Accounts[i].Validate(); err != nil {
			return nil, fmt.Errorf("account %q: %w", cfg.Accounts[i].Account, err)
		}
	}
	if cfg.Services.Gateway && cfg.Gateway.Listen == "" {
		return nil, errNoGateway
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	sites, err := site.New(cfg.Gateway.HostingSuffixes...)
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	n := &Node{cfg: cfg, log: logger, done: make(chan struct{}), tokens: map[string]suture.ServiceToken{}, kick: make(chan struct{}, 1),
		status: Status{State: StateStarting, Gateway: GatewayStatus{Reachable: "local"}},
		subs:   map[chan Status]struct{}{}, relayLn: relayclient.NewListener(), sites: sites}
	n.addRelayZone(cfg.Relay.URL)
	return n, nil
}

// HasData reports whether dir holds a node's data (its database), as
// opposed to being empty or missing.
func HasData(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, "node.db"))
	return err == nil && fi.Mode().IsRegular()
}

// DBPath is the database file inside the data directory.
// DataDir is the directory that holds the node's files.
func (n *Node) DataDir() string { return n.cfg.DataDir }

func (n *Node) DBPath() string { return filepath.Join(n.cfg.DataDir, "node.db") }

// privateDir creates the data directory with mode 0700, or makes an
// existing one private: it holds the raw mailbox and the keys that seal
// prompts to the phone, and no other local user may list or read it.
func privateDir(dir string, log *slog.Logger) error {
	changed, err := privdir.Ensure(dir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	if changed {
		log.Warn("Data directory was open to other users; made private", "dir", dir)
	}
	return nil
}

// open opens the store and attaches every component to it, once. On an
// error it closes what it opened: c is not the named result, which each
// "return nil, err" sets to nil before the deferred close reads it.
func (n *Node) open(ctx context.Context) (_ *components, err error) {
	if err := privateDir(n.cfg.DataDir, n.log); err != nil {
		return nil, err
	}
	c := &components{accounts: n.cfg.Accounts}
	defer func() {
		if err != nil {
			c.close()
		}
	}()
	if c.store, err = store.Open(ctx, n.DBPath(), n.log); err != nil {
		return nil, err
	}
	if c.facts, err = n.openFacts(ctx, c.store); err != nil {
		return nil, err
	}
	tables, err := c.store.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		return nil, err
	}
	c.approvalTables = tables
	ac := n.cfg.Gateway.Approvals
	ac.Sites = n.sites
	if c.approvals, err = approvals.New(ctx, tables, ac, n.log); err != nil {
		return nil, err
	}
	if c.phones, err = approvals.NewPhones(ctx, tables, n.log, nil); err != nil {
		return nil, err
	}
	if c.drafts, err = openDrafts(ctx, c.store, n.log); err != nil {
		return nil, err
	}
	if c.oauthTables, err = c.store.Attach(ctx, "oauth", oauth.Migrations); err != nil {
		return nil, err
	}
	nt, err := c.store.Attach(ctx, "nonces", nonces.Migrations)
	if err != nil {
		return nil, err
	}
	if c.nonces, err = nonces.New(ctx, nt, n.log, nil); err != nil {
		return nil, err
	}
	if err := c.store.KnownSince(ctx, n.cfg.Facts.KnownSenders); err != nil {
		return nil, err
	}
	return c, nil
}

// close releases what open opened, last opened first.
func (c *components) close() error {
	var errs []error
	if c.nonces != nil {
		c.nonces.Close()
	}
	if c.approvals != nil {
		errs = append(errs, c.approvals.Close())
	}
	if c.store != nil {
		errs = append(errs, c.store.Close())
	}
	return errors.Join(errs...)
}

// ErrNotStarted is returned by a Node's methods before Start and after
// Stop.
var ErrNotStarted = errors.New("the node is not running")

// comp returns the open components, or ErrNotStarted.
func (n *Node) comp() (*components, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.c == nil {
		return nil, ErrNotStarted
	}
	return n.c, nil
}

// ErrNoAccount is returned by Sync and Run when there is nothing to sync.
var ErrNoAccount = errors.New("no IMAP account configured (see mailnode help, or run mailnode demo)")

// Sync makes one pass over every account, brings the facts up to date
// and returns the combined result. It is for a node started without the
// Sync service, which would otherwise sync the same accounts at once.
func (n *Node) Sync(ctx context.Context) (SyncResult, error) {
	c, err := n.comp()
	if err != nil {
		return SyncResult{}, err
	}
	if n.cfg.Services.Sync {
		return SyncResult{}, errors.New("the node keeps its accounts current itself (the Sync service runs)")
	}
	if len(c.accountsCopy()) == 0 {
		return SyncResult{}, ErrNoAccount
	}
	n.update(func(s *Status) { s.State = StateSyncing })
	var total imapsync.Result
	start := time.Now()
	for _, acct := range c.accountsCopy() {
		s, err := imapsync.New(n.withProgress(acct), c.store, n.log)
		if err != nil {
			return syncResult(total), err
		}
		n.logAccount(acct)
		res, err := s.Sync(ctx)
		total.Add(res)
		if err != nil {
			n.update(func(s *Status) {
				s.State, s.LastError = StateOffline, "sync of account "+acct.Account+" failed"
			})
			return syncResult(total), fmt.Errorf("account %q: %w", acct.Account, err)
		}
	}
	total.Duration = time.Since(start)
	n.afterPass(ctx, c)
	return syncResult(total), nil
}

// logAccount says where an account's password comes from, so a user can
// tell whether the keyring, a file or the environment is in use.
func (n *Node) logAccount(a imapsync.Config) {
	n.log.Info("Syncing account", "account", a.Account, "server", a.Address, "security", a.Security.String(),
		"user", a.Username, "passwordSource", a.PasswordSource)
}

// withProgress returns acct with its folders' progress feeding the status.
func (n *Node) withProgress(acct imapsync.Config) imapsync.Config {
	acct.Progress = func(p imapsync.Progress) {
		n.update(func(s *Status) {
			s.folderProgress(FolderStatus(p))
			if !p.Finished && p.Total > 0 {
				s.State = StateSyncing
			}
		})
	}
	return acct
}

// afterPass brings the facts up to date after a sync pass and counts what
// the store holds.
func (n *Node) afterPass(ctx context.Context, c *components) {
	if _, err := c.facts.Pass(ctx); err != nil && ctx.Err() == nil {
		n.log.Warn("Reading facts from mail failed", "err", err)
	}
	n.refreshCounts(ctx, c)
	n.update(func(s *Status) {
		s.State, s.LastSync, s.LastError = StateIdle, time.Now(), ""
	})
}

// refreshCounts counts messages and facts for the status.
func (n *Node) refreshCounts(ctx context.Context, c *components) {
	st, err := c.store.Stats(ctx)
	fc, ferr := c.facts.Counts(ctx)
	n.update(func(s *Status) {
		if err == nil {
			s.Messages = st.Messages
		}
		if ferr == nil {
			s.Facts.Trips, s.Facts.Orders, s.Facts.Bills = fc.Trips, fc.Orders, fc.Bills
		}
	})
}

// Stats counts what the store holds.
func (n *Node) Stats(ctx context.Context) (Stats, error) {
	c, err := n.comp()
	if err != nil {
		return Stats{}, err
	}
	st, err := c.store.Stats(ctx)
	return stats(st), err
}

// Recent lists the newest messages.
func (n *Node) Recent(ctx context.Context, limit int) ([]Summary, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	ss, err := c.store.Recent(ctx, limit)
	return summaries(ss), err
}

// Search runs a full-text search over the local copy.
func (n *Node) Search(ctx context.Context, query string, limit int) ([]Summary, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	ss, err := c.store.Search(ctx, query, limit)
	return summaries(ss), err
}
