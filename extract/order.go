package extract

import (
	"cmp"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/carriers"
	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// Orders and parcels from text (textOrder): the order's number, its
// state (orderstatus.go), its tracking number (tracking.go), the carrier
// (carrier.go) and the shop (merchant.go) put together, and the numbers'
// forms.

var (
	// A store's prefix may end in a dot ("GPA.3345-1234-5678-90123"), and
	// a subscription's renewal adds its count after two dots ("…..3").
	// The word for number may stand between the noun and the number as
	// its abbreviation does ("commande numéro 345678901", "ordine numero",
	// "pedido número"). A number may end in one to three capitals after
	// a dash ("84-2912-A", "2027-0418-B"): read without them it would be
	// another order's. A purchase order's number keeps its "PO" apart by
	// a space as written ("Your order PO 4471 has shipped"): "PO" alone
	// is too short for a number, and "4471" alone is not what the
	// buyer's papers say.
	orderNumRE = lazyregexp.New(`^[#:\s]*(?:(?:no|nr|n[°º]?|n\.[°º]|N\.?[°º]|[Nn]um[eé]ro|[Nn]úmero|[Nn]ummer|[Nn]umber)\.?\s*:?\s*)?((?:PO ?#? ?)?(?:[A-Z]{2,4}\.)?[A-Z0-9][A-Z0-9\-/]{2,30}[0-9](?:-[A-Z]{1,3}|\.\.[0-9]{1,4})?)\b`)
	// A number may follow its label as a sentence does: "the tracking
	// number is 350C20177729F", "il numero di tracciabilità è …".
	// A local carrier may print its prefix apart by a dash ("URB-88120394"),
	// or its number's two groups of digits ("7712-40031988"), or three
	// of four, as Japanese carriers print twelve ("4512-3398-7706").
	// A short qualifier may stand between the label and the verb: "the
	// tracking number for these items is …", "… for your parcel is …",
	// "… of your order is …"; the word for "following" that a sentence
	// puts between its label and the colon ("le numéro de suivi suivant :
	// …"). A plain-text part may write the number as a link's text
	// ("[9200190256…](https://tools.usps.com/…)").
	trackingRE = lazyregexp.New(`^[#:\s\[]*(?:(?:suivante?s?|following|folgenden?|siguiente|seguente|volgende|seguinte)\s*:\s*)?(?:(?:(?:for|of)(?:\s+[a-z]+){1,3}\s+)?(?:is|è|ist|est|es)\s+)?([A-Z0-9]{8,34}|[A-Z]{2,6}-\d{5,20}|\d{4}-\d{4}-\d{4}|\d{3,8}-\d{6,12})\b`)
	// subjectOrderRE is an order number in a subject: "order
	// #123-4567890-1234567", "ordine Amazon.it n. 405-…", "Bestellung Nr. 1234".
	subjectOrderRE = lazyregexp.New(`(?i)\b(?:order|ordine|commande|bestellung|pedido|bestelling)\b[^#\n]{0,24}?(?:#|\bn[°º.]|\bno\.|\bnr\.?)\s*([A-Z0-9][A-Z0-9\-]{2,30}[0-9](?-i:-[A-Z]{1,3})?)\b`)
	anyTrackRE     = lazyregexp.New(`\b(1Z[0-9A-Z]{16}|TBA\d{12}|\d{12}|\d{15}|\d{20,22}|9\d{15,21}|JJD\d{10,20}|[A-Z]{2}\d{9}[A-Z]{2})\b`)
)

// parcelFeeWords ask for a fee to deliver or release a parcel
// (parcel.fee): "redelivery fee", "Zollgebühr", "frais d'affranchissement".
var parcelFeeWords = words.NewWholeSet(lang.Entries("parcel.fee"))

// orderOfferWords offer a discount on an order to come (order.offer):
// "your next order", "promo code", "Gutscheincode".
var orderOfferWords = words.NewWholeSet(lang.Entries("order.offer"))

// parcelHeldWords say a parcel waits in the recipient's building (a front
// desk, a mailroom, a parcel locker): parcel.held in extract/lang/data.
var parcelHeldWords = words.NewWholeSet(lang.Entries("parcel.held"))

// orderNouns are an order's and a parcel's own nouns (order.noun,
// tracking.noun: "Bestellung", "paczka"), whole words.
var orderNouns = words.NewWholeSet(append(lang.Entries("order.noun"), lang.Entries("tracking.noun")...))

// numberlessNotice reports whether a subject names an order or a parcel
// and states its state ("Il tuo ordine è stato spedito", "Twoja paczka
// jest w drodze"): an order's notice, though it prints neither the
// order's number nor a tracking number, when its text speaks of goods
// sent or collected (order.goods; a server's order is a service's). A
// state alone is no order's (a cart's reminder, a bakery's "at your door
// today"), nor a noun alone.
func numberlessNotice(subject string) bool {
	return orderNouns.In(lower(subject)) && orderStatusOf(subject, "") != ""
}

// subjectNumbersState reports whether a subject numbers an order and
// says its state, and a body of a few lines says that state too.
func subjectNumbersState(subject, body string) bool {
	if len(strings.TrimSpace(body)) > 400 || !subjectOrderRE.MatchString(subject) {
		return false
	}
	st := orderStatusOf(subject, "")
	return st != "" && orderStatusOf("", body) == st
}

// textOrder reads an order: an order number next to its label, or a
// tracking number with a valid check digit in a shipping mail.
func (c *msgContext) textOrder(subject, text string) (Fact, bool) {
	// An order's mail states something countable below its subject (a
	// price, a date, a quantity, a number): a body without a single digit
	// is a letter that happens to use order words.
	// Unless the subject numbers the order and a short body says the
	// state the subject says ("Eine Lieferung aus der Bestellung #2766
	// wurde zugestellt" over "Ihre Sendung mit Polohemd … wurde
	// zugestellt."); a forward's note under the order's subject says
	// none, and a page of commerce's words in any order is no notice.
	if body, ok := strings.CutPrefix(text, subject); ok && !hasDigit(body) && !subjectNumbersState(subject, body) {
		return Fact{}, false
	}
	status := orderStatusOf(subject, text)
	if status == "" && c.trackedByLink(text) {
		status = StatusShipped
	}
	if status == "" && carrierBySender(c.senderDomain) != "" && yourParcel(subject+"\n"+firstTextLines(text, 12)) &&
		len(c.after(trackingLabel, text)) > 0 {
		// A carrier's own notice about the reader's parcel that gives its
		// number by its label and says nothing of its state ("We're
		// expecting your IKEA parcel … Your parcel: 1500 0000 000 000"):
		// a parcel in the carrier's hands, or announced to them, is on
		// its way. Not a carrier's help mail that shows what a number
		// looks like (no parcel of the reader's), not a sample's number
		// ("Przykładowy numer przesyłki: 6200…"), nor a digest, whose
		// parcels' blocks hold their states (parcelList). A shop's mail
		// so is none: a number printed before the parcel leaves tells
		// nothing (TestTrackedByLink).
		if tr, _ := c.trackingNumber(text); tr != "" && c.labelsNumber(text, tr) && !exampleLeg(text, tr) &&
			c.parcelList(text, &Order{}, 1) == nil {
			status = StatusShipped
		}
	}
	if status == "" && c.shipmentLabelled(text) {
		status = StatusShipped
	}
	if status == "" {
		return Fact{}, false
	}
	if status == StatusOrdered && !orderedWords.Any(lower(subject+"\n"+firstTextLines(text, 12))) && c.invoiceNumber(text) != "" {
		// An invoice that names the order it bills ("Order ID:
		// OD3041…" on a tax invoice) is a bill: an order's id alone,
		// with nothing else of an order placed, makes no order of it.
		return Fact{}, false
	}
	// "Save 20% on your next order", its terms quoting "Order
	// #123456789012": a promotion whose subject offers a discount on an
	// order to come (order.offer) is no order, unless its subject also
	// speaks of one placed.
	if status == StatusOrdered {
		if ls := lower(subject); orderOfferWords.In(ls) && !orderedWords.Any(ls) {
			return Fact{}, false
		}
	}
	if status == StatusOutForDelivery && c.deliveryLater(text) {
		// "En cours de livraison. Livraison prévue le 25/02/2030" in a
		// mail of the 23rd: on its way, not out for delivery today.
		status = StatusShipped
	}
	// The shop by its name less the department's or the kind of mail's
	// words that end it ("Etsy Transactions", "Lumenhaus Versand":
	// sender.noise): the shop, not its sending desk.
	o := &Order{Status: status, Domain: c.senderDomain, Merchant: withoutShopNoun(senderBrand(c.senderName), c.senderDomain)}
	if c.senderName == "" || c.senderDomain != "" && c.senderName == domainLabel(c.senderDomain) {
		// No name to go by but the domain's: the shop the mail thanks the
		// reader for buying from ("DMM通販をご利用いただき" from
		// mail.dmm.com, "このたびは模型の森をご利用いただき" from
		// mokei-mori.jp, whose name no domain spells).
		if shop := c.thanksShop(text); shop != "" {
			o.Merchant = shop
		} else if c.senderDomain != "" {
			// A mail with no display name at all ("shop@pejogravuren.ch")
			// or a role's ("Customer Service", "Confirmation de commande
			// <auto-confirm@amazon.fr>", which setSender leaves none): the
			// shop's name as it prints it, where it spells the domain.
			if name := printedDomainName(subject, text, c.senderDomain); name != "" {
				o.Merchant = name
			}
		}
	}
	o.Number = c.orderNumber(text)
	if m := subjectOrderRE.FindStringSubmatch(subject); m != nil && o.Number == "" && !masked(m[1]) {
		o.Number = m[1]
	}
	if o.Number == "" {
		o.Number = confirmedNumber(subject)
	}
	// A table's header row over its values ("Numero ordine	Data ordine"
	// over "CF-2026-08812	04/12/2026"), read as labelled when the
	// labels outside tables give no number.
	var cells string
	if o.Number == "" {
		if cells = tabLabels(text); cells != "" {
			o.Number = c.tableOrderNumber(cells)
		}
	}
	tracking, carrier := c.trackingNumber(text)
	// The carrier the mail names in a sentence, and whether it names one,
	// worked out once: the expressions read the whole text.
	all := subject + "\n" + text
	mentioned := sync.OnceValue(func() string { return mentionedCarrier(all) })
	lowerAll := sync.OnceValue(func() string { return lower(all) })
	names := func(carrier string) bool { return words.Has(lowerAll(), strings.ToLower(carrier)) }
	byChance := false // the carrier was a check's guess the mail's naming replaced
	if carrier != "" && (allDigits(tracking) || isS10(tracking)) && carrierBySender(c.senderDomain) == "" {
		// A number of digits alone passes some carrier's check by chance
		// (one in seven to ten): the carrier the mail names, if it names
		// one and not that one ("sent with GLS", "Pakkenummer:
		// 5701928374"), carries it. An S10 number's country is where the
		// parcel was posted: the carrier named brings it ("pris en charge
		// par Chronopost", "XW…FR").
		if named := cmp.Or(c.namedCarrier(text), mentioned(), c.linkedCarrier(text)); named != "" && !names(carrier) {
			carrier, byChance = named, true
		}
	}
	if tracking != "" && o.Number != "" && strings.EqualFold(compactCode(tracking), compactCode(o.Number)) && !c.labelsNumber(text, tracking) {
		// The order's own number passing a carrier's check by chance
		// ("Order number: 784512093316" is a FedEx form) tracks nothing;
		// unless a tracking label gives it too ("Tu pedido 1349764642
		// … con Nº de seguimiento GLS 1349764642": a carrier numbers the
		// shipment by the shop's order).
		tracking, carrier = "", ""
	}
	if tracking == "" && status != StatusOrdered {
		// An order just placed has no parcel to track yet.
		tracking, carrier = c.linkTracking(c.html, text)
		// The carrier the mail names ("Transporteur : Colissimo") over
		// the name of the site it links to (La Poste's).
		if named := c.namedCarrier(text); tracking != "" && named != "" {
			carrier = named
		}
	}
	if o.Number == "" && tracking == "" && !(numberlessNotice(subject) && goodsWords.In(lowerAll())) {
		return Fact{}, false
	}
	if carrier == "" {
		carrier = c.namedCarrier(text)
	}
	if carrier == "" {
		carrier = carrierBySender(c.senderDomain)
	}
	if carrier == "" && tracking != "" {
		carrier = c.linkedCarrier(text)
	}
	// A failed delivery or a parcel held that asks for a fee (parcel.fee)
	// in a carrier's name, by the sender's name or the parcel's, from a
	// domain that is none of that carrier's, is a lure ("Royal Mail" on
	// rm-redelivery-uk.info, "DHL Express" on dhl-zoll-paket.top, a USPS
	// number from "Delivery Service" on a mailbox provider's domain): its
	// number tracks nothing the person sent for. A carrier's own notice of
	// a fee, from its own domain, stands; so does a failed delivery from a
	// domain no list knows that asks for nothing ("Royal Mail" on
	// royalmail-track.co.uk, "we will try again").
	if (status == StatusProblem || status == StatusReturned) && parcelFeeWords.In(lowerAll()) &&
		(carriers.Impersonated(c.senderName, c.senderDomain) || tracking != "" && carriers.Impersonated(carrier, c.senderDomain)) {
		return Fact{}, false
	}
	if tracking != "" {
		o.Shipments = []Shipment{{Carrier: carrier, Tracking: tracking, Status: status}}
		if status == StatusOrdered {
			o.Shipments[0].Status = StatusShipped
			o.Status = StatusShipped
		}
	}
	// A carrier no list knows by its domain that names itself in a
	// sentence ("shipped with 4PX", sent by "4PX Express"); a postal
	// operator's own notice about a number of its country ("Pósturinn" on
	// postur.is, "EE…IS"), by the name it signs with, not the table's; a
	// carrier that signs the mail on a domain no list knows ("Poczta
	// Polska") delivers the parcel, whatever carrier another's form names:
	// an S10 number's country is where it was posted, not who brings it.
	self := c.postalSender(tracking, text)
	switch sc := mentionedCarrier(c.senderName); {
	case self != "" || tracking == "":
	case carrier == "":
		if m := mentioned(); m != "" && sameShop(m, c.senderName, c.senderDomain) {
			self = m
		} else if sc != "" && isCarrierName(senderBrand(c.senderName)) {
			// A carrier's own notice from a domain no list knows, by the
			// name it sends under alone ("Aramex" on aramex.ae), about a
			// number whose form none knows: it carries the parcel, and
			// the shop is whoever it names, if anyone, never itself.
			self = sc
		}
	case sc != "" && sc != carrier && carrierBySender(c.senderDomain) == "":
		self = sc
	}
	if carrierBySender(c.senderDomain) == "" && carrier != "" && tracking != "" && sameShop(carrier, c.senderName, c.senderDomain) && mentionedCarrier(carrier) == "" {
		// A carrier no list knows, found in the mail's own name ("Courier
		// Center" read as the courier "Center"): the name it signs with.
		carrier = senderBrand(c.senderName)
		o.Shipments[0].Carrier = carrier
	}
	if carrierBySender(c.senderDomain) != "" || carrier != "" && tracking != "" && sameShop(carrier, c.senderName, c.senderDomain) || self != "" {
		// A carrier's own mail (by its domain, or a postal operator that
		// its number names and that signs it: "Latvijas Pasts"): the
		// merchant is whoever it names, if anyone. A shop that delivers
		// its own orders and names its delivery arm ("Carrier: Amazon
		// Logistics" from Amazon.com under the shop's "Order #"), not
		// itself, and no other shipper, is the merchant still.
		shop := c.shipperNamed(text)
		// "Your item(s) is (are) being sent by Amazon Logistics": the
		// carrier named as the parcel's sender is no shop.
		if shop != "" && (strings.EqualFold(shop, carrier) || mentionedCarrier(shop) != "") {
			shop = ""
		}
		ownArm := shop == "" && o.Number != "" && carrierBySender(c.senderDomain) == "" && self == "" &&
			!strings.EqualFold(carrier, senderBrand(c.senderName))
		if !ownArm {
			o.Merchant, o.Domain = shop, ""
			if tracking == "" && o.Number == "" && carriers.CarrierOf(c.senderDomain) == "" {
				// A numberless notice in a carrier's name from a domain no
				// carrier's list holds ("DHL Paket" on dhl.help) has no
				// number a carrier's notice could carry: its domain stays,
				// so that the shop it names is shown by it (Merge's rule
				// for a name the domain does not spell).
				o.Domain = c.senderDomain
			}
		}
		if self != "" {
			carrier, o.Shipments[0].Carrier = self, self
		}
	} else if tracking != "" && (c.senderName != "" || c.senderDomain == "") {
		// A notice about another's parcel ("Tu envío de El Corte Inglés")
		// is from a carrier no list knows (or from no sender at all: a
		// placeholder's address, placeholder.go), unless the carrier is named: a
		// number of digits alone that passes a known carrier's check
		// passes one in seven to ten by chance, so that carrier counts only
		// when the mail names it.
		chance := byChance || carrier != "" && allDigits(tracking) && !names(carrier)
		if carrier == "" || chance {
			if shop := c.shipperNamed(text); shop != "" && !sameShop(shop, c.senderName, c.senderDomain) {
				// The carrier the notice names ("on its way with DPD": a
				// shipping platform's mail), else the sender.
				carrier = mentioned()
				if carrier == "" || words.Has(strings.ToLower(c.senderName+" "+c.senderDomain), strings.ToLower(carrier)) {
					// The sender: by the carrier's name its own holds
					// ("GLS France" is GLS, "PPL CZ" PPL), else by its own.
					carrier = cmp.Or(mentionedCarrier(c.senderName), senderBrand(c.senderName))
				}
				o.Merchant, o.Domain = shop, ""
				o.Shipments[0].Carrier = carrier
			}
		} else if m := fromMerchantMatch(text); m != nil {
			// A shipping platform's notice about a shop's parcel that
			// names its carrier ("Din pakke fra Proshop …", "Fragtfirma:
			// GLS" from Shipmondo): the shop the parcel is from, by a
			// word for "from" only (a seller's verb of sending names a
			// seller's account, "sprzedawca TechStore_PL nadał").
			if shop := c.shipperNamed(text); shop != "" && strings.HasPrefix(m[1], shop) && !sameShop(shop, c.senderName, c.senderDomain) && mentionedCarrier(shop) == "" {
				o.Merchant, o.Domain = shop, ""
			}
		}
	}
	if tracking != "" && carrier == "" {
		// A shop's mail that names its carrier in a sentence ("sendt med
		// Bring", "wysłane kurierem InPost").
		o.Shipments[0].Carrier = mentioned()
	}
	items := withoutItemRows(text)
	if rest := afterSubtotal(items); rest != "" {
		// "Total: $179.95" under an item's "Qty: 1", the order's
		// "Total: $328.40" after its "Subtotal": the total after the
		// items' sum is the order's.
		o.Total = c.labelledAmount(rest)
	}
	if o.Total == nil {
		if a := c.labelledAmount(items); a != nil {
			o.Total = a
		} else if cells != "" {
			o.Total = c.labelledAmount(cells)
		}
	}
	if tracking != "" && o.Number == "" && o.Total == nil && o.Domain != "" && carrierBySender(c.senderDomain) == "" &&
		parcelHeldWords.In(lowerAll()) {
		// A carrier's parcel waiting at the recipient's front desk,
		// mailroom or locker, told by the building's own service with no
		// order of its own: the sender is no shop, and the shop is
		// whoever the notice names, if anyone.
		o.Merchant, o.Domain = c.shipperNamed(text), ""
	}
	return Fact{Kind: KindOrder, From: FromText, Order: o}, true
}

// shipmentLabelled reports whether the text's first lines give a
// parcel's carrier and its tracking number each by its label, in any
// language ("[運送会社] 佐川急便" over "[配送伝票] 9990…", "Carrier: DHL" and
// "Tracking number: …"): a dispatch's details, which need no sentence
// to say the parcel left. Not a number a carrier's help shows as an
// example.
func (c *msgContext) shipmentLabelled(text string) bool {
	head := firstTextLines(text, 20)
	if len(c.after(carrierLabel, head)) == 0 || len(c.after(trackingLabel, head)) == 0 {
		return false
	}
	tr, _ := c.trackingNumber(head)
	return tr != "" && c.labelsNumber(head, tr) && !exampleNear(head, tr) && c.namedCarrier(head) != ""
}

// exampleNear reports whether the line that names number, or one of the
// three lines above it, holds a word for "example" anywhere ("Tracking
// number: 1000000000 (example)", "Each note shows two lines, for
// example:" over the labels): a help text's sample, not a parcel.
func exampleNear(text, number string) bool {
	i := strings.Index(text, number)
	if i < 0 {
		return false
	}
	start := i
	for n := 0; n < 4 && start > 0; n++ {
		start = strings.LastIndexByte(text[:start-1], '\n') + 1
	}
	end := len(text)
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		end = i + j
	}
	return exampleWords.In(lower(text[start:end]))
}

// yourParcelRE is a possessive and a word for the parcel, up to three
// words between ("your parcel", "your IKEA parcel", "Ihr Paket von",
// "je pakket"; parcel.owner, parcel.owned in extract/lang/data).
var yourParcelRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("parcel.owner")), "|") +
	`)[ \t]+(?:[\p{L}\p{N}.&'’-]+[ \t]+){0,3}?(?:` + strings.Join(longestFirst(lang.Entries("parcel.owned")), "|") + `)(?:$|[^\p{L}])`)

// yourParcel reports whether s speaks of the reader's parcel.
func yourParcel(s string) bool { return yourParcelRE.MatchString(s) }

// labelsNumber reports whether text gives tracking after a tracking
// number's label ("Your parcel: 1500 0000 000 000", "Sendungsnummer"),
// not only as a number of a carrier's form somewhere: a customer's or an
// account's number in a carrier's mail tracks no parcel.
func (c *msgContext) labelsNumber(text, tracking string) bool {
	want := compactCode(tracking)
	for _, v := range c.after(trackingLabel, text) {
		_, v = carrierBeforeColon(v)
		// "Nº de seguimiento GLS 1349764642 está en camino": the
		// carrier's name before the number, words after it.
		if _, rest := carrierNameFirst(v); rest != v {
			v = rest
		}
		if strings.HasPrefix(compactCode(strings.TrimLeft(v, "#: \t")), want) {
			return true
		}
	}
	return false
}

// deliveryLater reports whether the text's first lines expect the
// delivery on a day after the mail's ("Livraison prévue le 25/02/2030",
// "voraussichtlich am 25.02."), on a line that does not say today.
func (c *msgContext) deliveryLater(text string) bool {
	if c.date.IsZero() {
		return false
	}
	sent := c.date.In(c.dateLoc)
	today := sent.Year()*10000 + int(sent.Month())*100 + sent.Day()
	for ln := range strings.Lines(firstTextLines(text, 12)) {
		low := lower(ln)
		if !futureWords.In(low) || todayWords.In(low) || !hasDigit(ln) {
			continue
		}
		for _, d := range c.findDates(ln, c.usSender()) {
			y := d.y
			if !d.hasYear {
				y = sent.Year()
			}
			if y*10000+d.m*100+d.d > today {
				return true
			}
		}
	}
	return false
}

// orderNumber is the first number a text gives by an order's label.
func (c *msgContext) orderNumber(text string) string {
	if n := c.codeAfter(orderLabels, text); n != "" {
		return n
	}
	if n := numberedOrder(text); n != "" {
		return n
	}
	// "Twoje zamówienie otrzymało numer: 37943", "your order has been
	// given the number 40117": the number after a short verb's words and
	// the word for a number, in the sentence the order's word begins.
	for _, v := range c.after(orderLabels, text) {
		line, _, _ := strings.Cut(v, "\n")
		if m := orderSentenceNumRE.FindStringSubmatch(line); m != nil && !masked(m[1]) && !phoneShaped(m[1]) {
			return m[1]
		}
		// "Twoje zamówienie tJqv4Qr8 zostało potwierdzone", "Your order
		// KT7QW2XA has been confirmed": a code of letters and digits, of
		// either case, right after the order's word, a word in lower case
		// (the sentence's verb) after it; unless a carrier's form and
		// check claim it ("A encomenda DV551207780PT enviada por …":
		// Portuguese's one word for an order and a parcel).
		if m := orderCodeVerbRE.FindStringSubmatch(line); m != nil && mixedCode(m[1]) {
			if car, ok := carrierOf(m[1], c.senderDomain, true); !ok || car == "" {
				return m[1]
			}
		}
	}
	return ""
}

// orderCodeVerbRE is a code right after the order's word, a word in
// lower case after it.
var orderCodeVerbRE = lazyregexp.New(`^[ \t]*([A-Za-z0-9]{6,20})[ \t]+\p{Ll}`)

// mixedCode reports whether s holds two letters and two digits at
// least: a code, not a word or an amount.
func mixedCode(s string) bool {
	var letters, digits int
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits++
		} else {
			letters++
		}
	}
	return letters >= 2 && digits >= 2
}

// orderSentenceNumRE is an order's number after one to four words and
// the word for a number, as a sentence gives it after the order's word.
var orderSentenceNumRE = lazyregexp.New(`^\s*(?:\pL+\s+){1,4}(?i:numer|number|nummer|num[eé]ro|número|číslo)\s*:?\s*([A-Z0-9][A-Z0-9\-/]{2,30}[0-9])\b`)

// numberedOrderRE is an order's number before the word that says it
// numbers the order, as Turkish and Hungarian write it: "MS-77120934
// numaralı siparişiniz", "a KB-20441 számú rendelését" (order.numbered in
// extract/lang/data).
var numberedOrderRE = func() *lazyregexp.Regexp {
	var alts []string
	for _, e := range lang.Entries("order.numbered") {
		alts = append(alts, regexp.QuoteMeta(strings.TrimSuffix(e, "*"))+`\pL*`)
	}
	if len(alts) == 0 {
		return nil
	}
	return lazyregexp.New(`(?i)(?:^|[^\pL\pN-])([A-Z0-9][A-Z0-9\-/]{2,30}[0-9])[ \t]+(?:` + strings.Join(alts, "|") + `)`)
}()

// numberedOrderWords are order.numbered's first words, looked for before
// the expression runs.
var numberedOrderWords = func() *words.Set {
	var ws []string
	for _, e := range lang.Entries("order.numbered") {
		w, _, _ := strings.Cut(e, " ")
		ws = append(ws, w)
	}
	return words.NewSet(ws)
}()

// numberedOrder is the first order's number numberedOrderRE reads, or "".
func numberedOrder(text string) string {
	if numberedOrderRE == nil || !numberedOrderWords.AnyFold(text) {
		return ""
	}
	for _, m := range numberedOrderRE.FindAllStringSubmatch(text, 8) {
		if !masked(m[1]) && !phoneShaped(m[1]) {
			return m[1]
		}
	}
	return ""
}

// phoneShaped reports whether s is written as a phone number is: a
// leading 0, three or more groups of two to four digits, 9 to 13 digits
// in all ("0850-333-0333 numaralı sipariş hattımız" is the shop's order
// line). An order's number in groups has a longer group (Amazon's
// "026-1234567-1234567").
func phoneShaped(s string) bool {
	if s == "" || s[0] != '0' {
		return false
	}
	groups, digits, run := 0, 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isDigitByte(s[i]) {
			run++
			digits++
			continue
		}
		if run < 2 || run > 4 {
			return false
		}
		groups, run = groups+1, 0
		if i < len(s) && s[i] != '-' && s[i] != '/' {
			return false
		}
	}
	return groups >= 3 && digits >= 9 && digits <= 13
}

// tableOrderNumber is orderNumber of a table's cells as tabLabels writes
// them: a column's date under a header that names the order ("Data
// ordine", "Order date") is no number.
func (c *msgContext) tableOrderNumber(cells string) string {
	for _, v := range c.after(orderLabels, cells) {
		if m := orderNumRE.FindStringSubmatch(v); m != nil && !masked(m[1]) && len(findDates(m[1], false)) == 0 {
			return m[1]
		}
	}
	return ""
}

// withoutItemRows is text with the lines that work an item's price out
// blanked ("価格：￥6,930 x 数量：1 = 合計：￥6,930", "2 × $12.00 = $24.00"):
// a total on such a line is the item's, not the order's.
func withoutItemRows(text string) string {
	if strings.IndexByte(text, '=') < 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	changed := false
	for i, ln := range lines {
		eq := strings.IndexByte(ln, '=')
		if eq < 0 || !hasDigit(ln[:eq]) || !hasDigit(ln[eq:]) {
			continue
		}
		if before := ln[:eq]; strings.Contains(before, "×") || strings.Contains(before, " x ") || strings.Contains(before, " X ") {
			lines[i], changed = "", true
		}
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "\n")
}

// subtotalWords are the labels of an items' sum before shipping and
// taxes (amount.subtotal), lower case.
var subtotalWords = words.NewSet(lang.Entries("amount.subtotal"))

// afterSubtotal is the text after the last line that opens with a
// subtotal's label ("Subtotal: $291.35 AUD", "| Zwischensumme: |
// 84,80 € |", "小計　6,242円"), or "" when no line does.
func afterSubtotal(text string) string {
	low := lower(text)
	if len(low) != len(text) || !subtotalWords.Any(low) {
		return ""
	}
	at := -1
	for i := 0; i < len(low); {
		end := strings.IndexByte(low[i:], '\n')
		if end < 0 {
			end = len(low)
		} else {
			end += i
		}
		ln := strings.TrimLeft(low[i:end], " \t|*-•　")
		for _, w := range lang.Entries("amount.subtotal") {
			if strings.HasPrefix(ln, w) && (len(ln) == len(w) || !inWord(ln[len(w)]) || ln[len(w)] >= 0x80 && !isLetterAt(ln, len(w))) {
				at = end
				break
			}
		}
		i = end + 1
	}
	if at < 0 || at >= len(text) {
		return ""
	}
	return text[at:]
}

// isLetterAt reports whether s holds a letter at byte i.
func isLetterAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) && !unicode.Is(unicode.Han, r) && !unicode.Is(unicode.Hiragana, r) && !unicode.Is(unicode.Katakana, r)
}
