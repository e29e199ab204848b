package relaystore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// directory is every registered address in memory, with what resolve
// answers for it (its node's label and box key): Resolve reads it, not the
// database, so that resolve takes no lock shared between requests. A
// resolve profile at 16 cores found database/sql's pool and per-query
// locks (and SQLite's own) holding it back at about 20,000 req/s
// whatever the cores (issue 47).
//
// It is dirShards maps, each behind an atomic pointer and never changed
// once published: a read is an atomic load and a map lookup, with no lock
// and no write to memory another core reads. A change copies the one
// shard it touches and publishes the copy (copy-on-write). Changes are
// rare: a registration needs a confirmation code mailed to the address
// and is limited per mailbox and network per day, a re-key or a deletion
// is a node's own deliberate call; even a thousand a minute would be a
// few per second. A single copy-on-write map would copy every node on
// each of them (a million entries, about 100 MB and tens of
// milliseconds); a shard holds a 256th of them (4,000 at a million
// nodes: tens of microseconds). A shard locked for reading (RWMutex)
// would write its reader count on every resolve, a cache line every core
// fights over; sync.Map takes its lock on a miss after any recent store,
// and every decoy is a miss, which would make decoys a path of their own.
//
// Writers (this instance's register, re-key and delete, the PostgreSQL
// listener's changes, a full reload) go one at a time under mu, which no
// reader takes.
type directory struct {
	seed   maphash.Seed
	shards [dirShards]atomic.Pointer[map[string]dirEntry]

	mu      sync.Mutex
	reloads atomic.Int64 // full reloads done, for tests
}

// dirShards is how many maps the directory is cut into.
const dirShards = 256

// dirEntry is what resolve answers for a registered address. The box key
// is shared by every resolve of the address and never changed.
type dirEntry struct {
	label  string
	boxKey []byte
}

func newDirectory() *directory {
	d := &directory{seed: maphash.MakeSeed()}
	for i := range d.shards {
		m := map[string]dirEntry{}
		d.shards[i].Store(&m)
	}
	return d
}

func (d *directory) shard(address string) *atomic.Pointer[map[string]dirEntry] {
	return &d.shards[maphash.String(d.seed, address)%dirShards]
}

// lookup returns the entry of address; it takes no lock.
func (d *directory) lookup(address string) (dirEntry, bool) {
	e, ok := (*d.shard(address).Load())[address]
	return e, ok
}

// set makes address resolve to e, or (ok false) to its decoy. The caller
// holds mu.
func (d *directory) set(address string, e dirEntry, ok bool) {
	p := d.shard(address)
	old := *p.Load()
	if _, had := old[address]; !had && !ok {
		return
	}
	m := make(map[string]dirEntry, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	if ok {
		m[address] = e
	} else {
		delete(m, address)
	}
	p.Store(&m)
}

// reload replaces the whole directory with the nodes table, read in one
// statement (a consistent snapshot). It holds mu while it reads, so that
// no change made meanwhile is overwritten by an older row.
func (d *directory) reload(ctx context.Context, q db) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	rs, err := q.query(ctx, "SELECT address, label, box_key FROM nodes")
	if err != nil {
		return fmt.Errorf("relay store: load directory: %w", err)
	}
	defer rs.Close()
	var fresh [dirShards]map[string]dirEntry
	for i := range fresh {
		fresh[i] = map[string]dirEntry{}
	}
	for rs.Next() {
		var a string
		var e dirEntry
		if err := rs.Scan(&a, &e.label, &e.boxKey); err != nil {
			return fmt.Errorf("relay store: load directory: %w", err)
		}
		fresh[maphash.String(d.seed, a)%dirShards][a] = e
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("relay store: load directory: %w", err)
	}
	for i := range fresh {
		d.shards[i].Store(&fresh[i])
	}
	d.reloads.Add(1)
	return nil
}

// refresh reads address's row again and sets it (or its absence): what
// another instance changed, as PostgreSQL's notification names it.
func (d *directory) refresh(ctx context.Context, q db, address string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var e dirEntry
	err := q.queryRow(ctx, "SELECT label, box_key FROM nodes WHERE address = $1", address).Scan(&e.label, &e.boxKey)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("relay store: refresh directory: %w", err)
	}
	d.set(address, e, err == nil)
	return nil
}
