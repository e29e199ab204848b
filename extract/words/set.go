package words

import (
	"math"
	"strings"
)

// Set finds many phrases in a text in one pass (Aho-Corasick), for the
// extractors' phrase lists in many languages, where a strings.Contains
// per phrase cost a fifth of all extraction time. The automaton is a full
// one (a step per byte, no fail links to follow on the scan: following
// them through a sparse trie cost a bill's topic test a third of a mail's
// extraction), stored compactly. From most nodes most bytes lead where
// they lead from the root: to a node of depth one or to the root itself.
// Only the other steps are stored, each node's row of them laid over the
// others' in one array of cells, where a cell says which node owns it
// (the row displacement of a lexer's compressed tables). A full table of
// a row per node and a column per distinct byte took 19.6 MiB for twenty
// languages' lists, this form 3.1 MiB; a step is three loads from small
// tables and a compare, no slower than the full table's one load from a
// large one.
type Set struct {
	class [256]uint16 // a byte's column: 0 for the bytes no phrase has
	// root is the step from the root by a byte, which is also the step
	// from any node whose row has no cell for the byte's class.
	root [256]int32
	// cells holds the other steps: from the node whose row starts at base
	// b, by class c, cells[b+c] when its check is b. Bases differ from
	// node to node, so a cell is owned by one node only. A step's value
	// is the base of the node it leads to, or, where that node ends some
	// phrase, the node's index negated and less one, so that the loop
	// neither looks elsewhere to learn it nor keeps the index otherwise.
	cells []cell
	base  []int32 // a node's base
	out   []int32 // the phrase ending at a node, or -1
	dict  []int32 // the next node down the fail chain with a phrase, or -1
	count int
}

// cell is one stored step of a Set: the base of the node that owns it
// (-1 for none) and where the step leads.
type cell struct{ check, next int32 }

// NewSet builds the set of phrases; Each reports them by their index.
func NewSet(phrases []string) *Set {
	s := &Set{count: len(phrases)}
	// Classes: 0 for the bytes no phrase has, one each for the others.
	width := 0
	for _, p := range phrases {
		for j := 0; j < len(p); j++ {
			if s.class[p[j]] == 0 {
				width++
				s.class[p[j]] = uint16(width)
			}
		}
	}
	width++
	// The trie, as a full table while building: -1 where there is no
	// child yet.
	var next []int32
	none := make([]int32, width)
	for c := range none {
		none[c] = -1
	}
	grow := func() int32 {
		next = append(next, none...)
		s.out, s.dict = append(s.out, -1), append(s.dict, -1)
		return int32(len(s.out) - 1)
	}
	grow()
	for i, p := range phrases {
		n := int32(0)
		for j := 0; j < len(p); j++ {
			at := int(n)*width + int(s.class[p[j]])
			if next[at] < 0 {
				t := grow()
				next[at] = t
			}
			n = next[at]
		}
		if s.out[n] < 0 && p != "" {
			s.out[n] = int32(i)
		}
	}
	// Breadth first, each missing transition becomes its fail node's: the
	// longest proper suffix of the path that is also a path from the root.
	fail := make([]int32, len(s.out))
	var queue []int32
	for c := range width {
		if t := next[c]; t >= 0 {
			queue = append(queue, t)
		} else {
			next[c] = 0
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		row := next[int(n)*width : int(n+1)*width]
		frow := next[int(fail[n])*width:]
		for c, t := range row {
			if t < 0 {
				row[c] = frow[c]
				continue
			}
			f := int32(0)
			if n != 0 {
				f = frow[c]
			}
			fail[t] = f
			if s.out[f] >= 0 {
				s.dict[t] = f
			} else {
				s.dict[t] = s.dict[f]
			}
			queue = append(queue, t)
		}
	}
	s.pack(next, width)
	return s
}

// pack stores the full table next (a row of width columns per node) as
// the root's row and each node's cells where its row differs from the
// root's: where a step leads deeper than one byte. Each node also owns
// the cell of class 0 at its base (a byte no phrase holds leads to the
// root from anywhere), which keeps two nodes from sharing a base. The
// rows with the most cells are placed first, each at the first base
// where all its cells are free.
func (s *Set) pack(next []int32, width int) {
	nodes := len(s.out)
	// A node's classes: 0 and those where its row differs from the
	// root's, at cls[at[n]:at[n+1]].
	at := make([]int32, nodes+1)
	var cls []int32
	for n := 1; n < nodes; n++ {
		at[n] = int32(len(cls))
		cls = append(cls, 0)
		for c, t := range next[n*width : (n+1)*width] {
			if t != next[c] {
				cls = append(cls, int32(c))
			}
		}
	}
	at[nodes] = int32(len(cls))
	// The order: the longest rows first (a counting sort).
	count := make([]int32, width+2)
	for n := 1; n < nodes; n++ {
		count[width+1-int(at[n+1]-at[n])]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	order := make([]int32, nodes-1)
	for n := nodes - 1; n >= 1; n-- {
		k := width + 1 - int(at[n+1]-at[n])
		count[k]--
		order[count[k]] = int32(n)
	}
	s.base = make([]int32, nodes) // the root's is 0, and it owns cell 0
	owner := make([]int32, width)
	skip := make([]int32, width)
	for i := range owner {
		owner[i], skip[i] = -1, int32(i)
	}
	owner[0], skip[0] = 0, 1
	hi := 1 // the cell past the last one used
	for _, n := range order {
		cs := cls[at[n]:at[n+1]]
		b := fit(cs, owner, skip, hi)
		s.base[n] = int32(b)
		for len(owner) < b+width {
			owner, skip = append(owner, -1), append(skip, int32(len(skip)))
		}
		for _, c := range cs {
			owner[b+int(c)], skip[b+int(c)] = n, int32(b+int(c)+1)
		}
		hi = max(hi, b+int(cs[len(cs)-1])+1)
	}
	if len(owner) > math.MaxInt32 {
		panic("words: a set too large for its table") // lists of phrases are data of a few kilobytes
	}
	step := func(t int32) int32 {
		if s.out[t] >= 0 || s.dict[t] >= 0 {
			return -t - 1
		}
		return s.base[t]
	}
	for x := range s.root {
		s.root[x] = step(next[s.class[x]])
	}
	s.cells = make([]cell, len(owner))
	for i, n := range owner {
		s.cells[i] = cell{check: -1}
		if n >= 0 {
			b := s.base[n]
			s.cells[i] = cell{check: b, next: step(next[int(n)*width+i-int(b)])}
		}
	}
}

// fit finds the base for a row with cells in the classes cs (0 and
// others in increasing order): the first free cell where they are all
// free; after a few tries, one near the last cells used, so that building
// a set of thousands of nodes stays linear and the rows interleave.
func fit(cs, owner, skip []int32, hi int) int {
	// first is the first free cell at or after i.
	first := func(i int) int {
		f := i
		for f < len(skip) && int(skip[f]) != f {
			f = int(skip[f])
		}
		for i < f && i < len(skip) {
			i, skip[i] = int(skip[i]), int32(f)
		}
		return f
	}
	for b, tries := first(1), 0; ; b = first(b + 1) {
		if tries++; tries == 8 && b < hi-128 {
			b = first(hi - 128)
		}
		fits := true
		for _, c := range cs[1:] {
			if at := b + int(c); at < len(owner) && owner[at] >= 0 {
				fits = false
				break
			}
		}
		if fits {
			return b
		}
	}
}

// Each calls fn with the index of every phrase found in text (a phrase
// found twice is reported twice), until fn returns false.
func (s *Set) Each(text string, fn func(phrase int) bool) {
	s.EachAt(text, func(phrase, _ int) bool { return fn(phrase) })
}

// Any reports whether text holds one of the phrases.
func (s *Set) Any(text string) bool {
	b := int32(0)
	for i := 0; i < len(text); i++ {
		x := text[i]
		v := s.root[x]
		if e := s.cells[int(b)+int(s.class[x])]; e.check == b {
			v = e.next
		}
		if v < 0 {
			return true
		}
		b = v
	}
	return false
}

// AnyFold is Any of text with its ASCII letters lower-cased, for phrases
// in small letters, without a lower-cased copy of a long text.
func (s *Set) AnyFold(text string) bool {
	b := int32(0)
	for i := 0; i < len(text); i++ {
		x := text[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		v := s.root[x]
		if e := s.cells[int(b)+int(s.class[x])]; e.check == b {
			v = e.next
		}
		if v < 0 {
			return true
		}
		b = v
	}
	return false
}

// EachAt is Each, with the offset in text just after the phrase found:
// the caller can tell whether it stands as a whole word.
func (s *Set) EachAt(text string, fn func(phrase, end int) bool) {
	b := int32(0)
	for i := 0; i < len(text); i++ {
		x := text[i]
		v := s.root[x]
		if e := s.cells[int(b)+int(s.class[x])]; e.check == b {
			v = e.next
		}
		if v >= 0 {
			b = v
			continue
		}
		n := -v - 1
		for u := n; u >= 0; u = s.dict[u] {
			if o := s.out[u]; o >= 0 && !fn(int(o), i+1) {
				return
			}
		}
		b = s.base[n]
	}
}

// WholeSet finds any of many words or phrases in one pass, each as a whole
// word, or as the start of one when it ends in '*' ("deliver*" finds
// "delivering"), or as the end of one when it starts with '*' ("*bussen"
// finds "Västkustbussen"), as Has reads them one at a time.
type WholeSet struct {
	set            *Set
	len            []int
	prefix, suffix []bool
}

// NewWholeSet builds the set of phrases.
func NewWholeSet(phrases []string) *WholeSet {
	w := &WholeSet{len: make([]int, len(phrases)), prefix: make([]bool, len(phrases)), suffix: make([]bool, len(phrases))}
	plain := make([]string, len(phrases))
	for i, p := range phrases {
		t := strings.TrimSuffix(p, "*")
		plain[i] = strings.TrimPrefix(t, "*")
		w.len[i], w.prefix[i], w.suffix[i] = len(plain[i]), t != p, plain[i] != t
	}
	w.set = NewSet(plain)
	return w
}

// In reports whether text holds one of the set's words.
func (w *WholeSet) In(text string) bool {
	found := false
	w.set.EachAt(text, func(p, end int) bool {
		found = (w.suffix[p] || !In(text, end-w.len[p], true)) && (w.prefix[p] || !In(text, end, false))
		return !found
	})
	return found
}
