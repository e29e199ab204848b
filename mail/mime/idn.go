package mime

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"go.mau.fi/util/confusable"
	"golang.org/x/net/idna"
)

// ConfusableDomain reports whether a domain name (in Unicode or in its
// ASCII xn-- form) has a label that imitates another: one whose letters
// mix scripts ("pаypal" with a Cyrillic а), or whose letters outside ASCII
// all look like ASCII ones (Unicode TR39's confusables, one letter for
// one: "раураl" in Cyrillic, "pɑypal"). Such a domain is anyone's to
// register, and to a reader of text it is the brand's very name (the tenth
// outside review, MEDIUM-9). A label of one foreign script ("пример",
// "例え") or of Latin letters with accents ("bücher") is none.
func ConfusableDomain(domain string) bool {
	for _, label := range strings.Split(strings.ToLower(domain), ".") {
		if strings.HasPrefix(label, "xn--") {
			u, err := idna.Punycode.ToUnicode(label)
			if err != nil {
				return true // a broken A-label shows nothing honest
			}
			label = u
		}
		if confusableLabel(label) {
			return true
		}
	}
	return false
}

// scripts are those whose letters a label's may mix only as the
// languages that write them do (Japanese kana with Han, Korean with Han).
var scripts = []*unicode.RangeTable{unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Armenian,
	unicode.Georgian, unicode.Cherokee, unicode.Arabic, unicode.Hebrew, unicode.Thai, unicode.Devanagari,
	unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul}

func confusableLabel(label string) bool {
	if isASCII(label) {
		return false
	}
	seen := map[int]bool{}
	lookalike := true // every letter outside ASCII looks like one ASCII letter
	for _, r := range label {
		if !unicode.IsLetter(r) {
			continue
		}
		for i, t := range scripts {
			if unicode.Is(t, r) {
				seen[i] = true
				break
			}
		}
		if r >= utf8.RuneSelf {
			rep := confusable.GetReplacement(r)
			if utf8.RuneCountInString(rep) != 1 || rep[0] >= utf8.RuneSelf {
				lookalike = false
			}
		}
	}
	// Han, kana and Hangul count as one script, as Japanese and Korean
	// write them together.
	n, cjkSeen := 0, false
	for i := range seen {
		if i >= cjk {
			cjkSeen = true
		} else {
			n++
		}
	}
	if cjkSeen {
		n++
	}
	return n > 1 || lookalike
}

// cjk is the index in scripts of the first of Han, Hiragana, Katakana
// and Hangul.
const cjk = 10

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiDomain writes addr's domain in its ASCII (xn--) form when it is
// ConfusableDomain, so that every reader of the address (the store, the
// facts shown to an agent) names it so.
func asciiDomain(addr string) string {
	i := strings.LastIndexByte(addr, '@')
	if i < 0 || isASCII(addr[i+1:]) || !ConfusableDomain(addr[i+1:]) {
		return addr
	}
	a, err := idna.Punycode.ToASCII(addr[i+1:])
	if err != nil {
		return addr
	}
	return addr[:i+1] + a
}
