package relaystore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	cancel context.CancelFunc // stops the listener and the reconciler
	done   sync.WaitGroup
}

// OpenPostgres connects to url (postgres://...) and brings the schema up
// to date. Instances starting together migrate one at a time.
func OpenPostgres(ctx context.Context, url string) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("relay store: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("relay store: %w", err)
	}
	s := &Postgres{store: store{be: pgDB{pool: pool}, dir: newDirectory()}, pool: pool}
	s.log.Store(slog.New(slog.DiscardHandler))
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	c, err := s.listen(ctx)
	if err == nil {
		err = s.dir.reload(ctx, s.be)
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
	s.done.Add(2)
	go s.follow(bg, c)
	go s.reconcile(bg)
	return s, nil
}

// SetLogger makes the directory's listener log to l (its lost and
// regained connections); by default it logs nothing.
func (s *Postgres) SetLogger(l *slog.Logger) {
	s.log.Store(l.With("component", "relay store"))
}

// listen opens the connection that listens on nodesChannel.
func (s *Postgres) listen(ctx context.Context) (*pgx.Conn, error) {
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
// ctx ends. When c fails it connects again, with a back-off from 100 ms
// to 5 s, and reads the directory whole: what changed while nobody
// listened was told to no one.
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
				if err = s.dir.reload(ctx, s.be); err != nil {
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
			s.log.Load().Info("Following the nodes' changes again; directory reloaded")
		}
		n, err := c.WaitForNotification(ctx)
		if err == nil {
			err = s.dir.refresh(ctx, s.be, n.Payload)
		}
		if err != nil {
			c.Close(context.Background())
			c = nil
			if ctx.Err() != nil {
				return
			}
			s.log.Load().Warn("Lost the nodes' changes; reconnecting", "err", err)
		}
	}
}

// reconcile reads the directory whole every reconcileEvery until ctx
// ends.
func (s *Postgres) reconcile(ctx context.Context) {
	defer s.done.Done()
	t := time.NewTicker(reconcileEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := s.dir.reload(ctx, s.be); err != nil && ctx.Err() == nil {
			s.log.Load().Warn("Cannot reload the directory", "err", err)
		}
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
