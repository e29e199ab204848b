package relaystore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver

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

// SQLite is the Store of a single relay: one file in WAL mode.
type SQLite struct {
	db *sql.DB
	// resolve is prepared once: it runs on every resolve, and parsing
	// the statement each time cost more than running it.
	resolve *sql.Stmt

	agentsMu sync.Mutex // makes AddAgent's count and insert one step
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
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("relay store: %w", err)
	}
	// Keep connections (and their prepared statements) for concurrent
	// resolves; database/sql's default of 2 idle ones re-opened and
	// re-prepared under load.
	db.SetMaxIdleConns(16)
	s := &SQLite{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Chmod(path+suffix, 0o600)
	}
	if s.resolve, err = db.PrepareContext(ctx, `SELECT coalesce(n.label, ?2), coalesce(n.box_key, ?3), coalesce(n.registered_at, 0)
		FROM (SELECT ?1 AS a) q LEFT JOIN nodes n ON n.address = q.a`); err != nil {
		db.Close()
		return nil, fmt.Errorf("relay store: prepare: %w", err)
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
	s.resolve.Close()
	return s.db.Close()
}

func (s *SQLite) Secret(ctx context.Context, name string) ([]byte, error) {
	fresh := make([]byte, 32)
	rand.Read(fresh)
	if _, err := s.db.ExecContext(ctx, "INSERT OR IGNORE INTO secrets(name, value) VALUES (?, ?)", name, fresh); err != nil {
		return nil, fmt.Errorf("relay store: secret %s: %w", name, err)
	}
	var v []byte
	if err := s.db.QueryRowContext(ctx, "SELECT value FROM secrets WHERE name = ?", name).Scan(&v); err != nil {
		return nil, fmt.Errorf("relay store: secret %s: %w", name, err)
	}
	return v, nil
}

func (s *SQLite) Private(ctx context.Context, name string) ([]byte, error) {
	var v []byte
	err := s.db.QueryRowContext(ctx, "SELECT value FROM secrets WHERE name = ?", name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("relay store: private %s: %w", name, err)
	}
	return v, nil
}

func (s *SQLite) PutPrivate(ctx context.Context, name string, value []byte) error {
	if _, err := s.db.ExecContext(ctx, "INSERT OR REPLACE INTO secrets(name, value) VALUES (?, ?)", name, value); err != nil {
		return fmt.Errorf("relay store: private %s: %w", name, err)
	}
	return nil
}

func (s *SQLite) TakeLease(ctx context.Context, name, holder string, now, until time.Time) (bool, error) {
	var got string
	err := s.db.QueryRowContext(ctx, `INSERT INTO leases(name, holder, expires) VALUES (?1, ?2, ?3)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires
		WHERE leases.holder = excluded.holder OR leases.expires <= ?4
		RETURNING holder`, name, holder, until.UnixMilli(), now.UnixMilli()).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("relay store: lease %s: %w", name, err)
	}
	return got == holder, nil
}

func (s *SQLite) DropLease(ctx context.Context, name, holder string) error {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM leases WHERE name = ? AND holder = ?", name, holder); err != nil {
		return fmt.Errorf("relay store: lease %s: %w", name, err)
	}
	return nil
}

const nodeCols = "address, label, node_key, box_key, registered_at"

func scanNode(row *sql.Row) (Node, error) {
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

func (s *SQLite) NodeByAddress(ctx context.Context, address string) (Node, error) {
	return scanNode(s.db.QueryRowContext(ctx, "SELECT "+nodeCols+" FROM nodes WHERE address = ?", address))
}

// Resolve reads one row of the same size whether or not the address is
// registered: a LEFT JOIN from the asked address, with the decoy's values
// standing in for a missing node's, so that resolve does the same work,
// scans and allocates the same, for a registered and an unknown address.
func (s *SQLite) Resolve(ctx context.Context, address string, decoy Node) (Node, error) {
	n := Node{Address: address}
	var at int64
	err := s.resolve.QueryRowContext(ctx, address, decoy.Label, decoy.BoxKey).Scan(&n.Label, &n.BoxKey, &at)
	if err != nil {
		return Node{}, fmt.Errorf("relay store: resolve: %w", err)
	}
	n.RegisteredAt = time.Unix(at, 0)
	return n, nil
}

func (s *SQLite) NodeByKey(ctx context.Context, key []byte) (Node, error) {
	return scanNode(s.db.QueryRowContext(ctx, "SELECT "+nodeCols+" FROM nodes WHERE node_key = ?", key))
}

func (s *SQLite) NodeByLabel(ctx context.Context, label string) (Node, error) {
	return scanNode(s.db.QueryRowContext(ctx, "SELECT "+nodeCols+" FROM nodes WHERE label = ?", label))
}

func (s *SQLite) PutNode(ctx context.Context, n Node) error {
	return s.tx(ctx, "put node", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM challenges WHERE label IN (SELECT label FROM nodes WHERE address = ? OR node_key = ?)", n.Address, n.NodeKey); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM nodes WHERE address = ? OR node_key = ?", n.Address, n.NodeKey); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO nodes("+nodeCols+") VALUES (?, ?, ?, ?, ?)",
			n.Address, n.Label, n.NodeKey, n.BoxKey, n.RegisteredAt.Unix())
		return err
	})
}

func (s *SQLite) RotateKeys(ctx context.Context, old, nodeKey, boxKey []byte) error {
	res, err := s.db.ExecContext(ctx, "UPDATE nodes SET node_key = ?, box_key = ? WHERE node_key = ?", nodeKey, boxKey, old)
	if err != nil {
		return fmt.Errorf("relay store: rotate keys: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

func (s *SQLite) DeleteNode(ctx context.Context, key []byte) error {
	return s.tx(ctx, "delete node", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM challenges WHERE label IN (SELECT label FROM nodes WHERE node_key = ?)", key); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, "DELETE FROM nodes WHERE node_key = ?", key)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

func (s *SQLite) CountNodes(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM nodes").Scan(&n); err != nil {
		return 0, fmt.Errorf("relay store: count nodes: %w", err)
	}
	return n, nil
}

func (s *SQLite) PutPending(ctx context.Context, p Pending) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO pending(address, node_key, box_key, code_id, expires, attempts)
		VALUES (?, ?, ?, ?, ?, 0) ON CONFLICT (address, node_key) DO UPDATE
		SET box_key = excluded.box_key, expires = excluded.expires,
			attempts = CASE WHEN pending.code_id = excluded.code_id THEN pending.attempts ELSE 0 END,
			code_id = excluded.code_id`,
		p.Address, p.NodeKey, p.BoxKey, p.CodeID, p.Expires.Unix())
	if err != nil {
		return fmt.Errorf("relay store: put pending: %w", err)
	}
	return nil
}

func (s *SQLite) PendingFor(ctx context.Context, address string, key []byte) (Pending, error) {
	var p Pending
	var exp int64
	err := s.db.QueryRowContext(ctx, `SELECT address, node_key, box_key, code_id, expires, attempts
		FROM pending WHERE address = ? AND node_key = ?`, address, key).
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

// IssueCode runs in one write transaction (BEGIN IMMEDIATE): two
// requests for the same address cannot both issue.
func (s *SQLite) IssueCode(ctx context.Context, c Code, max, netMax int) (Code, bool, error) {
	out, issued := c, false
	if c.Mailbox == "" {
		c.Mailbox = c.Address
	}
	if c.Net == nil {
		c.Net = []byte{}
	}
	err := s.tx(ctx, "issue code", func(tx *sql.Tx) error {
		live, err := scanCode(tx.QueryRowContext(ctx, "SELECT address, id, code_hash, issued, expires FROM codes WHERE address = ? AND expires > ?",
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
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM code_mails WHERE mailbox = ? AND at > ?",
			c.Mailbox, since).Scan(&n); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM code_mails WHERE net = ? AND at > ?",
			c.Net, since).Scan(&nn); err != nil {
			return err
		}
		if n >= max || nn >= netMax {
			return ErrMailLimit
		}
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO codes(address, id, code_hash, issued, expires) VALUES (?, ?, ?, ?, ?)",
			c.Address, c.ID, c.Hash, c.Issued.Unix(), c.Expires.Unix()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO code_mails(address, id, at, mailbox, net) VALUES (?, ?, ?, ?, ?)",
			c.Address, c.ID, c.Issued.Unix(), c.Mailbox, c.Net); err != nil {
			return err
		}
		issued = true
		return nil
	})
	if errors.Is(err, ErrMailLimit) {
		return Code{}, false, ErrMailLimit
	}
	if err != nil {
		return Code{}, false, err
	}
	return out, issued, nil
}

func (s *SQLite) LiveCode(ctx context.Context, address string, now time.Time) (Code, error) {
	c, err := scanCode(s.db.QueryRowContext(ctx, "SELECT address, id, code_hash, issued, expires FROM codes WHERE address = ? AND expires > ?",
		address, now.Unix()))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Code{}, fmt.Errorf("relay store: live code: %w", err)
	}
	return c, err
}

func (s *SQLite) DropCode(ctx context.Context, address, id string) error {
	return s.tx(ctx, "drop code", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM codes WHERE address = ? AND id = ?", address, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "DELETE FROM code_mails WHERE address = ? AND id = ?", address, id)
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

func (s *SQLite) FailPending(ctx context.Context, address string, key []byte) error {
	_, err := s.db.ExecContext(ctx, "UPDATE pending SET attempts = attempts + 1 WHERE address = ? AND node_key = ?", address, key)
	if err != nil {
		return fmt.Errorf("relay store: pending attempt: %w", err)
	}
	return nil
}

func (s *SQLite) DeletePending(ctx context.Context, address string, key []byte) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM pending WHERE address = ? AND node_key = ?", address, key)
	if err != nil {
		return fmt.Errorf("relay store: delete pending: %w", err)
	}
	return nil
}

func (s *SQLite) SetChallenges(ctx context.Context, label string, values []string) error {
	var err error
	if len(values) == 0 {
		_, err = s.db.ExecContext(ctx, "DELETE FROM challenges WHERE label = ?", label)
	} else {
		b, _ := json.Marshal(values)
		_, err = s.db.ExecContext(ctx, "INSERT OR REPLACE INTO challenges(label, vals) VALUES (?, ?)", label, string(b))
	}
	if err != nil {
		return fmt.Errorf("relay store: challenges: %w", err)
	}
	return nil
}

func (s *SQLite) Challenges(ctx context.Context, label string) ([]string, error) {
	var raw string
	err := s.db.QueryRowContext(ctx, "SELECT vals FROM challenges WHERE label = ?", label).Scan(&raw)
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

func (s *SQLite) PutAgent(ctx context.Context, a Agent) error {
	if a.Net == nil {
		a.Net = []byte{}
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO agents(label, kid, key, created, net) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (label) DO UPDATE SET kid = excluded.kid`,
		a.Label, a.Kid, a.Key, a.Created.Unix(), a.Net)
	if err != nil {
		return fmt.Errorf("relay store: put agent: %w", err)
	}
	return nil
}

func (s *SQLite) AddAgent(ctx context.Context, a Agent, since time.Time, max, netMax int) error {
	if a.Net == nil {
		a.Net = []byte{}
	}
	// One relay process owns the file: its lock makes the count and the
	// insert one step.
	s.agentsMu.Lock()
	defer s.agentsMu.Unlock()
	err := s.tx(ctx, "add agent", func(tx *sql.Tx) error {
		var n, mine int
		if err := tx.QueryRowContext(ctx, "SELECT count(*), count(*) FILTER (WHERE net = ?2) FROM agents WHERE created >= ?1",
			since.Unix(), a.Net).Scan(&n, &mine); err != nil {
			return err
		}
		if n >= max || mine >= netMax {
			return ErrAgentLimit
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO agents(label, kid, key, created, net) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (label) DO UPDATE SET kid = excluded.kid`,
			a.Label, a.Kid, a.Key, a.Created.Unix(), a.Net)
		return err
	})
	if errors.Is(err, ErrAgentLimit) {
		return ErrAgentLimit
	}
	return err
}

func (s *SQLite) AgentByLabel(ctx context.Context, label string) (Agent, error) {
	var a Agent
	var at int64
	err := s.db.QueryRowContext(ctx, "SELECT label, kid, key, created FROM agents WHERE label = ?", label).Scan(&a.Label, &a.Kid, &a.Key, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Agent{}, ErrNotFound
	}
	if err != nil {
		return Agent{}, fmt.Errorf("relay store: agent: %w", err)
	}
	a.Created = time.Unix(at, 0)
	return a, nil
}

func (s *SQLite) CountAgentsSince(ctx context.Context, since time.Time) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM agents WHERE created >= ?", since.Unix()).Scan(&n); err != nil {
		return 0, fmt.Errorf("relay store: count agents: %w", err)
	}
	return n, nil
}

func (s *SQLite) CountAgentsFrom(ctx context.Context, net []byte, since time.Time) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM agents WHERE net = ? AND created >= ?", net, since.Unix()).Scan(&n); err != nil {
		return 0, fmt.Errorf("relay store: count agents: %w", err)
	}
	return n, nil
}

func (s *SQLite) Expire(ctx context.Context, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM pending WHERE expires < ?", now.Unix()); err != nil {
		return fmt.Errorf("relay store: expire: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM codes WHERE expires <= ?", now.Unix()); err != nil {
		return fmt.Errorf("relay store: expire codes: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM code_mails WHERE at <= ?", now.Add(-24*time.Hour).Unix()); err != nil {
		return fmt.Errorf("relay store: expire code mails: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM queue WHERE expires <= ?", now.UnixMilli()); err != nil {
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

type scanner interface{ Scan(...any) error }

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

func (s *SQLite) Enqueue(ctx context.Context, e Envelope, max, share int) (Envelope, error) {
	if e.Net == nil {
		e.Net = []byte{}
	}
	var out Envelope
	err := s.tx(ctx, "enqueue", func(tx *sql.Tx) error {
		old, err := scanEnvelope(tx.QueryRowContext(ctx, "SELECT "+receiptCols+" FROM queue WHERE id = ?", e.ID), false)
		switch {
		case err == nil && old.Expires.After(e.Created) && old.Label != e.Label:
			return ErrIDTaken
		case err == nil && old.Expires.After(e.Created):
			out = old
			return nil
		case err == nil:
			// Expired, not yet swept: the id is free again.
			if _, err := tx.ExecContext(ctx, "DELETE FROM queue WHERE id = ?", e.ID); err != nil {
				return err
			}
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var held, ours int
		if err := tx.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(net = ?), 0) FROM queue WHERE label = ? AND expires > ?",
			e.Net, e.Label, e.Created.UnixMilli()).Scan(&held, &ours); err != nil {
			return err
		}
		if held >= max || ours >= share {
			return ErrQueueFull
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO queue("+queueCols+") VALUES (?, ?, ?, ?, ?, NULL, ?)",
			e.ID, e.Label, e.Net, e.Created.UnixMilli(), e.Expires.UnixMilli(), e.Sealed); err != nil {
			return err
		}
		out = e
		out.Sealed = nil
		return nil
	})
	for _, sentinel := range []error{ErrIDTaken, ErrQueueFull} {
		if errors.Is(err, sentinel) {
			return Envelope{}, sentinel
		}
	}
	return out, err
}

func (s *SQLite) Undelivered(ctx context.Context, label string, now time.Time, n int) ([]Envelope, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+queueCols+` FROM queue
		WHERE label = ? AND sealed IS NOT NULL AND expires > ? ORDER BY created, id LIMIT ?`, label, now.UnixMilli(), n)
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

func (s *SQLite) Ack(ctx context.Context, label, id string, reply []byte) error {
	if len(reply) == 0 {
		reply = nil
	}
	_, err := s.db.ExecContext(ctx, "UPDATE queue SET sealed = NULL, reply = coalesce(reply, ?) WHERE id = ? AND label = ?", reply, id, label)
	if err != nil {
		return fmt.Errorf("relay store: ack: %w", err)
	}
	return nil
}

func (s *SQLite) QueueEntry(ctx context.Context, id string, now time.Time) (Envelope, error) {
	e, err := scanEnvelope(s.db.QueryRowContext(ctx, "SELECT "+queueCols+" FROM queue WHERE id = ? AND expires > ?", id, now.UnixMilli()), true)
	if errors.Is(err, sql.ErrNoRows) {
		return Envelope{}, ErrNotFound
	}
	if err != nil {
		return Envelope{}, fmt.Errorf("relay store: queue entry: %w", err)
	}
	return e, nil
}

func (s *SQLite) QueueReply(ctx context.Context, id string, now time.Time) ([]byte, error) {
	var reply []byte
	err := s.db.QueryRowContext(ctx, "SELECT reply FROM queue WHERE id = ? AND expires > ?", id, now.UnixMilli()).Scan(&reply)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("relay store: queue reply: %w", err)
	}
	return reply, nil
}

func (s *SQLite) tx(ctx context.Context, what string, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("relay store: %s: %w", what, err)
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		if errors.Is(err, ErrNotFound) {
			return err
		}
		return fmt.Errorf("relay store: %s: %w", what, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("relay store: %s: %w", what, err)
	}
	return nil
}

func (s *SQLite) Heartbeat(ctx context.Context, in Instance) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO instances(id, mesh_addr, cert_fp, expires) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET mesh_addr = excluded.mesh_addr, cert_fp = excluded.cert_fp, expires = excluded.expires`,
		in.ID, in.MeshAddr, in.CertFP, in.Expires.UnixMilli())
	if err != nil {
		return fmt.Errorf("relay store: heartbeat: %w", err)
	}
	return nil
}

func (s *SQLite) Instance(ctx context.Context, id string, now time.Time) (Instance, error) {
	return scanInstance(s.db.QueryRowContext(ctx, "SELECT id, mesh_addr, cert_fp, expires FROM instances WHERE id = ? AND expires > ?", id, now.UnixMilli()))
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

func (s *SQLite) ClaimTunnel(ctx context.Context, label, instance string) error {
	if _, err := s.db.ExecContext(ctx, "INSERT OR REPLACE INTO tunnels(label, instance) VALUES (?, ?)", label, instance); err != nil {
		return fmt.Errorf("relay store: claim tunnel: %w", err)
	}
	return nil
}

func (s *SQLite) ReleaseTunnel(ctx context.Context, label, instance string) error {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM tunnels WHERE label = ? AND instance = ?", label, instance); err != nil {
		return fmt.Errorf("relay store: release tunnel: %w", err)
	}
	return nil
}

func (s *SQLite) TunnelAt(ctx context.Context, label string, now time.Time) (Instance, error) {
	return scanInstance(s.db.QueryRowContext(ctx, `SELECT i.id, i.mesh_addr, i.cert_fp, i.expires FROM tunnels t
		JOIN instances i ON i.id = t.instance WHERE t.label = ? AND i.expires > ?`, label, now.UnixMilli()))
}
