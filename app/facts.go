package app

import (
	"mailnode/mail/msgauth"

	"context"
	"encoding/json"
	"net"
	"sync"
	"time"

	"mailnode/extract/facts"
	"mailnode/mail/store"
)

// FactsConfig is how the node trusts senders when it reads facts.
type FactsConfig struct {
	// AuthServIDs are the authserv-ids of the user's mail provider, whose
	// Authentication-Results fields are believed (e.g. "mx.google.com").
	AuthServIDs []string
	// VerifyDKIM lets the node check DKIM signatures itself over DNS, for
	// mail its provider did not vouch for.
	VerifyDKIM bool
	// KnownSenders are domains (registrable, any case) the user has had
	// mail from since the time given, for a mailbox whose history the
	// store does not hold: a sender known for years is no stranger
	// although the store has only a few weeks of its mail (the sample
	// mailbox's three weeks, assets.DemoSenderHistory). Start records
	// them; an earlier date the mail shows is kept.
	KnownSenders map[string]time.Time
}

// factsStore returns the node's extracted facts.
func (n *Node) factsStore() (*facts.Store, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	return c.facts, nil
}

// openFacts attaches the facts tables to st and makes the facts the
// store's message hook, so that a sync extracts each new message while it
// parses it and stores its facts in the same transaction (docs/sync.md).
func (n *Node) openFacts(ctx context.Context, st *store.Store) (*facts.Store, error) {
	tables, err := st.Attach(ctx, "facts", facts.Migrations)
	if err != nil {
		return nil, err
	}
	opt := msgauth.Checker{AuthServIDs: n.cfg.Facts.AuthServIDs}
	if n.cfg.Facts.VerifyDKIM {
		opt.LookupTXT = newTXTCache().lookup
	}
	fs := facts.New(tables, st, opt, n.log)
	fs.SetProgress(n.factsPassed)
	st.SetMessageHook(fs)
	return fs, nil
}

// factsPassed shows a facts pass's progress in the status: after an
// extractor upgrade the tray and the command line say "Re-reading N of M
// messages" while agents are served from the facts read before.
func (n *Node) factsPassed(p facts.Progress) {
	n.update(func(s *Status) {
		s.Facts.Done, s.Facts.Total = p.Done, p.Total
		if p.Finished {
			s.Facts.Done, s.Facts.Total = 0, 0
		}
	})
	if n.factsProgress != nil {
		n.factsProgress(p)
	}
}

// ReadFacts brings the extracted facts up to date with the store: new mail,
// or all mail after the extractors changed.
func (n *Node) ReadFacts(ctx context.Context) (facts.PassStats, error) {
	fs, err := n.factsStore()
	if err != nil {
		return facts.PassStats{}, err
	}
	return fs.Pass(ctx)
}

// Trips, Orders and BillsDue return the merged facts as agents see them.
func (n *Node) Trips(ctx context.Context, from, to time.Time, limit int) ([]json.RawMessage, error) {
	fs, err := n.factsStore()
	if err != nil {
		return nil, err
	}
	return fs.Trips(ctx, time.Now(), from, to, limit)
}

func (n *Node) Orders(ctx context.Context, merchant string, limit int) ([]json.RawMessage, error) {
	fs, err := n.factsStore()
	if err != nil {
		return nil, err
	}
	return fs.Orders(ctx, time.Now(), merchant, limit)
}

func (n *Node) BillsDue(ctx context.Context, before time.Time, limit int) ([]json.RawMessage, error) {
	fs, err := n.factsStore()
	if err != nil {
		return nil, err
	}
	return fs.BillsDue(ctx, time.Now(), before, limit)
}

// txtCache answers DKIM key lookups over DNS with a timeout, and keeps
// answers for an hour: a mailbox has thousands of messages from a few
// dozen selectors.
type txtCache struct {
	mu      sync.Mutex
	entries map[string]txtEntry
}

type txtEntry struct {
	txt     []string
	err     error
	expires time.Time
}

func newTXTCache() *txtCache { return &txtCache{entries: map[string]txtEntry{}} }

func (c *txtCache) lookup(name string) ([]string, error) {
	c.mu.Lock()
	e, ok := c.entries[name]
	c.mu.Unlock()
	if ok && time.Now().Before(e.expires) {
		return e.txt, e.err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	txt, err := net.DefaultResolver.LookupTXT(ctx, name)
	c.mu.Lock()
	if len(c.entries) > 10000 {
		clear(c.entries)
	}
	c.entries[name] = txtEntry{txt, err, time.Now().Add(time.Hour)}
	c.mu.Unlock()
	return txt, err
}
