package relaystore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
)

// directory is every registered address in memory, with what resolve
// answers for it (its node's label and box key): Resolve reads it, not the
// database, so that resolve takes no lock shared between requests. A
// resolve profile at 16 cores found database/sql's pool and per-query
// locks (and SQLite's own) holding it back at about 20,000 req/s
// whatever the cores (issue 47).
//
// It is dirShards tables, each behind an atomic pointer and never changed
// once published: a read is an atomic load and a table lookup, with no
// lock and no write to memory another core reads. A change copies the one
// shard it touches and publishes the copy (copy-on-write). Changes are
// rare: a registration needs a confirmation code mailed to the address
// and is limited per mailbox and network per day, a re-key or a deletion
// is a node's own deliberate call; even a thousand a minute would be a
// few per second. A single copy-on-write table would copy every node on
// each of them (a million entries, about 100 MB and tens of
// milliseconds); a shard holds a 256th of them (4,000 at a million
// nodes: tens of microseconds). A shard locked for reading (RWMutex)
// would write its reader count on every resolve, a cache line every core
// fights over.
//
// A lookup does the same work and reads the same amount of memory whether
// the address is registered or not, so that its time tells a stranger
// nothing decoys hide (docs/relay.md, "Decoys"): an address is known by a
// fixed-size id (a hash of it), its node's label and box key sit in the
// same 64-byte slot as the id, and a lookup reads and compares every slot
// of the id's two candidate buckets (a bucketed cuckoo table), copying
// the matching one's answer over the decoy's without a branch. A Go map
// did not: a hit read the stored address, label and key, three
// allocations away from the map, where a miss read only the map's
// control word (an outside test told a cold registered address from an
// unknown one in process, KS 0.19-0.26 over 4,000 + 4,000).
//
// Writers (this instance's register, re-key and delete, the PostgreSQL
// listener's changes, a full reload) go one at a time under a lock no
// reader takes. The lock is taken under the writer's context (lock), so
// that a reload stuck on a database that stopped answering makes a
// register wait only as long as its own request may (an outside test
// found one waiting for good).
type directory struct {
	seed   [16]byte // keys the ids: a stranger cannot choose addresses that share buckets
	shards [dirShards]atomic.Pointer[dirTable]

	writer  chan struct{} // holds one token while a writer writes
	reloads atomic.Int64  // full reloads done, for tests
	loaded  atomic.Int64  // the rows the last full reload read
	// unfit is how many rows of nodes the last full reload left out: a
	// label or box key of a length the directory cannot hold, which the
	// store never writes (written by hand, or restored from elsewhere).
	// They resolve to their decoys; the store says so in its log.
	unfit atomic.Int64
}

// lock waits until this writer may write, or ctx ends.
func (d *directory) lock(ctx context.Context) error {
	select {
	case d.writer <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("relay store: waiting to change the directory: %w", ctx.Err())
	}
}

func (d *directory) unlock() { <-d.writer }

// dirShards is how many tables the directory is cut into.
const dirShards = 256

// LabelLen and BoxKeyLen are the lengths of a node's label (as
// relayserver makes them) and of its X25519 box key: the directory holds
// them in place, so the store refuses a node whose label or key has
// another length.
const (
	LabelLen  = 16
	BoxKeyLen = 32
)

// dirID is what the directory knows an address by: the first 16 bytes of
// SHA-256 over the directory's seed and the address.
type dirID [16]byte

// dirAnswer is what resolve answers for an address.
type dirAnswer struct {
	label [LabelLen]byte
	key   [BoxKeyLen]byte
}

// dirSlot is one registered address: a cache line. An id of all zeros is
// an empty slot (no address hashes to it but with chance 2^-128).
type dirSlot struct {
	id dirID
	dirAnswer
}

// dirEntry is a node's answer as the store's callers give it.
type dirEntry struct {
	label  string
	boxKey []byte
}

func newDirectory() *directory {
	d := &directory{writer: make(chan struct{}, 1)}
	rand.Read(d.seed[:])
	empty := newDirTable(nil)
	for i := range d.shards {
		d.shards[i].Store(empty)
	}
	return d
}

func (d *directory) id(address string) dirID {
	var sum [sha256.Size]byte
	var buf [16 + 256]byte // on the stack: an address has at most 254 octets
	if len(address) <= len(buf)-len(d.seed) {
		n := copy(buf[:], d.seed[:])
		n += copy(buf[n:], address)
		sum = sha256.Sum256(buf[:n])
	} else {
		h := sha256.New()
		h.Write(d.seed[:])
		io.WriteString(h, address)
		h.Sum(sum[:0])
	}
	return dirID(sum[:16])
}

func (d *directory) shard(id dirID) *atomic.Pointer[dirTable] {
	return &d.shards[id[15]]
}

// slot makes address's slot for e, or an error if e's label or box key
// has a length the directory cannot hold.
func (d *directory) slot(address string, e dirEntry) (dirSlot, error) {
	if len(e.label) != LabelLen || len(e.boxKey) != BoxKeyLen {
		return dirSlot{}, fmt.Errorf("relay store: node %q has a %d-byte label and a %d-byte box key, not %d and %d",
			address, len(e.label), len(e.boxKey), LabelLen, BoxKeyLen)
	}
	s := dirSlot{id: d.id(address)}
	copy(s.label[:], e.label)
	copy(s.key[:], e.boxKey)
	return s, nil
}

// resolve returns what resolve answers for address: its node's label and
// box key if it is registered, else the decoy's. It takes no lock, and
// its work is the same either way (see directory).
func (d *directory) resolve(address string, decoy dirEntry) (*dirAnswer, error) {
	if len(decoy.label) != LabelLen || len(decoy.boxKey) != BoxKeyLen {
		return nil, fmt.Errorf("relay store: a decoy of a %d-byte label and a %d-byte box key, not %d and %d",
			len(decoy.label), len(decoy.boxKey), LabelLen, BoxKeyLen)
	}
	a := new(dirAnswer)
	copy(a.label[:], decoy.label)
	copy(a.key[:], decoy.boxKey)
	id := d.id(address)
	d.shard(id).Load().answer(id, a)
	return a, nil
}

// set makes address resolve to e, or (ok false) to its decoy. The caller
// holds the lock and made e with slot.
func (d *directory) set(address string, e dirSlot, ok bool) {
	id := d.id(address)
	p := d.shard(id)
	old := p.Load()
	slots := make([]dirSlot, 0, old.n+1)
	had := false
	for _, s := range old.slots() {
		if s.id == id {
			had = true
			continue
		}
		slots = append(slots, s)
	}
	if !had && !ok {
		return
	}
	if ok {
		e.id = id
		slots = append(slots, e)
	}
	p.Store(newDirTable(slots))
}

// reload replaces the whole directory with the nodes table, read in one
// statement (a consistent snapshot). It holds the lock while it reads, so
// that no change made meanwhile is overwritten by an older row; the
// caller bounds it with ctx's deadline. A row the directory cannot hold
// is left out and counted in unfit, not an error: one such row must not
// keep every other node from resolving, or an instance from starting.
func (d *directory) reload(ctx context.Context, q db) error {
	if err := d.lock(ctx); err != nil {
		return err
	}
	defer d.unlock()
	rs, err := q.query(ctx, "SELECT address, label, box_key FROM nodes")
	if err != nil {
		return fmt.Errorf("relay store: load directory: %w", err)
	}
	defer rs.Close()
	var fresh [dirShards][]dirSlot
	unfit, rows := 0, 0
	for rs.Next() {
		rows++
		var a string
		var e dirEntry
		if err := rs.Scan(&a, &e.label, &e.boxKey); err != nil {
			return fmt.Errorf("relay store: load directory: %w", err)
		}
		sl, err := d.slot(a, e)
		if err != nil {
			unfit++
			continue
		}
		fresh[sl.id[15]] = append(fresh[sl.id[15]], sl)
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("relay store: load directory: %w", err)
	}
	for i := range fresh {
		d.shards[i].Store(newDirTable(fresh[i]))
	}
	d.unfit.Store(int64(unfit))
	d.loaded.Store(int64(rows))
	d.reloads.Add(1)
	return nil
}

// refresh reads address's row again and sets it (or its absence): what
// another instance changed, as PostgreSQL's notification names it. A row
// the directory cannot hold resolves to its decoy, and fit is false.
func (d *directory) refresh(ctx context.Context, q db, address string) (fit bool, err error) {
	if err := d.lock(ctx); err != nil {
		return true, err
	}
	defer d.unlock()
	var e dirEntry
	err = q.queryRow(ctx, "SELECT label, box_key FROM nodes WHERE address = $1", address).Scan(&e.label, &e.boxKey)
	if errors.Is(err, sql.ErrNoRows) {
		d.set(address, dirSlot{}, false)
		return true, nil
	}
	if err != nil {
		return true, fmt.Errorf("relay store: refresh directory: %w", err)
	}
	sl, err := d.slot(address, e)
	if err != nil {
		d.set(address, dirSlot{}, false)
		return false, nil
	}
	d.set(address, sl, true)
	return true, nil
}
