package extract

import (
	_ "embed"
	"strings"
	"unicode"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// Names that are no stay's place (issue 46, foreign-7; xf7r): the system
// that sends the mail on the place's behalf (a channel manager, a
// property-management system, a rental platform: lodgingsystems.txt) and
// the guest the mail greets ("Dear Edward", "Edward's booking"). A
// sender's name "<place> via <system>" names the place.

//go:embed lodgingsystems.txt
var lodgingSystemsFile string

// lodgingSystems are lodgingsystems.txt's names, lower case, their words
// apart by one space.
var lodgingSystems = func() map[string]bool {
	m := map[string]bool{}
	for ln := range strings.Lines(lodgingSystemsFile) {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		m[strings.Join(systemWords(ln), " ")] = true
	}
	return m
}()

// systemWords are the words of a name, lower case, without the marks
// between them.
func systemWords(n string) []string {
	return strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' })
}

// systemNamed reports whether a name holds a lodging system's name as
// whole words ("SiteMinder Bookings", "Welcome to Smoobu").
func systemNamed(n string) bool {
	ws := systemWords(n)
	for i := range ws {
		for k := 1; k <= 3 && i+k <= len(ws); k++ {
			if lodgingSystems[strings.Join(ws[i:i+k], " ")] {
				return true
			}
		}
	}
	return false
}

// viaPlace is the place a sender's name "<place> via <system>" names
// ("Villa Serena via Guesty"), or "".
func viaPlace(sender string) string {
	place, system, ok := strings.Cut(sender, " via ")
	if !ok || !systemNamed(system) || systemNamed(place) {
		return ""
	}
	return strings.TrimSpace(place)
}

// greetingRE is a mail's greeting of its reader and the first name after
// it, an honorific between or not ("Dear Edward", "Liebe Johanna", "Hola
// Sra. Marta"); the words are every language's injection.dear.
var greetingRE = lazyregexp.New(`(?im)^[ \t]*(?:` + strings.Join(longestFirst(lang.Entries("injection.dear")), "|") +
	`)[ \t,]+(?:(?:` + strings.Join(longestFirst(lang.Entries("honorific")), "|") + `)\.?[ \t]+)?(\p{Lu}\p{Ll}+)`)

// greetedName is the first name the mail's greeting addresses, among its
// first lines, or "".
func greetedName(text string) string {
	if m := greetingRE.FindStringSubmatch(firstLines(text, 8)); m != nil {
		return m[1]
	}
	return ""
}

// guestNamed reports whether a stay's name read is the guest's: a guest's
// label and its value ("Guest: Edward Clarke"), or the greeted guest's
// first name, alone, possessive ("Edward's") or before the family name,
// with no lodging word ("Edward's Guesthouse" stays).
func guestNamed(name, text string) bool {
	// "Guest: Edward Clarke" over the address names the guest, greeted
	// or not.
	if guestLabelRE.MatchString(name) {
		return true
	}
	g := greetedName(text)
	if g == "" {
		return false
	}
	first, _, _ := strings.Cut(name, " ")
	for _, s := range []string{"'s", "’s"} {
		first = strings.TrimSuffix(first, s)
	}
	if first != g {
		return false
	}
	for _, w := range systemWords(name) {
		if lodgingWords.In(w) {
			return false
		}
	}
	return true
}

// subjectPlace is the place a confirmation's subject names after a dash
// or a bar, its booking's words before ("Prenotazione confermata - Villa
// Le Logge", "Buchungsbestätigung – Landhaus Seeblick"): a title's shape
// (titleShaped), not a heading's words alone, a town, a system or the
// guest. "" when the subject is none such.
func subjectPlace(subject, text string) string {
	for _, d := range []string{" - ", " – ", " — ", " | "} {
		before, after, ok := strings.Cut(subject, d)
		if !ok {
			continue
		}
		name := strings.TrimSpace(after)
		if !bookedWords.In(lower(before)) || !titleShaped(name, ":!?@|\t[]/#\"") || headingOnly(name) ||
			systemNamed(name) || guestNamed(name, text) {
			return ""
		}
		if _, loc := places.CityZone(name); loc != nil {
			return "" // "Booking confirmed - Lisbon": the trip's town
		}
		return name
	}
	return ""
}
