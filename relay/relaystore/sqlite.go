package relaystore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"modernc.org/sqlite" // the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

	"mailnode/internal/privdir"
)

// migrations are the schema versions, in order; user_version is how many
// have run.
var migrations = []string{
	`CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);
	CREATE TABLE nodes (
		address TEXT PRIMARY KEY,
		label TEXT NOT NULL UNIQUE,
		node_key BLOB NOT NULL UNIQUE,
		box_key BLOB NOT NULL,
		registered_at INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE TABLE pending (
		address TEXT NOT NULL,
		node_key BLOB NOT NULL,
		box_key BLOB NOT NULL,
		code_hash BLOB NOT NULL,
		expires INTEGER NOT NULL,
		attempts INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (address, node_key)
	);
	CREATE TABLE challenges (label TEXT PRIMARY KEY, vals TEXT NOT NULL);
	CREATE TABLE agents (
		label TEXT PRIMARY KEY,
		kid TEXT NOT NULL,
		key BLOB NOT NULL UNIQUE,
		created INTEGER NOT NULL
	);
	CREATE INDEX agents_created ON agents(created);`,
	// The offline queue. A delivered envelope keeps its row, without its
	// sealed bytes, for its reply until it expires.
	`CREATE TABLE queue (
		id TEXT PRIMARY KEY,
		label TEXT NOT NULL,
		sealed BLOB,
		created INTEGER NOT NULL,
		expires INTEGER NOT NULL,
		reply BLOB
	);
	CREATE INDEX queue_waiting ON queue(label, created) WHERE sealed IS NOT NULL;
	CREATE INDEX queue_expires ON queue(expires);`,
	// The tunnel directory, for instances that share a store (SQLite
	// serves one instance; the contract is the same).
	`CREATE TABLE instances (
		id TEXT PRIMARY KEY,
		mesh_addr TEXT NOT NULL,
		cert_fp BLOB NOT NULL,
		expires BIGINT NOT NULL
	);
	CREATE TABLE tunnels (label TEXT PRIMARY KEY, instance TEXT NOT NULL);
	CREATE INDEX tunnels_instance ON tunnels(instance);`,
	// The offline queue as issue 40 left it (docs/relay.md, "The offline
	// queue"): every envelope, delivered or not, holds its place until it
	// expires, counted per name and per client network (net, a keyed
	// digest of it); sealed is the last column, so that reading the others
	// (a reply poll, a retry) never walks its bytes and costs the same
	// whether or not the node took the envelope.
	`CREATE TABLE queue_v2 (
		id TEXT PRIMARY KEY,
		label TEXT NOT NULL,
		net BLOB NOT NULL,
		created INTEGER NOT NULL,
		expires INTEGER NOT NULL,
		reply BLOB,
		sealed BLOB
	);
	INSERT INTO queue_v2(id, label, net, created, expires, reply, sealed)
		SELECT id, label, X'', created, expires, reply, sealed FROM queue;
	DROP TABLE queue;
	ALTER TABLE queue_v2 RENAME TO queue;
	CREATE INDEX queue_waiting ON queue(label, created) WHERE sealed IS NOT NULL;
	CREATE INDEX queue_held ON queue(label, expires, net);
	CREATE INDEX queue_expires ON queue(expires);`,
	// One live code per address, whoever asked (issue 40): the codes,
	// when each address was mailed one (for the daily limit), and the
	// keys waiting with the code they may confirm. Pending registrations
	// of the old shape hashed their codes otherwise: they are dropped, and
	// their nodes ask again.
	`DROP TABLE pending;
	CREATE TABLE pending (
		address TEXT NOT NULL,
		node_key BLOB NOT NULL,
		box_key BLOB NOT NULL,
		code_id TEXT NOT NULL,
		expires INTEGER NOT NULL,
		attempts INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (address, node_key)
	);
	CREATE TABLE codes (
		address TEXT PRIMARY KEY,
		id TEXT NOT NULL,
		code_hash BLOB NOT NULL,
		issued INTEGER NOT NULL,
		expires INTEGER NOT NULL
	);
	CREATE TABLE code_mails (
		address TEXT NOT NULL,
		id TEXT NOT NULL,
		at INTEGER NOT NULL,
		PRIMARY KEY (address, id)
	);
	CREATE INDEX code_mails_at ON code_mails(at);`,
	// Issue 40's outside review: code mails are counted per mailbox (the
	// spellings of an address that reach one mailbox share its limit)
	// and per client network; hosted agents per client network. Rows
	// from before count under their address and no network.
	`ALTER TABLE code_mails ADD COLUMN mailbox TEXT NOT NULL DEFAULT '';
	ALTER TABLE code_mails ADD COLUMN net BLOB NOT NULL DEFAULT X'';
	UPDATE code_mails SET mailbox = address;
	CREATE INDEX code_mails_mailbox ON code_mails(mailbox, at);
	CREATE INDEX code_mails_net ON code_mails(net, at);
	ALTER TABLE agents ADD COLUMN net BLOB NOT NULL DEFAULT X'';
	CREATE INDEX agents_net ON agents(net, created);`,
	// The relay's own certificate by ACME (docs/relay-deploy.md): one
	// instance renews it at a time, under a lease.
	`CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires INTEGER NOT NULL);`,
}

// SQLite is the Store of a single relay: one file in WAL mode. Its
// methods are the shared ones (sql.go) on database/sql. Its directory of
// registered addresses is loaded when it opens and changed by this
// store's own writes only: one relay process serves a SQLite file.
type SQLite struct {
	store
	db *sql.DB

	agentsMu sync.Mutex // AddAgent's writers wait here, not on the file
}

// OpenSQLite opens (creating, mode 0600) the relay database in dir.
func OpenSQLite(ctx context.Context, dir string) (*SQLite, error) {
	// The database holds the relay's secrets (decoy and queue keys):
	// a directory or file another user made first is refused.
	if _, err := privdir.Ensure(dir); err != nil {
		return nil, fmt.Errorf("relay store: %w", err)
	}
	path := filepath.Join(dir, "relay.db")
	if _, err := privdir.MakePrivate(path); err != nil {
		return nil, fmt.Errorf("relay store: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("relay store: %w", err)
	}
	f.Close()
	// _txlock=immediate: every transaction takes the file's write lock
	// when it begins, which is what sqliteDB.lock relies on.
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("relay store: %w", err)
	}
	// Keep connections for concurrent requests; database/sql's default
	// of 2 idle ones re-opened connections under load.
	db.SetMaxIdleConns(16)
	s := &SQLite{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Chmod(path+suffix, 0o600)
	}
	s.store = store{be: sqliteDB{db: db}, dir: newDirectory()}
	if err := s.dir.reload(ctx, s.be); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *SQLite) migrate(ctx context.Context) error {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("relay store: schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("relay store: schema version %d is newer than this relay (%d)", v, len(migrations))
	}
	for i := v; i < len(migrations); i++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("relay store: migrate: %w", err)
		}
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			tx.Rollback()
			return fmt.Errorf("relay store: migration %d: %w", i+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("relay store: migration %d: %w", i+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("relay store: migration %d: %w", i+1, err)
		}
	}
	return nil
}

func (s *SQLite) Close() error {
	return s.db.Close()
}

// AddAgent is the shared one (sql.go), whose count and insert are one
// step already (sqliteDB.lock), with the writers racing to add agents
// queued on a mutex of the process before they begin: on the file's lock
// they would poll SQLite's busy timeout, and 120 at once took ten times
// as long (TestAgentLimitsConcurrent under -race: 6-7 s, not 0.7 s).
func (s *SQLite) AddAgent(ctx context.Context, a Agent, since time.Time, max, netMax int) error {
	s.agentsMu.Lock()
	defer s.agentsMu.Unlock()
	return s.store.AddAgent(ctx, a, since, max, netMax)
}

// sqliteDB runs the shared statements on the SQLite file through
// database/sql. Its placeholders need no rewriting: modernc's driver binds
// SQLite's named parameter $N to the N-th argument (its conn.go,
// argFinder), so the shared $N mean the same here as on PostgreSQL.
type sqliteDB struct {
	db *sql.DB
}

func (d sqliteDB) exec(ctx context.Context, q string, args ...any) (int64, error) {
	return sqlExec(ctx, d.db, q, args...)
}

func (d sqliteDB) queryRow(ctx context.Context, q string, args ...any) scanner {
	return d.db.QueryRowContext(ctx, q, args...)
}

func (d sqliteDB) query(ctx context.Context, q string, args ...any) (rows, error) {
	return sqlQuery(ctx, d.db, q, args...)
}

func (d sqliteDB) begin(ctx context.Context) (txn, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	return sqliteTx{tx}, err
}

// lock has nothing to do on SQLite: every transaction begins with the
// file's one write lock (BEGIN IMMEDIATE, the _txlock of OpenSQLite), so
// writers already go one at a time, whatever they lock.
func (sqliteDB) lock(context.Context, db, string, string) error { return nil }

func (sqliteDB) duplicate(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && (e.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE)
}

// sqliteTx is a transaction on the file. It holds only the *sql.Tx, so
// that it fits in an interface without an allocation.
type sqliteTx struct{ tx *sql.Tx }

func (t sqliteTx) exec(ctx context.Context, q string, args ...any) (int64, error) {
	return sqlExec(ctx, t.tx, q, args...)
}

func (t sqliteTx) queryRow(ctx context.Context, q string, args ...any) scanner {
	return t.tx.QueryRowContext(ctx, q, args...)
}

func (t sqliteTx) query(ctx context.Context, q string, args ...any) (rows, error) {
	return sqlQuery(ctx, t.tx, q, args...)
}

func (t sqliteTx) commit(context.Context) error { return t.tx.Commit() }
func (t sqliteTx) rollback(context.Context)     { t.tx.Rollback() }

// sqlRunner is what *sql.DB and *sql.Tx share.
type sqlRunner interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func sqlExec(ctx context.Context, r sqlRunner, q string, args ...any) (int64, error) {
	res, err := r.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func sqlQuery(ctx context.Context, r sqlRunner, q string, args ...any) (rows, error) {
	rs, err := r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rs}, nil
}

// sqlRows drops the error of Close, as pgx's rows do: the rows were read
// to their end or their error was taken from Err.
type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }
