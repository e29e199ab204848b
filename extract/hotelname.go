package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
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

// guestLabelRE is a guest's label that opens a line, then its colon
// (guest.label in extract/lang/data): "Guest name: COOK RANDY", "Name des
// Gastes: …".
var guestLabelRE = lazyregexp.New(`^(?i:` + strings.Join(quoteAll(longestFirst(lang.Entries("guest.label"))), "|") + `)[ \t]*[:：]`)

// stayHeadingWords are the words of a heading over a stay's fields
// (stay.heading: "Reservation Details", "Ihre Buchung") and of the
// labels of a booking's number: such a line over the guest's label is no
// place's name.
var stayHeadingWords = func() map[string]bool {
	m := wordSet("stay.heading")
	for w := range labelWords {
		m[w] = true
	}
	for _, w := range lang.Entries("hotel") {
		m[strings.ToLower(w)] = true
	}
	return m
}()

// nameOverGuest is a place's name alone on the line over a guest's label,
// the block's first line, as a chain's confirmation prints its property
// ("Walt Disney World Dolphin" / "Guest name: COOK RANDY" / "Confirmation
// Number: …"): capitalised words with a name's small words between, no
// digit, colon or heading's word, no chain's or web site's name, and a
// blank line (or the text's start) above it; blank lines may stand
// between it and the label. Looked for in the first 60 lines.
func nameOverGuest(text string) string {
	prev, prevBlankAbove, blank := "", false, true
	n := 0
	for ln := range strings.Lines(text) {
		if n++; n > 60 {
			break
		}
		t := strings.TrimSpace(ln)
		if t == "" {
			blank = true // the name may stand apart above the label
			continue
		}
		if prev != "" && prevBlankAbove && guestLabelRE.MatchString(t) && propertyLine(prev) {
			return prev
		}
		prev, prevBlankAbove, blank = t, blank, false
	}
	return ""
}

// propertyLine reports whether a line is a place's name alone.
func propertyLine(ln string) bool {
	f := strings.Fields(ln)
	if len(f) < 2 || len(f) > 7 || len(ln) > 70 || hasDigit(ln) || !letterheadRE.MatchString(ln) || webName(ln) ||
		chainWords.In(strings.ToLower(ln)) {
		return false
	}
	for _, w := range f {
		// The capitalised words: a name's small words ("des") are
		// letterheadRE's links.
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) && stayHeadingWords[strings.ToLower(strings.Trim(w, "&-'’"))] {
			return false
		}
	}
	return true
}

// staySectionWords are the words of a stay's section or link that a
// lodging word heads (stay.section: "Fact Sheet", "Information",
// "Amenities"), each word of an entry alone.
var staySectionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range lang.Entries("stay.section") {
		for _, w := range strings.Fields(strings.ToLower(e)) {
			m[w] = true
		}
	}
	return m
}()

// sectionName reports whether a name read is a heading or a link over a
// stay's section rather than a place's name: every word of it a lodging
// word, a section's (staySectionWords) or a heading's (stayHeadingWords),
// as "Hotel Fact Sheet" in a chain's footer of links, "Hotel
// Information", "Your Stay", with one such word at least. A place's own
// name has a word of its own ("Hotel Zachary", "Swissotel Chicago"), or
// is lodging words alone ("Hotel Casa", Portuguese's "casa" a lodging
// word too).
func sectionName(n string) bool {
	section := false
	for _, w := range strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch {
		case lodgingWords.In(w):
		case staySectionWords[w] || stayHeadingWords[w]:
			section = true
		default:
			return false
		}
	}
	return section
}
