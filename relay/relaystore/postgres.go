package relaystore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
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
}

// Postgres is the Store that several relay instances share.
type Postgres struct {
	pool *pgxpool.Pool
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
	s := &Postgres{pool: pool}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
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
	s.pool.Close()
	return nil
}

func (s *Postgres) Secret(ctx context.Context, name string) ([]byte, error) {
	fresh := make([]byte, 32)
	rand.Read(fresh)
	var v []byte
	err := s.pool.QueryRow(ctx, `WITH ins AS (INSERT INTO secrets(name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value)
		SELECT value FROM ins UNION ALL SELECT value FROM secrets WHERE name = $1 LIMIT 1`, name, fresh).Scan(&v)
	if err != nil {
		return nil, fmt.Errorf("relay store: secret %s: %w", name, err)
	}
	return v, nil
}

func (s *Postgres) Private(ctx context.Context, name string) ([]byte, error) {
	var v []byte
	err := s.pool.QueryRow(ctx, "SELECT value FROM secrets WHERE name = $1", name).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("relay store: private %s: %w", name, err)
	}
	return v, nil
}

func (s *Postgres) PutPrivate(ctx context.Context, name string, value []byte) error {
	_, err := s.pool.Exec(ctx, "INSERT INTO secrets(name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value", name, value)
	if err != nil {
		return fmt.Errorf("relay store: private %s: %w", name, err)
	}
	return nil
}

func (s *Postgres) TakeLease(ctx context.Context, name, holder string, now, until time.Time) (bool, error) {
	var got string
	err := s.pool.QueryRow(ctx, `INSERT INTO leases(name, holder, expires) VALUES ($1, $2, $3)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires
		WHERE leases.holder = excluded.holder OR leases.expires <= $4
		RETURNING holder`, name, holder, until.UnixMilli(), now.UnixMilli()).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("relay store: lease %s: %w", name, err)
	}
	return got == holder, nil
}

func (s *Postgres) DropLease(ctx context.Context, name, holder string) error {
	if _, err := s.pool.Exec(ctx, "DELETE FROM leases WHERE name = $1 AND holder = $2", name, holder); err != nil {
		return fmt.Errorf("relay store: lease %s: %w", name, err)
	}
	return nil
}

func pgNode(row pgx.Row) (Node, error) {
	var n Node
	var at int64
	err := row.Scan(&n.Address, &n.Label, &n.NodeKey, &n.BoxKey, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return Node{}, ErrNotFound
	}
	if err != nil {
		return Node{}, fmt.Errorf("relay store: node: %w", err)
	}
	n.RegisteredAt = time.Unix(at, 0)
	return n, nil
}

func (s *Postgres) NodeByAddress(ctx context.Context, address string) (Node, error) {
	return pgNode(s.pool.QueryRow(ctx, "SELECT "+nodeCols+" FROM nodes WHERE address = $1", address))
}

func (s *Postgres) NodeByKey(ctx context.Context, key []byte) (Node, error) {
	return pgNode(s.pool.QueryRow(ctx, "SELECT "+nodeCols+" FROM nodes WHERE node_key = $1", key))
}

func (s *Postgres) NodeByLabel(ctx context.Context, label string) (Node, error) {
	return pgNode(s.pool.QueryRow(ctx, "SELECT "+nodeCols+" FROM nodes WHERE label = $1", label))
}

// Resolve reads one row of the same shape whether or not the address is
// registered, as SQLite's does.
func (s *Postgres) Resolve(ctx context.Context, address string, decoy Node) (Node, error) {
	n := Node{Address: address}
	var at int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce(n.label, $2), coalesce(n.box_key, $3), coalesce(n.registered_at, 0)
		FROM (SELECT $1::text AS a) q LEFT JOIN nodes n ON n.address = q.a`, address, decoy.Label, decoy.BoxKey).Scan(&n.Label, &n.BoxKey, &at)
	if err != nil {
		return Node{}, fmt.Errorf("relay store: resolve: %w", err)
	}
	n.RegisteredAt = time.Unix(at, 0)
	return n, nil
}

func (s *Postgres) PutNode(ctx context.Context, n Node) error {
	return s.tx(ctx, "put node", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM challenges WHERE label IN (SELECT label FROM nodes WHERE address = $1 OR node_key = $2)", n.Address, n.NodeKey); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM nodes WHERE address = $1 OR node_key = $2", n.Address, n.NodeKey); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "INSERT INTO nodes("+nodeCols+") VALUES ($1, $2, $3, $4, $5)",
			n.Address, n.Label, n.NodeKey, n.BoxKey, n.RegisteredAt.Unix())
		return err
	})
}

func (s *Postgres) RotateKeys(ctx context.Context, old, nodeKey, boxKey []byte) error {
	tag, err := s.pool.Exec(ctx, "UPDATE nodes SET node_key = $1, box_key = $2 WHERE node_key = $3", nodeKey, boxKey, old)
	if err != nil {
		return fmt.Errorf("relay store: rotate keys: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

func (s *Postgres) DeleteNode(ctx context.Context, key []byte) error {
	return s.tx(ctx, "delete node", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM challenges WHERE label IN (SELECT label FROM nodes WHERE node_key = $1)", key); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, "DELETE FROM nodes WHERE node_key = $1", key)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return ErrNotFound
		}
		return nil
	})
}

func (s *Postgres) CountNodes(ctx context.Context) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM nodes").Scan(&n); err != nil {
		return 0, fmt.Errorf("relay store: count nodes: %w", err)
	}
	return n, nil
}

func (s *Postgres) PutPending(ctx context.Context, p Pending) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO pending(address, node_key, box_key, code_id, expires, attempts)
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

func (s *Postgres) PendingFor(ctx context.Context, address string, key []byte) (Pending, error) {
	var p Pending
	var exp int64
	err := s.pool.QueryRow(ctx, `SELECT address, node_key, box_key, code_id, expires, attempts
		FROM pending WHERE address = $1 AND node_key = $2`, address, key).
		Scan(&p.Address, &p.NodeKey, &p.BoxKey, &p.CodeID, &exp, &p.Attempts)
	if errors.Is(err, pgx.ErrNoRows) {
		return Pending{}, ErrNotFound
	}
	if err != nil {
		return Pending{}, fmt.Errorf("relay store: pending: %w", err)
	}
	p.Expires = time.Unix(exp, 0)
	return p, nil
}

// IssueCode serialises the codes of one mailbox, then of one client
// network, with advisory locks (always in that order), so that instances
// asked at once for the same address issue one code and neither count is
// passed. An address has one mailbox, so its lock covers the address.
func (s *Postgres) IssueCode(ctx context.Context, c Code, max, netMax int) (Code, bool, error) {
	out, issued := c, false
	if c.Mailbox == "" {
		c.Mailbox = c.Address
	}
	if c.Net == nil {
		c.Net = []byte{}
	}
	err := s.tx(ctx, "issue code", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", "code:"+c.Mailbox); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", "codenet:"+hex.EncodeToString(c.Net)); err != nil {
			return err
		}
		live, err := pgCode(tx.QueryRow(ctx, "SELECT address, id, code_hash, issued, expires FROM codes WHERE address = $1 AND expires > $2",
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
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM code_mails WHERE mailbox = $1 AND at > $2",
			c.Mailbox, since).Scan(&n); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM code_mails WHERE net = $1 AND at > $2",
			c.Net, since).Scan(&nn); err != nil {
			return err
		}
		if n >= max || nn >= netMax {
			return ErrMailLimit
		}
		if _, err := tx.Exec(ctx, `INSERT INTO codes(address, id, code_hash, issued, expires) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (address) DO UPDATE SET id = excluded.id, code_hash = excluded.code_hash, issued = excluded.issued, expires = excluded.expires`,
			c.Address, c.ID, c.Hash, c.Issued.Unix(), c.Expires.Unix()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO code_mails(address, id, at, mailbox, net) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (address, id) DO UPDATE SET at = excluded.at, mailbox = excluded.mailbox, net = excluded.net`,
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

func (s *Postgres) LiveCode(ctx context.Context, address string, now time.Time) (Code, error) {
	c, err := pgCode(s.pool.QueryRow(ctx, "SELECT address, id, code_hash, issued, expires FROM codes WHERE address = $1 AND expires > $2",
		address, now.Unix()))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Code{}, fmt.Errorf("relay store: live code: %w", err)
	}
	return c, err
}

func (s *Postgres) DropCode(ctx context.Context, address, id string) error {
	return s.tx(ctx, "drop code", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM codes WHERE address = $1 AND id = $2", address, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "DELETE FROM code_mails WHERE address = $1 AND id = $2", address, id)
		return err
	})
}

// pgCode reads a codes row; ErrNotFound if there is none.
func pgCode(row pgx.Row) (Code, error) {
	var c Code
	var issued, expires int64
	err := row.Scan(&c.Address, &c.ID, &c.Hash, &issued, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return Code{}, ErrNotFound
	}
	if err != nil {
		return Code{}, err
	}
	c.Issued, c.Expires = time.Unix(issued, 0), time.Unix(expires, 0)
	return c, nil
}

func (s *Postgres) FailPending(ctx context.Context, address string, key []byte) error {
	if _, err := s.pool.Exec(ctx, "UPDATE pending SET attempts = attempts + 1 WHERE address = $1 AND node_key = $2", address, key); err != nil {
		return fmt.Errorf("relay store: pending attempt: %w", err)
	}
	return nil
}

func (s *Postgres) DeletePending(ctx context.Context, address string, key []byte) error {
	if _, err := s.pool.Exec(ctx, "DELETE FROM pending WHERE address = $1 AND node_key = $2", address, key); err != nil {
		return fmt.Errorf("relay store: delete pending: %w", err)
	}
	return nil
}

func (s *Postgres) SetChallenges(ctx context.Context, label string, values []string) error {
	var err error
	if len(values) == 0 {
		_, err = s.pool.Exec(ctx, "DELETE FROM challenges WHERE label = $1", label)
	} else {
		b, _ := json.Marshal(values)
		_, err = s.pool.Exec(ctx, "INSERT INTO challenges(label, vals) VALUES ($1, $2) ON CONFLICT (label) DO UPDATE SET vals = excluded.vals",
			label, string(b))
	}
	if err != nil {
		return fmt.Errorf("relay store: challenges: %w", err)
	}
	return nil
}

func (s *Postgres) Challenges(ctx context.Context, label string) ([]string, error) {
	var raw string
	err := s.pool.QueryRow(ctx, "SELECT vals FROM challenges WHERE label = $1", label).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
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

func (s *Postgres) PutAgent(ctx context.Context, a Agent) error {
	if a.Net == nil {
		a.Net = []byte{}
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO agents(label, kid, key, created, net) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (label) DO UPDATE SET kid = excluded.kid`,
		a.Label, a.Kid, a.Key, a.Created.Unix(), a.Net)
	if err != nil {
		return fmt.Errorf("relay store: put agent: %w", err)
	}
	return nil
}

func (s *Postgres) AddAgent(ctx context.Context, a Agent, since time.Time, max, netMax int) error {
	if a.Net == nil {
		a.Net = []byte{}
	}
	err := s.tx(ctx, "add agent", func(tx pgx.Tx) error {
		// One lock for every new agent: they are rare (a thousand an
		// hour at most), and the global count needs it anyway.
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", "agents"); err != nil {
			return err
		}
		var n, mine int
		if err := tx.QueryRow(ctx, "SELECT count(*), count(*) FILTER (WHERE net = $2) FROM agents WHERE created >= $1",
			since.Unix(), a.Net).Scan(&n, &mine); err != nil {
			return err
		}
		if n >= max || mine >= netMax {
			return ErrAgentLimit
		}
		_, err := tx.Exec(ctx, `INSERT INTO agents(label, kid, key, created, net) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (label) DO UPDATE SET kid = excluded.kid`,
			a.Label, a.Kid, a.Key, a.Created.Unix(), a.Net)
		return err
	})
	if errors.Is(err, ErrAgentLimit) {
		return ErrAgentLimit
	}
	return err
}

func (s *Postgres) AgentByLabel(ctx context.Context, label string) (Agent, error) {
	var a Agent
	var at int64
	err := s.pool.QueryRow(ctx, "SELECT label, kid, key, created FROM agents WHERE label = $1", label).Scan(&a.Label, &a.Kid, &a.Key, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return Agent{}, ErrNotFound
	}
	if err != nil {
		return Agent{}, fmt.Errorf("relay store: agent: %w", err)
	}
	a.Created = time.Unix(at, 0)
	return a, nil
}

func (s *Postgres) CountAgentsSince(ctx context.Context, since time.Time) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM agents WHERE created >= $1", since.Unix()).Scan(&n); err != nil {
		return 0, fmt.Errorf("relay store: count agents: %w", err)
	}
	return n, nil
}

func (s *Postgres) CountAgentsFrom(ctx context.Context, net []byte, since time.Time) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM agents WHERE net = $1 AND created >= $2", net, since.Unix()).Scan(&n); err != nil {
		return 0, fmt.Errorf("relay store: count agents: %w", err)
	}
	return n, nil
}

func (s *Postgres) Expire(ctx context.Context, now time.Time) error {
	if _, err := s.pool.Exec(ctx, "DELETE FROM pending WHERE expires < $1", now.Unix()); err != nil {
		return fmt.Errorf("relay store: expire: %w", err)
	}
	if _, err := s.pool.Exec(ctx, "DELETE FROM codes WHERE expires <= $1", now.Unix()); err != nil {
		return fmt.Errorf("relay store: expire codes: %w", err)
	}
	if _, err := s.pool.Exec(ctx, "DELETE FROM code_mails WHERE at <= $1", now.Add(-24*time.Hour).Unix()); err != nil {
		return fmt.Errorf("relay store: expire code mails: %w", err)
	}
	if _, err := s.pool.Exec(ctx, "DELETE FROM queue WHERE expires <= $1", now.UnixMilli()); err != nil {
		return fmt.Errorf("relay store: expire queue: %w", err)
	}
	return nil
}

func pgEnvelope(row pgx.Row, sealed bool) (Envelope, error) {
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

// Enqueue serialises the enqueues of one label with an advisory lock, so
// that instances enqueueing for the same node at once keep its limit and
// every network's share of it.
func (s *Postgres) Enqueue(ctx context.Context, e Envelope, max, share int) (Envelope, error) {
	if e.Net == nil {
		e.Net = []byte{}
	}
	var out Envelope
	err := s.tx(ctx, "enqueue", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", "queue:"+e.Label); err != nil {
			return err
		}
		old, err := pgEnvelope(tx.QueryRow(ctx, "SELECT "+receiptCols+" FROM queue WHERE id = $1", e.ID), false)
		switch {
		case err == nil && old.Expires.After(e.Created) && old.Label != e.Label:
			return ErrIDTaken
		case err == nil && old.Expires.After(e.Created):
			out = old
			return nil
		case err == nil:
			// Expired, not yet swept: the id is free again.
			if _, err := tx.Exec(ctx, "DELETE FROM queue WHERE id = $1 AND expires <= $2", e.ID, e.Created.UnixMilli()); err != nil {
				return err
			}
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		var held, ours int
		if err := tx.QueryRow(ctx, "SELECT count(*), count(*) FILTER (WHERE net = $1) FROM queue WHERE label = $2 AND expires > $3",
			e.Net, e.Label, e.Created.UnixMilli()).Scan(&held, &ours); err != nil {
			return err
		}
		if held >= max || ours >= share {
			return ErrQueueFull
		}
		tag, err := tx.Exec(ctx, "INSERT INTO queue("+queueCols+") VALUES ($1, $2, $3, $4, $5, NULL, $6) ON CONFLICT (id) DO NOTHING",
			e.ID, e.Label, e.Net, e.Created.UnixMilli(), e.Expires.UnixMilli(), e.Sealed)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return ErrIDTaken // taken meanwhile for another label
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

func (s *Postgres) Undelivered(ctx context.Context, label string, now time.Time, n int) ([]Envelope, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+queueCols+` FROM queue
		WHERE label = $1 AND sealed IS NOT NULL AND expires > $2 ORDER BY created, id LIMIT $3`, label, now.UnixMilli(), n)
	if err != nil {
		return nil, fmt.Errorf("relay store: undelivered: %w", err)
	}
	defer rows.Close()
	var out []Envelope
	for rows.Next() {
		e, err := pgEnvelope(rows, true)
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

func (s *Postgres) Ack(ctx context.Context, label, id string, reply []byte) error {
	if len(reply) == 0 {
		reply = nil
	}
	if _, err := s.pool.Exec(ctx, "UPDATE queue SET sealed = NULL, reply = coalesce(reply, $1) WHERE id = $2 AND label = $3", reply, id, label); err != nil {
		return fmt.Errorf("relay store: ack: %w", err)
	}
	return nil
}

func (s *Postgres) QueueEntry(ctx context.Context, id string, now time.Time) (Envelope, error) {
	e, err := pgEnvelope(s.pool.QueryRow(ctx, "SELECT "+queueCols+" FROM queue WHERE id = $1 AND expires > $2", id, now.UnixMilli()), true)
	if errors.Is(err, pgx.ErrNoRows) {
		return Envelope{}, ErrNotFound
	}
	if err != nil {
		return Envelope{}, fmt.Errorf("relay store: queue entry: %w", err)
	}
	return e, nil
}

func (s *Postgres) QueueReply(ctx context.Context, id string, now time.Time) ([]byte, error) {
	var reply []byte
	err := s.pool.QueryRow(ctx, "SELECT reply FROM queue WHERE id = $1 AND expires > $2", id, now.UnixMilli()).Scan(&reply)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("relay store: queue reply: %w", err)
	}
	return reply, nil
}

func (s *Postgres) tx(ctx context.Context, what string, f func(pgx.Tx) error) error {
	err := pgx.BeginFunc(ctx, s.pool, f)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound), errors.Is(err, ErrIDTaken), errors.Is(err, ErrQueueFull):
		return err
	}
	return fmt.Errorf("relay store: %s: %w", what, err)
}

func (s *Postgres) Heartbeat(ctx context.Context, in Instance) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO instances(id, mesh_addr, cert_fp, expires) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET mesh_addr = excluded.mesh_addr, cert_fp = excluded.cert_fp, expires = excluded.expires`,
		in.ID, in.MeshAddr, in.CertFP, in.Expires.UnixMilli())
	if err != nil {
		return fmt.Errorf("relay store: heartbeat: %w", err)
	}
	return nil
}

func pgInstance(row pgx.Row) (Instance, error) {
	var in Instance
	var exp int64
	err := row.Scan(&in.ID, &in.MeshAddr, &in.CertFP, &exp)
	if errors.Is(err, pgx.ErrNoRows) {
		return Instance{}, ErrNotFound
	}
	if err != nil {
		return Instance{}, fmt.Errorf("relay store: instance: %w", err)
	}
	in.Expires = time.UnixMilli(exp)
	return in, nil
}

func (s *Postgres) Instance(ctx context.Context, id string, now time.Time) (Instance, error) {
	return pgInstance(s.pool.QueryRow(ctx, "SELECT id, mesh_addr, cert_fp, expires FROM instances WHERE id = $1 AND expires > $2", id, now.UnixMilli()))
}

func (s *Postgres) ClaimTunnel(ctx context.Context, label, instance string) error {
	_, err := s.pool.Exec(ctx, "INSERT INTO tunnels(label, instance) VALUES ($1, $2) ON CONFLICT (label) DO UPDATE SET instance = excluded.instance",
		label, instance)
	if err != nil {
		return fmt.Errorf("relay store: claim tunnel: %w", err)
	}
	return nil
}

func (s *Postgres) ReleaseTunnel(ctx context.Context, label, instance string) error {
	if _, err := s.pool.Exec(ctx, "DELETE FROM tunnels WHERE label = $1 AND instance = $2", label, instance); err != nil {
		return fmt.Errorf("relay store: release tunnel: %w", err)
	}
	return nil
}

func (s *Postgres) TunnelAt(ctx context.Context, label string, now time.Time) (Instance, error) {
	return pgInstance(s.pool.QueryRow(ctx, `SELECT i.id, i.mesh_addr, i.cert_fp, i.expires FROM tunnels t
		JOIN instances i ON i.id = t.instance WHERE t.label = $1 AND i.expires > $2`, label, now.UnixMilli()))
}
