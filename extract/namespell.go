package extract

import (
	"strings"

	"mailnode/extract/places"
)

// Names as domains write them (issue 46, class 7): a shop's domain has no
// umlauts and no "&", so "Müller & Söhne" is muellerundsoehne.de and
// "Dupont & Fils" dupont-et-fils.fr. Merge asks whether a shown name
// agrees with its domain (namesDomain), and order_status finds a shop
// by its name as a person says it (extract/facts): both read a name by
// the forms below.

// NameForms are the folded word lists a name's domain may be written
// from: "&" as "and" or left out, and as the word for "and" of the
// languages of extract/lang; its letters folded (ü is u), spelled as a
// domain spells them (ü is ue, ß is ss, å is aa, ø is oe), or as their
// base letters that folding keeps apart (ø is o: "Elkjøp" is elkjop.no;
// ł is l). The first is the name folded, "&" as "and".
func NameForms(name string) [][]string {
	var out [][]string
	spellings := []string{name}
	for _, r := range []*strings.Replacer{domainSpelling, baseLetters, cyrillicLatin, serbianLatin, greekLatin} {
		if sp := r.Replace(name); sp != name && sp != spellings[len(spellings)-1] {
			spellings = append(spellings, sp)
		}
	}
	for _, sp := range spellings {
		f := strings.Fields(places.FoldWords(strings.ReplaceAll(sp, "&", " and ")))
		out = append(out, f, WithoutAnd(f))
		if !strings.Contains(sp, "&") {
			continue
		}
		for _, and := range andInLanguages {
			out = append(out, strings.Fields(places.FoldWords(strings.ReplaceAll(sp, "&", " "+and+" "))))
		}
	}
	return out
}

// AndWord reports whether a folded word is a word for "and".
func AndWord(w string) bool { return nameAndWords[w] }

// WithoutAnd is a name's folded words less its words for "and".
func WithoutAnd(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !nameAndWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// andInLanguages is the word for "and" in the languages of extract/lang
// that write it with more than one letter, as a domain writes a name's
// "&" (a letter alone would make look-alikes of more domains); nameAndWords
// are them all, with "and".
var (
	andInLanguages = []string{"und", "et", "en", "og", "och", "ja"}
	nameAndWords   = map[string]bool{"and": true, "und": true, "et": true, "en": true, "og": true, "och": true, "ja": true}
)

// domainSpelling spells a name's letters as domains do: "Müller" is
// mueller, "Größe" groesse, "Bjørn" bjoern.
var domainSpelling = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "Ae", "Ö", "Oe", "Ü", "Ue", "ß", "ss",
	"å", "aa", "Å", "Aa", "ø", "oe", "Ø", "Oe", "æ", "ae", "Æ", "Ae")

// baseLetters are the letters places.Fold keeps, as their base letters:
// "Elkjøp" is elkjop.no, "Łódź" lodz.
var baseLetters = strings.NewReplacer("ø", "o", "Ø", "O", "ł", "l", "Ł", "L", "đ", "d", "Đ", "D", "ß", "ss",
	"æ", "ae", "Æ", "Ae", "œ", "oe", "Œ", "Oe", "þ", "th", "Þ", "Th")

// cyrillicLatin spells a Cyrillic name in Latin letters as Russian,
// Ukrainian and Bulgarian shops' domains do ("ТехноДом" is tehnodom.ru,
// "Книжный Мир" knizhnyj-mir.ru): х as h, the soft and hard signs left out.
var cyrillicLatin = transliteration("а:a б:b в:v г:g д:d е:e ё:e ж:zh з:z и:i й:y к:k л:l м:m н:n о:o п:p р:r с:s т:t у:u ф:f "+
	"х:h ц:ts ч:ch ш:sh щ:sch ы:y э:e ю:yu я:ya і:i ї:yi є:ye ґ:g", "ь", "", "Ь", "", "ъ", "", "Ъ", "")

// serbianLatin spells a Cyrillic name as Serbian's own Latin script does,
// its diacritics left out as domains leave them: ц is c, not ts
// ("Техника продавница" is tehnika-prodavnica.rs), ч and ћ c, ш s, ж z.
var serbianLatin = transliteration("а:a б:b в:v г:g д:d ђ:dj е:e ж:z з:z и:i ј:j к:k л:l љ:lj м:m н:n њ:nj о:o п:p " +
	"р:r с:s т:t ћ:c у:u ф:f х:h ц:c ч:c џ:dz ш:s")

// greekLatin spells a Greek name in Latin letters as Greek shops' domains
// do ("Ηλεκτρικά Σπιτιού" is ilektrikaspitiou.gr): ου as ou, αυ and ευ as
// av and ev, η as i, the tonos left out. The pairs of letters come first:
// a Replacer compares its pairs in order.
var greekLatin = transliteration("ου:ou ού:ou αυ:av αύ:av ευ:ev εύ:ev " +
	"α:a ά:a β:v γ:g δ:d ε:e έ:e ζ:z η:i ή:i θ:th ι:i ί:i ϊ:i ΐ:i κ:k λ:l μ:m ν:n ξ:x ο:o ό:o π:p ρ:r " +
	"σ:s ς:s τ:t υ:y ύ:y ϋ:y ΰ:y φ:f χ:ch ψ:ps ω:o ώ:o")

// transliteration is a Replacer of a table of "letters:latin" pairs apart
// by spaces, each in small and in capital letters (the capital's Latin
// capitalised), in the table's order, then the extra old, new pairs.
func transliteration(table string, extra ...string) *strings.Replacer {
	var pairs []string
	for _, p := range strings.Fields(table) {
		from, to, _ := strings.Cut(p, ":")
		pairs = append(pairs, from, to)
		if up := strings.ToUpper(from); up != from {
			pairs = append(pairs, up, strings.ToUpper(to[:1])+to[1:])
		}
	}
	return strings.NewReplacer(append(pairs, extra...)...)
}
