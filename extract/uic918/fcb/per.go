package fcb

import (
	"errors"
	"math/bits"
)

// The unaligned Packed Encoding Rules (ITU-T X.691, "UPER") as far as the
// FCB schema needs them. UPER writes no tags and no padding: a value is
// only readable in its place, after every bit before it was read with
// the width its type gives. The reader is given the schema (a tree of
// typ) and reads a value of it.

var (
	errShort  = errors.New("fcb: data ends inside a value")
	errLength = errors.New("fcb: length out of bounds")
	errDepth  = errors.New("fcb: nested too deep")
	errExtAlt = errors.New("fcb: a choice's alternative this version does not define")
)

// Caps on what a value may ask for: a ticket's record is a few hundred
// bytes; a count or length is never trusted beyond what remains.
const (
	maxDepth = 24
	maxItems = 256
)

// reader reads bits from the most significant of the first byte on.
type reader struct {
	b   []byte
	pos int // in bits
}

func (r *reader) left() int { return len(r.b)*8 - r.pos }

// bits reads an n-bit unsigned number, n at most 63.
func (r *reader) bits(n int) (uint64, error) {
	if n < 0 || n > 63 {
		return 0, errLength
	}
	if n > r.left() {
		return 0, errShort
	}
	var v uint64
	for i := 0; i < n; i++ {
		bit := r.b[r.pos>>3] >> (7 - uint(r.pos&7)) & 1
		v = v<<1 | uint64(bit)
		r.pos++
	}
	return v, nil
}

func (r *reader) bit() (bool, error) {
	v, err := r.bits(1)
	return v == 1, err
}

// width is the number of bits of a constrained whole number of n
// values (X.691 10.5.6: the bit-field of a range, 0 bits for one value).
func width(n uint64) int {
	if n <= 1 {
		return 0
	}
	return bits.Len64(n - 1)
}

// constrained reads a whole number in lo..hi (X.691 10.5.7.1: an offset
// from lo in the range's width).
func (r *reader) constrained(lo, hi int64) (int64, error) {
	v, err := r.bits(width(uint64(hi - lo + 1)))
	if err != nil {
		return 0, err
	}
	if v > uint64(hi-lo) {
		return 0, errLength
	}
	return lo + int64(v), nil
}

// length reads an unconstrained length determinant (X.691 11.9.3.5-8):
// one octet "0nnnnnnn" up to 127, two "10nnnnnn nnnnnnnn" up to 16383;
// fragments ("11") are larger than any ticket and refused.
func (r *reader) length() (int, error) {
	v, err := r.bits(8)
	if err != nil {
		return 0, err
	}
	switch {
	case v&0x80 == 0:
		return int(v), nil
	case v&0xc0 == 0x80:
		lo, err := r.bits(8)
		if err != nil {
			return 0, err
		}
		return int(v&0x3f)<<8 | int(lo), nil
	}
	return 0, errLength
}

// smallNumber reads a normally small non-negative whole number (X.691
// 11.6): a 0 bit and six bits, or a 1 bit and a length-prefixed number.
func (r *reader) smallNumber() (int, error) {
	big, err := r.bit()
	if err != nil {
		return 0, err
	}
	if !big {
		v, err := r.bits(6)
		return int(v), err
	}
	n, err := r.length()
	if err != nil {
		return 0, err
	}
	if n < 1 || n > 2 {
		return 0, errLength
	}
	v, err := r.bits(8 * n)
	return int(v), err
}

// unconstrained reads an INTEGER without bounds (X.691 12.2.6): a length
// in octets and a two's-complement number; more than 8 octets is refused.
func (r *reader) unconstrained() (int64, error) {
	n, err := r.length()
	if err != nil {
		return 0, err
	}
	if n < 1 || n > 8 {
		return 0, errLength
	}
	v, err := r.bits(8 * n)
	if err != nil {
		return 0, err
	}
	// Sign-extend from the top bit of the n octets.
	shift := 64 - 8*uint(n)
	return int64(v<<shift) >> shift, nil
}

// octets reads n whole octets (not aligned).
func (r *reader) octets(n int) ([]byte, error) {
	if n < 0 || n*8 > r.left() {
		return nil, errShort
	}
	out := make([]byte, n)
	for i := range out {
		v, _ := r.bits(8)
		out[i] = byte(v)
	}
	return out, nil
}

// skip passes n bits.
func (r *reader) skip(n int) error {
	if n < 0 || n > r.left() {
		return errShort
	}
	r.pos += n
	return nil
}
