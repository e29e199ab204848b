package relaystore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// The Store's methods, written once for both databases. SQLite and
// PostgreSQL hold the same tables and, here, read and write them with the
// same statements: numbered placeholders ($1, which PostgreSQL takes and
// modernc's SQLite driver binds by its number), times as Unix seconds or
// milliseconds in integers, bytes as blobs, and the upsert both speak
// (INSERT ... ON CONFLICT ... DO UPDATE/NOTHING). What truly differs is in
// each database's file, behind backend: the driver (database/sql for
// SQLite, pgx's own pool for PostgreSQL), the migrations, how concurrent
// writers are kept apart (backend.lock) and how a taken key is reported
// (backend.duplicate). Resolve reads none of them: it answers from
// memory (directory.go), which each backend loads and keeps current.

// db runs statements: a backend's connection pool or one transaction.
type db interface {
	// exec runs q and reports how many rows it changed.
	exec(ctx context.Context, q string, args ...any) (int64, error)
	queryRow(ctx context.Context, q string, args ...any) scanner
	query(ctx context.Context, q string, args ...any) (rows, error)
}

// backend is one database under the shared store.
type backend interface {
	db
	// begin starts a transaction.
	begin(ctx context.Context) (txn, error)
	// lock keeps, until tx ends, every other transaction that takes the
	// lock named prefix+key from going on: the step that counts a limit
	// and then stores is one step across every writer of the database
	// (see each backend's).
	lock(ctx context.Context, tx db, prefix, key string) error
	// duplicate reports whether err is the database refusing a row
	// whose key another row holds (a primary key or unique constraint).
	duplicate(err error) bool
}

// txn is a backend's transaction.
type txn interface {
	db
	commit(ctx context.Context) error
	// rollback ends the transaction unless it was committed.
	rollback(ctx context.Context)
}

type scanner interface{ Scan(...any) error }

// rows are a query's results; both drivers' rows fit with Close's
// result dropped.
type rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close()
}

// store implements Store on a backend; SQLite and Postgres embed it.
type store struct {
	be  backend
	dir *directory // the registered addresses, which Resolve reads
}

// sentinel returns err itself if it is (or wraps) one of the errors a
// caller branches on, so that they leave a transaction unwrapped.
func sentinel(err error) error {
	for _, s := range []error{ErrNotFound, ErrIDTaken, ErrQueueFull, ErrMailLimit, ErrAgentLimit} {
		if errors.Is(err, s) {
			return s
		}
	}
	return nil
}

// tx runs f in a transaction of the backend: a sentinel error is
// returned as it is, any other is wrapped with what.
func (s *store) tx(ctx context.Context, what string, f func(db) error) error {
	t, err := s.be.begin(ctx)
	if err != nil {
		return fmt.Errorf("relay store: %s: %w", what, err)
	}
	defer t.rollback(ctx)
	if err := f(t); err != nil {
		if e := sentinel(err); e != nil {
			return e
		}
		return fmt.Errorf("relay store: %s: %w", what, err)
	}
	if err := t.commit(ctx); err != nil {
		return fmt.Errorf("relay store: %s: %w", what, err)
	}
	return nil
}

func (s *store) Secret(ctx context.Context, name string) ([]byte, error) {
	fresh := make([]byte, 32)
	rand.Read(fresh)
	// The first to insert wins; everyone reads the winner's.
	if _, err := s.be.exec(ctx, "INSERT INTO secrets(name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", name, fresh); err != nil {
		return nil, fmt.Errorf("relay store: secret %s: %w", name, err)
	}
	var v []byte
	if err := s.be.queryRow(ctx, "SELECT value FROM secrets WHERE name = $1", name).Scan(&v); err != nil {
		return nil, fmt.Errorf("relay store: secret %s: %w", name, err)
	}
	return v, nil
}

func (s *store) Private(ctx context.Context, name string) ([]byte, error) {
	var v []byte
	err := s.be.queryRow(ctx, "SELECT value FROM secrets WHERE name = $1", name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("relay store: private %s: %w", name, err)
	}
	return v, nil
}

func (s *store) PutPrivate(ctx context.Context, name string, value []byte) error {
	if _, err := s.be.exec(ctx, "INSERT INTO secrets(name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value", name, value); err != nil {
		return fmt.Errorf("relay store: private %s: %w", name, err)
	}
	return nil
}

func (s *store) TakeLease(ctx context.Context, name, holder string, now, until time.Time) (bool, error) {
	var got string
	err := s.be.queryRow(ctx, `INSERT INTO leases(name, holder, expires) VALUES ($1, $2, $3)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires
		WHERE leases.holder = excluded.holder OR leases.expires <= $4
		RETURNING holder`, name, holder, until.UnixMilli(), now.UnixMilli()).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("relay store: lease %s: %w", name, err)
	}
	return got == holder, nil
}

func (s *store) DropLease(ctx context.Context, name, holder string) error {
	if _, err := s.be.exec(ctx, "DELETE FROM leases WHERE name = $1 AND holder = $2", name, holder); err != nil {
		return fmt.Errorf("relay store: lease %s: %w", name, err)
	}
	return nil
}

const nodeCols = "address, label, node_key, box_key, registered_at"

func scanNode(row scanner) (Node, error) {
	var n Node
	var at int64
	err := row.Scan(&n.Address, &n.Label, &n.NodeKey, &n.BoxKey, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Node{}, ErrNotFound
	}
	if err != nil {
		return Node{}, fmt.Errorf("relay store: node: %w", err)
	}
	n.RegisteredAt = time.Unix(at, 0)
	return n, nil
}

func (s *store) NodeByAddress(ctx context.Context, address string) (Node, error) {
	return scanNode(s.be.queryRow(ctx, "SELECT "+nodeCols+" FROM nodes WHERE address = $1", address))
}

func (s *store) NodeByKey(ctx context.Context, key []byte) (Node, error) {
	return scanNode(s.be.queryRow(ctx, "SELECT "+nodeCols+" FROM nodes WHERE node_key = $1", key))
}

func (s *store) NodeByLabel(ctx context.Context, label string) (Node, error) {
	return scanNode(s.be.queryRow(ctx, "SELECT "+nodeCols+" FROM nodes WHERE label = $1", label))
}

// Resolve answers from the directory (directory.go), the same way for a
// registered and an unknown address: the caller derived the decoy either
// way, the directory's lookup does the same work whether it finds the
// node or not, and the answer is built the same way from what it found.
// The node key and registration time are not read.
func (s *store) Resolve(ctx context.Context, address string, decoy Node) (Node, error) {
	a, err := s.dir.resolve(address, dirEntry{label: decoy.Label, boxKey: decoy.BoxKey})
	if err != nil {
		return Node{}, err
	}
	return Node{Address: address, Label: string(a.label[:]), BoxKey: a.key[:]}, nil
}

// SayUnfit logs, if the last full read of the directory left rows of
// nodes out for a label or box key of a length the relay never writes,
// how many: they resolve to their decoys. The relay calls it once its
// logger exists (a PostgreSQL store also after every later full read).
func (s *store) SayUnfit(log *slog.Logger) {
	if n := s.dir.unfit.Load(); n > 0 {
		log.Warn("Registered nodes with a label or box key of a length the relay never writes resolve to their decoys; correct or delete their rows in nodes",
			"nodes", n)
	}
}

// PutNode, RotateKeys and DeleteNode change the directory as they
// commit: each holds the directory's writer lock from before its
// transaction to after its change is set, so that this instance's node
// writes reach the directory in the order they committed and a resolve
// after one returns sees it.

func (s *store) PutNode(ctx context.Context, n Node) error {
	slot, err := s.dir.slot(n.Address, dirEntry{label: n.Label, boxKey: n.BoxKey})
	if err != nil {
		return err
	}
	if err := s.dir.lock(ctx); err != nil {
		return err
	}
	defer s.dir.unlock()
	var moved []string // addresses the node key held before, now forgotten
	err = s.tx(ctx, "put node", func(tx db) error {
		rs, err := tx.query(ctx, "SELECT address FROM nodes WHERE node_key = $1 AND address <> $2", n.NodeKey, n.Address)
		if err != nil {
			return err
		}
		for rs.Next() {
			var a string
			if err := rs.Scan(&a); err != nil {
				rs.Close()
				return err
			}
			moved = append(moved, a)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, "DELETE FROM challenges WHERE label IN (SELECT label FROM nodes WHERE address = $1 OR node_key = $2)", n.Address, n.NodeKey); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, "DELETE FROM nodes WHERE address = $1 OR node_key = $2", n.Address, n.NodeKey); err != nil {
			return err
		}
		_, err = tx.exec(ctx, "INSERT INTO nodes("+nodeCols+") VALUES ($1, $2, $3, $4, $5)",
			n.Address, n.Label, n.NodeKey, n.BoxKey, n.RegisteredAt.Unix())
		return err
	})
	if err != nil {
		return err
	}
	for _, a := range moved {
		s.dir.set(a, dirSlot{}, false)
	}
	s.dir.set(n.Address, slot, true)
	return nil
}

func (s *store) RotateKeys(ctx context.Context, old, nodeKey, boxKey []byte) error {
	if len(boxKey) != BoxKeyLen {
		return fmt.Errorf("relay store: rotate keys: a %d-byte box key, not %d", len(boxKey), BoxKeyLen)
	}
	if err := s.dir.lock(ctx); err != nil {
		return err
	}
	defer s.dir.unlock()
	var address, label string
	err := s.be.queryRow(ctx, "UPDATE nodes SET node_key = $1, box_key = $2 WHERE node_key = $3 RETURNING address, label",
		nodeKey, boxKey, old).Scan(&address, &label)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("relay store: rotate keys: %w", err)
	}
	slot, err := s.dir.slot(address, dirEntry{label: label, boxKey: boxKey})
	if err != nil {
		// A label the directory cannot hold was refused when it was
		// stored: the row was written by something else.
		return fmt.Errorf("relay store: rotate keys: %w", err)
	}
	s.dir.set(address, slot, true)
	return nil
}

func (s *store) DeleteNode(ctx context.Context, key []byte) error {
	if err := s.dir.lock(ctx); err != nil {
		return err
	}
	defer s.dir.unlock()
	var address string
	err := s.tx(ctx, "delete node", func(tx db) error {
		if _, err := tx.exec(ctx, "DELETE FROM challenges WHERE label IN (SELECT label FROM nodes WHERE node_key = $1)", key); err != nil {
			return err
		}
		err := tx.queryRow(ctx, "DELETE FROM nodes WHERE node_key = $1 RETURNING address", key).Scan(&address)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		return err
	})
	if err != nil {
		return err
	}
	s.dir.set(address, dirSlot{}, false)
	return nil
}

func (s *store) CountNodes(ctx context.Context) (int, error) {
	var n int
	if err := s.be.queryRow(ctx, "SELECT count(*) FROM nodes").Scan(&n); err != nil {
		return 0, fmt.Errorf("relay store: count nodes: %w", err)
	}
	return n, nil
}

func (s *store) PutPending(ctx context.Context, p Pending) error {
	_, err := s.be.exec(ctx, `INSERT INTO pending(address, node_key, box_key, code_id, expires, attempts)
		VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (address, node_key) DO UPDATE
		SET box_key = excluded.box_key, expires = excluded.expires,
			attempts = CASE WHEN pending.code_id = excluded.code_id THEN pending.attempts ELSE 0 END,
			code_id = excluded.code_id`,
		p.Address, p.NodeKey, p.BoxKey, p.CodeID, p.Expires.Unix())
	if err != nil {
		return fmt.Errorf("relay store: put pending: %w", err)
	}
	return nil
}

func (s *store) PendingFor(ctx context.Context, address string, key []byte) (Pending, error) {
	var p Pending
	var exp int64
	err := s.be.queryRow(ctx, `SELECT address, node_key, box_key, code_id, expires, attempts
		FROM pending WHERE address = $1 AND node_key = $2`, address, key).
		Scan(&p.Address, &p.NodeKey, &p.BoxKey, &p.CodeID, &exp, &p.Attempts)
	if errors.Is(err, sql.ErrNoRows) {
		return Pending{}, ErrNotFound
	}
	if err != nil {
		return Pending{}, fmt.Errorf("relay store: pending: %w", err)
	}
	p.Expires = time.Unix(exp, 0)
	return p, nil
}

func (s *store) FailPending(ctx context.Context, address string, key []byte) error {
	if _, err := s.be.exec(ctx, "UPDATE pending SET attempts = attempts + 1 WHERE address = $1 AND node_key = $2", address, key); err != nil {
		return fmt.Errorf("relay store: pending attempt: %w", err)
	}
	return nil
}

func (s *store) DeletePending(ctx context.Context, address string, key []byte) error {
	if _, err := s.be.exec(ctx, "DELETE FROM pending WHERE address = $1 AND node_key = $2", address, key); err != nil {
		return fmt.Errorf("relay store: delete pending: %w", err)
	}
	return nil
}

// IssueCode holds the locks of the code's mailbox, then of its client
// network (always in that order), so that requests racing for the same
// address issue one code and neither count is passed. An address has one
// mailbox, so its lock covers the address.
func (s *store) IssueCode(ctx context.Context, c Code, max, netMax int) (Code, bool, error) {
	out, issued := c, false
	if c.Mailbox == "" {
		c.Mailbox = c.Address
	}
	if c.Net == nil {
		c.Net = []byte{}
	}
	err := s.tx(ctx, "issue code", func(tx db) error {
		if err := s.be.lock(ctx, tx, "code:", c.Mailbox); err != nil {
			return err
		}
		if err := s.be.lock(ctx, tx, "codenet:", hex.EncodeToString(c.Net)); err != nil {
			return err
		}
		live, err := scanCode(tx.queryRow(ctx, "SELECT address, id, code_hash, issued, expires FROM codes WHERE address = $1 AND expires > $2",
			c.Address, c.Issued.Unix()))
		if err == nil {
			out = live
			return nil
		}
		if !errors.Is(err, ErrNotFound) {
			return err
		}
		var n, nn int
		since := c.Issued.Add(-24 * time.Hour).Unix()
		if err := tx.queryRow(ctx, "SELECT count(*) FROM code_mails WHERE mailbox = $1 AND at > $2",
			c.Mailbox, since).Scan(&n); err != nil {
			return err
		}
		if err := tx.queryRow(ctx, "SELECT count(*) FROM code_mails WHERE net = $1 AND at > $2",
			c.Net, since).Scan(&nn); err != nil {
			return err
		}
		if n >= max || nn >= netMax {
			return ErrMailLimit
		}
		if _, err := tx.exec(ctx, `INSERT INTO codes(address, id, code_hash, issued, expires) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (address) DO UPDATE SET id = excluded.id, code_hash = excluded.code_hash, issued = excluded.issued, expires = excluded.expires`,
			c.Address, c.ID, c.Hash, c.Issued.Unix(), c.Expires.Unix()); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO code_mails(address, id, at, mailbox, net) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (address, id) DO UPDATE SET at = excluded.at, mailbox = excluded.mailbox, net = excluded.net`,
			c.Address, c.ID, c.Issued.Unix(), c.Mailbox, c.Net); err != nil {
			return err
		}
		issued = true
		return nil
	})
	if err != nil {
		return Code{}, false, err
	}
	return out, issued, nil
}

func (s *store) LiveCode(ctx context.Context, address string, now time.Time) (Code, error) {
	c, err := scanCode(s.be.queryRow(ctx, "SELECT address, id, code_hash, issued, expires FROM codes WHERE address = $1 AND expires > $2",
		address, now.Unix()))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Code{}, fmt.Errorf("relay store: live code: %w", err)
	}
	return c, err
}

func (s *store) DropCode(ctx context.Context, address, id string) error {
	return s.tx(ctx, "drop code", func(tx db) error {
		if _, err := tx.exec(ctx, "DELETE FROM codes WHERE address = $1 AND id = $2", address, id); err != nil {
			return err
		}
		_, err := tx.exec(ctx, "DELETE FROM code_mails WHERE address = $1 AND id = $2", address, id)
		return err
	})
}

// scanCode reads a codes row; ErrNotFound if there is none.
func scanCode(row scanner) (Code, error) {
	var c Code
	var issued, expires int64
	err := row.Scan(&c.Address, &c.ID, &c.Hash, &issued, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return Code{}, ErrNotFound
	}
	if err != nil {
		return Code{}, err
	}
	c.Issued, c.Expires = time.Unix(issued, 0), time.Unix(expires, 0)
	return c, nil
}

func (s *store) SetChallenges(ctx context.Context, label string, values []string) error {
	var err error
	if len(values) == 0 {
		_, err = s.be.exec(ctx, "DELETE FROM challenges WHERE label = $1", label)
	} else {
		b, _ := json.Marshal(values)
		_, err = s.be.exec(ctx, "INSERT INTO challenges(label, vals) VALUES ($1, $2) ON CONFLICT (label) DO UPDATE SET vals = excluded.vals",
			label, string(b))
	}
	if err != nil {
		return fmt.Errorf("relay store: challenges: %w", err)
	}
	return nil
}

func (s *store) Challenges(ctx context.Context, label string) ([]string, error) {
	var raw string
	err := s.be.queryRow(ctx, "SELECT vals FROM challenges WHERE label = $1", label).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("relay store: challenges: %w", err)
	}
	var v []string
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return nil, fmt.Errorf("relay store: challenges of %s: %w", label, err)
	}
	return v, nil
}

// putAgent is the statement that stores an agent: one already stored
// keeps its Created and Net.
const putAgent = `INSERT INTO agents(label, kid, key, created, net) VALUES ($1, $2, $3, $4, $5)
	ON CONFLICT (label) DO UPDATE SET kid = excluded.kid`

func (s *store) PutAgent(ctx context.Context, a Agent) error {
	if a.Net == nil {
		a.Net = []byte{}
	}
	if _, err := s.be.exec(ctx, putAgent, a.Label, a.Kid, a.Key, a.Created.Unix(), a.Net); err != nil {
		return fmt.Errorf("relay store: put agent: %w", err)
	}
	return nil
}

func (s *store) AddAgent(ctx context.Context, a Agent, since time.Time, max, netMax int) error {
	if a.Net == nil {
		a.Net = []byte{}
	}
	return s.tx(ctx, "add agent", func(tx db) error {
		// One lock for every new agent: they are rare (a thousand an
		// hour at most), and the global count needs it anyway.
		if err := s.be.lock(ctx, tx, "agents", ""); err != nil {
			return err
		}
		var n, mine int
		if err := tx.queryRow(ctx, "SELECT count(*), count(*) FILTER (WHERE net = $2) FROM agents WHERE created >= $1",
			since.Unix(), a.Net).Scan(&n, &mine); err != nil {
			return err
		}
		if n >= max || mine >= netMax {
			return ErrAgentLimit
		}
		_, err := tx.exec(ctx, putAgent, a.Label, a.Kid, a.Key, a.Created.Unix(), a.Net)
		return err
	})
}

func (s *store) AgentByLabel(ctx context.Context, label string) (Agent, error) {
	var a Agent
	var at int64
	err := s.be.queryRow(ctx, "SELECT label, kid, key, created FROM agents WHERE label = $1", label).Scan(&a.Label, &a.Kid, &a.Key, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Agent{}, ErrNotFound
	}
	if err != nil {
		return Agent{}, fmt.Errorf("relay store: agent: %w", err)
	}
	a.Created = time.Unix(at, 0)
	return a, nil
}

func (s *store) CountAgentsSince(ctx context.Context, since time.Time) (int, error) {
	var n int
	if err := s.be.queryRow(ctx, "SELECT count(*) FROM agents WHERE created >= $1", since.Unix()).Scan(&n); err != nil {
		return 0, fmt.Errorf("relay store: count agents: %w", err)
	}
	return n, nil
}

func (s *store) CountAgentsFrom(ctx context.Context, net []byte, since time.Time) (int, error) {
	var n int
	if err := s.be.queryRow(ctx, "SELECT count(*) FROM agents WHERE net = $1 AND created >= $2", net, since.Unix()).Scan(&n); err != nil {
		return 0, fmt.Errorf("relay store: count agents: %w", err)
	}
	return n, nil
}

func (s *store) Expire(ctx context.Context, now time.Time) error {
	if _, err := s.be.exec(ctx, "DELETE FROM pending WHERE expires < $1", now.Unix()); err != nil {
		return fmt.Errorf("relay store: expire: %w", err)
	}
	if _, err := s.be.exec(ctx, "DELETE FROM codes WHERE expires <= $1", now.Unix()); err != nil {
		return fmt.Errorf("relay store: expire codes: %w", err)
	}
	if _, err := s.be.exec(ctx, "DELETE FROM code_mails WHERE at <= $1", now.Add(-24*time.Hour).Unix()); err != nil {
		return fmt.Errorf("relay store: expire code mails: %w", err)
	}
	if _, err := s.be.exec(ctx, "DELETE FROM queue WHERE expires <= $1", now.UnixMilli()); err != nil {
		return fmt.Errorf("relay store: expire queue: %w", err)
	}
	return nil
}

// queueCols are a queue row's columns; receiptCols all but the sealed
// bytes.
const (
	receiptCols = "id, label, net, created, expires, reply"
	queueCols   = receiptCols + ", sealed"
)

func scanEnvelope(row scanner, sealed bool) (Envelope, error) {
	var e Envelope
	var created, expires int64
	dest := []any{&e.ID, &e.Label, &e.Net, &created, &expires, &e.Reply}
	if sealed {
		dest = append(dest, &e.Sealed)
	}
	if err := row.Scan(dest...); err != nil {
		return Envelope{}, err
	}
	e.Created, e.Expires = time.UnixMilli(created), time.UnixMilli(expires)
	return e, nil
}

// Enqueue holds the lock of the label, so that enqueues for the same node
// at once keep its limit and every network's share of it.
func (s *store) Enqueue(ctx context.Context, e Envelope, max, share int) (Envelope, error) {
	if e.Net == nil {
		e.Net = []byte{}
	}
	var out Envelope
	err := s.tx(ctx, "enqueue", func(tx db) error {
		if err := s.be.lock(ctx, tx, "queue:", e.Label); err != nil {
			return err
		}
		old, err := scanEnvelope(tx.queryRow(ctx, "SELECT "+receiptCols+" FROM queue WHERE id = $1", e.ID), false)
		switch {
		case err == nil && old.Expires.After(e.Created) && old.Label != e.Label:
			return ErrIDTaken
		case err == nil && old.Expires.After(e.Created):
			out = old
			return nil
		case err == nil:
			// Expired, not yet swept: the id is free again.
			if _, err := tx.exec(ctx, "DELETE FROM queue WHERE id = $1 AND expires <= $2", e.ID, e.Created.UnixMilli()); err != nil {
				return err
			}
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var held, ours int
		if err := tx.queryRow(ctx, "SELECT count(*), count(*) FILTER (WHERE net = $1) FROM queue WHERE label = $2 AND expires > $3",
			e.Net, e.Label, e.Created.UnixMilli()).Scan(&held, &ours); err != nil {
			return err
		}
		if held >= max || ours >= share {
			return ErrQueueFull
		}
		if _, err := tx.exec(ctx, "INSERT INTO queue("+queueCols+") VALUES ($1, $2, $3, $4, $5, NULL, $6)",
			e.ID, e.Label, e.Net, e.Created.UnixMilli(), e.Expires.UnixMilli(), e.Sealed); err != nil {
			if s.be.duplicate(err) {
				// Taken meanwhile for another label, whose lock this
				// transaction does not hold (on PostgreSQL).
				return ErrIDTaken
			}
			return err
		}
		out = e
		out.Sealed = nil
		return nil
	})
	if err != nil {
		return Envelope{}, err
	}
	return out, nil
}

func (s *store) Undelivered(ctx context.Context, label string, now time.Time, n int) ([]Envelope, error) {
	rows, err := s.be.query(ctx, "SELECT "+queueCols+` FROM queue
		WHERE label = $1 AND sealed IS NOT NULL AND expires > $2 ORDER BY created, id LIMIT $3`, label, now.UnixMilli(), n)
	if err != nil {
		return nil, fmt.Errorf("relay store: undelivered: %w", err)
	}
	defer rows.Close()
	var out []Envelope
	for rows.Next() {
		e, err := scanEnvelope(rows, true)
		if err != nil {
			return nil, fmt.Errorf("relay store: undelivered: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("relay store: undelivered: %w", err)
	}
	return out, nil
}

func (s *store) Ack(ctx context.Context, label, id string, reply []byte) error {
	if len(reply) == 0 {
		reply = nil
	}
	if _, err := s.be.exec(ctx, "UPDATE queue SET sealed = NULL, reply = coalesce(reply, $1) WHERE id = $2 AND label = $3", reply, id, label); err != nil {
		return fmt.Errorf("relay store: ack: %w", err)
	}
	return nil
}

func (s *store) QueueEntry(ctx context.Context, id string, now time.Time) (Envelope, error) {
	e, err := scanEnvelope(s.be.queryRow(ctx, "SELECT "+queueCols+" FROM queue WHERE id = $1 AND expires > $2", id, now.UnixMilli()), true)
	if errors.Is(err, sql.ErrNoRows) {
		return Envelope{}, ErrNotFound
	}
	if err != nil {
		return Envelope{}, fmt.Errorf("relay store: queue entry: %w", err)
	}
	return e, nil
}

func (s *store) QueueReply(ctx context.Context, id string, now time.Time) ([]byte, error) {
	var reply []byte
	err := s.be.queryRow(ctx, "SELECT reply FROM queue WHERE id = $1 AND expires > $2", id, now.UnixMilli()).Scan(&reply)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("relay store: queue reply: %w", err)
	}
	return reply, nil
}

func (s *store) Heartbeat(ctx context.Context, in Instance) error {
	_, err := s.be.exec(ctx, `INSERT INTO instances(id, mesh_addr, cert_fp, expires) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET mesh_addr = excluded.mesh_addr, cert_fp = excluded.cert_fp, expires = excluded.expires`,
		in.ID, in.MeshAddr, in.CertFP, in.Expires.UnixMilli())
	if err != nil {
		return fmt.Errorf("relay store: heartbeat: %w", err)
	}
	return nil
}

func scanInstance(row scanner) (Instance, error) {
	var in Instance
	var exp int64
	err := row.Scan(&in.ID, &in.MeshAddr, &in.CertFP, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return Instance{}, ErrNotFound
	}
	if err != nil {
		return Instance{}, fmt.Errorf("relay store: instance: %w", err)
	}
	in.Expires = time.UnixMilli(exp)
	return in, nil
}

func (s *store) Instance(ctx context.Context, id string, now time.Time) (Instance, error) {
	return scanInstance(s.be.queryRow(ctx, "SELECT id, mesh_addr, cert_fp, expires FROM instances WHERE id = $1 AND expires > $2", id, now.UnixMilli()))
}

func (s *store) ClaimTunnel(ctx context.Context, label, instance string) error {
	if _, err := s.be.exec(ctx, "INSERT INTO tunnels(label, instance) VALUES ($1, $2) ON CONFLICT (label) DO UPDATE SET instance = excluded.instance",
		label, instance); err != nil {
		return fmt.Errorf("relay store: claim tunnel: %w", err)
	}
	return nil
}

func (s *store) ReleaseTunnel(ctx context.Context, label, instance string) error {
	if _, err := s.be.exec(ctx, "DELETE FROM tunnels WHERE label = $1 AND instance = $2", label, instance); err != nil {
		return fmt.Errorf("relay store: release tunnel: %w", err)
	}
	return nil
}

func (s *store) TunnelAt(ctx context.Context, label string, now time.Time) (Instance, error) {
	return scanInstance(s.be.queryRow(ctx, `SELECT i.id, i.mesh_addr, i.cert_fp, i.expires FROM tunnels t
		JOIN instances i ON i.id = t.instance WHERE t.label = $1 AND i.expires > $2`, label, now.UnixMilli()))
}
