package words

import (
	"math"
	"strings"
)

// Set finds many phrases in a text in one pass (Aho-Corasick), for the
// extractors' phrase lists in thirteen languages, where a strings.Contains
// per phrase cost a fifth of all extraction time. The automaton is a full
// table over classes of bytes: a step is two loads, where following the
// fail links of a sparse trie per byte cost a bill's topic test a third
// of a mail's extraction. The bytes no phrase holds share one class, so a
// list of a few hundred phrases takes tens of kilobytes.
type Set struct {
	class [256]uint16 // a byte's column in next
	width int         // columns: the classes of bytes
	// next is the step from node n by class c, at next[n*width+c]: the
	// row of the node it leads to (t*width), negated and less one where
	// t ends some phrase, so that the loop neither multiplies nor looks
	// elsewhere to learn it.
	next  []int32
	out   []int32 // the phrase ending at a node, or -1
	dict  []int32 // the next node down the fail chain with a phrase, or -1
	count int
}

// NewSet builds the set of phrases; Each reports them by their index.
func NewSet(phrases []string) *Set {
	s := &Set{count: len(phrases)}
	// Classes: 0 for the bytes no phrase has, one each for the others.
	for _, p := range phrases {
		for j := 0; j < len(p); j++ {
			if s.class[p[j]] == 0 {
				s.width++
				s.class[p[j]] = uint16(s.width)
			}
		}
	}
	s.width++
	// The trie: -1 where there is no child yet.
	grow := func() int32 {
		for range s.width {
			s.next = append(s.next, -1)
		}
		s.out, s.dict = append(s.out, -1), append(s.dict, -1)
		return int32(len(s.out) - 1)
	}
	grow()
	for i, p := range phrases {
		n := int32(0)
		for j := 0; j < len(p); j++ {
			at := int(n)*s.width + int(s.class[p[j]])
			if s.next[at] < 0 {
				t := grow()
				s.next[at] = t
			}
			n = s.next[at]
		}
		if s.out[n] < 0 && p != "" {
			s.out[n] = int32(i)
		}
	}
	// Breadth first, each missing transition becomes its fail node's: the
	// longest proper suffix of the path that is also a path from the root.
	fail := make([]int32, len(s.out))
	var queue []int32
	for c := range s.width {
		if t := s.next[c]; t >= 0 {
			queue = append(queue, t)
		} else {
			s.next[c] = 0
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		row := s.next[int(n)*s.width : int(n+1)*s.width]
		frow := s.next[int(fail[n])*s.width:]
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
	if int64(len(s.out))*int64(s.width) > math.MaxInt32 {
		panic("words: a set too large for its table") // lists of phrases are data of a few kilobytes
	}
	for i, t := range s.next {
		if s.out[t] >= 0 || s.dict[t] >= 0 {
			s.next[i] = -t*int32(s.width) - 1
		} else {
			s.next[i] = t * int32(s.width)
		}
	}
	return s
}

// Each calls fn with the index of every phrase found in text (a phrase
// found twice is reported twice), until fn returns false.
func (s *Set) Each(text string, fn func(phrase int) bool) {
	s.EachAt(text, func(phrase, _ int) bool { return fn(phrase) })
}

// Any reports whether text holds one of the phrases.
func (s *Set) Any(text string) bool {
	row := int32(0)
	for i := 0; i < len(text); i++ {
		if row = s.next[int(row)+int(s.class[text[i]])]; row < 0 {
			return true
		}
	}
	return false
}

// AnyFold is Any of text with its ASCII letters lower-cased, for phrases
// in small letters, without a lower-cased copy of a long text.
func (s *Set) AnyFold(text string) bool {
	row := int32(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if row = s.next[int(row)+int(s.class[c])]; row < 0 {
			return true
		}
	}
	return false
}

// EachAt is Each, with the offset in text just after the phrase found:
// the caller can tell whether it stands as a whole word.
func (s *Set) EachAt(text string, fn func(phrase, end int) bool) {
	row := int32(0)
	for i := 0; i < len(text); i++ {
		if row = s.next[int(row)+int(s.class[text[i]])]; row >= 0 {
			continue
		}
		row = -row - 1
		for u := row / int32(s.width); u >= 0; u = s.dict[u] {
			if o := s.out[u]; o >= 0 && !fn(int(o), i+1) {
				return
			}
		}
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
