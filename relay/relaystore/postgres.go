package relaystore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgMigrations are the PostgreSQL schema versions, in order; the table
// schema_version holds how many have run. The tables are SQLite's, so that
// one contract (store_test.go) holds both.
var pgMigrations = []string{
	`CREATE TABLE secrets (name TEXT PRIMARY KEY, value BYTEA NOT NULL);
	CREATE TABLE nodes (
		address TEXT PRIMARY KEY,
		label TEXT NOT NULL UNIQUE,
		node_key BYTEA NOT NULL UNIQUE,
		box_key BYTEA NOT NULL,
		registered_at BIGINT NOT NULL
	);
	CREATE TABLE pending (
		address TEXT NOT NULL,
		node_key BYTEA NOT NULL,
		box_key BYTEA NOT NULL,
		code_hash BYTEA NOT NULL,
		expires BIGINT NOT NULL,
		attempts INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (address, node_key)
	);
	CREATE TABLE challenges (label TEXT PRIMARY KEY, vals TEXT NOT NULL);
	CREATE TABLE agents (
		label TEXT PRIMARY KEY,
		kid TEXT NOT NULL,
		key BYTEA NOT NULL UNIQUE,
		created BIGINT NOT NULL
	);
	CREATE INDEX agents_created ON agents(created);
	CREATE TABLE queue (
		id TEXT PRIMARY KEY,
		label TEXT NOT NULL,
		sealed BYTEA,
		created BIGINT NOT NULL,
		expires BIGINT NOT NULL,
		reply BYTEA
	);
	CREATE INDEX queue_waiting ON queue(label, created) WHERE sealed IS NOT NULL;
	CREATE INDEX queue_expires ON queue(expires);`,
	`CREATE TABLE instances (
		id TEXT PRIMARY KEY,
		mesh_addr TEXT NOT NULL,
		cert_fp BYTEA NOT NULL,
		expires BIGINT NOT NULL
	);
	CREATE TABLE tunnels (label TEXT PRIMARY KEY, instance TEXT NOT NULL);
	CREATE INDEX tunnels_instance ON tunnels(instance);`,
	// SQLite's fourth migration: every envelope holds its place until it
	// expires, counted per name and per client network; sealed last.
	`CREATE TABLE queue_v2 (
		id TEXT PRIMARY KEY,
		label TEXT NOT NULL,
		net BYTEA NOT NULL,
		created BIGINT NOT NULL,
		expires BIGINT NOT NULL,
		reply BYTEA,
		sealed BYTEA
	);
	INSERT INTO queue_v2(id, label, net, created, expires, reply, sealed)
		SELECT id, label, '\x'::bytea, created, expires, reply, sealed FROM queue;
	DROP TABLE queue;
	ALTER TABLE queue_v2 RENAME TO queue;
	ALTER INDEX queue_v2_pkey RENAME TO queue_pkey;
	CREATE INDEX queue_waiting ON queue(label, created) WHERE sealed IS NOT NULL;
	CREATE INDEX queue_held ON queue(label, expires, net);
	CREATE INDEX queue_expires ON queue(expires);`,
	// SQLite's fifth migration: one live code per address.
	`DROP TABLE pending;
	CREATE TABLE pending (
		address TEXT NOT NULL,
		node_key BYTEA NOT NULL,
		box_key BYTEA NOT NULL,
		code_id TEXT NOT NULL,
		expires BIGINT NOT NULL,
		attempts INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (address, node_key)
	);
	CREATE TABLE codes (
		address TEXT PRIMARY KEY,
		id TEXT NOT NULL,
		code_hash BYTEA NOT NULL,
		issued BIGINT NOT NULL,
		expires BIGINT NOT NULL
	);
	CREATE TABLE code_mails (
		address TEXT NOT NULL,
		id TEXT NOT NULL,
		at BIGINT NOT NULL,
		PRIMARY KEY (address, id)
	);
	CREATE INDEX code_mails_at ON code_mails(at);`,
	// SQLite's sixth migration: code mails counted per mailbox and per
	// client network, hosted agents per client network.
	`ALTER TABLE code_mails ADD COLUMN mailbox TEXT NOT NULL DEFAULT '';
	ALTER TABLE code_mails ADD COLUMN net BYTEA NOT NULL DEFAULT '\x'::bytea;
	UPDATE code_mails SET mailbox = address;
	CREATE INDEX code_mails_mailbox ON code_mails(mailbox, at);
	CREATE INDEX code_mails_net ON code_mails(net, at);
	ALTER TABLE agents ADD COLUMN net BYTEA NOT NULL DEFAULT '\x'::bytea;
	CREATE INDEX agents_net ON agents(net, created);`,
	// SQLite's seventh: leases, for the one instance renewing the
	// relay's certificate.
	`CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires BIGINT NOT NULL);`,
	// PostgreSQL's own: every change to nodes, whoever makes it, names
	// the addresses it touched on the channel nodesChannel after it
	// commits, so that every instance's directory follows (issue 47).
	`CREATE FUNCTION mailnode_nodes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('mailnode_nodes', OLD.address); END IF;
		IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('mailnode_nodes', NEW.address); END IF;
		RETURN NULL;
	END $$;
	CREATE TRIGGER nodes_notify AFTER INSERT OR UPDATE OR DELETE ON nodes
		FOR EACH ROW EXECUTE FUNCTION mailnode_nodes_notify();`,
}

// nodesChannel is where the nodes table's trigger notifies: its payload
// is an address whose row changed.
const nodesChannel = "mailnode_nodes"

// listenAppName is the application_name of the connection that listens
// on nodesChannel, so that an operator (or a test) can tell it apart.
const listenAppName = "mailnode-relay-directory"

// reconcileEvery is how often the directory is read again whole, beside
// the notifications: a safety net for a change no notification told of
// (a trigger dropped by hand, a table restored).
const reconcileEvery = 5 * time.Minute

// A listening connection can stay up and carry nothing: behind a pooler
// in transaction mode (PgBouncer's usual one, where LISTEN runs on a
// borrowed server connection), or a proxy or middlebox that lost its
// other side. So each instance sends itself a probe on nodesChannel every
// probeEvery through its pool, and a listener that has not carried a
// probe for probeDeaf after the probe was committed is taken for deaf:
// the directory is read whole at once and the listener connected again.
// A probe that could not be sent (a pool busy or out of reach) proves
// nothing about the listener and starts no clock. An outside test found
// a deleted and a re-keyed node still resolved by such an instance 10 s
// later (issue 47); now it is at most probeDeaf.
const (
	probeEvery = time.Second
	probeDeaf  = 3 * time.Second
	// probePrefix starts a probe's payload; no address has a space.
	probePrefix = "probe "
	// listenTimeout bounds connecting and LISTEN: a connection that
	// carries nothing would otherwise hang the listener's start.
	listenTimeout = 10 * time.Second
)

// The directory's background reads each have a deadline, so that a
// database that stops answering mid-read (a connection whose packets are
// dropped) cannot hold the directory's lock, and with it this instance's
// registrations, for good (the round 2 outside test's F1). A full read
// takes about a second per million nodes here (342 ms for 300,000 in the
// outside test): reloadTimeout plus reloadPer for each 100,000 nodes the
// last read found; a row, milliseconds.
const (
	connectTimeout = 10 * time.Second
	reloadTimeout  = 10 * time.Second
	reloadPer      = 5 * time.Second
	refreshTimeout = 10 * time.Second
)

// Postgres is the Store that several relay instances share. Its methods
// are the shared ones (sql.go) on pgx's own pool, not on database/sql:
// pgxpool hands out connections without database/sql's pool lock and
// per-query machinery, which the resolve profile at 16 cores found
// contended (issue 47), and it caches each connection's statements.
//
// Its directory of registered addresses follows the other instances'
// writes through LISTEN/NOTIFY on a connection of its own: each
// notification's address is read again; when that connection drops, the
// directory is read whole once it is back (after LISTEN, so nothing
// committed in between is missed), and every reconcileEvery besides.
type Postgres struct {
	store
	pool *pgxpool.Pool

	log    atomic.Pointer[slog.Logger]
	cancel context.CancelFunc // stops the listener, the prober and the reconciler
	done   sync.WaitGroup
	probe  string // this instance's probes' payload: probePrefix, a random id and a space, then the probe's number

	listens atomic.Int64 // times the listener connected again, for tests
	probes  probes
}

// probes is what the prober and the listener know of this instance's
// probes; both are background goroutines (no request takes its lock).
type probes struct {
	mu    sync.Mutex
	sent  uint64    // the last probe's number; only the prober, under no lock
	heard uint64    // the highest number the listener carried
	await uint64    // the oldest committed probe not yet carried; 0 if none
	since time.Time // when await was committed
}

// committed notes that probe n was committed at now, and starts the
// clock for it unless one runs or the listener carried it already.
func (p *probes) committed(n uint64, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.await == 0 && p.heard < n {
		p.await, p.since = n, now
	}
}

// carried notes that the listener carried probe n.
func (p *probes) carried(n uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.heard = max(p.heard, n)
	if p.await != 0 && n >= p.await {
		p.await = 0
	}
}

// overdue reports whether a committed probe has waited more than
// probeDeaf at now.
func (p *probes) overdue(now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.await != 0 && now.Sub(p.since) > probeDeaf
}

// reset forgets the probes awaited (a new listening connection).
func (p *probes) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.await = 0
}

// OpenPostgres connects to url (postgres://...) and brings the schema up
// to date. Instances starting together migrate one at a time.
func OpenPostgres(ctx context.Context, url string) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("relay store: %w", err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		// The pool makes connections in the background with no deadline
		// of their own: one begun while the database's answers are lost
		// would wait for good, and with the pool's every slot so taken
		// nothing of the store would run again (found with the outside
		// test's stalled path).
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("relay store: %w", err)
	}
	s := &Postgres{store: store{be: pgDB{pool: pool}, dir: newDirectory()}, pool: pool, probe: probePrefix + rand.Text() + " "}
	s.log.Store(slog.New(slog.DiscardHandler))
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	c, err := s.listen(ctx)
	if err == nil {
		// The first full read's deadline, like every later one's, grows
		// with the nodes to read: counted first, not yet read (an
		// outside test found every start of a large directory held to
		// the small one's 10 s).
		cctx, cancel := context.WithTimeout(ctx, reloadTimeout)
		var n int64
		if err = s.pool.QueryRow(cctx, "SELECT count(*) FROM nodes").Scan(&n); err == nil {
			s.dir.loaded.Store(n)
			err = s.reload(ctx)
		}
		cancel()
	}
	if err != nil {
		if c != nil {
			c.Close(ctx)
		}
		pool.Close()
		return nil, err
	}
	bg, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.done.Add(3)
	go s.follow(bg, c)
	go s.every(bg, reconcileEvery, s.reconcile)
	go s.every(bg, probeEvery, s.sendProbe)
	return s, nil
}

// SetLogger makes the directory's listener log to l (its lost and
// regained connections); by default it logs nothing.
func (s *Postgres) SetLogger(l *slog.Logger) {
	s.log.Store(l.With("component", "relay store"))
	s.sayUnfit()
}

// reload reads the directory whole within reloadTimeout.
func (s *Postgres) reload(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, reloadTimeout+time.Duration(s.dir.loaded.Load()/100_000)*reloadPer)
	defer cancel()
	if err := s.dir.reload(ctx, s.be); err != nil {
		return err
	}
	s.sayUnfit()
	return nil
}

// sayUnfit logs the nodes the last full read left out, if any.
func (s *Postgres) sayUnfit() { s.store.SayUnfit(s.log.Load()) }

// listen opens the connection that listens on nodesChannel.
func (s *Postgres) listen(ctx context.Context) (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, listenTimeout)
	defer cancel()
	cfg := s.pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = listenAppName
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("relay store: listen: %w", err)
	}
	if _, err := c.Exec(ctx, "LISTEN "+nodesChannel); err != nil {
		c.Close(ctx)
		return nil, fmt.Errorf("relay store: listen: %w", err)
	}
	return c, nil
}

// follow reads the notifications on c, each address's row again, until
// ctx ends. When c fails, or has not carried a probe committed probeDeaf
// ago, it reads the directory whole (what changed meanwhile was told to
// no one), connects again with a back-off from 100 ms to 5 s, and reads
// the directory whole again once it listens (what changed between the
// first read and LISTEN).
func (s *Postgres) follow(ctx context.Context, c *pgx.Conn) {
	defer s.done.Done()
	var wait time.Duration
	for {
		if c == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			var err error
			if c, err = s.listen(ctx); err == nil {
				if err = s.reload(ctx); err != nil {
					c.Close(context.Background())
					c = nil
				}
			}
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				wait = min(2*wait+100*time.Millisecond, 5*time.Second)
				s.log.Load().Warn("Cannot follow the nodes' changes; retrying", "err", err, "in", wait)
				continue
			}
			wait = 0
			s.probes.reset()
			s.listens.Add(1)
			s.log.Load().Info("Following the nodes' changes again; directory reloaded")
		}
		err := s.next(ctx, c)
		if err == nil {
			continue
		}
		c.Close(context.Background())
		c = nil
		if ctx.Err() != nil {
			return
		}
		s.log.Load().Warn("Lost the nodes' changes; reading the directory whole and listening again", "err", err)
		if err := s.reload(ctx); err != nil && ctx.Err() == nil {
			s.log.Load().Warn("Cannot reload the directory", "err", err)
		}
	}
}

// next waits up to probeEvery for a notification on c and acts on it: a
// probe of this instance's ends the wait for one, another instance's is
// ignored, an address is read again. It returns an error when c failed,
// or carried no probe committed probeDeaf ago: checked before each wait,
// so that other instances' notifications, which end waits early, cannot
// put it off (a listener that carries those and not this instance's own
// would otherwise never be found out).
func (s *Postgres) next(ctx context.Context, c *pgx.Conn) error {
	if s.probes.overdue(time.Now()) {
		return fmt.Errorf("the listening connection carried no probe for %v: it may pass through a pooler in transaction mode, which cannot carry notifications", probeDeaf)
	}
	wctx, cancel := context.WithTimeout(ctx, probeEvery)
	n, err := c.WaitForNotification(wctx)
	waited := errors.Is(wctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	cancel()
	switch {
	case err == nil && strings.HasPrefix(n.Payload, s.probe):
		if k, err := strconv.ParseUint(n.Payload[len(s.probe):], 10, 64); err == nil {
			s.probes.carried(k)
		}
		return nil
	case err == nil && strings.HasPrefix(n.Payload, probePrefix):
		return nil // another instance's
	case err == nil:
		rctx, cancel := context.WithTimeout(ctx, refreshTimeout)
		defer cancel()
		fit, err := s.dir.refresh(rctx, s.be, n.Payload)
		if !fit {
			s.log.Load().Warn("A registered node has a label or box key of a length the relay never writes; it resolves to its decoy")
		}
		return err
	case waited:
		return nil // the wait's own deadline: the next call checks the probes
	default:
		return err
	}
}

// sendProbe notifies nodesChannel of this instance's probe through the
// pool, a notification that crosses the database from the pool's
// connection to the listener's, and once it is committed starts the
// clock for it (if none runs).
func (s *Postgres) sendProbe(ctx context.Context) {
	s.probes.sent++ // only this goroutine writes it
	n := s.probes.sent
	pctx, cancel := context.WithTimeout(ctx, probeEvery)
	defer cancel()
	if _, err := s.pool.Exec(pctx, "SELECT pg_notify($1, $2)", nodesChannel, s.probe+strconv.FormatUint(n, 10)); err == nil {
		s.probes.committed(n, time.Now())
	}
}

// reconcile reads the directory whole: the safety net run every
// reconcileEvery.
func (s *Postgres) reconcile(ctx context.Context) {
	if err := s.reload(ctx); err != nil && ctx.Err() == nil {
		s.log.Load().Warn("Cannot reload the directory", "err", err)
	}
}

// every runs f every d until ctx ends.
func (s *Postgres) every(ctx context.Context, d time.Duration, f func(context.Context)) {
	defer s.done.Done()
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		f(ctx)
	}
}

// migrateLock is the advisory lock instances hold while they migrate.
const migrateLock = 0x6d61696c6e6f6465 // "mailnode"

func (s *Postgres) migrate(ctx context.Context) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrateLock)); err != nil {
			return fmt.Errorf("relay store: migrate: %w", err)
		}
		if _, err := tx.Exec(ctx, "CREATE TABLE IF NOT EXISTS schema_version (v INTEGER NOT NULL)"); err != nil {
			return fmt.Errorf("relay store: migrate: %w", err)
		}
		var v int
		err := tx.QueryRow(ctx, "SELECT v FROM schema_version").Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = tx.Exec(ctx, "INSERT INTO schema_version(v) VALUES (0)")
		}
		if err != nil {
			return fmt.Errorf("relay store: schema version: %w", err)
		}
		if v > len(pgMigrations) {
			return fmt.Errorf("relay store: schema version %d is newer than this relay (%d)", v, len(pgMigrations))
		}
		for i := v; i < len(pgMigrations); i++ {
			if _, err := tx.Exec(ctx, pgMigrations[i]); err != nil {
				return fmt.Errorf("relay store: migration %d: %w", i+1, err)
			}
		}
		_, err = tx.Exec(ctx, "UPDATE schema_version SET v = $1", len(pgMigrations))
		return err
	})
}

func (s *Postgres) Close() error {
	s.cancel()
	s.done.Wait()
	s.pool.Close()
	return nil
}

// pgRunner is what *pgxpool.Pool and pgx.Tx share.
type pgRunner interface {
	Exec(ctx context.Context, q string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, q string, args ...any) pgx.Row
	Query(ctx context.Context, q string, args ...any) (pgx.Rows, error)
}

// pgDB runs the shared statements on PostgreSQL: on the pool, or in a
// transaction (tx set). pgx.ErrNoRows is sql.ErrNoRows to errors.Is,
// which the shared code checks.
type pgDB struct {
	pool *pgxpool.Pool
	tx   pgx.Tx
}

func (d pgDB) runner() pgRunner {
	if d.tx != nil {
		return d.tx
	}
	return d.pool
}

func (d pgDB) exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := d.runner().Exec(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

func (d pgDB) queryRow(ctx context.Context, q string, args ...any) scanner {
	return d.runner().QueryRow(ctx, q, args...)
}

func (d pgDB) query(ctx context.Context, q string, args ...any) (rows, error) {
	return d.runner().Query(ctx, q, args...)
}

func (pgDB) duplicate(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && e.Code == "23505" // unique_violation
}

func (d pgDB) begin(ctx context.Context) (txn, error) {
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &pgDB{tx: tx}, nil
}

func (d pgDB) commit(ctx context.Context) error { return d.tx.Commit(ctx) }
func (d pgDB) rollback(ctx context.Context)     { d.tx.Rollback(ctx) }

// lock takes a transaction-level advisory lock on the hash of prefix+key:
// instances share the database, each with many connections, and
// PostgreSQL lets writers of different rows go on together, so a count
// and the insert it allows are one step only among transactions holding
// the same lock.
func (pgDB) lock(ctx context.Context, tx db, prefix, key string) error {
	_, err := tx.exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", prefix+key)
	return err
}
