package fcb

// The schema as the reader walks it: each ASN.1 type of the modules is
// a typ, built once (schema13.go) from the module's text, field by field
// in its order, since UPER's order is the only thing that places a value.

type kind uint8

const (
	kSeq kind = iota
	kChoice
	kInt  // lo..hi when bounded, else an unconstrained INTEGER
	kBool // one bit
	kEnum // n root values, ext when the type has "..."
	kIA5  // seven bits a character; SIZE(lo..hi) when bounded
	kUTF8 // octets with a length
	kOctets
	kSeqOf
)

type typ struct {
	kind    kind
	lo, hi  int64
	bounded bool
	ext     bool    // the type has an extension marker ("...")
	n       int     // an ENUMERATED's root values
	fields  []field // a SEQUENCE's components, a CHOICE's alternatives
	elem    *typ    // a SEQUENCE OF's element
}

// field is a component; opt marks OPTIONAL and DEFAULT alike: both have
// a bit in the sequence's presence bitmap (X.691 19.2).
type field struct {
	name string
	t    *typ
	opt  bool
}

// Values read: a SEQUENCE is a seq (absent components absent, a DEFAULT
// left for the caller to default), a CHOICE an alt, an INTEGER int64, an
// ENUMERATED int (-1 for a value of a later version), strings string,
// OCTET STRING []byte, SEQUENCE OF []any.
type (
	seq map[string]any
	alt struct {
		name string // "" for an alternative of a later version, skipped
		v    any
	}
)

// seqType is a SEQUENCE of components: each item a field, or a []field
// that only one version of the schema has.
func seqType(ext bool, items ...any) *typ {
	t := &typ{kind: kSeq, ext: ext}
	for _, it := range items {
		switch f := it.(type) {
		case field:
			t.fields = append(t.fields, f)
		case []field:
			t.fields = append(t.fields, f...)
		default:
			panic("fcb: a schema item that is no field")
		}
	}
	return t
}
func choiceType(ext bool, fs ...field) *typ {
	return &typ{kind: kChoice, ext: ext, fields: fs}
}
func req(name string, t *typ) field         { return field{name: name, t: t} }
func opt(name string, t *typ) field         { return field{name: name, t: t, opt: true} }
func integer(lo, hi int64) *typ             { return &typ{kind: kInt, lo: lo, hi: hi, bounded: true} }
func enumerated(n int, ext bool) *typ       { return &typ{kind: kEnum, n: n, ext: ext} }
func ia5Size(lo, hi int64) *typ             { return &typ{kind: kIA5, lo: lo, hi: hi, bounded: true} }
func seqOf(t *typ) *typ                     { return &typ{kind: kSeqOf, elem: t} }
func alternative(name string, t *typ) field { return field{name: name, t: t} }

var (
	tInt    = &typ{kind: kInt}
	tBool   = &typ{kind: kBool}
	tIA5    = &typ{kind: kIA5}
	tUTF8   = &typ{kind: kUTF8}
	tOctets = &typ{kind: kOctets}
)

// value reads a value of t.
func (r *reader) value(t *typ, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errDepth
	}
	switch t.kind {
	case kSeq:
		return r.sequence(t, depth)
	case kChoice:
		return r.choice(t, depth)
	case kInt:
		if t.bounded {
			return r.constrained(t.lo, t.hi)
		}
		return r.unconstrained()
	case kBool:
		return r.bit()
	case kEnum:
		// X.691 14: an extensible type's bit first; a later version's
		// value is a normally small number, read and not known.
		if t.ext {
			later, err := r.bit()
			if err != nil {
				return nil, err
			}
			if later {
				_, err := r.smallNumber()
				return -1, err
			}
		}
		v, err := r.constrained(0, int64(t.n-1))
		return int(v), err
	case kIA5:
		n, err := r.size(t)
		if err != nil {
			return nil, err
		}
		if n*7 > r.left() {
			return nil, errShort
		}
		b := make([]byte, n)
		for i := range b {
			c, _ := r.bits(7)
			b[i] = byte(c)
		}
		return string(b), nil
	case kUTF8, kOctets:
		n, err := r.length()
		if err != nil {
			return nil, err
		}
		b, err := r.octets(n)
		if err != nil {
			return nil, err
		}
		if t.kind == kUTF8 {
			return string(b), nil
		}
		return b, nil
	case kSeqOf:
		n, err := r.length()
		if err != nil {
			return nil, err
		}
		if n > maxItems || n > r.left() {
			return nil, errLength
		}
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			v, err := r.value(t.elem, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, errLength
}

// size reads a string's number of characters: none for a fixed size,
// the range's width for SIZE(lo..hi), else a length determinant.
func (r *reader) size(t *typ) (int, error) {
	if !t.bounded {
		return r.length()
	}
	n, err := r.constrained(t.lo, t.hi)
	return int(n), err
}

// sequence reads X.691 19: the extension bit when the type has "...",
// a presence bit per OPTIONAL or DEFAULT component, the components, then
// the additions of later versions, each an open type, skipped.
func (r *reader) sequence(t *typ, depth int) (seq, error) {
	ext := false
	if t.ext {
		var err error
		if ext, err = r.bit(); err != nil {
			return nil, err
		}
	}
	var present []bool
	for _, f := range t.fields {
		if f.opt {
			b, err := r.bit()
			if err != nil {
				return nil, err
			}
			present = append(present, b)
		}
	}
	out := seq{}
	i := 0
	for _, f := range t.fields {
		if f.opt {
			i++
			if !present[i-1] {
				continue
			}
		}
		v, err := r.value(f.t, depth+1)
		if err != nil {
			return nil, err
		}
		out[f.name] = v
	}
	if ext {
		if err := r.skipAdditions(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// skipAdditions passes a sequence's extension additions (X.691 19.7-9):
// their count as a normally small length, a presence bit each, and each
// present one as an open type (a length in octets and its encoding).
func (r *reader) skipAdditions() error {
	n, err := r.smallNumber()
	if err != nil {
		return err
	}
	n++
	if n > r.left() {
		return errLength
	}
	present := 0
	for i := 0; i < n; i++ {
		b, err := r.bit()
		if err != nil {
			return err
		}
		if b {
			present++
		}
	}
	for ; present > 0; present-- {
		if err := r.skipOpen(); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) skipOpen() error {
	l, err := r.length()
	if err != nil {
		return err
	}
	if l > r.left()/8 {
		return errShort
	}
	return r.skip(8 * l)
}

// choice reads X.691 23: the extension bit when the type has "...", the
// alternative's index in the root's width, then its value; an
// alternative of a later version is an open type, skipped.
func (r *reader) choice(t *typ, depth int) (alt, error) {
	if t.ext {
		later, err := r.bit()
		if err != nil {
			return alt{}, err
		}
		if later {
			if _, err := r.smallNumber(); err != nil {
				return alt{}, err
			}
			return alt{}, r.skipOpen()
		}
	}
	i, err := r.constrained(0, int64(len(t.fields)-1))
	if err != nil {
		return alt{}, err
	}
	f := t.fields[i]
	if f.t == nil {
		return alt{}, errExtAlt
	}
	v, err := r.value(f.t, depth+1)
	return alt{name: f.name, v: v}, err
}
