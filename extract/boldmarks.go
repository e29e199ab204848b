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
			if end := spacedBoldLabel(text, i); end > 0 {
				if b == nil {
					b = []byte(text)
				}
				b[i], b[end] = ' ', ' '
				i = end
			}
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

// spacedBoldLabel is where the closing mark of a label that Gmail's
// plain-text part sets in bold with spaces inside the marks stands ("*
// Numer zamówienia: * GPA.3379-…", "* Order date: * 19 Sep"), the text at
// i being the opening "*", or -1. Only a label, ending in its colon, is
// read so: a bullet ("* item") has no colon before a closing mark.
func spacedBoldLabel(text string, i int) int {
	if i+2 >= len(text) || text[i+1] != ' ' {
		return -1
	}
	if r, _ := utf8.DecodeRuneInString(text[i+2:]); !unicode.IsLetter(r) {
		return -1
	}
	for j := i + 2; j < len(text) && j <= i+boldMarkSpan; j++ {
		switch text[j] {
		case '\n':
			return -1
		case '*':
			if text[j-1] == ' ' && text[j-2] == ':' && (j+1 == len(text) || strings.IndexByte(" \t\r\n", text[j+1]) >= 0) {
				return j
			}
			return -1
		}
	}
	return -1
}
