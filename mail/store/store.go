package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

//go:embed sql/migrations/*.sql
var migrationFS embed.FS

// ErrTooNew is returned by Open when the file was written by a newer binary.
var ErrTooNew = errors.New("store: database schema is newer than this program")

// Store is the node's mail database. Its methods are safe for concurrent use.
type Store struct {
	db  *sql.DB
	log *slog.Logger

	// writeMu queues the file's writers in the process. SQLite allows one
	// writer; without this, a writer that finds the lock taken polls for
	// it with sleeps of 1, 2, 5, 10 ms and more (the busy handler), which
	// put tens of milliseconds on a signed request whose nonce commit met
	// an audit flush. A Go mutex hands the lock over as soon as it is free.
	writeMu sync.Mutex
	// writer is the connection every write goes through, under writeMu:
	// nil until the first write, and again after ReleaseMemory. A
	// connection that begins a transaction after another connection
	// wrote finds the WAL changed and drops its whole page cache, so
	// writes taken by whichever pooled connection was free re-read their
	// pages batch after batch of a sync (docs/sync.md).
	writer *sql.Conn

	checkpointStop  chan struct{}
	checkpointDone  chan struct{}
	stopCheckpoints sync.Once
	walRestart      int           // frames; walRestartFrames but in tests
	restartWait     time.Duration // restartWait but in tests
	closeOnce       sync.Once

	hook MessageHook // SetMessageHook; nil: none

	// docs caches the message count Retrieve weighs terms by; counting
	// 20,000 rows costs a millisecond a question.
	docsMu sync.Mutex // guards the two fields below
	docs   int
	docsAt time.Time
}

// busyTimeout is how long a connection waits for a lock another holds.
const busyTimeout = 10 * time.Second

// pageSize is set when the file is created. Large pages cut the number of
// page writes for message-sized rows several-fold; measured on the sync
// benchmark, 64 KiB pages write 38% faster than the default 4 KiB.
const pageSize = 65536

// Open opens or creates the database at path and brings its schema up to
// date.
func Open(ctx context.Context, path string, logger *slog.Logger) (*Store, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("open store: path %q may not contain '?' or '#'", path)
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := create(path); err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := private(path); err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	// _txlock=immediate takes the write lock at BEGIN, so two writers queue
	// on busy_timeout instead of failing to upgrade a read transaction.
	// temp_store=MEMORY keeps statement journals, which every insert inside
	// a sync batch's transaction writes, off temporary files.
	dsn := "file:" + path + fmt.Sprintf("?_pragma=busy_timeout(%d)", busyTimeout.Milliseconds()) + "&_pragma=journal_mode(WAL)" +
		"&_pragma=foreign_keys(ON)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-32768)&_pragma=temp_store(MEMORY)" +
		"&_pragma=wal_autocheckpoint(0)&_txlock=immediate" // checkpoint.go
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	db.SetMaxIdleConns(maxIdleConns)
	s := &Store{db: db, log: logger.With("component", "store"),
		checkpointStop: make(chan struct{}), checkpointDone: make(chan struct{}), walRestart: walRestartFrames, restartWait: restartWait}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	go s.checkpointLoop()
	return s, nil
}

// maxIdleConns is how many connections the pool keeps open unused
// (database/sql's default), each with its page cache.
const maxIdleConns = 2

// ReleaseMemory closes the connections nobody is using, and with them the
// page caches they hold: up to 32 MiB each (cache_size), filled by the
// last sync or query and kept for as long as the connection lives, in
// memory the Go runtime does not see (the C library's heap). The next
// query opens a connection again, about a millisecond. For a process
// going quiet: at 50,000 messages the idle connections were 21 MiB of an
// idle desktop app's RSS (docs/benchmarks.md).
func (s *Store) ReleaseMemory() {
	s.writeMu.Lock()
	s.closeWriter()
	s.writeMu.Unlock()
	s.db.SetMaxIdleConns(0)
	s.db.SetMaxIdleConns(maxIdleConns)
}

// create makes a new database file with the store's page size. The page
// size must be set before the file switches to WAL, which the connection
// string of Open does first.
func create(path string) error {
	if _, err := os.Stat(path); err == nil || !errors.Is(err, os.ErrNotExist) {
		return err
	}
	// Made 0600 before SQLite opens it: SQLite gives the -wal and -shm
	// files the database file's mode.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(fmt.Sprintf("PRAGMA page_size = %d; PRAGMA journal_mode = WAL", pageSize))
	return err
}

// Close stops the checkpointer, folds the WAL back into the file and
// closes the database.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.stopCheckpointer()
		s.writeMu.Lock()
		s.closeWriter()
		s.writeMu.Unlock()
		if _, err := s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			s.log.Debug("Final checkpoint failed", "err", err)
		}
	})
	return s.db.Close()
}

type migration struct {
	version int
	name    string
	sql     string
}

// readMigrations reads the files NNNN_name.sql of dir in fsys, in order,
// and checks that they are numbered 1, 2, 3... without gaps.
func readMigrations(fsys fs.FS, dir string) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		name := e.Name()
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(name, ".sql") {
			return nil, fmt.Errorf("migration %q: name must be NNNN_name.sql", name)
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %q: expected version %d", m.name, i+1)
		}
	}
	return out, nil
}

// goStep completes a migration with what SQL cannot do, in its
// transaction, after its file; nil for most.
func goStep(version int) func(context.Context, *sql.Tx) error {
	switch version {
	case 5: // 0005_senders: the registrable domains need the Public Suffix List
		return func(ctx context.Context, tx *sql.Tx) error { return backfillSenders(ctx, tx, time.Now()) }
	case 6: // 0006_attached_text: parsing mail is Go's
		return restoreAttachedText
	}
	return nil
}

func migrations() ([]migration, error) { return readMigrations(migrationFS, "sql/migrations") }

// SchemaVersion is the schema version this binary writes.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	var current int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > len(ms) {
		return fmt.Errorf("%w (file has version %d, this program knows %d)", ErrTooNew, current, len(ms))
	}
	for _, m := range ms[current:] {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			if step := goStep(m.version); step != nil {
				if err := step(ctx, tx); err != nil {
					return err
				}
			}
			_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version))
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
		s.log.Debug("Applied schema migration", "migration", m.name)
	}
	// One line for the whole step, not one per file: a first run would
	// otherwise open with a screen of migrations (and the components'
	// tables, which Attach creates, add more).
	switch {
	case current == 0:
		s.log.Info("Created the store", "schemaVersion", len(ms))
	case current < len(ms):
		s.log.Info("Migrated the store", "fromVersion", current, "toVersion", len(ms))
	}
	return nil
}

// Attach brings the tables of another component of the node up to date in
// this file and returns the database handle for them. migrations holds that
// component's files sql/NNNN_name.sql (what `//go:embed sql/*.sql` gives a
// package that keeps them in its sql directory); their versions are counted
// apart from the mail schema's, in component_schema. The node keeps one
// SQLite file (one backup, one WAL, one place to check integrity), while the
// mail store stays ignorant of what the other tables mean.
//
// The handle is shared with the store and is closed by Close. Components
// write only through Tables.WriteTx and keep those transactions short: the
// file has one writer at a time.
func (s *Store) Attach(ctx context.Context, component string, migrations fs.FS) (*Tables, error) {
	ms, err := readMigrations(migrations, "sql")
	if err != nil {
		return nil, fmt.Errorf("attach %s: %w", component, err)
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var current int
		err := tx.QueryRowContext(ctx, "SELECT version FROM component_schema WHERE component = ?", component).Scan(&current)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if current > len(ms) {
			return fmt.Errorf("%w (%s has version %d, this program knows %d)", ErrTooNew, component, current, len(ms))
		}
		for _, m := range ms[current:] {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("apply migration %s: %w", m.name, err)
			}
			s.log.Debug("Applied schema migration", "tables", component, "migration", m.name)
		}
		// A component's tables created with the store are part of
		// "Created the store"; an upgrade is worth its line.
		if current > 0 && current < len(ms) {
			s.log.Info("Migrated a component's tables", "tables", component, "fromVersion", current, "toVersion", len(ms))
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO component_schema (component, version) VALUES (?, ?)
			ON CONFLICT (component) DO UPDATE SET version = excluded.version`, component, len(ms))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("attach %s: %w", component, err)
	}
	return &Tables{s: s}, nil
}

// Tables is what Attach gives a component: the file's shared handle for
// its queries, and WriteTx for its writes.
type Tables struct{ s *Store }

// DB is the file's database handle. Use it for reads; write through
// WriteTx.
func (t *Tables) DB() *sql.DB { return t.s.db }

// WriteTx runs f in a write transaction, queued behind the file's other
// writers in this process, and commits it if f returns nil.
func (t *Tables) WriteTx(ctx context.Context, f func(*sql.Tx) error) error { return t.s.inTx(ctx, f) }

// inTx runs f in a write transaction and commits it if f returns nil.
func (s *Store) inTx(ctx context.Context, f func(*sql.Tx) error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	w, err := s.writeConn(ctx)
	if err != nil {
		return err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		s.dropWriter(err)
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	err = tx.Commit()
	s.dropWriter(err)
	return err
}

// exec runs one writing statement outside a transaction of its own,
// queued like inTx.
func (s *Store) exec(ctx context.Context, query string, args ...any) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	w, err := s.writeConn(ctx)
	if err != nil {
		return err
	}
	_, err = w.ExecContext(ctx, query, args...)
	s.dropWriter(err)
	return err
}

// writeConn returns the writers' connection, taking one from the pool if
// there is none. writeMu must be held.
func (s *Store) writeConn(ctx context.Context) (*sql.Conn, error) {
	if s.writer == nil {
		w, err := s.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		s.writer = w
	}
	return s.writer, nil
}

// dropWriter lets the writers' connection go after err, when err says the
// connection is done, so that the next write takes another. writeMu must
// be held.
func (s *Store) dropWriter(err error) {
	if errors.Is(err, sql.ErrConnDone) || errors.Is(err, driver.ErrBadConn) {
		s.closeWriter()
	}
}

// closeWriter returns the writers' connection, if any. writeMu must be
// held.
func (s *Store) closeWriter() {
	if s.writer != nil {
		s.writer.Close()
		s.writer = nil
	}
}
