package oauth

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// maxMarksPerLetter is how many nonspacing combining marks a name keeps
// on one letter: enough for the scripts that stack two (Hebrew points,
// Arabic shadda with a vowel) once NFC has composed what it can, too few
// to pile marks over the lines around it.
const maxMarksPerLetter = 2

// cleanName keeps a client's name printable, on one line and short: the
// page and the phone show it, and it is the client's own text. It first
// folds compatibility forms (NFKC: fullwidth and mathematical letters,
// "𝐂𝐥𝐚𝐮𝐝𝐞" and "Ｃｌａｕｄｅ", become the letters they imitate, so the
// script check below sees them), then drops control and format
// characters, default-ignorable ones (Hangul fillers, variation
// selectors: letters that show nothing), enclosing marks, runs of
// combining marks (spacing ones too), and quotation marks (the phone and
// the page show the name in quotes, which a name must not close); folds
// every space, blank (U+2800), line break, line and paragraph separator
// (U+2028, U+2029, which a text view breaks lines at, so a name could
// fake the lines of the phone's prompt below it) into single spaces; and
// cuts it at maxClientNameRunes. Names from before this rule are cleaned
// again where they are read.
func cleanName(n string) string {
	var b strings.Builder
	marks, space := 0, false
	for _, r := range norm.NFKC.String(n) {
		switch {
		case unicode.IsSpace(r) || unicode.In(r, unicode.Zl, unicode.Zp) || r == '\u2800':
			space = true
			continue
		case unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Me, unicode.Co, unicode.Cs,
			unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Quotation_Mark) || r == unicode.ReplacementChar:
			continue
		case unicode.In(r, unicode.Mn, unicode.Mc):
			if space || b.Len() == 0 || marks >= maxMarksPerLetter {
				continue
			}
			marks++
		default:
			marks = 0
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
		}
		b.WriteRune(r)
	}
	n = b.String()
	if r := []rune(n); len(r) > maxClientNameRunes {
		n = string(r[:maxClientNameRunes]) + "…"
	}
	return n
}

// singleSystems are the sets of scripts one writing system mixes (UTS 39
// section 5.2, "highly restrictive"): any name whose letters stay within
// one script, or within one of these sets, is not flagged.
var singleSystems = [][]string{
	{"Latin", "Han", "Hiragana", "Katakana"},
	{"Latin", "Han", "Bopomofo"},
	{"Latin", "Han", "Hangul"},
}

// mixedScripts returns the scripts of n's letters, sorted, when they mix
// scripts that no one writing system does, as a look-alike does ("Сlаudе"
// with Cyrillic С, а, е posing as Claude); nil otherwise. A name in one
// other script that only looks like a Latin one is not caught: that is
// why the page and the phone show the client's checked identity as well.
func mixedScripts(n string) []string {
	var found []string
	for _, r := range n {
		if !unicode.IsLetter(r) {
			continue
		}
		for name, tab := range unicode.Scripts {
			if name != "Common" && name != "Inherited" && unicode.Is(tab, r) {
				if !slices.Contains(found, name) {
					found = append(found, name)
				}
				break
			}
		}
	}
	if len(found) < 2 {
		return nil
	}
	for _, sys := range singleSystems {
		if !slices.ContainsFunc(found, func(s string) bool { return !slices.Contains(sys, s) }) {
			return nil
		}
	}
	slices.Sort(found)
	return found
}

// nameNote is what the page and the phone add after a name that mixes
// scripts, or that names a site other than the client's identity (a
// client at assistant.example.com calling itself "Claude (claude.ai)");
// "" for any other.
func nameNote(n, identity string) string {
	var notes []string
	if s := mixedScripts(n); s != nil {
		notes = append(notes, "its name mixes "+strings.Join(s, " and ")+" letters: it may be imitating another name")
	}
	for _, d := range siteInName.FindAllString(dotted(strings.ToLower(n)), -1) {
		if d != identity && !strings.HasSuffix(identity, "."+d) {
			notes = append(notes, "its name names "+d+", which is not where it comes from")
			break
		}
	}
	return strings.Join(notes, "; ")
}

// dotted reads a name as a domain name would be read by eye: any
// character between two letters or digits that is neither a letter, a
// digit, a hyphen nor a space (U+00B7, U+2E31, U+30FB and the many other
// dots and middle dots, which no list keeps up with: outside attacks 43d
// and 43f, finding 5 and 2) becomes a dot, as do the letters that are
// dots (U+A78F LATIN LETTER SINOLOGICAL DOT).
func dotted(n string) string {
	r := []rune(n)
	alnum := func(i int) bool {
		return i >= 0 && i < len(r) && (unicode.IsLetter(r[i]) || unicode.IsDigit(r[i])) && r[i] != '\ua78f'
	}
	for i, c := range r {
		if c == '\ua78f' || !alnum(i) && c != '-' && !unicode.IsSpace(c) && alnum(i-1) && alnum(i+1) {
			r[i] = '.'
		}
	}
	return string(r)
}

// siteInName finds what reads as a domain name in a client's name: labels
// of letters, digits and hyphens joined by dots, the last of two letters
// or more.
var siteInName = regexp.MustCompile(`[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}`)
