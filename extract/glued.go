package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A text flattened from a mail's HTML without a separator between its
// cells runs a clock into the words around it: a reseller's card prints
// "jueves, 01 oct 2026" and "14:35" in two cells, read "01 oct
// 202614:35", and "17:08" over "Madrid Chamartín", read "17:08Madrid
// Chamartín" (issue 46, foreign-9; xf9t). unglueClocks parts them with a
// space, before the readers and the provenance check see the text.

// unglueClocks is text with a space between a clock and a year run into
// it before ("202614:35": a year of 19xx or 20xx, then an hour, after a
// space or a date's separator) and between a clock and a capitalised word
// run into it after ("17:08Madrid"; never "08:15AM", whose second letter
// is a capital too); text itself when it holds neither.
func unglueClocks(text string) string {
	var b strings.Builder
	last := 0
	for i := 2; i+2 < len(text); i++ {
		j := strings.IndexByte(text[i:], ':')
		if j < 0 {
			break
		}
		if i += j; i+2 >= len(text) {
			break
		}
		if !isDigitByte(text[i-1]) || !isDigitByte(text[i+1]) || !isDigitByte(text[i+2]) || i+3 < len(text) && isDigitByte(text[i+3]) {
			continue
		}
		if at := yearRunIn(text, i); at > 0 && at >= last {
			b.WriteString(text[last:at])
			b.WriteByte(' ')
			last = at
		}
		if end := i + 3; end < len(text) && capitalisedWordAt(text[end:]) {
			b.WriteString(text[last:end])
			b.WriteByte(' ')
			last = end
		}
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// yearRunIn is where the hour starts in a run of five or six digits that
// ends at colon, the clock's colon, when the run is a year of 19xx or
// 20xx and an hour of 0 to 23 after a space or a date's separator; 0
// when it is not.
func yearRunIn(text string, colon int) int {
	start := colon
	for start > 0 && isDigitByte(text[start-1]) {
		start--
	}
	n := colon - start
	if n != 5 && n != 6 || start == 0 || strings.IndexByte(" \t/.-", text[start-1]) < 0 {
		return 0
	}
	if y := text[start : start+2]; y != "19" && y != "20" {
		return 0
	}
	h := 0
	for _, c := range []byte(text[start+4 : colon]) {
		h = h*10 + int(c-'0')
	}
	if h > 23 {
		return 0
	}
	return start + 4
}

// capitalisedWordAt reports whether s opens with a capital and a small
// letter ("Madrid", "Île"), as a name does and a half of the day ("AM",
// "PM") does not.
func capitalisedWordAt(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsUpper(r) {
		return false
	}
	r2, _ := utf8.DecodeRuneInString(s[n:])
	return unicode.IsLower(r2)
}
