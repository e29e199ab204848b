package extract

import (
	"maps"
	"strings"
	"sync"
	"sync/atomic"

	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// A label set's regexp is an alternation of a hundred labels or more, in
// thirteen languages: too large for the regexp package's backtracker, its
// NFA carries every label that could start at each point of the line, and
// a long line with one anchor on it (a link to ".../buchung/...") cost a
// calendar mail a third of its extraction. Each label's anchor is in every
// match of it, so on a line only the labels whose anchors the line holds
// can match: the same alternation cut to those labels, in their order,
// finds the same matches, leftmost first, as the whole one.

// labelAlts is a label set's alternation cut to the labels a line's
// anchors allow, each cut compiled once.
type labelAlts struct {
	head, tail string   // the pattern around the alternation
	alts       []string // the labels, in the alternation's order
	// byAnchor lists for each anchor the labels that have it: words.Set
	// reports a phrase given twice by its first index only.
	byAnchor [][]int
	anchors  *words.Set
	// cuts maps a cut's labels (a bitmap, as a string) to its regexp:
	// read without a lock, replaced whole under mu when a cut is added.
	cuts atomic.Pointer[map[string]*lazyregexp.Regexp]
	mu   sync.Mutex
}

// maxCuts bounds the regexps one label set keeps: lines of hostile mail
// could name every combination of labels; past the bound, the whole
// alternation reads the line, as before.
const maxCuts = 256

func newLabelAlts(head, tail string, alts, anchors []string) *labelAlts {
	a := &labelAlts{head: head, tail: tail, alts: alts, byAnchor: make([][]int, len(anchors))}
	first := map[string]int{}
	for i, an := range anchors {
		j, ok := first[an]
		if !ok {
			j = i
			first[an] = i
		}
		a.byAnchor[j] = append(a.byAnchor[j], i)
	}
	a.anchors = words.NewSet(anchors)
	a.cuts.Store(&map[string]*lazyregexp.Regexp{})
	return a
}

// lineRE is the regexp to read line with: the alternation cut to the
// labels whose anchors line holds, or nil when it holds none. Lowered
// with every letter (regexp's (?i) folds "É" as "é"); a long s folds as
// 's' in regexp and not in lowering, so a line with one is read whole.
func (l labelSet) lineRE(line string) *lazyregexp.Regexp {
	a := l.cut
	if a == nil || strings.Contains(line, "ſ") {
		return l.re
	}
	var buf [32]byte // 256 labels without an allocation
	var bits []byte
	if n := (len(a.alts) + 7) / 8; n <= len(buf) {
		bits = buf[:n]
	} else {
		bits = make([]byte, n)
	}
	found := false
	a.anchors.Each(lower(line), func(p int) bool {
		for _, i := range a.byAnchor[p] {
			bits[i/8] |= 1 << (i % 8)
		}
		found = true
		return true
	})
	if !found {
		return nil
	}
	if re, ok := (*a.cuts.Load())[string(bits)]; ok {
		return re
	}
	return a.add(string(bits), l.re)
}

// add compiles the cut of the labels in bits and keeps it, or gives whole
// when maxCuts are kept.
func (a *labelAlts) add(bits string, whole *lazyregexp.Regexp) *lazyregexp.Regexp {
	a.mu.Lock()
	defer a.mu.Unlock()
	cuts := *a.cuts.Load()
	if re, ok := cuts[bits]; ok {
		return re
	}
	if len(cuts) >= maxCuts {
		return whole
	}
	var alts []string
	for i, alt := range a.alts {
		if bits[i/8]&(1<<(i%8)) != 0 {
			alts = append(alts, alt)
		}
	}
	re := lazyregexp.New(a.head + strings.Join(alts, "|") + a.tail)
	next := maps.Clone(cuts)
	next[bits] = re
	a.cuts.Store(&next)
	return re
}
