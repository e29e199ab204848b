// Package nonces is the gateway's replay guard: a nonce store that keeps
// refusing a used nonce until its signature expires, across restarts of the
// node.
//
// A nonce is checked against memory, which decides, and written to the
// node's SQLite file before the request it came with may have any effect.
// Writes from concurrent requests are grouped into one transaction (group
// commit): the first nonce to arrive while no batch is collecting starts
// one, whose writer waits for the previous batch to commit and then
// commits everything that joined meanwhile. The request goes on (parsing,
// dispatch) while its nonce is written and waits for it only before the
// tool runs, so a lone request does not pay the commit on top of the rest,
// and under load one commit serves many requests.
//
// The file runs with synchronous=NORMAL in WAL mode, so a committed nonce
// survives a crash of the node process but may be lost if the machine loses
// power within the last moments before a checkpoint. A replay then needs a
// captured request still inside its lifetime (at most 300 s) and a power
// cut: accepted, and written down in docs/gateway.md.
package nonces

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Migrations are the nonce table's migrations (sql/NNNN_name.sql), for
// store.Attach.
//
//go:embed sql/*.sql
var Migrations embed.FS

// File is the node's SQLite file as store.Attach hands it to a component.
type File interface {
	DB() *sql.DB
	WriteTx(ctx context.Context, f func(*sql.Tx) error) error
}

// MaxLive bounds the nonces held in memory (about 100 bytes each). The
// gateway rate-limits each agent before its nonce is reserved, so only a
// flood from very many agents at once can reach it; then requests are
// refused (ErrFull) until nonces expire, rather than memory growing.
const MaxLive = 1 << 20

// ErrFull is Reserve's refusal when MaxLive nonces are live.
var ErrFull = errors.New("too many live nonces")

// pruneEvery is how often expired nonces are deleted from the file and
// memory.
const pruneEvery = time.Minute

// Store is a persistent httpsig.NonceStore. Its methods are safe for
// concurrent use.
type Store struct {
	file      File
	insertOne *sql.Stmt
	log       *slog.Logger
	now       func() time.Time

	inflight sync.WaitGroup // batches being written

	maxLive int // MaxLive; smaller in tests

	mu        sync.Mutex // guards the fields below
	live      map[string]int64
	collect   *batch // batch new nonces join; nil when none is collecting
	last      *batch // most recently started batch
	lastPrune time.Time
}

type batch struct {
	keys    []string
	expires []int64
	prev    *batch
	done    chan struct{} // closed once committed (or failed)
	err     error
}

// New loads the unexpired nonces from file, whose tables Migrations
// created. now may be nil for time.Now.
func New(ctx context.Context, file File, logger *slog.Logger, now func() time.Time) (*Store, error) {
	db := file.DB()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	s := &Store{file: file, log: logger.With("component", "nonces"), now: now, live: map[string]int64{}, maxLive: MaxLive}
	rows, err := db.QueryContext(ctx, "SELECT key, expires FROM nonces WHERE expires >= ?", now().Unix())
	if err != nil {
		return nil, fmt.Errorf("load nonces: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var exp int64
		if err := rows.Scan(&k, &exp); err != nil {
			return nil, fmt.Errorf("load nonces: %w", err)
		}
		s.live[k] = exp
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load nonces: %w", err)
	}
	s.insertOne, err = db.PrepareContext(ctx, "INSERT OR IGNORE INTO nonces (key, expires) VALUES (?, ?)")
	if err != nil {
		return nil, fmt.Errorf("prepare nonce insert: %w", err)
	}
	return s, nil
}

// Use records (keyID, nonce) until until and reports whether it was new.
// It returns only once the nonce is committed to the file. If the write
// fails the nonce stays refused in memory and Use returns the error, so the
// request is refused either way.
func (s *Store) Use(ctx context.Context, keyID, nonce string, until time.Time) (bool, error) {
	fresh, durable, err := s.Reserve(keyID, nonce, until)
	if err != nil || !fresh {
		return false, err
	}
	if err := durable(ctx); err != nil {
		return false, err
	}
	return true, nil
}

// Reserve records (keyID, nonce) until until in memory, reporting whether
// it was new, and starts writing it to the file without waiting. durable
// returns once the nonce is committed, or the write's error; the caller
// must call it before the request has any effect. That is what makes the
// replay guard hold across a crash: a request whose nonce was lost never
// ran, so a replay of it runs once, as the original would have.
//
// The write runs in a goroutine per batch, not per request; Close waits
// for the last ones.
func (s *Store) Reserve(keyID, nonce string, until time.Time) (fresh bool, durable func(context.Context) error, err error) {
	k := keyID + "\x00" + nonce
	exp := until.Unix()
	s.mu.Lock()
	now := s.now().Unix()
	if old, ok := s.live[k]; ok && old >= now {
		s.mu.Unlock()
		return false, nil, nil
	}
	if len(s.live) >= s.maxLive {
		// Memory stays bounded whoever floods: first drop what has
		// expired, then refuse until something does.
		for k, e := range s.live {
			if e < now {
				delete(s.live, k)
			}
		}
		if len(s.live) >= s.maxLive {
			s.mu.Unlock()
			return false, nil, ErrFull
		}
	}
	s.live[k] = exp
	b := s.collect
	if b == nil {
		b = &batch{prev: s.last, done: make(chan struct{})}
		s.collect, s.last = b, b
		s.inflight.Add(1)
		go func() {
			defer s.inflight.Done()
			s.commit(b)
		}()
	}
	b.keys = append(b.keys, k)
	b.expires = append(b.expires, exp)
	s.mu.Unlock()
	return true, func(ctx context.Context) error {
		select {
		case <-b.done:
			return b.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}, nil
}

// Forget gives back (keyID, nonce), which a request the node failed to
// take through its own fault had spent: the gateway does so for a queued
// request, so that the relay's next delivery of the same envelope is not
// refused as a replay. It waits for the nonce's write, if one is under
// way, then deletes it from memory and the file.
func (s *Store) Forget(ctx context.Context, keyID, nonce string) error {
	k := keyID + "\x00" + nonce
	s.mu.Lock()
	last := s.last
	s.mu.Unlock()
	if last != nil {
		select {
		case <-last.done: // the batch holding it, or a later one
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	s.mu.Lock()
	exp, ok := s.live[k]
	delete(s.live, k)
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return s.file.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM nonces WHERE expires = ? AND key = ?", exp, k)
		return err
	})
}

// Close waits for the writes in flight.
func (s *Store) Close() { s.inflight.Wait() }

// commit waits for the previous batch, closes b to newcomers and writes it.
// It does not take the caller's context: the batch holds other requests'
// nonces too, and a write must not be abandoned half-way for one of them.
func (s *Store) commit(b *batch) {
	if b.prev != nil {
		<-b.prev.done
		b.prev = nil // let the chain of batches be collected
	}
	s.mu.Lock()
	if s.collect == b {
		s.collect = nil
	}
	now := s.now()
	prune := now.Sub(s.lastPrune) >= pruneEvery
	if prune {
		s.lastPrune = now
		for k, exp := range s.live {
			if exp < now.Unix() {
				delete(s.live, k)
			}
		}
	}
	s.mu.Unlock()

	// A context that cannot be cancelled: the SQLite driver watches a
	// cancellable one with a goroutine per statement, which costs more
	// than the insert. The file's busy timeout bounds the wait for the
	// write lock.
	b.err = s.write(context.Background(), b, prune, now.Unix())
	if b.err != nil {
		s.log.Error("Cannot record nonces", "err", b.err, "count", len(b.keys))
	}
	close(b.done)
}

func (s *Store) write(ctx context.Context, b *batch, prune bool, now int64) error {
	err := s.file.WriteTx(ctx, func(tx *sql.Tx) error {
		if prune {
			if _, err := tx.ExecContext(ctx, "DELETE FROM nonces WHERE expires < ?", now); err != nil {
				return fmt.Errorf("prune nonces: %w", err)
			}
		}
		if len(b.keys) == 1 {
			// The common case at low load, as a statement prepared once.
			_, err := tx.StmtContext(ctx, s.insertOne).ExecContext(ctx, b.keys[0], b.expires[0])
			return err
		}
		// At most 400 rows of two parameters per statement, well under
		// SQLite's limit.
		for i := 0; i < len(b.keys); i += 400 {
			j := min(i+400, len(b.keys))
			q := make([]byte, 0, 64+12*(j-i))
			q = append(q, "INSERT OR IGNORE INTO nonces (key, expires) VALUES "...)
			args := make([]any, 0, 2*(j-i))
			for n := i; n < j; n++ {
				if n > i {
					q = append(q, ',')
				}
				q = append(q, "(?,?)"...)
				args = append(args, b.keys[n], b.expires[n])
			}
			if _, err := tx.ExecContext(ctx, string(q), args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record nonces: %w", err)
	}
	return nil
}
