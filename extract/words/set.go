package words

import "strings"

// Set finds many phrases in a text in one pass (Aho-Corasick), for the
// extractors' phrase lists in thirteen languages, where a strings.Contains
// per phrase cost a fifth of all extraction time. Transitions are kept
// sparse: a few hundred phrases take tens of kilobytes, not the megabytes
// of a full table.
type Set struct {
	root  [256]int32 // the root's transitions, the hot ones
	kids  [][]edge   // every other node's, few each
	fail  []int32
	out   []int32 // the phrase ending at a node, or -1
	dict  []int32 // the next node down the fail chain with a phrase, or -1
	count int
}

type edge struct {
	b  byte
	to int32
}

// NewSet builds the set of phrases; Each reports them by their index.
func NewSet(phrases []string) *Set {
	s := &Set{kids: [][]edge{nil}, fail: []int32{0}, out: []int32{-1}, dict: []int32{-1}, count: len(phrases)}
	for i := range s.root {
		s.root[i] = -1
	}
	for i, p := range phrases {
		n := int32(0)
		for j := 0; j < len(p); j++ {
			next := s.child(n, p[j])
			if next < 0 {
				next = int32(len(s.kids))
				s.kids, s.fail, s.out, s.dict = append(s.kids, nil), append(s.fail, 0), append(s.out, -1), append(s.dict, -1)
				if n == 0 {
					s.root[p[j]] = next
				} else {
					s.kids[n] = append(s.kids[n], edge{p[j], next})
				}
			}
			n = next
		}
		if s.out[n] < 0 && p != "" {
			s.out[n] = int32(i)
		}
	}
	// Fail links breadth first: a node's fail is the longest proper
	// suffix of its path that is also a path from the root.
	var queue []int32
	for c := range s.root {
		if n := s.root[c]; n >= 0 {
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range s.kids[n] {
			f := s.fail[n]
			for f != 0 && s.child(f, e.b) < 0 {
				f = s.fail[f]
			}
			if t := s.child(f, e.b); t >= 0 && t != e.to {
				s.fail[e.to] = t
			}
			if fo := s.fail[e.to]; s.out[fo] >= 0 {
				s.dict[e.to] = fo
			} else {
				s.dict[e.to] = s.dict[fo]
			}
			queue = append(queue, e.to)
		}
	}
	return s
}

func (s *Set) child(n int32, b byte) int32 {
	if n == 0 {
		return s.root[b]
	}
	for _, e := range s.kids[n] {
		if e.b == b {
			return e.to
		}
	}
	return -1
}

// Each calls fn with the index of every phrase found in text (a phrase
// found twice is reported twice), until fn returns false.
func (s *Set) Each(text string, fn func(phrase int) bool) {
	s.EachAt(text, func(phrase, _ int) bool { return fn(phrase) })
}

// Any reports whether text holds one of the phrases.
func (s *Set) Any(text string) bool {
	found := false
	s.Each(text, func(int) bool { found = true; return false })
	return found
}

// EachAt is Each, with the offset in text just after the phrase found:
// the caller can tell whether it stands as a whole word.
func (s *Set) EachAt(text string, fn func(phrase, end int) bool) {
	n := int32(0)
	for i := 0; i < len(text); i++ {
		b := text[i]
		for n != 0 && s.child(n, b) < 0 {
			n = s.fail[n]
		}
		if t := s.child(n, b); t >= 0 {
			n = t
		}
		for u := n; u > 0; u = s.dict[u] {
			if o := s.out[u]; o >= 0 && !fn(int(o), i+1) {
				return
			}
			if s.dict[u] < 0 {
				break
			}
		}
	}
}

// WholeSet finds any of many words or phrases in one pass, each as a whole
// word, or as the start of one when it ends in '*' ("deliver*" finds
// "delivering"), as Has reads them one at a time.
type WholeSet struct {
	set    *Set
	len    []int
	prefix []bool
}

// NewWholeSet builds the set of phrases.
func NewWholeSet(phrases []string) *WholeSet {
	w := &WholeSet{len: make([]int, len(phrases)), prefix: make([]bool, len(phrases))}
	plain := make([]string, len(phrases))
	for i, p := range phrases {
		plain[i] = strings.TrimSuffix(p, "*")
		w.len[i], w.prefix[i] = len(plain[i]), plain[i] != p
	}
	w.set = NewSet(plain)
	return w
}

// In reports whether text holds one of the set's words.
func (w *WholeSet) In(text string) bool {
	found := false
	w.set.EachAt(text, func(p, end int) bool {
		found = !In(text, end-w.len[p], true) && (w.prefix[p] || !In(text, end, false))
		return !found
	})
	return found
}
