package words

import (
	"slices"
	"strings"
	"sync"
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
// a row per node and a column per distinct byte took 32.0 MiB for the
// extractor's 86 sets (twenty-eight languages), this form 3.1 MiB, and
// it is built from the trie's lists without the full table; a step is
// three loads from small tables, a compare and a branch the predictor
// learns, no slower than the full table's one load from a large one.
//
// A set is built on its first use, not by NewSet: the extractors declare
// their sets as package variables, and building all of them when the
// program starts cost every command a tenth of a second (2,098 order
// status phrases in twenty-eight languages alone take 80 ms), commands
// that never read a mail included.
type Set struct {
	once    sync.Once
	phrases []string // until built

	class [256]uint16 // a byte's column: 0 for the bytes no phrase has
	// root is the step from the root by a byte, which is also the step
	// from any node whose row has no cell for the byte's class.
	root [256]int32
	// cells holds the other steps: from the node whose row starts at base
	// b, by class c, cells[b+c] when its check is b's. Bases differ from
	// node to node, so a cell is owned by one node only. A step's value
	// is the base of the node it leads to, or, where that node ends some
	// phrase, the node's index negated and less one, so that the loop
	// neither looks elsewhere to learn it nor keeps the index otherwise.
	// A cell holds the value in its high 23 bits and the owner's base
	// modulo 512 in its low 9 as its check: the nodes that may read a
	// cell have bases less than a row's width (at most 257) apart, so the
	// residue tells them apart, and four bytes a cell do where eight did.
	cells []uint32
	base  []int32 // a node's base
	out   []int32 // the phrase ending at a node, or -1
	dict  []int32 // the next node down the fail chain with a phrase, or -1
}

// checkBits is the width of a cell's check.
const checkBits = 9

// cell is a stored step to v from the node of base b.
func cell(b, v int32) uint32 { return uint32(v)<<checkBits | uint32(b)&(1<<checkBits-1) }

// mine reports whether cell e is the step of the node of base b.
func mine(e uint32, b int32) bool { return (e^uint32(b))&(1<<checkBits-1) == 0 }

// NewSet makes the set of phrases; Each reports them by their index.
func NewSet(phrases []string) *Set {
	return &Set{phrases: phrases}
}

// built builds the set on its first use.
func (s *Set) built() { s.once.Do(s.build) }

// build makes the automaton of s.phrases.
func (s *Set) build() {
	phrases := s.phrases
	s.phrases = nil
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
	// The trie: the root's children by class (0 for none: the root is no
	// one's child), every other node's in a list (its first child, each
	// child's next sibling, the class that leads to a child).
	rootRow := make([]int32, width)
	var first, sibling, label []int32
	grow := func(c int32) int32 {
		first, sibling, label = append(first, -1), append(sibling, -1), append(label, c)
		s.out, s.dict = append(s.out, -1), append(s.dict, -1)
		return int32(len(s.out) - 1)
	}
	grow(0)
	for i, p := range phrases {
		n := int32(0)
		for j := 0; j < len(p); j++ {
			c := int32(s.class[p[j]])
			if n == 0 {
				if rootRow[c] == 0 {
					rootRow[c] = grow(c)
				}
				n = rootRow[c]
				continue
			}
			t := first[n]
			for t >= 0 && label[t] != c {
				t = sibling[t]
			}
			if t < 0 {
				t = grow(c)
				sibling[t], first[n] = first[n], t
			}
			n = t
		}
		if s.out[n] < 0 && p != "" {
			s.out[n] = int32(i)
		}
	}
	// Breadth first, a node's steps that lead deeper than one byte (all
	// others lead where the root's do): its children's, and its fail
	// node's for the other classes, the fail node being the longest
	// proper suffix of its path that is also a path from the root. They
	// are at cls/to[from[n]:end[n]], in the order of their classes.
	nodes := len(s.out)
	fail := make([]int32, nodes)
	from, end := make([]int32, nodes), make([]int32, nodes)
	var cls, to []int32
	queue := make([]int32, 0, nodes)
	for _, t := range rootRow {
		if t > 0 {
			queue = append(queue, t)
		}
	}
	var kids []int32
	for q := 0; q < len(queue); q++ {
		n := queue[q]
		kids = kids[:0]
		for t := first[n]; t >= 0; t = sibling[t] {
			kids = append(kids, t)
		}
		slices.SortFunc(kids, func(a, b int32) int { return int(label[a] - label[b]) })
		from[n] = int32(len(cls))
		k, f, fEnd := 0, int(from[fail[n]]), int(end[fail[n]])
		for k < len(kids) || f < fEnd {
			if k == len(kids) || (f < fEnd && cls[f] < label[kids[k]]) {
				cls, to = append(cls, cls[f]), append(to, to[f])
				f++
				continue
			}
			t := kids[k]
			c := label[t]
			k++
			ft := rootRow[c] // where the fail node leads by c
			if f < fEnd && cls[f] == c {
				ft = to[f]
				f++
			}
			fail[t] = ft
			if s.out[ft] >= 0 {
				s.dict[t] = ft
			} else {
				s.dict[t] = s.dict[ft]
			}
			cls, to = append(cls, c), append(to, t)
			queue = append(queue, t)
		}
		end[n] = int32(len(cls))
	}
	s.pack(width, rootRow, from, end, cls, to)
}

// pack stores the automaton: the root's row, and each node's cells for
// its steps that lead deeper than one byte (classes cls, nodes to, at
// [from[n]:end[n]]). Each node also owns the cell of class 0 at its base
// (a byte no phrase holds leads to the root from anywhere), which keeps
// two nodes from sharing a base. The rows with the most cells are
// placed first, each at the first base where all its cells are free.
func (s *Set) pack(width int, rootRow, from, end, cls, to []int32) {
	nodes := len(s.out)
	size := func(n int32) int { return int(end[n]-from[n]) + 1 }
	// The order: the longest rows first (a counting sort).
	count := make([]int32, width+2)
	for n := 1; n < nodes; n++ {
		count[width+1-size(int32(n))]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	order := make([]int32, nodes-1)
	for n := nodes - 1; n >= 1; n-- {
		k := width + 1 - size(int32(n))
		count[k]--
		order[count[k]] = int32(n)
	}
	s.base = make([]int32, nodes) // the root's is 0, and it owns cell 0
	used := make([]bool, width)
	skip := make([]int32, width)
	for i := range skip {
		skip[i] = int32(i)
	}
	used[0], skip[0] = true, 1
	hi := 1 // the cell past the last one used
	var cs []int32
	for _, n := range order {
		cs = append(append(cs[:0], 0), cls[from[n]:end[n]]...)
		b := fit(cs, used, skip, hi)
		s.base[n] = int32(b)
		for len(used) < b+width {
			used, skip = append(used, false), append(skip, int32(len(skip)))
		}
		for _, c := range cs {
			used[b+int(c)], skip[b+int(c)] = true, int32(b+int(c)+1)
		}
		hi = max(hi, b+int(cs[len(cs)-1])+1)
	}
	if len(used) >= 1<<(31-checkBits) || nodes >= 1<<(31-checkBits) {
		panic("words: a set too large for its table") // lists of phrases are data of a few hundred kilobytes
	}
	step := func(t int32) int32 {
		if s.out[t] >= 0 || s.dict[t] >= 0 {
			return -t - 1
		}
		return s.base[t]
	}
	for x := range s.root {
		s.root[x] = step(rootRow[s.class[x]])
	}
	// A free cell's check is that of the base one past it, which no node
	// that may read it has.
	s.cells = make([]uint32, len(used))
	for i := range s.cells {
		s.cells[i] = cell(int32(i+1), 0)
	}
	s.cells[0] = cell(0, 0)
	for n := 1; n < nodes; n++ {
		b := s.base[n]
		s.cells[b] = cell(b, step(0))
		for k := from[n]; k < end[n]; k++ {
			s.cells[b+cls[k]] = cell(b, step(to[k]))
		}
	}
}

// fit finds the base for a row with cells in the classes cs (0 and
// others in increasing order): the first free cell where they are all
// free; after a few tries, one near the last cells used, so that building
// a set of thousands of nodes stays linear and the rows interleave.
func fit(cs []int32, used []bool, skip []int32, hi int) int {
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
			if at := b + int(c); at < len(used) && used[at] {
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
	s.built()
	b := int32(0)
	for i := 0; i < len(text); i++ {
		x := text[i]
		v := s.root[x]
		if e := s.cells[int(b)+int(s.class[x])]; mine(e, b) {
			v = int32(e) >> checkBits
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
	s.built()
	b := int32(0)
	for i := 0; i < len(text); i++ {
		x := text[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		v := s.root[x]
		if e := s.cells[int(b)+int(s.class[x])]; mine(e, b) {
			v = int32(e) >> checkBits
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
	s.built()
	b := int32(0)
	for i := 0; i < len(text); i++ {
		x := text[i]
		v := s.root[x]
		if e := s.cells[int(b)+int(s.class[x])]; mine(e, b) {
			v = int32(e) >> checkBits
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
	set *Set
	len []int
	// forms are the ways each phrase may stand, a bit each: formWhole,
	// formPrefix ("deliver*"), formSuffix ("*bussen"), formInner
	// ("*x*"). The same words may come with and without a star from two
	// languages' lists ("fatura" whole in Portuguese, "fatura*" in
	// another): the automaton holds them once, and either way counts.
	forms []uint8
}

const (
	formWhole uint8 = 1 << iota
	formPrefix
	formSuffix
	formInner
)

// NewWholeSet builds the set of phrases.
func NewWholeSet(phrases []string) *WholeSet {
	w := &WholeSet{}
	index := map[string]int{}
	var plain []string
	for _, p := range phrases {
		t := strings.TrimSuffix(p, "*")
		q := strings.TrimPrefix(t, "*")
		form := formWhole
		switch prefix, suffix := t != p, q != t; {
		case prefix && suffix:
			form = formInner
		case prefix:
			form = formPrefix
		case suffix:
			form = formSuffix
		}
		i, ok := index[q]
		if !ok {
			i = len(plain)
			index[q] = i
			plain = append(plain, q)
			w.len = append(w.len, len(q))
			w.forms = append(w.forms, 0)
		}
		w.forms[i] |= form
	}
	w.set = NewSet(plain)
	return w
}

// In reports whether text holds one of the set's words.
func (w *WholeSet) In(text string) bool {
	found := false
	w.set.EachAt(text, func(p, end int) bool {
		starts, ends := !In(text, end-w.len[p], true), !In(text, end, false)
		f := w.forms[p]
		found = f&formInner != 0 || f&formPrefix != 0 && starts || f&formSuffix != 0 && ends || f&formWhole != 0 && starts && ends
		return !found
	})
	return found
}
