// Package app is the node as one object. The CLI and the tray both drive a
// Node; neither touches mail/ or the store directly. New does no I/O; Run
// starts and owns every service until its context is cancelled.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"mailnode/approvals"
	"mailnode/assets"
	"mailnode/extract/facts"
	"mailnode/mail/credential"
	"mailnode/mail/demobox"
	"mailnode/mail/drafts"
	"mailnode/mail/imapsync"
	"mailnode/mail/store"
)

// Config is everything the node needs. cmd/mailnode fills it from the
// config file, the environment and flags.
type Config struct {
	// DataDir holds the database (node.db) and, later, keys and
	// certificates. Created with mode 0700 if missing.
	DataDir string
	// Accounts to sync. Passwords are already resolved.
	Accounts []imapsync.Config
	// Demo runs an embedded IMAP server seeded with the sample mailbox and
	// syncs from it instead of Accounts.
	Demo bool
	// Gateway is how agents reach the node; its zero value serves none.
	Gateway GatewayConfig
	// Facts is how the node trusts senders when it reads facts.
	Facts FactsConfig
	// Outgoing is how approved drafts are sent.
	Outgoing Outgoing
}

// Status is what a UI shows about the node.
type Status struct {
	State     string // "starting", "syncing", "idle", "error", "stopped"
	Messages  int
	LastSync  time.Time
	LastError string // a public message, never a secret
}

// Node is the running node.
type Node struct {
	cfg Config
	log *slog.Logger

	mu         sync.Mutex // guards the fields below
	store      *store.Store
	approvals  *approvals.Manager
	phones     *approvals.Phones
	drafts     *drafts.Store
	demoSMTP   *demobox.SMTPServer
	phoneBase  string // the phone app's URL once the gateway listens
	facts      *facts.Store
	gatewayURL string
	demo       *demobox.Server
	status     Status
	subs       map[chan Status]struct{}
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
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Node{cfg: cfg, log: logger, status: Status{State: "starting"}, subs: map[chan Status]struct{}{}}, nil
}

// HasData reports whether dir holds a node's data (its database), as
// opposed to being empty or missing.
func HasData(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, "node.db"))
	return err == nil && fi.Mode().IsRegular()
}

// DBPath is the database file inside the data directory.
func (n *Node) DBPath() string { return filepath.Join(n.cfg.DataDir, "node.db") }

// privateDir creates the data directory with mode 0700, or makes an
// existing one private: it holds the raw mailbox and the keys that seal
// prompts to the phone, and no other local user may list or read it.
func privateDir(dir string, log *slog.Logger) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create data directory: %w", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("data directory %s is open to other users (mode %04o) and cannot be made private: %w", dir, perm, err)
		}
		log.Warn("Data directory was open to other users; made private", "dir", dir, "was", fmt.Sprintf("%04o", perm))
	}
	return nil
}

// open opens the store and, in demo mode, starts the demo server, once.
func (n *Node) open(ctx context.Context) (*store.Store, []imapsync.Config, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.store == nil {
		if err := privateDir(n.cfg.DataDir, n.log); err != nil {
			return nil, nil, err
		}
		st, err := store.Open(ctx, n.DBPath(), n.log)
		if err != nil {
			return nil, nil, err
		}
		fs, err := n.openFacts(ctx, st)
		if err != nil {
			st.Close()
			return nil, nil, err
		}
		n.store, n.facts = st, fs
	}
	accounts := n.cfg.Accounts
	if !n.cfg.Demo && len(accounts) == 0 {
		return n.store, nil, nil
	}
	if n.cfg.Demo {
		if n.demo == nil {
			srv, err := demobox.Start(n.log)
			if err != nil {
				return nil, nil, err
			}
			count, err := srv.Seed(assets.DemoMailbox(), time.Now())
			if err != nil {
				srv.Close()
				return nil, nil, err
			}
			n.log.Info("Demo IMAP server started", "addr", srv.Addr, "messages", count)
			n.demo = srv
			// Drafts the user approves in the demo go to a submission
			// server in the node's process, never to the Internet.
			smtpSrv, err := demobox.StartSMTP(n.log)
			if err != nil {
				return nil, nil, err
			}
			n.demoSMTP = smtpSrv
		}
		accounts = []imapsync.Config{{
			Account: "demo", Address: n.demo.Addr, Security: imapsync.Plain,
			Username: demobox.Username, Password: credential.Secret(demobox.Password),
			PasswordSource: "the demo server's built-in account",
		}}
	}
	return n.store, accounts, nil
}

// Close releases the store and the demo server.
func (n *Node) Close() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	var errs []error
	if n.demo != nil {
		errs = append(errs, n.demo.Close())
		n.demo = nil
	}
	if n.demoSMTP != nil {
		errs = append(errs, n.demoSMTP.Close())
		n.demoSMTP = nil
	}
	n.drafts = nil
	if n.approvals != nil {
		errs = append(errs, n.approvals.Close())
		n.approvals = nil
	}
	n.facts = nil
	if n.store != nil {
		errs = append(errs, n.store.Close())
		n.store = nil
	}
	return errors.Join(errs...)
}

// ErrNoAccount is returned by Sync and Run when there is nothing to sync.
var ErrNoAccount = errors.New("no IMAP account configured (see mailnode help, or run mailnode demo)")

// Sync makes one pass over every account and returns the combined result.
func (n *Node) Sync(ctx context.Context) (imapsync.Result, error) {
	st, accounts, err := n.open(ctx)
	if err != nil {
		return imapsync.Result{}, err
	}
	if len(accounts) == 0 {
		return imapsync.Result{}, ErrNoAccount
	}
	n.setState("syncing", "")
	var total imapsync.Result
	start := time.Now()
	for _, acct := range accounts {
		s, err := imapsync.New(acct, st, n.log)
		if err != nil {
			return total, err
		}
		n.logAccount(acct)
		res, err := s.Sync(ctx)
		total.Add(res)
		if err != nil {
			n.setState("error", "sync of account "+acct.Account+" failed")
			return total, fmt.Errorf("account %q: %w", acct.Account, err)
		}
	}
	total.Duration = time.Since(start)
	n.afterPass(ctx)
	return total, nil
}

// Run syncs every account and keeps the store current, and serves agents
// if a gateway is configured, until ctx is done. It returns nil on
// cancellation, or the first service's error after stopping the others.
func (n *Node) Run(ctx context.Context) error {
	st, accounts, err := n.open(ctx)
	if err != nil {
		return err
	}
	if len(accounts) == 0 {
		return ErrNoAccount
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := n.serveLocalAPI(ctx); err != nil {
			n.log.Warn("Local API not available; mailnode approvals cannot reach this node", "err", err)
		}
	}()
	var gwErr error
	if n.cfg.Gateway.Listen != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if gwErr = n.serveGateway(ctx, nil); gwErr != nil {
				n.log.Error("Gateway stopped", "err", gwErr)
				cancel()
			}
		}()
	}
	n.setState("syncing", "")
	for _, acct := range accounts {
		s, err := imapsync.New(acct, st, n.log)
		if err != nil {
			return err
		}
		n.logAccount(acct)
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Run(ctx, func(res imapsync.Result, err error) {
				if err != nil {
					n.setState("error", "cannot reach the mail server for account "+acct.Account+"; retrying")
					return
				}
				n.afterPass(ctx)
			})
		}()
	}
	wg.Wait()
	n.setState("stopped", "")
	return gwErr
}

// Serve serves agents only (no sync) until ctx is done; ready, if not nil,
// receives the gateway's URL once it listens. It returns nil on
// cancellation.
func (n *Node) Serve(ctx context.Context, ready func(url string)) error {
	if n.cfg.Gateway.Listen == "" {
		return errNoGateway
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := n.serveLocalAPI(ctx); err != nil {
			n.log.Warn("Local API not available; mailnode approvals cannot reach this node", "err", err)
		}
	}()
	err := n.serveGateway(ctx, ready)
	if ctx.Err() != nil {
		return nil // stopped while starting: not a failure
	}
	return err
}

// logAccount says where an account's password comes from, so a user can
// tell whether the keyring, a file or the environment is in use.
func (n *Node) logAccount(a imapsync.Config) {
	n.log.Info("Syncing account", "account", a.Account, "server", a.Address, "security", a.Security.String(),
		"user", a.Username, "passwordSource", a.PasswordSource)
}

func (n *Node) afterPass(ctx context.Context) {
	if _, err := n.ReadFacts(ctx); err != nil && ctx.Err() == nil {
		n.log.Warn("Reading facts from mail failed", "err", err)
	}
	st, err := n.Stats(ctx)
	n.mu.Lock()
	if err == nil {
		n.status.Messages = st.Messages
	}
	n.status.State = "idle"
	n.status.LastSync = time.Now()
	n.status.LastError = ""
	n.notifyLocked()
	n.mu.Unlock()
}

func (n *Node) setState(state, publicErr string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.status.State = state
	n.status.LastError = publicErr
	n.notifyLocked()
}

func (n *Node) notifyLocked() {
	for ch := range n.subs {
		select {
		case ch <- n.status:
		default: // a slow subscriber misses intermediate states, never blocks the node
		}
	}
}

// Status returns the current status.
func (n *Node) Status() Status {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.status
}

// Subscribe returns a channel of status changes and a function that ends
// the subscription.
func (n *Node) Subscribe() (<-chan Status, func()) {
	ch := make(chan Status, 8)
	n.mu.Lock()
	n.subs[ch] = struct{}{}
	n.mu.Unlock()
	return ch, func() {
		n.mu.Lock()
		delete(n.subs, ch)
		n.mu.Unlock()
	}
}

// Stats counts what the store holds.
func (n *Node) Stats(ctx context.Context) (store.Stats, error) {
	st, _, err := n.open(ctx)
	if err != nil {
		return store.Stats{}, err
	}
	return st.Stats(ctx)
}

// Recent lists the newest messages.
func (n *Node) Recent(ctx context.Context, limit int) ([]store.Summary, error) {
	st, _, err := n.open(ctx)
	if err != nil {
		return nil, err
	}
	return st.Recent(ctx, limit)
}

// Search runs a full-text search over the local copy.
func (n *Node) Search(ctx context.Context, query string, limit int) ([]store.Summary, error) {
	st, _, err := n.open(ctx)
	if err != nil {
		return nil, err
	}
	return st.Search(ctx, query, limit)
}
