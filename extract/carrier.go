package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/carriers"
	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// The carrier a parcel notice names: by a label (carrier.label), in a
// sentence ("shipped with …"), by its name from extract/carriers, by its
// sender's domain or name, or as the postal operator of a UPU S10 number.

// postalSender is the sender's name less its notice words when the mail
// comes from the country of the UPU S10 number it tracks (its domain
// ends in that country's code: posta.si for "RB…SI") and names another
// as the parcel's shop: a shop of that country writes about its own
// parcels. Else "".
func (c *msgContext) postalSender(tracking, text string) string {
	// A carrier the tables know by its domain has its name there.
	if tracking == "" || c.senderName == "" || len(tracking) != 13 || carrierBySender(c.senderDomain) != "" {
		return ""
	}
	if shop := c.shipperNamed(text); shop == "" || sameShop(shop, c.senderName, c.senderDomain) {
		return ""
	}
	for _, m := range carriers.Identify(tracking, "") {
		if m.Code == "s10" && m.Country != "" && strings.HasSuffix(c.senderDomain, "."+strings.ToLower(m.Country)) {
			return senderBrand(c.senderName)
		}
	}
	return ""
}

// mentionedCarrier is the one carrier whose name a text holds as a word,
// or "" when it names none or several ("we ship with DHL, UPS and GLS").
func mentionedCarrier(text string) string {
	found := ""
	for _, m := range carrierNameRE.FindAllStringSubmatchIndex(text, 20) {
		name := carriers.Canonical(text[m[2]:m[3]])
		if carriers.IsWord(name) && opensSentence(text[:m[2]]) && lowerNext(text[m[3]:]) {
			continue // "Bring photo ID": the verb, not Norway's carrier
		}
		if found != "" && name != found {
			return ""
		}
		found = name
	}
	return found
}

// opensSentence reports whether the text before a word ends a sentence
// or a line: the word starts one.
func opensSentence(before string) bool {
	t := strings.TrimRight(before, " \t")
	return t == "" || strings.ContainsRune(".!?\n", rune(t[len(t)-1]))
}

// lowerNext reports whether the text after a word goes on with a word in
// lower case, as a sentence does after its verb.
func lowerNext(after string) bool {
	t := strings.TrimLeft(after, " \t")
	r, _ := utf8.DecodeRuneInString(t)
	return len(t) < len(after) && unicode.IsLower(r)
}

// carrierNameRE finds carriers' names (extract/carriers), longest first,
// as they are written: "DAO" is a carrier, "dao" a word. A name may take
// its language's case ending ("luovutettu Postille", "wysłane InPostem":
// carrier.suffix in extract/lang/data).
//
// Japanese and Chinese write a name against the words around it
// ("お客様の商品はヤマト宅急便でお届けいたします"): a Han or kana letter
// on either side sets it off as a space does.
var carrierNameRE = lazyregexp.New(`(?:^|[^\p{L}\p{N}]|[\p{Han}\p{Hiragana}\p{Katakana}])(` + strings.Join(quoteAll(longestFirst(carriers.Names())), "|") + `)` +
	`(?:` + strings.Join(longestFirst(lang.Entries("carrier.suffix")), "|") + `)?(?:$|[^\p{L}\p{N}]|[\p{Han}\p{Hiragana}\p{Katakana}])`)

// namedCarrier is the carrier a mail names by its label ("Carrier: DHL",
// "Transporteur : Colissimo"), if any.
func (c *msgContext) namedCarrier(text string) string {
	// A known carrier's name, words and all ("DB Schenker"), wherever the
	// label puts its value (after it, under it as a column's).
	for _, v := range c.after(carrierLabel, text) {
		if m := carrierNameRE.FindStringSubmatchIndex(v); m != nil && strings.TrimLeft(v[:m[2]], " :") == "" {
			return carriers.Canonical(v[m[2]:m[3]])
		}
	}
	// A known carrier's name between a tracking number's label and its
	// colon, as shop systems print it in every language ("Numéro de suivi
	// Colissimo : 6A…", "Número de seguimiento Correos Express: …").
	for _, v := range c.after(trackingLabel, text) {
		if name, _ := carrierBeforeColon(v); name != "" {
			return name
		}
	}
	// Else a name's first word after the label and a colon on its line:
	// "The courier will deliver" names none, nor does the line after a
	// subject ending "… remis au transporteur" ("Bonjour Camille,"), nor a
	// courier's hours ("Program curier: 09:00 - 18:00").
	// Nor does a shipping method's word after it ("Carrier: Standard",
	// "Przewoźnik: Standardowa"; carrier.none).
	for ln := range linesWith(carrierPhrases, text) {
		if m := carrierColonRE.FindStringSubmatch(ln); m != nil && !personTitled(m[1]) && !calendarWord(m[1]) && len(findClocks(m[1])) == 0 && !noCarrierWords[strings.ToLower(strings.Trim(m[1], ".,;"))] {
			return strings.Trim(m[1], ".,;")
		}
	}
	return ""
}

// noCarrierWords are the words a carrier's label may stand before that
// name no carrier: a shipping method, "free", "none" (carrier.none).
var noCarrierWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range lang.Entries("carrier.none") {
		m[strings.ToLower(w)] = true
	}
	return m
}()

// calendarWord reports whether w is a month's or a weekday's name:
// "delivered by Apr 28" names a day, not a carrier.
func calendarWord(w string) bool {
	w = strings.ToLower(strings.Trim(w, ".,;"))
	_, month := monthNames[w]
	_, day := weekdayNames[w]
	return month || day
}

// isCarrierName reports whether v is a known carrier's name and nothing
// more ("Cainiao", "DHL Express").
func isCarrierName(v string) bool {
	m := carrierNameRE.FindStringSubmatchIndex(v)
	return m != nil && strings.TrimSpace(v[:m[2]]) == "" && strings.TrimSpace(strings.TrimRight(v[m[3]:], ".")) == ""
}

// carrierNameFirst reads a value that opens with a known carrier's name
// and a space ("GLS 1349764642 está en camino"): the name, canonical, and
// the rest after it; "", v when it does not.
func carrierNameFirst(v string) (name, rest string) {
	m := carrierNameRE.FindStringSubmatchIndex(v)
	if m == nil || strings.TrimSpace(v[:m[2]]) != "" || m[3] >= len(v) || v[m[3]] != ' ' {
		return "", v
	}
	return carriers.Canonical(v[m[2]:m[3]]), strings.TrimLeft(v[m[3]:], " ")
}

// carrierBeforeColon reads a tracking label's value that starts with a
// known carrier's name and a colon, perhaps after a short word that
// joins them ("Colissimo : 6A24417760931", "de Correos Express: …",
// "di BRT: …"), or the name alone and a space before the number ("DPD
// 13169408547018"): the name, and the rest after it. "", v when it does
// not.
func carrierBeforeColon(v string) (name, rest string) {
	m := carrierNameRE.FindStringSubmatchIndex(v)
	if m == nil {
		return "", v
	}
	lead := strings.TrimLeft(v[:m[2]], " \t")
	if lead != "" && !joiningWord(lead) {
		return "", v
	}
	after := strings.TrimLeft(v[m[3]:], " \t")
	if !strings.HasPrefix(after, ":") {
		// Or the name alone before the number, as a shop's order page
		// prints its shipment under "Szállítói és küldeményazonosító"
		// ("DPD 13169408547018"): the name opens the value, a space
		// and the number, and nothing after it ("GLS 66120447735 will
		// follow" names a number to come).
		if name, rest := carrierNameFirst(v); name != "" && rest != "" && isDigitByte(rest[0]) && !strings.ContainsAny(strings.TrimSpace(rest), " \t") {
			return name, rest
		}
		return "", v
	}
	return carriers.Canonical(v[m[2]:m[3]]), after
}

// joiningWord reports whether s is a word of two or three small letters
// and the space after it: a preposition between a label and a name ("de
// ", "di ", "van ").
func joiningWord(s string) bool {
	w := strings.TrimRight(s, " \t")
	if len(w) == len(s) || utf8.RuneCountInString(w) < 2 || utf8.RuneCountInString(w) > 3 {
		return false
	}
	for _, r := range w {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// carrierPhrases are carrierColonRE's labels and phrases, found in one
// pass before the expression runs on a line that holds one.
var carrierPhrases = words.NewSet(append(lang.Entries("carrier.label"), lang.Entries("carrier.with")...))

// carrierColonRE is a carrier's label and a colon, or a phrase of
// shipping with one (carrier.with: "shipped via"), then a word that
// starts with a capital or a digit, or a name in a script without
// capitals ("配送業者：ヤマト運輸", "物流公司：顺丰速运"), on one line; a
// table's cell after the label's stands for the colon ("택배사\t롯데택배"); and
// a word that is part of carriers' names after it (carrier.word: Turkish
// "Kargo" in "Yurtiçi Kargo", "Aras Kargo").
var carrierColonRE = lazyregexp.New(`(?im)(?:^|[^\p{L}])(?:(?:` + strings.Join(longestFirst(lang.Entries("carrier.label")), "|") +
	`)(?:[ \t]*:|\t)|(?:` + strings.Join(longestFirst(lang.Entries("carrier.with")), "|") + `))[ \t]*((?-i:[\p{Lu}\d\p{Han}\p{Katakana}\p{Hiragana}\p{Hangul}])[^\s]{0,18}` +
	`(?:[ \t]+(?:` + strings.Join(longestFirst(lang.Entries("carrier.word")), "|") + `)\b)?)`)

// shipperNamed is the shop a parcel notice names as its sender, if any.
func (c *msgContext) shipperNamed(text string) string {
	// "Votre commande AB-20773 sur …": an order's or a parcel's number
	// where a name may stand is no shop.
	if n := c.shipperName(text); !codeLike(n) {
		return n
	}
	return ""
}

// codeLike reports whether a name is a code: three digits or more and no
// small letter ("AB-20773", "CB481203775FR"; not "4PX", "1-800-Flowers").
func codeLike(name string) bool {
	return digitCount(name) >= 3 && !strings.ContainsFunc(name, unicode.IsLower)
}

// shipperName is shipperNamed's reading, codes and all.
func (c *msgContext) shipperName(text string) string {
	if m := fromMerchantMatch(text); m != nil {
		// "Verkkokauppa.com" keeps its dot; a sentence's full stop goes.
		// A shop named by its domain ends there ("od Mall.cz Vám", the
		// polite "you").
		f := strings.Fields(m[1])
		for i, w := range f {
			if domainWordRE.MatchString(w) {
				f = f[:i+1]
				break
			}
			// A full stop ends the name with its sentence ("Leroy Merlin.
			// Nuestro repartidor …"); a polite pronoun after it is none
			// of it ("od firmy Electroworld Vám doručíme").
			// A name's small word ("Maisons du Monde") is no pronoun
			// ("du" is one in German), with the name going on after it.
			if i > 0 && pronouns[strings.ToLower(w)] && !(nameParticle[strings.ToLower(w)] && i+1 < len(f)) {
				f = f[:i]
				break
			}
			if strings.HasSuffix(w, ".") {
				f = f[:i+1]
				break
			}
		}
		// A company's abbreviated form keeps its dot ("Vintage Vinyl Co.",
		// "Bottega Verdi S.r.l.").
		name := strings.Join(f, " ")
		if !abbreviatedForms[strings.ToLower(f[len(f)-1])] {
			name = strings.TrimRight(name, ".")
		}
		return name
	}
	// A shipper's label whose value is a carrier ("Shipped by: Cainiao"
	// in a marketplace's mail) or a person ("From: Mr. Wang") names no
	// shop.
	for _, v := range c.after(shipperLabel, text) {
		if v != "" && len(v) <= 60 && !hasDigit(v) && !strings.ContainsAny(v, "@<") && !personTitled(v) && !isCarrierName(v) {
			return v
		}
	}
	// "Your Hobbycraft parcel", "Ihre Amazon Sendung": a carrier's own
	// name there ("Your DPD parcel", "Ihre DHL Sendung") names no shop,
	// nor does a word for the parcel's kind ("Ihre Teil-Lieferung").
	for ln := range linesWith(ownedNouns, text) {
		for _, m := range ownedParcelRE.FindAllStringSubmatch(ln, 4) {
			if mentionedCarrier(m[1]) == "" && !parcelKind(m[1]) && c.ownedShopStands(m[1], text) {
				return m[1]
			}
		}
	}
	// "Votre colis Fnac sera livré": the shop after the possessive's word
	// for a parcel.
	for ln := range linesWith(possessedNouns, text) {
		for _, m := range possessedParcelRE.FindAllStringSubmatch(ln, 4) {
			if mentionedCarrier(m[1]) == "" && !pronouns[strings.ToLower(m[1])] {
				return m[1]
			}
		}
	}
	// "Votre colis Cdiscount n° 8X55120771FR": the shop between the word
	// for a parcel and the sign for its number.
	for _, m := range parcelNounNumbers(text) {
		if shop := m[parcelNounShop]; shop != "" && mentionedCarrier(shop) == "" && !pronouns[strings.ToLower(shop)] {
			return shop
		}
	}
	if shop := c.shopOverTracking(text); shop != "" {
		return shop
	}
	// "Kogan has sent you a parcel", "Rozetka has sent you shipment No.
	// …": the shop as the sentence's subject, never a pronoun or a
	// carrier.
	for ln := range linesWith(sendsPhrases, text) {
		for _, m := range shopSendsRE.FindAllStringSubmatch(ln, 4) {
			if mentionedCarrier(m[1]) == "" && !pronouns[strings.ToLower(m[1])] {
				return m[1]
			}
		}
	}
	return ""
}

// ownedShopStands reports whether a name read between a possessive and a
// word for a parcel ("Ihre Amazon Sendung") may be the parcel's shop: in
// a known carrier's notice, when it agrees with the sender's domain
// (namesDomain), or when the mail names it again, as itself or as a
// domain ("amazon.de", a link's host). A brand's or a holiday's word there ("Ihre Tatort
// Sendung", a TV programme; "je Sinterklaas pakket") in another's mail is
// none.
func (c *msgContext) ownedShopStands(name, text string) bool {
	// A text without its sender (a pasted notice) has nobody else's
	// mail to be in.
	if c.senderDomain == "" || carrierBySender(c.senderDomain) != "" || namesDomain(name, orgDomain(c.senderDomain)) {
		return true
	}
	// Named twice: the subject's line and the body's ("Your Hobbycraft
	// parcel is on its way" over "Your Hobbycraft parcel is on its way to
	// you"), or the notice and its signature.
	if strings.Count(text, name) >= 2 {
		return true
	}
	low := strings.ToLower(text)
	for _, ws := range NameForms(name) {
		if w := strings.Join(ws, ""); len(w) >= 2 && domainOf(low, w) {
			return true
		}
	}
	return false
}

// domainOf reports whether low holds w as a domain's name: w after no
// letter or digit, a dot and a letter after it ("amazon.de", "www.zalando.nl").
func domainOf(low, w string) bool {
	for i := 0; i < len(low); {
		j := strings.Index(low[i:], w+".")
		if j < 0 {
			return false
		}
		j += i
		e := j + len(w) + 1
		if (j == 0 || !isWordByte(low[j-1]) && low[j-1] < 0x80) && e < len(low) && 'a' <= low[e] && low[e] <= 'z' {
			return true
		}
		i = j + 1
	}
	return false
}

// shopOverTracking is a shop named by its domain alone on the line over
// a tracking label's ("SomeVendor.com" over "Tracking Number: 1Z…", as a
// carrier's notice prints who sent the parcel), never the sender's own
// domain or a carrier's. Lines with a dot and no space only are tried.
func (c *msgContext) shopOverTracking(text string) string {
	shop := ""
	for ln := range strings.Lines(text) {
		t := strings.TrimSpace(ln)
		if t == "" {
			continue
		}
		if shop != "" {
			if m := trackingLabel.re.FindStringIndex(t); m != nil && m[0] == 0 {
				return shop
			}
		}
		shop = ""
		if strings.IndexByte(t, '.') > 0 && !strings.ContainsAny(t, " \t") && domainWordRE.MatchString(t) &&
			!sameShop(t, c.senderName, c.senderDomain) && mentionedCarrier(t) == "" {
			shop = t
		}
	}
	return ""
}

var carrierLabel = labels(append(lang.Entries("carrier.label"), lang.Entries("carrier.with")...)...)

// shipperLabel heads the line of a carrier's notice that names who sent
// the parcel: "FROM Express Water Inc.", "Absender: …", "Nadawca: …"
// (shipper.label in extract/lang/data).
var shipperLabel = labelSet{re: lazyregexp.New(`(?im)^[ \t]*(?:` + strings.Join(quoteAll(longestFirst(lang.Entries("shipper.label"))), "|") + `)(?:[ \t]*:[ \t]*|[ \t]+|[ \t]*$)`)}

func carrierBySender(domain string) string {
	if c := carriers.CarrierOf(domain); c != "" {
		return c
	}
	// A carrier's notification domain (notif-<carrier>.info) is the
	// carrier's, never a shop's.
	if c := carriers.NotifyCarrier(domain); c != "" {
		return c
	}
	switch domainLabel(domain) {
	case "ups":
		return "UPS"
	case "fedex":
		return "FedEx"
	case "usps":
		return "USPS"
	case "dhl":
		return "DHL"
	case "dpd":
		return "DPD"
	case "hermesworld", "myhermes", "hermes":
		return "Hermes"
	case "gls", "gls-group":
		return "GLS"
	}
	return ""
}

// abbreviatedForms are the legal forms and company words written with a
// full stop that is theirs, not a sentence's.
var abbreviatedForms = map[string]bool{
	"co.": true, "inc.": true, "ltd.": true, "corp.": true, "llc.": true, "plc.": true, "bros.": true,
	"pty.": true, "b.v.": true, "n.v.": true, "s.a.": true, "s.l.": true, "s.p.a.": true, "s.r.l.": true,
	"s.r.o.": true, "a.s.": true, "o.o.": true, "e.k.": true, "e.v.": true, "cía.": true, "ltda.": true, "s.a.s.": true,
}
