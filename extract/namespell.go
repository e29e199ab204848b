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
	for _, r := range []*strings.Replacer{domainSpelling, baseLetters, cyrillicLatin, serbianLatin, greekLatin, kanaLatin} {
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
	andInLanguages = []string{"und", "et", "en", "og", "och", "ja", "un"}
	nameAndWords   = map[string]bool{"and": true, "und": true, "et": true, "en": true, "og": true, "och": true, "ja": true, "un": true}
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

// kanaLatin spells a name in hiragana or katakana in Latin letters as
// Japanese shops' domains do, in Hepburn ("あみあみ" is amiami.com,
// "コトブキヤ" kotobukiya.co.jp, "ショップ" shoppu): a small tsu doubles
// the next consonant, the long-vowel mark is left out ("スーパー" supa).
// Kanji have readings a table cannot give; such a name stays unspelled.
var kanaLatin = func() *strings.Replacer {
	const (
		syllables = "あ:a い:i う:u え:e お:o か:ka き:ki く:ku け:ke こ:ko さ:sa し:shi す:su せ:se そ:so " +
			"た:ta ち:chi つ:tsu て:te と:to な:na に:ni ぬ:nu ね:ne の:no は:ha ひ:hi ふ:fu へ:he ほ:ho " +
			"ま:ma み:mi む:mu め:me も:mo や:ya ゆ:yu よ:yo ら:ra り:ri る:ru れ:re ろ:ro わ:wa を:o ん:n " +
			"が:ga ぎ:gi ぐ:gu げ:ge ご:go ざ:za じ:ji ず:zu ぜ:ze ぞ:zo だ:da ぢ:ji づ:zu で:de ど:do " +
			"ば:ba び:bi ぶ:bu べ:be ぼ:bo ぱ:pa ぴ:pi ぷ:pu ぺ:pe ぽ:po ゔ:vu " +
			"ぁ:a ぃ:i ぅ:u ぇ:e ぉ:o ゃ:ya ゅ:yu ょ:yo"
		// The i-row's syllables that join a small ya, yu or yo, and
		// the consonant they then keep ("きゃ" kya, "しゃ" sha).
		joined = "き:ky し:sh ち:ch に:ny ひ:hy み:my り:ry ぎ:gy じ:j び:by ぴ:py"
	)
	var pairs []string
	add := func(kana, latin string) {
		// Katakana are hiragana 0x60 further on.
		kata := strings.Map(func(r rune) rune { return r + 0x60 }, kana)
		pairs = append(pairs, kana, latin, kata, latin)
		if !strings.ContainsAny(latin[:1], "aiueon") {
			// A small tsu before it doubles its consonant.
			pairs = append(pairs, "っ"+kana, latin[:1]+latin, "ッ"+kata, latin[:1]+latin)
		}
	}
	for _, j := range strings.Fields(joined) {
		kana, cons, _ := strings.Cut(j, ":")
		for _, y := range []string{"ゃ:a", "ゅ:u", "ょ:o"} {
			small, vowel, _ := strings.Cut(y, ":")
			add(kana+small, cons+vowel)
		}
	}
	for _, p := range strings.Fields(syllables) {
		kana, latin, _ := strings.Cut(p, ":")
		add(kana, latin)
	}
	return strings.NewReplacer(append(pairs, "ー", "", "っ", "", "ッ", "", "・", " ")...)
}()

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
