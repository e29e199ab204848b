package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lodgingCaseEndings are the endings Czech, Slovak and Polish give a
// lodging word after a preposition or as an object ("v Hotelu Kaštan",
// "w Pensjonatu", "s Penzionem"), whose stem is the word itself.
var lodgingCaseEndings = []string{"u", "em", "e", "a", "y", "ie", "om", "ům", "ach"}

// nominativeName is a stay's name as the place calls itself, where the
// sentence it was read from inflects it: "Hotelu Kaštan" from "v Hotelu
// Kaštan" is "Hotel Kaštan" (the proper name after the word keeps its
// form in these languages), and a name whose own word a case ending
// changed ("Hotelli Kuusessa", Finnish "at Hotel Kuusi") is the one a
// short line of text writes with the same start ("Hotelli Kuusi,
// Kuopio", a signature's). Else name as it is.
func nominativeName(name, text string) string {
	first, rest, ok := strings.Cut(name, " ")
	if !ok || rest == "" {
		return name
	}
	if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsUpper(r) {
		return name
	}
	lw := strings.ToLower(first)
	if lodgingWords.In(lw) {
		return signedName(first, rest, text, name)
	}
	for _, end := range lodgingCaseEndings {
		if stem, ok := strings.CutSuffix(lw, end); ok && len(first) == len(lw) && lodgingWords.In(stem) {
			return first[:len(stem)] + " " + rest
		}
	}
	return name
}

// signedName is the name a short line of text starts with (its part
// before a comma) when it opens with the same lodging word as the name
// read (first), then a word that starts as rest's first word does (four
// letters or more alike) and ends otherwise, in two letters at most where
// the word read has four: the place's own form of a name a sentence
// inflected. Else name.
func signedName(first, rest, text, name string) string {
	w, _, _ := strings.Cut(rest, " ")
	wr := []rune(w)
	if len(wr) < 5 {
		return name
	}
	for ln := range strings.Lines(text) {
		ln = strings.TrimSpace(ln)
		after, ok := strings.CutPrefix(ln, first+" ")
		if !ok || len(ln) > 60 {
			continue
		}
		own, _, _ := strings.Cut(after, ",")
		own = strings.TrimSpace(own)
		ow, _, _ := strings.Cut(own, " ")
		or := []rune(ow)
		if ow == w || len(or) < 4 || len(strings.Fields(own)) > 5 {
			continue
		}
		same := 0
		for same < len(or) && same < len(wr) && or[same] == wr[same] {
			same++
		}
		// The signed word differs only in an ending: "Kuusi" for
		// "Kuusessa", not "Sachertorte" for "Sacher".
		if same >= 4 && len(or)-same <= 2 && len(wr)-same <= 4 {
			return first + " " + own
		}
	}
	return name
}
