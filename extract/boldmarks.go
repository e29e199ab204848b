package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// boldMarkSpan is the longest phrase a pair of bold marks wraps.
const boldMarkSpan = 60

// unboldLabels blanks the asterisks a plain-text part writes for bold
// ("*Paketnummer*" over its number, "*Tracking number:* 1Z…"), and the
// doubled ones of Markdown ("**Train:** ES 9024"), so that the label rules
// read the label: one or two asterisks before a letter, after a line's
// start or a space, and as many to close them on the same line within
// boldMarkSpan bytes, before a line's end, a space or punctuation. The
// text keeps its length; a card's masked digits ("****1234"), a bullet
// ("* item") or a footnote's star stay.
func unboldLabels(text string) string {
	if strings.IndexByte(text, '*') < 0 {
		return text
	}
	var b []byte
	for i := 0; i < len(text); i++ {
		if text[i] != '*' || i > 0 && text[i-1] != ' ' && text[i-1] != '\t' && text[i-1] != '\n' && text[i-1] != '*' {
			continue
		}
		n := 1 // the marks' count: "*" or "**"
		if i+1 < len(text) && text[i+1] == '*' {
			n = 2
		}
		r, _ := utf8.DecodeRuneInString(text[i+n:])
		if !unicode.IsLetter(r) {
			continue
		}
		end := -1
		for j := i + n; j < len(text) && j <= i+boldMarkSpan; j++ {
			if c := text[j]; c == '\n' {
				break
			} else if c == '*' {
				end = j
				break
			}
		}
		if end < 0 || n == 2 && (end+1 >= len(text) || text[end+1] != '*') {
			continue
		}
		if k := end + n; k < len(text) && !strings.ContainsRune(" \t\n*:.,;)", rune(text[k])) {
			continue
		}
		if b == nil {
			b = []byte(text)
		}
		for k := range n {
			b[i+k], b[end+k] = ' ', ' '
		}
		i = end + n - 1
	}
	if b == nil {
		return text
	}
	return string(b)
}
