package relaystore

import "encoding/binary"

// dirTable is one shard of the directory: a bucketed cuckoo hash table
// (Fan et al., "MemC3", NSDI 2013) of dirSlots, never changed once
// published. Each id has two candidate buckets of bucketSlots slots, and
// a lookup reads and compares all of both, whether the id is there or
// not: the same work and the same memory for every address (see
// directory). Building it keeps the table at most half full, where an
// insertion almost never needs more than a few moves; if one does not
// find a place, the table is built again twice as large.
type dirTable struct {
	buckets []dirBucket
	mask    uint64 // len(buckets) - 1, a power of two minus one
	n       int    // slots in use
}

// bucketSlots is how many slots a bucket holds: four 64-byte slots, so a
// lookup reads 512 bytes in eight adjacent cache lines.
const bucketSlots = 4

type dirBucket [bucketSlots]dirSlot

// maxMoves bounds the slots one insertion may move on before the table
// is built larger.
const maxMoves = 500

// newDirTable builds a table holding slots, whose ids are distinct.
func newDirTable(slots []dirSlot) *dirTable {
	nb := uint64(2)
	for nb*bucketSlots < 2*uint64(len(slots)) {
		nb *= 2
	}
	for {
		t := &dirTable{buckets: make([]dirBucket, nb), mask: nb - 1}
		if t.insertAll(slots) {
			return t
		}
		nb *= 2
	}
}

// candidates returns id's two buckets: from its first and second eight
// bytes, which the keyed hash makes independent, and never the same one.
func (t *dirTable) candidates(id dirID) (uint64, uint64) {
	b1 := binary.LittleEndian.Uint64(id[0:8]) & t.mask
	b2 := binary.LittleEndian.Uint64(id[8:16]) & t.mask
	if b2 == b1 {
		b2 = b1 ^ 1
	}
	return b1, b2
}

// answer copies the answer of id's slot into a, if the table holds id,
// and reports whether it does. It reads every slot of both candidate
// buckets and compares and copies them eight bytes at a time under a
// mask: no branch depends on what it finds (crypto/subtle's way, by
// words instead of bytes).
func (t *dirTable) answer(id dirID, a *dirAnswer) bool {
	b1, b2 := t.candidates(id)
	le := binary.LittleEndian
	i0, i1 := le.Uint64(id[0:8]), le.Uint64(id[8:16])
	var found uint64
	for _, b := range [2]*dirBucket{&t.buckets[b1], &t.buckets[b2]} {
		for i := range b {
			s := &b[i]
			x := (le.Uint64(s.id[0:8]) ^ i0) | (le.Uint64(s.id[8:16]) ^ i1)
			m := ((x | -x) >> 63) - 1 // all ones when the ids are equal, else zero
			found |= m
			for w := 0; w < len(a.label); w += 8 {
				le.PutUint64(a.label[w:], le.Uint64(a.label[w:])&^m|le.Uint64(s.label[w:])&m)
			}
			for w := 0; w < len(a.key); w += 8 {
				le.PutUint64(a.key[w:], le.Uint64(a.key[w:])&^m|le.Uint64(s.key[w:])&m)
			}
		}
	}
	return found != 0
}

// slots returns the slots in use.
func (t *dirTable) slots() []dirSlot {
	out := make([]dirSlot, 0, t.n)
	for i := range t.buckets {
		for _, s := range t.buckets[i] {
			if s.id != (dirID{}) {
				out = append(out, s)
			}
		}
	}
	return out
}

// insertAll inserts every slot, or reports false if one found no place.
func (t *dirTable) insertAll(slots []dirSlot) bool {
	var rnd uint64 = 0x9e3779b97f4a7c15 // picks which slot moves: any sequence will do
	for _, s := range slots {
		for moves := 0; ; moves++ {
			b1, b2 := t.candidates(s.id)
			if t.place(b1, s) || t.place(b2, s) {
				t.n++
				break
			}
			if moves == maxMoves {
				return false
			}
			// Both full: take a slot's place in one of them, and
			// go on placing the slot taken out.
			rnd ^= rnd << 13
			rnd ^= rnd >> 7
			rnd ^= rnd << 17
			b := b1
			if rnd&(1<<32) != 0 {
				b = b2
			}
			i := rnd % bucketSlots
			s, t.buckets[b][i] = t.buckets[b][i], s
		}
	}
	return true
}

// place puts s in an empty slot of bucket b, if it has one.
func (t *dirTable) place(b uint64, s dirSlot) bool {
	for i := range t.buckets[b] {
		if t.buckets[b][i].id == (dirID{}) {
			t.buckets[b][i] = s
			return true
		}
	}
	return false
}
