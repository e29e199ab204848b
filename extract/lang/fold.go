package lang

import (
	"strings"
	"unicode/utf8"
)

// Mail is often written without its language's accents ("Votre colis a
// ete livre", "Zasilka byla dorucena", "Tu pedido ha sido enviado y
// llegara manana"): a phone's keyboard, an old system's charset or a
// sender's habit drops them. The status phrases (status.*), a bill's and
// a parcel's words (foldedCategory) are looked for in their unaccented
// spelling too: parse adds each phrase's folded form
// where the fold cannot make another word of it (foldedVariant), and the
// extractor's label sets add their labels' ("Numero de suivi", "Cislo
// zasilky").

// foldedCategory reports whether a category's phrases are looked for in
// their unaccented spelling too: an order's or a parcel's state, a bill's
// words, a parcel's and a shipper's nouns and labels.
func foldedCategory(c string) bool {
	for _, p := range []string{"status.", "bill.", "parcel.", "notice.", "order.", "tracking.noun", "carrier.label", "shipper.label", "shop.noun"} {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	return false
}

// foldLatin is the base letter of each rune from U+00C0 to U+024F, '.'
// where it has none (Æ, ß, þ) or is no letter with a mark on it. Polish
// ł, Croatian đ, Danish ø and Turkish ı have no decomposition in Unicode
// but are written l, d, o and i without their marks all the same.
const foldLatin = "AAAAAA.CEEEEIIII.NOOOOO.OUUUUY..aaaaaa.ceeeeiiii.nooooo.ouuuuy.y" + // U+00C0
	"AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIi..JjKk.LlLlLlL" + // U+0100
	"lLlNnNnNn...OoOoOo..RrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZz." + // U+0140
	"................................Oo.............Uu..............." + // U+0180
	".............AaIiOoUuUuUuUuUu.AaAa....GgKkOoOo..j...Gg..NnAa...." + // U+01C0
	"AaAaEeEeIiIiOoOoRrRrUuUuSsTt..Hh......AaEeOoOoOoOoYy............" + // U+0200
	"................" // U+0240

// greekTonos is each Greek vowel with an accent or a diaeresis and its
// bare letter: Greek capitals are written without accents
// ("ΠΑΡΑΔΟΘΗΚΕ" for "παραδόθηκε"), so lower-cased capitals are the
// unaccented spelling.
var greekTonos = map[rune]rune{
	'ά': 'α', 'έ': 'ε', 'ή': 'η', 'ί': 'ι', 'ό': 'ο', 'ύ': 'υ', 'ώ': 'ω', 'ΐ': 'ι', 'ΰ': 'υ', 'ϊ': 'ι', 'ϋ': 'υ',
	'Ά': 'Α', 'Έ': 'Ε', 'Ή': 'Η', 'Ί': 'Ι', 'Ό': 'Ο', 'Ύ': 'Υ', 'Ώ': 'Ω', 'Ϊ': 'Ι', 'Ϋ': 'Υ',
}

// Fold writes the Latin letters of s without their marks ("livré" →
// "livre", "doręczono" → "doreczono", "przesyłkę" → "przesylke"); every
// other rune is kept but Greek vowels, which lose their accents
// (greekTonos).
func Fold(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r >= 0xC0 && r < 0xC0+rune(len(foldLatin)) {
			if c := foldLatin[r-0xC0]; c != '.' {
				b.WriteByte(c)
				continue
			}
		}
		if g, ok := greekTonos[r]; ok {
			r = g
		}
		b.WriteRune(r)
	}
	return b.String()
}

// minFoldedWord is the fewest letters a phrase of one word has for its
// folded form to be looked for: "dnů", "váš", "dziś", "mâine" fold into
// other words ("dnu", "vas", "maine").
const minFoldedWord = 6

// foldedVariant is a phrase's unaccented spelling when looking for it
// cannot find another word: a phrase of several words ("a ete livre"), or
// one word of minFoldedWord letters or more whose last letter keeps its
// form ("doreczono", "livree"). A mark on the last letter often tells a
// participle from another word ("livré" the parcel, "livre" a book or a
// pound; "annulé", "annuler").
func foldedVariant(p string) (string, bool) {
	f := Fold(p)
	if f == p {
		return "", false
	}
	if strings.ContainsAny(strings.TrimSpace(p), " \t") {
		return f, true
	}
	w := strings.TrimSuffix(p, "*")
	last, _ := utf8.DecodeLastRuneInString(w)
	if utf8.RuneCountInString(w) < minFoldedWord || Fold(string(last)) != string(last) {
		return "", false
	}
	return f, true
}

// WithFolded appends to a list of phrases or labels their folded forms
// (foldedVariant) that it does not hold yet. A label's expression folds
// as its text does: only letters with marks change.
func WithFolded(ps []string) []string {
	have := make(map[string]bool, len(ps))
	for _, p := range ps {
		have[p] = true
	}
	for _, p := range ps {
		if f, ok := foldedVariant(p); ok && !have[f] {
			have[f] = true
			ps = append(ps, f)
		}
	}
	return ps
}
