package extract

import (
	"unicode"
	"unicode/utf8"
)

// lower is strings.ToLower, byte for byte, made for mail text: mostly
// ASCII with a few other letters ("€", "ä", "–"). strings.ToLower goes
// rune by rune through strings.Map as soon as one byte is not ASCII, and
// the bill rules' lower-casing of a mail's first lines was 5% of a sync's
// CPU that way; here ASCII bytes are folded in place and only the other
// runes are decoded. Invalid UTF-8 becomes U+FFFD, as with strings.Map.
func lower(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				break
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 || unicode.ToLower(r) != r {
			break
		}
		i += w
	}
	if i == len(s) {
		return s // nothing to change: no copy, as strings.ToLower
	}
	b := make([]byte, i, len(s)+utf8.UTFMax)
	copy(b, s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += w
	}
	return string(b)
}

// lowerLine lower-cases a line for the anchor test: ASCII letters only
// when it has no others (offsets kept, no copy when already lower), all
// letters when it has ("ERÄPÄIVÄ").
func lowerLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return lower(s)
		}
	}
	return asciiLower(s)
}

// asciiLower lower-cases ASCII letters only, so that byte offsets stay
// those of s.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// widthLower lower-cases every letter whose lower case takes as many
// bytes as it does (ASCII, Latin-1's, Greek, Cyrillic: "Код", "ΚΩΔΙΚΟΣ"),
// so that byte offsets stay those of s; the others ("İ", whose lower case
// is one byte) and invalid UTF-8 are left as they are. A label's anchor
// is looked for in it: asciiLower alone missed every label whose first
// letter is a capital beyond ASCII.
func widthLower(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return asciiLower(s)
	}
	b := []byte(s)
	for j := 0; j < i; j++ {
		if c := b[j]; 'A' <= c && c <= 'Z' {
			b[j] = c + 'a' - 'A'
		}
	}
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
			i++
			continue
		}
		r, w := utf8.DecodeRune(b[i:])
		if l := unicode.ToLower(r); l != r && r != utf8.RuneError && utf8.RuneLen(l) == w {
			utf8.EncodeRune(b[i:], l)
		}
		i += w
	}
	return string(b)
}
