package injection

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"mailnode/extract/lang"
	"mailnode/extract/words"
	"mailnode/mail/invisible"
)

// plainFold is fold's second reading of s, for the disguises fold keeps:
// accents on the letters of words that have none ("ignóre prévious
// instrúctions"), Latin letter variants ("ɪɢɴᴏʀᴇ" in small capitals,
// "ø", "ł") and a hyphen or a dot between two letters ("ign-ore",
// "ig.nore"). It decomposes s (NFKD), drops combining marks, maps each
// letter variant to its ASCII letter (latinLetters), drops a hyphen or dot
// that joins two letters, and folds the rest as fold does. A hyphen after
// a word's first letter stays ("e-mail", "x-ray").
//
// The rules match against fold(s) and plainFold(s) both: plainFold alone
// would lose what fold keeps apart (the rules' address patterns need the
// dots of a domain).
//
// changed are the words plainFold read otherwise than fold (one that
// held a non-ASCII letter or a joined hyphen or dot), for disguised.
func plainFold(s string) (p string, changed []span) {
	s = norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(s))
	word, wordChanged := span{ps: -1}, false
	endWord := func(at int) {
		if word.ps >= 0 && wordChanged {
			word.pe, word.written = b.Len(), s[word.os:at]
			changed = append(changed, word)
		}
		word, wordChanged = span{ps: -1}, false
	}
	space := false
	var prev rune // the last rune written, 0 after a space
	for i := 0; i < len(s); {
		at := i
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\n':
			endWord(at)
			b.WriteByte('\n')
			space, prev = false, 0
			continue
		case r == ' ' || r == '\t' || r == '\r' || r >= 0x80 && unicode.IsSpace(r):
			endWord(at)
			if !space {
				b.WriteByte(' ')
			}
			space, prev = true, 0
			continue
		case r >= 0x80 && (unicode.Is(unicode.Mn, r) || invisible.Is(r)):
			// A mark of a decomposed letter, or a character that
			// shows nothing: the word goes on.
			wordChanged = wordChanged || word.ps >= 0
			continue
		case joiner(r) && unicode.IsLetter(prev) && letterAt(s, i) && !oneLetter(b.String(), word.ps):
			wordChanged = true
			continue
		}
		space = false
		ascii := r < 0x80
		if !ascii {
			if l, ok := latinLetters[r]; ok {
				r = rune(l)
			} else if p := asciiPrototype(r); len(p) == 1 {
				r = rune(p[0])
			}
		}
		r = unicode.ToLower(r)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if word.ps < 0 {
				word = span{ps: b.Len(), os: at}
			}
			wordChanged = wordChanged || !ascii
		} else {
			endWord(at)
		}
		b.WriteRune(r)
		prev = r
	}
	endWord(len(s))
	return b.String(), changed
}

// span is a word plainFold changed: p[ps:pe] of its result, and as
// written (decomposed), from offset os of the text it read.
type span struct {
	ps, pe, os int
	written    string
}

// joiner reports whether r is a hyphen or a dot, which plainFold drops
// between two letters.
func joiner(r rune) bool {
	switch r {
	case '-', '.', '\u00b7', '\u2010', '\u2011', '\u2027', '\u2219', '\u22c5':
		return true
	}
	return false
}

// letterAt reports whether s holds a letter at offset i, past any marks
// and invisible characters.
func letterAt(s string, i int) bool {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0x80 || !(unicode.Is(unicode.Mn, r) || invisible.Is(r)) {
			return unicode.IsLetter(r)
		}
		i += n
	}
	return false
}

// oneLetter reports whether the word written from start in out is one
// letter ("e" of "e-mail").
func oneLetter(out string, start int) bool {
	if start < 0 {
		return true
	}
	_, n := utf8.DecodeRuneInString(out[start:])
	return start+n == len(out)
}

// needsPlain reports whether plainFold could read s otherwise than fold:
// it holds a non-ASCII character, or a hyphen or dot between two ASCII
// letters. English mail without links holds neither.
func needsPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return true
		}
		if (c == '-' || c == '.') && i > 0 && i+1 < len(s) && asciiLetter(s[i-1]) && asciiLetter(s[i+1]) {
			return true
		}
	}
	return false
}

// plainlyDisguised reports whether some word of s, read as plainFold
// reads it, is a disguised word of v (see disguised). It reads s once,
// word by word, into one small buffer, and folds only the words plainFold
// would change: a long mail in a language with accents, or full of links,
// costs one scan without allocating, and Addressed folds the whole text
// plainly only when this finds a word.
func plainlyDisguised(s string, v *vocabulary) bool {
	var buf [64]byte
	word := buf[:0]
	one := make([]byte, 0, utf8.UTFMax) // a letter, for its decomposition
	start, changed := -1, false
	var prev rune
	end := func(at int) bool {
		hit := changed && start >= 0 && utf8.RuneCount(word) > 1 && v.has(word) && !v.isWritten(fold(s[start:at]))
		word, start, changed = buf[:0], -1, false
		return hit
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		at := i
		i += n
		switch {
		case r < 0x80 && (asciiLetter(byte(r)) || r >= '0' && r <= '9'):
			if start < 0 {
				start = at
			}
			word = append(word, byte(unicode.ToLower(r)))
			prev = r
			continue
		case r >= 0x80 && (unicode.Is(unicode.Mn, r) || invisible.Is(r)):
			changed = changed || start >= 0
			continue
		case joiner(r) && unicode.IsLetter(prev) && letterAt(s, i) && utf8.RuneCount(word) > 1:
			changed = true
			continue
		case r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if start < 0 {
				start = at
			}
			changed = true
			prev = r
			if l, ok := latinLetters[r]; ok {
				word = append(word, l)
				continue
			}
			one = utf8.AppendRune(one[:0], r)
			dec := norm.NFKD.Properties(one).Decomposition()
			if dec == nil {
				dec = one
			}
			for j := 0; j < len(dec); {
				c, m := utf8.DecodeRune(dec[j:])
				j += m
				if unicode.Is(unicode.Mn, c) {
					continue
				}
				if l, ok := latinLetters[c]; ok {
					c = rune(l)
				} else if p := asciiPrototype(c); len(p) == 1 {
					c = rune(p[0])
				}
				word = utf8.AppendRune(word, unicode.ToLower(c))
			}
			continue
		}
		if end(at) {
			return true
		}
		prev = 0
	}
	return end(len(s))
}

func asciiLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// disguised reports whether a word plainFold changed reads plainly as a
// word of vocab but is not one as written: "ignóre" is "ignore" in
// disguise, while "für" and "všechny" are the rules' own words and
// "Straße" none. Only then does the plain reading matter, so that a long
// mail is read twice only when it holds such a word, not for every
// accented letter or domain.
func disguised(p string, changed []span, v *vocabulary) bool {
	for _, w := range changed {
		if v.plain.In(p[w.ps:w.pe]) && !v.isWritten(fold(w.written)) {
			return true
		}
	}
	return false
}

// A vocabulary is the words a disguised word may turn into, read plainly
// (plain, and the same words in words, for plainlyDisguised), and as the
// lists write them (written).
type vocabulary struct {
	plain *words.WholeSet
	words wordTable
	// written are the words as the lists write them: a word is the
	// rules' own only when all of it is one. Found anywhere in it, the
	// one-letter words between a disguise's marks ("I̲g̲n̲o̲r̲e̲": "i",
	// "e") made any word the rules' own (the ninth outside review).
	written wordTable
}

// A wordTable holds words whole, or as prefixes when they end in '*'.
type wordTable struct {
	whole, prefix map[string]bool
	prefixLens    []int
}

func newWordTable(ws []string) wordTable {
	t := wordTable{whole: map[string]bool{}, prefix: map[string]bool{}}
	for _, w := range ws {
		if p, ok := strings.CutSuffix(w, "*"); ok {
			if !t.prefix[p] {
				t.prefixLens = append(t.prefixLens, len(p))
			}
			t.prefix[p] = true
		} else {
			t.whole[w] = true
		}
	}
	slices.Sort(t.prefixLens)
	t.prefixLens = slices.Compact(t.prefixLens)
	return t
}

// has reports whether w is one of t's words, or starts with one of its
// prefixes ("ignore*").
func (t *wordTable) has(w []byte) bool {
	if t.whole[string(w)] {
		return true
	}
	for _, n := range t.prefixLens {
		if n <= len(w) && t.prefix[string(w[:n])] {
			return true
		}
	}
	return false
}

// has reports whether a word read plainly is one of the vocabulary's.
func (v *vocabulary) has(w []byte) bool { return v.words.has(w) }

// isWritten reports whether w, folded, is a word of the lists as they
// write it.
func (v *vocabulary) isWritten(w string) bool { return v.written.has([]byte(w)) }

func newVocabulary(lists ...[]string) *vocabulary {
	seen := map[string]bool{}
	var plain, written []string
	for _, list := range lists {
		for _, w := range list {
			w = strings.TrimPrefix(w, "=")
			// Each word of a phrase alone: "language model" is disguised
			// in "lánguage model".
			for _, part := range strings.FieldsFunc(w, func(r rune) bool {
				return r != '*' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
			}) {
				if seen[part] {
					continue
				}
				seen[part] = true
				written = append(written, fold(part))
				// Words of one letter ("a", "à" read plainly) are left
				// out: French mail is full of them, and no rule hangs
				// on one alone.
				if p, _ := plainFold(part); utf8.RuneCountInString(strings.TrimSuffix(p, "*")) > 1 {
					plain = append(plain, p)
				}
			}
		}
	}
	v := &vocabulary{plain: words.NewWholeSet(plain), words: newWordTable(plain), written: newWordTable(written)}
	return v
}

// ruleVocabulary is the words of the phrase rules, for Addressed.
var ruleVocabulary = sync.OnceValue(func() *vocabulary { return newVocabulary(phraseWords()) })

// phraseWords are the words of the phrase rules: the rules' own and
// their languages' categories.
func phraseWords() []string {
	var ws []string
	for _, rl := range rules {
		for _, g := range rl.words {
			ws = append(ws, g...)
		}
	}
	for _, c := range languageCategories {
		ws = append(ws, lang.Entries(c)...)
	}
	return ws
}

// speechVocabulary is ruleVocabulary's words and the English words that
// make a sentence speak to its reader, for Instructive and Directive.
// Only English ones: the lists of other languages hold their words
// written without accents too ("envoye*" for "envoyez"), and a genuine
// word read without its accents would match them ("Envoyé de mon
// iPhone"); the accents this guards against are put on English words.
var speechVocabulary = sync.OnceValue(func() *vocabulary {
	ws := phraseWords()
	ws = append(ws, lang.Of("en", "injection.you")...)
	ws = append(ws, lang.Of("en", "injection.verbs")...)
	ws = append(ws, machineWords...)
	ws = append(ws, "prompt", "prompts", "instruction", "instructions", "gemini")
	return newVocabulary(ws)
})
