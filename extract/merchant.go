package extract

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// The shop a carrier's notice names ("item from", "enviada por",
// parcel.from in extract/lang/data), and whether it is the sender's own.

// shopSendsRE is a shop named as the subject of a verb of sending to the
// reader (shop.sends in extract/lang/data): "Kogan has sent you", "que
// Back Market vous a envoyé".
var shopSendsRE = lazyregexp.New(`(?:^|[^\p{L}\p{N}])(\p{Lu}[\p{L}\p{N}.&'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}.&'’-]*){0,2})[ \t]+(?i:` +
	strings.Join(longestFirst(lang.Entries("shop.sends")), "|") + `)(?:$|[^\p{L}])`)

// sendsPhrases and ownedNouns gate shopSendsRE and ownedParcelRE to the
// lines that hold their words.
var (
	sendsPhrases = words.NewSet(lang.Entries("shop.sends"))
	ownedNouns   = words.NewSet(lowerAllOf(lang.Entries("parcel.owned"))) // German's capitals lowered, as the set reads text
)

// pronouns are every language's personal pronouns, which a verb of
// sending may follow as well as a shop's name ("We have sent you").
var pronouns = wordSet("pronoun")

// honorifics are every language's titles before a person's name ("Mr",
// "Herr", "Mme"): "Courier: Mr. Wang" names a person, not a carrier.
var honorifics = wordSet("honorific")

// personTitled reports whether a name starts with a title for a person.
func personTitled(name string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(name), " ")
	return honorifics[strings.ToLower(strings.TrimRight(first, "."))]
}

// ownedParcelRE is a shop named between a possessive and a word for a
// parcel, the word as the language writes it in a sentence (in lower case
// but German's capital), so that a title's "Your New Order" names no shop
// (parcel.owner, parcel.owned in extract/lang/data): "Your Hobbycraft
// parcel", "Ihre Amazon Sendung", "je bol.com pakket"; the noun may hang
// on the name by a dash, as a compound does ("Ihr Otto-Paket", "ditt
// Zalando-paket").
var ownedParcelRE = lazyregexp.New(`(?:^|[^\p{L}])(?i:` + strings.Join(longestFirst(lang.Entries("parcel.owner")), "|") +
	`)[ \t]+(\p{Lu}[\p{L}\p{N}.&'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}.&'’-]*){0,2}|[\p{Ll}\p{N}][\p{L}\p{N}-]*\.\p{Ll}{2,6})(?:[ \t]+|-)(?:` +
	strings.Join(longestFirst(lang.Entries("parcel.owned")), "|") + `)(?:$|[^\p{L}])`)

// parcelKinds are the words that may stand where ownedParcelRE takes a
// shop and say what kind of parcel it is instead ("Ihre Teil-Lieferung",
// "Your Express delivery", parcel.kind and carrier.none in
// extract/lang/data), and the parcel's nouns themselves ("Ihre
// Paket-Sendung").
var parcelKinds = func() map[string]bool {
	m := wordSet("parcel.kind")
	for _, k := range []string{"carrier.none", "parcel.owned"} {
		for w := range wordSet(k) {
			m[strings.ToLower(w)] = true
		}
	}
	return m
}()

// lowerAllOf is each of list in lower case.
func lowerAllOf(list []string) []string {
	out := make([]string, len(list))
	for i, w := range list {
		out[i] = strings.ToLower(w)
	}
	return out
}

// parcelKind reports whether a name ownedParcelRE took holds a word of
// parcelKinds, or is a pronoun.
func parcelKind(name string) bool {
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == ' ' || r == '\t' || r == '-' }) {
		w = strings.ToLower(w)
		if parcelKinds[w] || pronouns[w] {
			return true
		}
	}
	return false
}

// possessedParcelRE is a shop named after a possessive and a word for a
// parcel, where French, Spanish, Italian and Portuguese put it ("Votre
// colis Fnac sera livré aujourd'hui", parcel.possessed in
// extract/lang/data): a name in capitals of two letters or more, then a
// word in lower case, so that "Votre colis N° …" and "Votre colis a été
// livré" name no shop.
var possessedParcelRE = lazyregexp.New(`(?:^|[^\p{L}])(?i:` + strings.Join(longestFirst(lang.Entries("parcel.possessed")), "|") +
	`)[ \t]+(\p{Lu}[\p{L}\p{N}.&'’-]+(?:[ \t]+\p{Lu}[\p{L}\p{N}.&'’-]*){0,2})[ \t]+\p{Ll}`)

// possessedNouns gate possessedParcelRE to the lines that hold its words.
var possessedNouns = words.NewSet(lang.Entries("parcel.possessed"))

// fromMerchantMatch is fromMerchantRE's first match in text, run only on
// the lines (and the line after each) where a phrase's words are: the
// expression has no literal start to skip ahead by, and over a whole
// shop's mail it cost more than the rest of reading it.
func fromMerchantMatch(text string) []string {
	if fromAnchors == nil {
		return fromMerchantRE.FindStringSubmatch(text)
	}
	low := lower(text)
	if len(low) != len(text) {
		// Lower-casing changed the bytes' count: offsets would not
		// match lines; the whole text, as before.
		if !fromAnchors.Any(low) {
			return nil
		}
		return fromMerchantRE.FindStringSubmatch(text)
	}
	var found []string
	done := -1 // the last line tried
	tries := 0
	fromAnchors.EachAt(low, func(phrase, end int) bool {
		if fromNeedsNumber[phrase] && digitCount(text[end:min(len(text), end+40)]) < 6 {
			return true // "package" with no number after it
		}
		// The phrase holds its word near its start ("item … from"), and
		// the name comes within a line's width after it.
		if end <= done {
			return true // inside the window tried last
		}
		start := max(end-40, done, 0)
		if i := strings.LastIndexByte(text[start:end], '\n'); i >= 0 {
			start += i + 1
		}
		stop := min(len(text), end+140)
		if start >= stop {
			return true
		}
		for start > 0 && !utf8.RuneStart(text[start]) {
			start--
		}
		for stop < len(text) && !utf8.RuneStart(text[stop]) {
			stop++
		}
		done = stop
		if m := fromMerchantRE.FindStringSubmatch(text[start:stop]); m != nil {
			found = m
			return false
		}
		tries++
		return tries < 24 // a long mail's words, not its phrase
	})
	return found
}

// fromAnchors are the words every parcel.from phrase holds; nil when a
// phrase holds none long enough to look for.
var fromAnchors, fromNeedsNumber = func() (*words.Set, []bool) {
	var a []string
	var num []bool
	for _, p := range lang.Entries("parcel.from") {
		t := requiredText(p)
		if len(t) < 3 {
			return nil, nil
		}
		// "parcel [a-z0-9][a-z0-9.]{7,33} from": the phrase holds a number.
		a, num = append(a, t), append(num, strings.Contains(p, "{7,33}"))
	}
	return words.NewSet(a), num
}()

var domainWordRE = lazyregexp.New(`^[\p{L}\p{N}-]+\.\p{L}{2,6}$`)

// senderNoise are the words after a company's name in a sender's that
// name a department or a kind of mail ("Post CH Benachrichtigung", "Paack
// Envíos": sender.noise in extract/lang/data).
var senderNoise = wordSet("sender.noise")

// senderBrand is a sender's name less the words of senderNoise that end
// it, keeping at least its first word; a word of noise after a word for a
// parcel is the name's ("SPS Slovak Parcel Service", "United Parcel
// Service").
func senderBrand(name string) string {
	f := strings.Fields(name)
	for len(f) > 1 && senderNoise[strings.ToLower(f[len(f)-1])] {
		if len(f) > 2 && parcelNounWords[strings.ToLower(f[len(f)-2])] {
			break
		}
		f = f[:len(f)-1]
	}
	return strings.Join(f, " ")
}

// parcelNounWords are every language's words for a parcel.
var parcelNounWords = wordSet("tracking.noun")

// sameShop reports whether a shop's name is the sender's: the same name,
// or a word of it in the sender's name or domain; a name of one short
// word counts whole ("4PX" in "4PX Express").
func sameShop(shop, senderName, senderDomain string) bool {
	about := strings.ToLower(senderName + " " + senderDomain)
	if one := strings.ToLower(shop); utf8.RuneCountInString(one) == 3 && !strings.Contains(one, " ") && words.Has(about, one) {
		return true
	}
	return strings.EqualFold(shop, senderName) || sharesWord(shop, about)
}

// fromMerchantRE is the shipper a carrier's notice names: "your parcel
// from Zalando", "je pakket van Coolblue", in every language's words
// (extract/lang, parcel.from); the name is capitalised words (or a
// brand's lower-case letter before its capitals: "eMAG"), or a shop
// that goes by its domain in lower case ("bol.com"). A word for a shop
// may stand between, as written in shop.noun ("od e-shopu Alza.cz"): in
// lower case, so that "Shop Apotheke" keeps its name. The name may stand
// in quotes, as Russian mail writes it ("от магазина «Книжный Мир»").
// The number a phrase holds may be printed in groups apart by spaces
// ("parcel BX 551 2079 913 from Notino").
var fromMerchantRE = lazyregexp.New(`(?:^|[^\p{L}])(?i:` + strings.ReplaceAll(strings.Join(longestFirst(lang.Entries("parcel.from")), "|"),
	`[a-z0-9][a-z0-9.]{7,33}`, `(?:[a-z0-9][a-z0-9.]{7,33}|[a-z0-9]{2,4}(?: [0-9]{3,5}){2,4})`) +
	`)\s+(?:(?:` + strings.Join(longestFirst(lang.Entries("shop.noun")), "|") + `)\s+)?[«„“]?((?:\p{Lu}|\p{Ll}\p{Lu})[\p{L}\p{N}.&'’-]*(?:[ \t]+` + nameParticles +
	`(?:\p{Lu}|&)[\p{L}\p{N}.&'’-]*){0,3}|[\p{Ll}\p{N}][\p{L}\p{N}-]*\.\p{Ll}{2,6}\b)`)

// nameParticles is an optional small word between two capitalised words
// of a name ("Maisons du Monde", "Bank of Scotland"; name.particle in
// extract/lang/data), always followed by the next capitalised word.
var nameParticles = `(?:(?:` + strings.Join(quoteAll(longestFirst(lang.Entries("name.particle"))), "|") + `)[ \t]+)?`

// nameParticle is the set of name.particle's words.
var nameParticle = wordSet("name.particle")

// thanksShopRE is a shop named after the reader's thanks for buying from
// it (shop.thanks in extract/lang/data): "Thank you for shopping at
// Larkspur Home", "Vielen Dank für Ihren Einkauf bei Kleiderei", "Terima
// kasih telah berbelanja di Pasarku"; a name of capitalised words, or a
// shop that goes by its domain ("bol.com").
var thanksShopRE = lazyregexp.New(`(?:^|[^\p{L}])(?i:` + strings.ReplaceAll(strings.Join(quoteAll(longestFirst(lang.Entries("shop.thanks"))), "|"), "'", "['’]") +
	`)[ \t]+[«„“"]?((?:\p{Lu}|\p{Ll}\p{Lu})[\p{L}\p{N}.&'’-]*(?:[ \t]+` + nameParticles + `(?:\p{Lu}|&)[\p{L}\p{N}.&'’-]*){0,3}|[\p{Ll}\p{N}][\p{L}\p{N}-]*\.\p{Ll}{2,6}\b)`)

// thanksShopBeforeRE is a shop named before the thanks, as Japanese
// writes it ("このたびはホビーサーチをご利用いただき", "DMM通販をご利用いただき";
// shop.thanks.after): the letters other than hiragana before the
// phrase, which end the sentence's opening ("このたびは"), and the
// particle "の" a name may hold ("カメラのナカムラ").
var thanksShopBeforeRE = lazyregexp.New(`([\p{Katakana}\p{Han}\p{Latin}\p{N}ー・の&.\-]{1,24}(?:[ 　][\p{Katakana}\p{Han}\p{Latin}\p{N}ー・の&.\-]{1,24}){0,2})(?:` +
	strings.Join(quoteAll(longestFirst(lang.Entries("shop.thanks.after"))), "|") + `)`)

// thanksWords gate both expressions to the texts that hold a phrase.
var thanksWords = words.NewSet(lowerAllOf(append(lang.Entries("shop.thanks"), lang.Entries("shop.thanks.after")...)))

// ownShopPrefixes are the characters a shop calls itself by before the thanks
// ("当店をご利用いただき": this shop), which name no shop.
var ownShopPrefixes = []string{"当", "弊", "本", "貴"}

// thanksShop is the shop a text's first lines thank the reader for
// buying from, or "": the shop of an order whose sender gives no name
// ("info@mail.dmm.com", a mail pasted without its header). A name
// before the thanks, read by its letters alone, only when it spells the
// sender's domain ("DMM通販" of dmm.com) or the mail has no sender at
// all: "カメラのミナト オンラインストア" is shown by its domain
// (senderName in merge.go), and from a placeholder's address
// ("reservations@example.com") the name is anyone's.
func (c *msgContext) thanksShop(text string) string {
	head := firstTextLines(text, 12)
	if !thanksWords.Any(lower(strings.ReplaceAll(head, "’", "'"))) {
		return ""
	}
	if m := thanksShopRE.FindStringSubmatch(head); m != nil {
		// The name ends with its sentence ("… at Kopi Nusantara. Pesanan
		// anda …"); a dot inside it is a domain's ("bol.com").
		name, _, _ := strings.Cut(m[1], ". ")
		name, _, _ = strings.Cut(name, ".\t")
		return strings.TrimRight(name, ".,;:!'’-")
	}
	if m := thanksShopBeforeRE.FindStringSubmatch(head); m != nil {
		name := strings.Trim(m[1], ".-・ーの 　")
		if !c.unsent && (c.senderDomain == "" || !shopOfDomain(name, c.senderDomain)) {
			return ""
		}
		for _, p := range ownShopPrefixes {
			if strings.HasPrefix(name, p) {
				return ""
			}
		}
		if utf8.RuneCountInString(name) >= 2 {
			return name
		}
	}
	return ""
}

// shopOfDomain reports whether a shop's name holds its sender's domain's
// name, its spaces and dashes aside ("DMM通販" of mail.dmm.com,
// "Larkspur Home" of larkspurhome.com).
func shopOfDomain(shop, domain string) bool {
	label := strings.ReplaceAll(domainLabel(domain), "-", "")
	if len(label) < 3 {
		return false
	}
	compact := strings.ToLower(strings.Join(strings.FieldsFunc(shop, func(r rune) bool { return r == ' ' || r == '-' || r == '.' }), ""))
	return strings.Contains(compact, label)
}

// nameCompacting writes a name as a domain spells it: without spaces and
// hyphens, "&" as "and".
var nameCompacting = strings.NewReplacer(" ", "", "-", "", "&", "and")

// printedDomainName is the name a mail prints for its sender's domain as
// the shop writes it, in its subject, else its text: one to four words
// that spell the domain's whole name, or the registrable domain itself,
// with a capital among them ("PEJO GRAVUREN" for pejogravuren.ch,
// "Euro-Paka.pl" for euro-paka.pl); "" when none does. The domain's
// letters in lower case are its address, not a name.
func printedDomainName(subject, text, domain string) string {
	reg, err := publicsuffix.EffectiveTLDPlusOne(domain)
	if err != nil {
		return ""
	}
	compact := func(s string) string { return nameCompacting.Replace(places.Fold(s)) }
	label, _, _ := strings.Cut(reg, ".")
	wantLabel, wantReg := compact(label), compact(reg)
	if len(wantLabel) < 3 {
		return ""
	}
	find := func(s string) string {
		for ln := range strings.Lines(s) {
			ws := strings.Fields(ln)
			for i := range ws {
				for n := 1; n <= 4 && i+n <= len(ws); n++ {
					name := strings.Trim(strings.Join(ws[i:i+n], " "), ",;:!?()[]\"'*")
					if len(name) > 2*len(reg)+8 {
						break // longer than any spelling of the domain
					}
					name = strings.TrimRight(name, ".")
					if c := compact(name); (c == wantLabel || c == wantReg) && strings.ToLower(name) != name {
						return name
					}
				}
			}
		}
		return ""
	}
	if name := find(subject); name != "" {
		return name
	}
	return find(firstLines(text, 200))
}

// shopNounNames are every language's words for a shop as they open a
// sender's name ("Magasin ÉlectroHome", "Sklep Ogrodnik", "Boutique
// Lumière"), lower case.
var shopNounNames = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range lang.Entries("shop.noun") {
		m[strings.ToLower(e)] = true
	}
	return m
}()

// ofWords are the small words between a word for a shop and its name
// ("Boutique de Lumière", "Laden der Weberei").
var ofWords = map[string]bool{"de": true, "du": true, "des": true, "der": true, "von": true, "of": true, "di": true, "del": true, "della": true, "the": true}

// withoutShopNoun is a sender's name less a word for a shop that opens it
// and a small word after that, when the rest alone is what the sender's
// domain spells ("Magasin ÉlectroHome" for electrohome.fr is
// ÉlectroHome); the name whole otherwise: "Shop Apotheke" for
// shop-apotheke.com keeps its word, which the domain spells too.
func withoutShopNoun(name, domain string) string {
	f := strings.Fields(name)
	label := domainLabel(domain)
	for n := 1; n <= 2 && n < len(f); n++ {
		if !shopNounNames[strings.ToLower(strings.Join(f[:n], " "))] {
			continue
		}
		rest := f[n:]
		if len(rest) > 1 && ofWords[strings.ToLower(rest[0])] {
			rest = rest[1:]
		}
		if strings.Contains(places.Fold(label), places.Fold(f[0])) {
			return name
		}
		if r := strings.Join(rest, " "); len(label) >= 3 && nameCompacting.Replace(places.Fold(r)) == nameCompacting.Replace(places.Fold(label)) {
			return r
		}
	}
	return name
}

// ShopNoun reports whether a lower-case word is a word for a shop in some
// language (shop.noun: "magasin", "sklep", "hurtownia"), as one opens a
// shop's name.
func ShopNoun(w string) bool { return shopNounNames[w] }
