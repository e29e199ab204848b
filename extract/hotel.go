package extract

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// Hotel stays from text (textHotel): the stay's dates by their labels
// (checkin, checkout), as a range under a stay's label or before one
// month's name, in a table's columns, or from the nights booked; the
// hotel's name after its label, before its lodging word, after a phrase
// that says it is one (stay.at), over its address, or from the sender's
// own. The words are extract/lang/data's (checkin, checkout, hotel,
// lodging, stay.*).

// textHotel reads a stay: check-in and check-out dates next to their
// labels, and the hotel's name.
func (c *msgContext) textHotel(subject, text string) (Fact, bool) {
	return c.readStay(subject, text, true)
}

// readStay is textHotel of a whole mail (whole) or of one stay's block
// of a mail that books several (hotelstays.go): a block's name is never
// the sender's, whose name is the agency's or the booking tool's.
func (c *msgContext) readStay(subject, text string, whole bool) (Fact, bool) {
	in := c.labelledDate(checkinLabels, text, c.countryZone(""))
	if in == nil {
		in = c.labelledDate(spacedCheckinLabels, text, c.countryZone(""))
	}
	out := c.labelledDate(checkoutLabels, text, c.countryZone(""))
	if out == nil {
		out = c.labelledDate(spacedCheckoutLabels, text, c.countryZone(""))
	}
	if in == nil {
		in, out = c.spacedCheckDates(text)
	}
	if in == nil {
		in, out = c.stackedCheckDates(text, c.countryZone(""))
	}
	if in == nil {
		in, out = c.columnDates(text, c.countryZone(""))
	}
	// Dates by a check-in or check-out label or in a table under one
	// are a stay's; a range or a night count alone may be anything's.
	labelled := in != nil
	if in == nil {
		in, out = c.rangeDates(text, c.countryZone(""))
	} else if out == nil || out.DateOnly && in.DateOnly && out.Format("2006-01-02") == in.Format("2006-01-02") {
		// "Anreise: 30.11.23" over "Aufenthalt: 30.11.23 - 01.12.23": the
		// range that starts on the labelled day ends the stay. So when
		// both labels share one line over a range ("Anreise / Abreise:
		// Mo. 08.03.2016 - Do. 10.03.2016"), which each read as its
		// first day.
		if a, b := c.rangeDates(text, c.countryZone("")); a != nil && b != nil && a.Format("2006-01-02") == in.Format("2006-01-02") {
			out = b
		}
	}
	if in == nil {
		in, out = c.nightsFromDate(text, c.countryZone(""))
	}
	// A rental's reservation block: its days alone on a line under the
	// home's title (hotelblock.go), a stay only with a booking's number.
	blockTitle, block := "", false
	if in == nil {
		in, out, blockTitle = c.blockStay(text, c.countryZone(""))
		block = in != nil
	}
	// A stay changed in a sentence ("Your stay has been changed to 14–17
	// June 2027") is the stay now, whatever dates the mail names besides
	// (the booking's before the change, under their labels).
	if a, b := c.changedRange(text, c.countryZone("")); a != nil && b != nil {
		in, out = a, b
	}
	if in == nil || reviewWords.In(lower(subject+"\n"+firstLines(text, 6))) {
		return Fact{}, false
	}
	// A stay spans a night: an arrival and a departure on one day are a
	// spa's day, a meeting room's, a table's ("Arrival: Saturday 15 May
	// 2027, 10:00", "Departure: Saturday 15 May 2027, 16:00").
	if out != nil && !out.DateOnly && !in.DateOnly && in.Format("2006-01-02") == out.Format("2006-01-02") {
		return Fact{}, false
	}
	if out != nil && out.Before(in.Time) {
		// A stay ends after it begins: an "Avreise" before the
		// "Ankomst" on one day is a journey's departure and arrival
		// ("Avreise: man 03.07.2028 kl. 14.30 Trondheim …", "Ankomst:
		// … kl. 19.10 Ålesund …"), not a check-out before a check-in.
		return Fact{}, false
	}
	if out == nil && in.DateOnly {
		// "Arrival: Friday 12 November 2027", "Number of nights: 2".
		if n := stayNights(text); n > 0 {
			t := *in
			t.Time = t.AddDate(0, 0, n)
			out = &t
		}
	}
	seg := &Segment{Type: KindHotel, Status: StatusConfirmed, CheckIn: in, CheckOut: out,
		Reservation: findReservation(text)}
	if seg.Reservation == "" {
		// A table's header over its values ("Confirmation Number" over
		// "58812047").
		if cells := tabLabels(text); cells != "" {
			seg.Reservation = findReservation(cells)
		}
	}
	if seg.Reservation == "" {
		// A small house's short number ("Prenotazione n. 558").
		seg.Reservation = shortStayRef(text)
	}
	// A mail that offers, watches or counts stays and gives no booking's
	// number books nothing (unbooked): "Complete your booking" over
	// a search's dates, a price alert's "Anreise", a newsletter's
	// "Příjezd: kdykoli od 1. 4.", a points statement's last stay. With a
	// number, the words are a confirmation's footer and the stay stands.
	if seg.Reservation == "" && (block || unbookedWords.In(lower(subject+"\n"+text))) {
		return Fact{}, false
	}
	// Nor does an offer's ("We have rooms for you", "Jetzt buchen", a
	// comparison's hotels) with no sign of a booking (proposal.go).
	if seg.Reservation == "" && c.offeredStay(subject, text) {
		return Fact{}, false
	}
	for _, v := range hotelLabels.after(text) {
		// "Accommodatie: Bosbungalow 4 personen", "Hébergement :
		// Mobil-home 3 chambres": a unit's description, counted, names
		// the room, not the place.
		// "YOUR HOTEL" over "Hotel: Casa do Largo": a heading over the
		// labelled name, whose value is the label's line.
		// "Property #4471209", "Listing: 88120": a number names no place.
		if v != "" && len(v) < 80 && !strings.ContainsAny(v, "@") && !unitCountRE.MatchString(v) && len(hotelLabels.after(v)) == 0 && !numberAlone(v) {
			seg.Hotel = hotelName(v)
			break
		}
	}
	if seg.Hotel == "" {
		seg.Hotel = listingName(text)
	}
	if seg.Hotel == "" {
		seg.Hotel = unitTitle(text)
	}
	if seg.Hotel == "" {
		seg.Hotel = blockTitle
	}
	if seg.Hotel == "" {
		seg.Hotel = c.nameOverAddress(subject, text, whole)
	}
	if seg.Hotel == "" {
		// "Walt Disney World Dolphin" alone over "Guest name:": the
		// block's first line, before any sentence's "booking with …".
		seg.Hotel = nameOverGuest(text)
	}
	// The sender's name when it names a place to stay ("Hostal La
	// Giralda"), else such a name in the subject or text ("à l'Auberge du
	// Lac").
	if seg.Hotel == "" && whole && lodgingRE.MatchString(c.senderName) && !chainWords.In(strings.ToLower(c.senderName)) {
		seg.Hotel = c.senderName
	}
	// A system's name ("Thank you for booking with Lodgify") or the
	// greeted guest's ("Edward's stay") names no place: the next rules'.
	if seg.Hotel != "" && (systemNamed(seg.Hotel) || guestNamed(seg.Hotel, text)) {
		seg.Hotel = ""
	}
	// "Villa Serena via Guesty": the place a system sends for.
	if seg.Hotel == "" && whole {
		if p := viaPlace(c.senderName); !guestNamed(p, text) {
			seg.Hotel = p
		}
	}
	if seg.Hotel == "" {
		seg.Hotel = stayAtName(subject + "\n" + firstLines(text, 40))
	}
	if seg.Hotel == "" && whole {
		seg.Hotel = c.letterheadName(text)
	}
	if seg.Hotel == "" {
		seg.Hotel = lodgingName(subject + "\n" + firstLines(text, 40))
	}
	if seg.Hotel == "" && whole {
		seg.Hotel = subjectPlace(subject, text)
	}
	anyHotelLine := false // the name is only a short line that says "hotel"
	if seg.Hotel == "" {
		for _, ln := range strings.Split(subject+"\n"+text, "\n") {
			ln = strings.TrimSpace(ln)
			// A forward's subject ("Fwd: Swissôtel Hotels Reservation
			// Details: 09-Jul-2024") or a section's heading or link is
			// no name.
			if l := strings.ToLower(ln); strings.Contains(l, "hotel") && len(ln) < 60 && !strings.Contains(l, "booking") && hotelCapital(ln) &&
				!fwdPrefixRE.MatchString(ln) && !sectionName(ln) {
				seg.Hotel, anyHotelLine = ln, true
				break
			}
		}
	}
	// The sender's name last, if the text names it too and it names no
	// chain, desk or platform ("Pestana Hotels & Resorts", "Hilton
	// Reservations", "ALL - Accor Live Limitless", "Airbnb"): no name is
	// better than another's.
	// An airline's is none, and its mail's stay named by nothing else is
	// a flight's itinerary ("Check-in: Fri, Feb 19" in a shared trip).
	airline := airlineCodes[strings.ToUpper(c.senderName)] != ""
	if seg.Hotel == "" && airline {
		return Fact{}, false
	}
	// A subject's "Fwd:" over a forward no client's header block made
	// plain (a text's lines run together): the sender is the person who
	// forwarded it, greeted in the text, no place.
	if seg.Hotel == "" && whole && (strings.Contains(text, c.senderName) || c.senderNamesDomain()) && !chainWords.In(strings.ToLower(c.senderName)) &&
		!fwdPrefixRE.MatchString(subject) &&
		!bookingPlatforms[strings.ToLower(domainLabel(c.senderDomain))] && !webName(c.senderName) {
		seg.Hotel = c.senderName
	}
	// Nor does a section's heading or link ("Hotel Fact Sheet", "Your
	// Stay"), whichever rule read it.
	if systemNamed(seg.Hotel) || guestNamed(seg.Hotel, text) || sectionName(seg.Hotel) {
		seg.Hotel = ""
	}
	seg.Hotel = nominativeName(seg.Hotel, text)
	// Unlabelled dates alone are no stay: an event's page ("03-04
	// February 2024") in a mail whose words speak of a night has them too,
	// and so has a fair about hotels ("Hotel & Hospitality Expo 2027,
	// 19-21 October"), whose only name is a line that says "hotel".
	if !labelled && seg.Reservation == "" && (seg.Hotel == "" || anyHotelLine) {
		return Fact{}, false
	}
	return Fact{Kind: KindHotel, From: FromText, Segment: seg}, true
}

// spacedCheckRE is "Check in" or "Check out" spelt apart and without a
// colon at a line's start, with the rest of the line: "Check in Fri 13
// April 2029 from 2pm".
var spacedCheckRE = lazyregexp.New(`(?im)^[ \t]*check (in|out)[ \t]+(\S[^\n]{0,60})$`)

// spacedCheckDates reads a stay's dates from spacedCheckRE's lines, only
// when a date starts the rest of the line: a table's header "Check In
// Check Out" over its dates is a hotel invoice's, not this.
func (c *msgContext) spacedCheckDates(text string) (in, out *Time) {
	if !strings.Contains(text, "heck ") {
		return nil, nil
	}
	for _, m := range spacedCheckRE.FindAllStringSubmatch(firstLines(text, 60), 4) {
		ds := c.dates(m[2])
		if len(ds) == 0 || ds[0].start > 16 || strings.Contains(strings.ToLower(m[2][:ds[0].start]), "check") {
			continue
		}
		t := resolve(at(ds[0].withYear(c.ref), nil), c.countryZone(""), c.dateLoc)
		if strings.EqualFold(m[1], "in") && in == nil {
			in = t
		} else if strings.EqualFold(m[1], "out") && out == nil {
			out = t
		}
	}
	if in == nil || out == nil || !out.After(in.Time) {
		return nil, nil
	}
	return in, out
}

// bookingPlatforms are the domains of sites that book stays for others:
// their senders' names are theirs, not the place's.
var bookingPlatforms = map[string]bool{"booking": true, "expedia": true, "hotels": true, "agoda": true, "airbnb": true,
	"trivago": true, "kayak": true, "hrs": true, "lastminute": true, "opodo": true, "edreams": true, "ebookers": true,
	"tripadvisor": true, "trip": true, "hostelworld": true, "momondo": true, "travelzoo": true, "holidaycheck": true}

// senderNamesDomain reports whether a word of the sender's name (four
// letters or more) is in its mail domain's own label ("The Hoxton, Paris"
// from hoxton-paris.com): a place that writes from its own domain, not a
// platform that books it.
func (c *msgContext) senderNamesDomain() bool {
	label := strings.ToLower(domainLabel(c.senderDomain))
	if c.senderName == "" || label == "" || bookingPlatforms[label] {
		return false
	}
	folded := strings.ReplaceAll(label, "-", "")
	for _, w := range strings.FieldsFunc(strings.ToLower(places.Fold(c.senderName)), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) >= 4 && strings.Contains(folded, w) {
			return true
		}
	}
	return false
}

// hotelName is a hotel label's value without the address that may follow
// the name on the same line ("Hotel: Copenhagen Strand, Havnegade 37, 1058
// København K"): from the first comma whose part holds a number (a street's,
// a postcode). A comma before words alone ("Adlon Kempinski, Berlin") stays.
func hotelName(v string) string {
	for i := 0; ; {
		j := strings.IndexByte(v[i:], ',')
		if j < 0 {
			return v
		}
		i += j
		part, _, _ := strings.Cut(v[i+1:], ",")
		if hasDigit(part) && i > 0 {
			return strings.TrimSpace(v[:i])
		}
		i++
	}
}

// lodgingRE is a place to stay by name: a lodging word of any language
// (extract/lang) and the capitalised words after it on its line, "Hotel
// Riviera", "Auberge du Lac", "Parador de Granada"; a name in quotes as
// Russian and Ukrainian mail writes it ("Гостиница «Волга»").
var lodgingRE = lazyregexp.New(`(?:^|[^\p{L}])(?i:` + strings.Join(longestFirst(lang.Entries("lodging")), "|") +
	`)(?:[ \t]+(?:(?:` + nameLinks + `)[ \t]+)*[«„“]?\p{Lu}[\p{L}'’&-]*[»“”]?){1,4}`)

// stayAtRE is a place to stay named after a phrase that says it is one
// (stay.at: "Thank you for choosing Courtyard Vienna Prater/Messe", "bij
// WestCord Hotels Art Plaza Amsterdam"): capitalised words, with the small
// words inside names, up to the sentence's punctuation.
var stayAtRE = lazyregexp.New(`(?:^|[^\p{L}])(?i:` + strings.Join(longestFirst(lang.Entries("stay.at")), "|") +
	`)[ \t]+(?:[ld]['’])?((?:\p{Lu}|\d)[\p{L}\p{N}'’&./-]*(?:[ \t]+(?:(?:` + nameLinks + `)[ \t]+)*(?:\p{Lu}|\d)[\p{L}\p{N}'’&./-]*){0,6})`)

// stayAtName is the first name stayAtRE finds that is no chain's or
// desk's own ("Radisson Hotels", "Booking.com"): a name that ends with a
// chain's word is one.
func stayAtName(s string) string {
	for _, m := range stayAtRE.FindAllStringSubmatch(s, 4) {
		n := strings.TrimRight(sentenceEnd(m[1]), ".,")
		f := strings.Fields(n)
		if last := strings.ToLower(f[len(f)-1]); chainWords.In(last) || strings.Contains(last, ".") {
			continue
		}
		// A town is where the stay is, not what it is at ("Ihre Buchung
		// in München ist bestätigt", "Your booking in Split"): one word
		// with no lodging word after a word for "in", or a town the places
		// data knows.
		if len(f) == 1 && !lodgingWords.In(strings.ToLower(n)) && (knownTown(n) || locativeEnd(m[0][:len(m[0])-len(m[1])])) {
			continue
		}
		return n
	}
	return ""
}

// locativeEnd reports whether a stay.at phrase as matched ends with a
// word for "in" ("ihre buchung in", "rezerwację w", "бронирование в"),
// after which a town stands as often as a house.
func locativeEnd(phrase string) bool {
	f := strings.Fields(strings.ToLower(phrase))
	if len(f) < 2 {
		return false
	}
	switch f[len(f)-1] {
	case "in", "en", "i", "w", "v", "u", "в", "у", "à":
		return true
	}
	return false
}

// sentenceEnd is a name cut where its sentence ends: a word of more
// than three letters that ends with a full stop ("Ryokan Kasuitei. We
// are pleased" is "Ryokan Kasuitei."); "St. Pancras" keeps its stop. A
// short lodging word ends its sentence too: "The Old Mill Inn. We look
// forward".
func sentenceEnd(n string) string {
	f := strings.Fields(n)
	for i, w := range f[:max(len(f)-1, 0)] {
		if strings.HasSuffix(w, ".") && !strings.Contains(w[:len(w)-1], ".") &&
			(utf8.RuneCountInString(w) > 4 || lodgingWords.In(strings.ToLower(w[:len(w)-1]))) {
			return strings.Join(f[:i+1], " ")
		}
	}
	return n
}

// unitCountRE is a count before a word in lower case, as a room's or a
// unit's description has it ("4 personen", "3 chambres", "2 bedrooms"),
// a place's name never.
var unitCountRE = lazyregexp.New(`\d[ \t]+\p{Ll}`)

// listingName is a rented home's title as booking platforms print it: the
// line over the line that names its host ("Sunny loft by Sagrada Família"
// over "Entire rental unit hosted by Marta"; stay.host in extract/lang).
// The title is a short line that starts with a capital and holds no
// digit, colon or sentence's end.
func listingName(text string) string {
	if !hostWords.Any(lower(text)) {
		return ""
	}
	prev := ""
	for ln := range strings.Lines(firstLines(text, 60)) {
		ln = strings.TrimSpace(ln)
		if ln == "" {
			continue
		}
		if hostWords.Any(lower(ln)) {
			if titleShaped(prev, ":!?@|\t") && !hostWords.Any(lower(prev)) {
				return prev
			}
			return ""
		}
		prev = ln
	}
	return ""
}

// titleShaped reports whether a line may be a rented home's title: short,
// of two words or more, starting with a capital, with no digit, none of
// marks and no sentence's end.
func titleShaped(ln, marks string) bool {
	r, _ := utf8.DecodeRuneInString(ln)
	return unicode.IsUpper(r) && len(ln) <= 80 && len(strings.Fields(ln)) >= 2 && !hasDigit(ln) &&
		!strings.ContainsAny(ln, marks) && !strings.HasSuffix(ln, ".")
}

// unitTitle is a rented home's title as a platform's host notice prints
// it: the line over the line that names the kind of home alone ("TWO-
// BEDROOM UPTOWN CONDO WITH BIDET" over "Entire home/apt", "Altbauwohnung
// am Stadtpark" over "Gesamte Unterkunft"; stay.unit in extract/lang). The
// title is as listingName's; under a unit of one word ("Room", "Zimmer")
// it is in capitals, and a heading's words alone ("Your Booking Details"
// over "Room") are no title.
func unitTitle(text string) string {
	l := lower(text)
	if !unitWords.Any(l) && strings.IndexByte(text, '#') < 0 {
		return ""
	}
	prev := ""
	for ln := range strings.Lines(firstLines(text, 80)) {
		ln = strings.TrimSpace(ln)
		if ln == "" {
			continue
		}
		// A listing's number under its title ("Cedar Ridge Cabin" over
		// "Property #4471209") is a unit's line of several words.
		if u := strings.ToLower(ln); unitPhrases[u] || strings.IndexByte(ln, '#') >= 0 && numberedListingRE.MatchString(ln) && strings.Contains(u, " ") {
			if titleShaped(prev, ":!?@|\t[]/") && !headingOnly(prev) &&
				(strings.Contains(u, " ") || prev == strings.ToUpper(prev)) {
				return prev
			}
			return ""
		}
		prev = ln
	}
	return ""
}

// numberedListingRE is a place's label and its number alone on a line
// ("Property #4471209", "Objekt Nr. 5512", "Logement n° 88120").
var numberedListingRE = lazyregexp.New(`(?i)^(?:` + strings.Join(longestFirst(lang.Entries("hotel")), "|") + `)[ \t]*(?:(?:no|nr|n°)\.?[ \t]*)?[:#]?[ \t]*#?[ \t]*\d{3,12}$`)

// numberAlone reports whether a label's value is a number on its line,
// with no letter ("#88120", "4471209").
func numberAlone(v string) bool {
	line, _, _ := strings.Cut(v, "\n")
	line = strings.TrimSpace(line)
	return line != "" && !strings.ContainsFunc(line, unicode.IsLetter)
}

// headingOnly reports whether every word of a line is a heading's or a
// label's (stayHeadingWords: "Your Booking Details") or a short joining
// word.
func headingOnly(ln string) bool {
	for _, w := range strings.Fields(ln) {
		w = strings.ToLower(strings.Trim(w, "&-'’,"))
		if len(w) > 3 && !stayHeadingWords[w] {
			return false
		}
	}
	return true
}

// unitPhrases are stay.unit's entries: a line that is one of them whole
// names the kind of a rented home.
var unitPhrases = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range lang.Entries("stay.unit") {
		m[w] = true
	}
	return m
}()

// commonLodgingRE is a lodging word in lower case, a common noun, and the
// name after it: up to six capitalised words (or a name's small words
// between them) to the sentence's end.
var commonLodgingRE = lazyregexp.New(`^(?:[^\p{L}])?(?:` + strings.Join(longestFirst(lang.Entries("lodging")), "|") +
	`)[ \t]+((?:\p{Lu}|\d)[\p{L}\p{N}'’&-]*(?:[ \t]+(?:(?:` + nameLinks + `)[ \t]+)*(?:\p{Lu}|\d)[\p{L}\p{N}'’&-]*){0,5})`)

// letterheadName is a place's name printed alone on one of the text's
// first lines, as a letterhead or a heading prints it ("Moxy Edinburgh
// Fountainbridge" from "Moxy Hotels", "Tivoli Oriente Lisboa" from
// "Tivoli Hotels"): two to six capitalised words, the first a word of the
// sender's own name, that name no chain (the sender's name is the
// chain's) and hold no digit.
func (c *msgContext) letterheadName(text string) string {
	sender := strings.Fields(strings.ToLower(c.senderName))
	if len(sender) == 0 {
		return ""
	}
	seen := 0
	for ln := range strings.Lines(text) {
		ln = strings.TrimSpace(ln)
		if ln == "" {
			continue
		}
		if seen++; seen > 4 {
			break
		}
		f := strings.Fields(ln)
		if len(f) < 2 || len(f) > 6 || hasDigit(ln) || !strings.EqualFold(f[0], sender[0]) || strings.EqualFold(ln, c.senderName) ||
			chainWords.In(strings.ToLower(ln)) || !letterheadRE.MatchString(ln) {
			continue
		}
		return ln
	}
	return ""
}

// letterheadRE is a line of capitalised words, with a name's small words
// between them: a name alone, no sentence.
var letterheadRE = lazyregexp.New(`^\p{Lu}[\p{L}'’&-]*(?:[ \t]+(?:(?:` + nameLinks + `)[ \t]+)*\p{Lu}[\p{L}'’&-]*)+$`)

// lodgingBeforeRE is a name that ends with its lodging word: "Radisson
// Blu Royal Hotel", "The Savoy Hotel".
var lodgingBeforeRE = lazyregexp.New(`(?:^|[^\p{L}])((?:\p{Lu}[\p{L}'’&-]*[ \t]+){1,4}(?i:` + strings.Join(longestFirst(lang.Entries("lodging")), "|") + `))(?:[^\p{L}]|$)`)

// lodgingName is the first place to stay a text names, the lodging word
// before or after the name, that names no chain or group ("Hotel Group").
// A lodging word in lower case is a common noun before the name, no part
// of it ("à l'hôtel B&B HOTEL Lyon Centre Perrache"): the name is the
// capitalised words after it.
func lodgingName(s string) string {
	best, at := "", len(s)
	for _, m := range lodgingRE.FindAllStringIndex(s, 8) {
		n := strings.TrimLeftFunc(s[m[0]:m[1]], func(r rune) bool { return !unicode.IsLetter(r) })
		if endsWithColon(s[m[1]:]) || amountAfter(s[m[1]:]) || sectionName(n) {
			continue // "Hotel Information:": a heading over the place's fields; "Resort Fee-250.00": a charge; "Hotel Fact Sheet": a link
		}
		if m[0] < at && !chainWords.In(strings.ToLower(n)) {
			best, at = strings.TrimSpace(n), m[0]
			if r, _ := utf8.DecodeRuneInString(n); unicode.IsLower(r) {
				if cm := commonLodgingRE.FindStringSubmatch(s[m[0]:]); cm != nil && !chainWords.In(strings.ToLower(cm[1])) {
					best = cm[1]
				}
			}
			break
		}
	}
	for _, m := range lodgingBeforeRE.FindAllStringSubmatchIndex(s, 8) {
		if n := s[m[2]:m[3]]; m[2] < at && !chainWords.In(strings.ToLower(n)) && !commonBefore(n) && !sectionName(n) {
			best = n
			break
		}
	}
	return best
}

// webName reports whether a name is a web site's ("Marriott.com",
// "Hotels.com"): a chain's or a desk's address, no place's name.
func webName(n string) bool {
	i := strings.LastIndexByte(n, '.')
	tld := n[i+1:]
	return i > 0 && len(tld) >= 2 && len(tld) <= 6 && strings.IndexFunc(tld, func(r rune) bool { return r < 'a' || r > 'z' }) < 0
}

// hotelCapital reports whether a line writes "hotel" as a name does: with
// its capital, in capitals, or inside a brand's word ("pentahotel
// Leipzig"). "hotel" in small letters alone is the common noun of a
// sentence ("This hotel has a smoke-free policy", "Total for stay in
// hotel's currency").
func hotelCapital(ln string) bool {
	if strings.Contains(ln, "Hotel") || strings.Contains(ln, "HOTEL") {
		return true
	}
	for i := 0; ; {
		j := strings.Index(ln[i:], "hotel")
		if j < 0 {
			return false
		}
		if i += j; i > 0 && ln[i-1] >= 'a' && ln[i-1] <= 'z' {
			return true
		}
		i += len("hotel")
	}
}

// endsWithColon reports whether rest, what follows a name, is a colon
// that ends its line: the name is a heading's or a label's.
func endsWithColon(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, ":") {
		return false
	}
	line, _, _ := strings.Cut(rest[1:], "\n")
	return strings.TrimSpace(line) == ""
}

// chargeAmountRE is an amount with its cents at the start of what follows a
// name, after a dash or a colon: the name was a charge's ("Resort
// Fee-250.00", "City Tax: 12.50").
var chargeAmountRE = lazyregexp.New(`^[ \t]*[-–:]?[ \t]*[$€£]?\d[\d,.]*[.,]\d\d\b`)

// amountAfter reports whether an amount follows a name (chargeAmountRE), the
// name's own trailing dash given back to it.
func amountAfter(rest string) bool { return chargeAmountRE.MatchString(rest) }

// commonWords are the languages' most common words (common in
// extract/lang): "this", "our", "unser", "votre".
var commonWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range lang.Entries("common") {
		m[w] = true
	}
	return m
}()

// commonBefore reports whether the words before a name's lodging word
// are all common words: "This hotel", "Our hotel", "Ihr Hotel" point to
// the place, they do not name it ("The Savoy Hotel" does).
func commonBefore(n string) bool {
	f := strings.Fields(n)
	for _, w := range f[:len(f)-1] {
		if !commonWords[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// nameLinks are the small words inside a place's name: "Auberge du Lac",
// "Pousada de Óbidos".
const nameLinks = `du|de|la|le|les|del|della|di|do|da|dos|das|des|am|an|im|zum|zur|the|of|los|las|el|van|von|vom|der|den`

var (
	// lodgingWords are the lodging words of every language, whole;
	// chainWords name a chain or a booking desk rather than one place
	// (extract/lang, lodging.chain: "Hotels", "Reservations").
	lodgingWords = words.NewWholeSet(lang.Entries("lodging"))
	chainWords   = words.NewWholeSet(lang.Entries("lodging.chain"))
	// reviewWords ask about a stay that is over (stay.review): "Wie war
	// Ihr Aufenthalt im Hotel Adler vom 12. bis 14. Januar?" books nothing.
	reviewWords = words.NewWholeSet(lang.Entries("stay.review"))
	// unbookedWords are a mail's that offers or watches a stay, or counts
	// a member's points, rather than books one (unbooked).
	unbookedWords = words.NewWholeSet(lang.Entries("unbooked"))
	linkWords     = words.NewWholeSet(strings.Split(nameLinks, "|"))
	// hostWords name a rented home's host (stay.host): "hosted by".
	hostWords = words.NewSet(lang.Entries("stay.host"))
	// unitWords finds stay.unit's entries anywhere, a gate before
	// unitTitle reads lines.
	unitWords = words.NewSet(lang.Entries("stay.unit"))
)

// addressRE is the start of a street address: words and a house number
// ("Apollolaan 138", "Rua Jau 54"), or a number and words before a comma
// ("1 King Street,", "31 bis rue Diderot,"); or a whole American address
// without commas, its number, street, town and state before its ZIP code
// ("1801 Milwaukee Avenue Glenview Illinois 60025 USA").
var addressRE = lazyregexp.New(`^(?:\d{1,6}[ \t]+(?:[\p{L}'’.-]+[ \t]+){1,8}\d{5}(?:-\d{4})?(?:[ \t]+(?:USA|U\.S\.A\.|United States))?$|\p{Lu}[\p{L}'’.-]*,?[ \t]+(?:[\p{L}'’.-]+,?[ \t]+){0,3}(?:\d{1,4}[a-zA-Z]?|s/n)(?:[ \t]*[,/–-]|[ \t]*$)|\d{1,4}[a-zA-Z]?(?:[ \t]+(?:bis|ter))?,?[ \t]+[\p{L}'’.-]+(?:[ \t]+[\p{L}'’.-]+){0,4}[ \t]*,)`)

// nameOverAddress finds a place's name the way letterheads and signatures
// print it: on the line over its street address, or before the address
// after a comma on its own line ("Cabinn Copenhagen, Kongens Nytorv 30").
// The name is the capitalised words that end the line ("Ihr Team vom
// Best Western Hotel Bremen City"), and it must be a lodging's or share a
// word with the sender's name or the subject: a company's footer
// ("Booking.com B.V., Herengracht 597") names no hotel.
func (c *msgContext) nameOverAddress(subject, text string, whole bool) string {
	lines := strings.Split(text, "\n")
	about := strings.ToLower(c.senderName + " " + subject)
	if !whole {
		// One stay of several: the sender is the agency, whose own
		// address signs the mail.
		about = ""
	}
	for i, ln := range lines {
		ln = strings.TrimSpace(ln)
		name, rest, ok := strings.Cut(ln, ",")
		if !ok || !isAddress(rest) {
			// The next line with words, past a paragraph's blank line and
			// a rule that underlines the name ("New York Hilton Midtown"
			// over "-----------").
			next := i + 1
			for next < len(lines) && next < i+4 && (strings.TrimSpace(lines[next]) == "" || ruleLine(lines[next])) {
				next++
			}
			if ln == "" || next >= len(lines) || !isAddress(lines[next]) {
				continue
			}
			name = ln
		}
		n := trailingName(name)
		// A host's line over the home's address ("Ihre Gastgeber:
		// Familie Petersen") names the host, not the place.
		if n == "" || chainWords.In(strings.ToLower(n)) || hostWords.Any(lower(name)) {
			// A chain's or group's own address ("Radisson Hotel Group",
			// its seat), not the stay's.
			continue
		}
		// A brand in lower case before the name, of a word or two ("ibis
		// Paris Gare de Lyon", "ibis budget Alphaville"): the whole line,
		// when the text names it again.
		if whole := strings.TrimRight(name, " .!:;"); whole != n && strings.HasSuffix(whole, " "+n) && !hasDigit(whole[:len(whole)-len(n)]) &&
			(!strings.Contains(whole[:len(whole)-len(n)-1], " ") || lowerBrand(whole[:len(whole)-len(n)-1])) && strings.Count(text, whole) > 1 {
			n = whole
		}
		// An amount's currency over a room's number ("244.62 USD" over
		// "Room 1", which reads as a street's) is no name.
		if currencyCodeRE.FindString(n) == n {
			continue
		}
		// One stay's block of several starts with its heading: a name
		// over its address there is the stay's.
		head := !whole && strings.TrimSpace(strings.Join(lines[:i], "")) == ""
		if lodgingWords.In(strings.ToLower(n)) || sharesWord(n, about) || strings.Count(text, n) > 1 || head {
			return n
		}
	}
	return ""
}

// lowerBrand reports whether s is a brand's two words in lower case
// ("ibis budget", "the niu").
func lowerBrand(s string) bool {
	f := strings.Fields(s)
	if len(f) != 2 || strings.Contains(s, "  ") {
		return false
	}
	for _, w := range f {
		for _, r := range w {
			if !unicode.IsLower(r) {
				return false
			}
		}
	}
	return true
}

// columnDates reads a stay's dates from a table whose header row names
// check-in and check-out ("Entrada Salida Noches") over a row of values:
// the dates in the headers' order.
func (c *msgContext) columnDates(text string, z zoneHint) (in, out *Time) {
	lines := strings.Split(text, "\n")
	for i, ln := range lines {
		if hasDigit(ln) || len(ln) > 300 {
			continue
		}
		ci, co := headerAt(checkinWordRE, ln), headerAt(checkoutWordRE, ln)
		if ci < 0 || co < 0 || ci == co {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+2; j++ {
			ds := c.dates(lines[j])
			if len(ds) < 2 {
				continue
			}
			a, b := ds[0].withYear(c.ref), ds[1].withYear(c.ref)
			if co < ci {
				a, b = b, a
			}
			// A row is written in one order: "12/02/2028 15/02/2028" is
			// not the 2nd of December to the 15th of February.
			if before(b, a) {
				if ds := c.findDates(lines[j], !c.usSender()); len(ds) >= 2 {
					if x, y := ds[0].withYear(c.ref), ds[1].withYear(c.ref); !before(y, x) && co > ci {
						a, b = x, y
					}
				}
			}
			return resolve(at(a, nil), z, c.dateLoc), resolve(at(b, nil), z, c.dateLoc)
		}
	}
	return nil, nil
}

// rangeDates reads a stay's dates from a sentence that gives them as a
// range ("vom 10. bis 13. Dezember 2027", "from Thursday 18 November to
// Sunday 21 November 2027", "del 26 al 28 de noviembre"): the end is a
// date, the start a date or a day whose month and year are the end's.
func (c *msgContext) rangeDates(text string, z zoneHint) (in, out *Time) {
	head := firstLines(text, 60)
	matches := stayRangeRE.FindAllStringSubmatch(head, 5)
	if dl := dashRangeLines(head); dl != "" {
		matches = append(matches, stayDashRE.FindAllStringSubmatch(dl, 5)...)
	}
	if strings.ContainsAny(head, "-–") {
		matches = append(matches, compactRangeRE.FindAllStringSubmatch(head, 5)...)
		// "Jun 18 – 21, 2027", "Jun 30 – Jul 2, 2027": the month first,
		// the year after the range's end only, and the start's month the
		// end's when the end names none.
		for _, m := range monthFirstRangeRE.FindAllStringSubmatch(head, 5) {
			endMonth := cmp.Or(m[3], m[1])
			end := endMonth + " " + m[4]
			if m[5] != "" {
				end += ", " + m[5]
			}
			matches = append(matches, []string{m[0], m[1] + " " + m[2], end})
		}
	}
	for _, m := range matches {
		// Each language's pair has its own two groups: the pair that took part.
		var first, second string
		for k := 1; k+1 < len(m); k += 2 {
			if m[k] != "" {
				first, second = m[k], m[k+1]
				break
			}
		}
		ends, starts := c.dates(second), c.dates(first)
		if len(starts) > 0 && strings.Contains(first, "/") && c.usSender() {
			// A range is written in one order: "12/06/2027 - 15/06/2027"
			// from a .com sender is the 12th of June to the 15th, not
			// the 6th of December to a 15th month.
			if len(ends) == 0 || !before(starts[0], ends[0]) {
				if ef, sf := c.findDates(second, false), c.findDates(first, false); len(ef) > 0 && len(sf) > 0 && sf[0].hasYear && before(sf[0], ef[0]) {
					ends, starts = ef, sf
				}
			}
		}
		if len(ends) == 0 || ends[0].start > 16 {
			continue
		}
		end := ends[0].withYear(c.ref)
		var start dateMatch
		if ds := starts; len(ds) > 0 {
			start = ds[0]
			if !start.hasYear {
				start.y, start.hasYear = end.y, true
				if before(end, start) {
					start.y--
				}
			}
		} else if d := dayMonthDot.FindStringSubmatch(strings.TrimSpace(first)); d != nil {
			// "30.06." before "02.07.2028", "du 12/06 au 15/06/2028": the
			// day and month, the year the end's (or the one before,
			// across New Year); month first with a slash where the
			// sender writes dates so.
			day, _ := strconv.Atoi(d[1])
			mon, _ := strconv.Atoi(d[3])
			if d[2] == "/" && c.usSender() {
				day, mon = mon, day
			}
			if mon < 1 || mon > 12 || day < 1 || day > 31 {
				continue
			}
			start = dateMatch{y: end.y, m: mon, d: day, hasYear: true}
			if before(end, start) {
				start.y--
			}
		} else if d := bareDay.FindStringSubmatch(first); d != nil {
			day, _ := strconv.Atoi(d[1])
			start = dateMatch{y: end.y, m: end.m, d: day, hasYear: true}
			if day > end.d {
				start.m--
				if start.m == 0 {
					start.y, start.m = start.y-1, 12
				}
			}
		} else {
			continue
		}
		if !before(start, end) || time.Date(end.y, time.Month(end.m), end.d, 0, 0, 0, 0, time.UTC).Sub(
			time.Date(start.y, time.Month(start.m), start.d, 0, 0, 0, 0, time.UTC)) > 60*24*time.Hour {
			continue // no stay: a sale's dates, a period of months
		}
		return resolve(at(start, nil), z, c.dateLoc), resolve(at(end, nil), z, c.dateLoc)
	}
	return nil, nil
}

// stayRangeRE is a range of days in the words of every language
// (extract/lang, stay.range: "from … to"): what comes after the first
// word, and after the second.
var stayRangeRE, stayDashRE = func() (*lazyregexp.Regexp, *lazyregexp.Regexp) {
	var words, dashes []string
	for _, e := range lang.Entries("stay.range") {
		a, b, ok := strings.Cut(e, "…")
		if !ok {
			continue
		}
		if strings.TrimSpace(b) == "[–-]" {
			// A label's range, "Zeitraum: 30.06.–02.07.2028": an
			// expression of its own, run on the lines that can hold one.
			// Its colon, or a table's cell apart by a tab ("Trip
			// dates\tAug 6 – Aug 9, 2030").
			label := strings.TrimSuffix(strings.TrimSpace(a), ":")
			dashes = append(dashes, `(?:`+label+`(?::|[ \t]*\t))[ \t]*([^\n]{1,40}?)[ \t]*(?:[–-])[ \t]*([^\n]{1,60})`)
			continue
		}
		words = append(words, `(?:`+strings.TrimSpace(a)+`)[ \t]+([^\n]{1,40}?)[ \t]+(?:`+strings.TrimSpace(b)+`)[ \t]+([^\n]{1,60})`)
	}
	re := func(alts []string) *lazyregexp.Regexp {
		return lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(alts, "|") + `)`)
	}
	return re(words), re(dashes)
}()

// compactRangeRE is a range of days before one month's name, in any
// sentence: "12.–14. Oktober 2028", "13-15 Oct 2028", "30 Oct – 2 Nov
// 2028". The month's name after the second day is what makes it dates.
var compactRangeRE = lazyregexp.New(`(?i)(?:^|[^\p{L}\d.])(\d{1,2}\.?(?:\s*(?:` + monthAlt + `)\.?)?)[ \t]*[–-][ \t]*(\d{1,2}\.?[ \t]+(?:de[ \t]+)?(?:` + monthAlt + `)\.?(?:[ \t]+(?:de[ \t]+)?\d{4})?)(?:$|[^\p{L}])`)

// monthFirstRangeRE is a range of days after a month's name, as US
// English writes it: "Jun 18 – 21, 2027", "June 30 - July 2, 2027": the
// start's month and day, the end's month if it names one, its day and
// year.
var monthFirstRangeRE = lazyregexp.New(`(?i)(?:^|[^\p{L}\d])(` + monthAlt + `)\.?[ \t]+(\d{1,2})[ \t]*[–-][ \t]*(?:(` + monthAlt + `)\.?[ \t]+)?(\d{1,2}),?(?:[ \t]+(\d{4}))?(?:$|[^\p{L}\d:])`)

// stayDashWords are the labels of stayDashRE's ranges ("dates",
// "zeitraum"), looked for before the expression runs.
var stayDashWords = func() *words.Set {
	var labels []string
	for _, e := range lang.Entries("stay.range") {
		if a, b, ok := strings.Cut(e, "…"); ok && strings.TrimSpace(b) == "[–-]" {
			labels = append(labels, requiredText(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(a), ":"))))
		}
	}
	return words.NewSet(labels)
}()

// stayDashLine reports whether a line of s holds a labelled range of
// stayDashRE's: the expression only on lines with a colon or a tab, a dash, a
// digit and a label's word.
func stayDashLine(s string) bool {
	for ln := range strings.Lines(s) {
		if !strings.ContainsAny(ln, ":\t") || !strings.ContainsAny(ln, "–-") || !hasDigit(ln) {
			continue
		}
		if stayDashWords.Any(strings.ToLower(ln)) && stayDashRE.MatchString(ln) {
			return true
		}
	}
	return false
}

// dashRangeLines are the lines of s that can hold a label's range: a
// colon or a tab (a cell), a dash and a digit.
//
// A label's range that ends its line has its range on the next line with
// text ("Telefon: 05520-807-0 Reisezeitraum:" over "Mittwoch 17.11.2021 -
// Freitag 19.11.2021 2 Nächte", a document's two columns taken out as
// text): the label and that line, as one.
func dashRangeLines(s string) string {
	var b strings.Builder
	var label string // a line that ends with a range's label, waiting for its value
	blanks := 0
	for ln := range strings.Lines(s) {
		if label != "" {
			t := strings.TrimSpace(ln)
			switch {
			case t == "" && blanks == 0:
				blanks++
				continue
			case t != "" && !strings.Contains(t, ":") && strings.ContainsAny(t, "–-") && hasDigit(t):
				b.WriteString(label + " " + ln)
			}
			label, blanks = "", 0
		}
		if strings.ContainsAny(ln, ":\t") && strings.ContainsAny(ln, "–-") && hasDigit(ln) {
			b.WriteString(ln)
		}
		if t := strings.TrimSpace(ln); strings.HasSuffix(t, ":") && stayDashWords.Any(strings.ToLower(t)) && endsWithDashLabel(t) {
			label = t
		}
	}
	return b.String()
}

// endsWithDashLabel reports whether a line ends with one of stayDashRE's
// labels and its colon ("… Reisezeitraum:").
func endsWithDashLabel(ln string) bool { return dashLabelEndRE.MatchString(ln) }

// dashLabelEndRE is a label of stayDashRE's and its colon that end a
// line, a word of their own.
var dashLabelEndRE = func() *lazyregexp.Regexp {
	var labels []string
	for _, e := range lang.Entries("stay.range") {
		if a, b, ok := strings.Cut(e, "…"); ok && strings.TrimSpace(b) == "[–-]" {
			labels = append(labels, strings.TrimSuffix(strings.TrimSpace(a), ":"))
		}
	}
	return lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(labels, "|") + `)[ \t]*:$`)
}()

// dayMonthDot is a day and month without a year: "30.06.", "12.06",
// "12/06".
var dayMonthDot = lazyregexp.New(`^(\d{1,2})([./])(\d{1,2})\.?$`)

// bareDay is a day of the month alone: "10.", "26", "Thursday 18".
var bareDay = lazyregexp.New(`^[\p{L}, ]{0,15}?(\d{1,2})\.?$`)

// Check-in and check-out words of every language, whole (extract/lang).
var (
	checkinWordRE  = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("checkin")), "|") + `)(?:$|[^\p{L}])`)
	checkoutWordRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("checkout")), "|") + `)(?:$|[^\p{L}])`)
)

func before(a, b dateMatch) bool {
	return a.y < b.y || a.y == b.y && (a.m < b.m || a.m == b.m && a.d < b.d)
}

func headerAt(re *lazyregexp.Regexp, s string) int {
	if m := re.FindStringIndex(s); m != nil {
		return m[0]
	}
	return -1
}

// isAddress reports whether s starts like a street address and holds no
// date ("October 15, 2027" starts like "Apollolaan 138").
func isAddress(s string) bool {
	s = strings.TrimSpace(s)
	return addressRE.MatchString(s) && len(findDates(s, false)) == 0
}

// trailingName is the run of capitalised words (and the small words
// between them) that ends s, if it looks like a name: no digits, no
// address or legal form, one to six words.
func trailingName(s string) string {
	f := strings.Fields(strings.TrimRight(s, " .!:;"))
	i := len(f)
	for i > 0 {
		w := unElided(f[i-1])
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) && !(i < len(f) && linkWords.In(w)) {
			break
		}
		i--
	}
	for i < len(f) && linkWords.In(f[i]) {
		i++
	}
	n := slices.Clone(f[i:])
	// A clock's word after it ("… ab 15:00 Uhr", "… à 16 h") is no name's.
	for len(n) > 0 && afterClockWords[strings.ToLower(strings.TrimRight(n[0], ".,"))] {
		n = n[1:]
	}
	if len(n) > 0 {
		n[0] = unElided(n[0]) // "l'Auberge du Lac"
	}
	// Too long for a name: German capitalises its nouns ("Ihr Team vom
	// Best Western …"); the name is what follows the last small word.
	for k := len(n) - 2; len(n) > 6 && k > 0; k-- {
		if linkWords.In(n[k]) {
			n = n[k+1:]
			break
		}
	}
	if len(n) == 0 || len(n) > 6 {
		return ""
	}
	name := strings.Join(n, " ")
	if hasDigit(name) || strings.ContainsAny(name, "@()") || !namesSlashed(name) || legalForm.MatchString(name) {
		return ""
	}
	return name
}

// namesSlashed reports whether every slash in a name stands between two
// capitalised words' letters, as a chain's property names its two towns
// or districts ("Courtyard Chicago Glenview/Northbrook", "Prater/Messe"),
// not a path's or a web address's.
func namesSlashed(name string) bool {
	for i := strings.IndexByte(name, '/'); i >= 0; {
		before, _ := utf8.DecodeLastRuneInString(name[:i])
		after, _ := utf8.DecodeRuneInString(name[i+1:])
		if !unicode.IsLetter(before) || !unicode.IsUpper(after) {
			return false
		}
		j := strings.IndexByte(name[i+1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return true
}

// unElided is a word without the article elided before it: "l'Auberge",
// "dell’Hotel".
func unElided(w string) string {
	for _, sep := range []string{"'", "’"} {
		if a, rest, ok := strings.Cut(w, sep); ok && rest != "" && len(a) <= 4 && (strings.ToLower(a) == a || a == "L" || a == "D") {
			return rest
		}
	}
	return w
}

// legalForm is a company's legal form: a name that carries one is a
// company's, not a hotel's ("Booking.com B.V.").
var legalForm = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:gmbh|ag|b\.v\.|n\.v\.|s\.a\.|s\.l\.|s\.p\.a\.|s\.r\.l\.|ltd|llc|inc|plc|oy|oyj|ab|as|a/s|asa|s\.r\.o\.|a\.s\.|sp\. z o\.o\.|se|uc|dac|\w+\.com)(?:$|[^\p{L}])`)

// A stay's length: "2 nights", "Nights: 2", "Number of nights: 2"
// (stay.nights in extract/lang/data).
var (
	nightsWords   = strings.Join(longestFirst(lang.Entries("stay.nights")), "|")
	nightsAfterRE = lazyregexp.New(`(?i)(?:^|[^\p{L}\d])(\d{1,2})\s*(?:` + nightsWords + `)(?:[^\p{L}]|$)`)
	nightsLabelRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:` + nightsWords + `)\s*:\s*(\d{1,2})(?:\D|$)`)
)

// nightsFromRE is what stands between the nights and their first day:
// nothing, or a word for "from" and at most a weekday ("from Friday", "à
// partir du samedi"; stay.from in extract/lang).
var nightsFromRE = lazyregexp.New(`(?i)^[ \t,]*(?:(?:` + strings.Join(longestFirst(lang.Entries("stay.from")), "|") +
	`)[ \t]+(?:\p{L}+\.?,?[ \t]+)?)?$`)

// nightsFromDate reads a stay told as its first day and its nights in one
// sentence ("welcoming you on Friday 19 July 2030 for 2 nights", "fra 3.
// august 2030, 2 netter"): the one date on the nights' line or the line
// before it, the nights after it; else the nights and then their first
// day after a word for "from" ("3 nights from Friday 16 July 2030").
func (c *msgContext) nightsFromDate(text string, z zoneHint) (in, out *Time) {
	m := nightsAfterRE.FindStringSubmatchIndex(text)
	if m == nil {
		return nil, nil
	}
	n, _ := strconv.Atoi(text[m[2]:m[3]])
	start := strings.LastIndexByte(text[:m[2]], '\n')
	if start > 0 {
		start = strings.LastIndexByte(text[:start], '\n') // and the line before
	}
	ds, base := c.dates(text[start+1:m[2]]), start+1
	if len(ds) == 0 {
		// "3 nights from Friday 16 July 2030", "7 nuits à partir du
		// samedi 10 juillet 2030": the one date after the nights on
		// their line.
		end := strings.IndexByte(text[m[1]:], '\n')
		if end < 0 {
			end = len(text) - m[1]
		}
		rest := text[m[1] : m[1]+end]
		if ds, base = c.dates(rest), m[1]; len(ds) > 0 && !nightsFromRE.MatchString(rest[:ds[0].start]) {
			return nil, nil // "2 nights before arrival, by 10 July": no stay's start
		}
	}
	if n == 0 || len(ds) != 1 {
		return nil, nil
	}
	if departureLine(text, base+ds[0].start) {
		return nil, nil
	}
	a := ds[0].withYear(c.ref)
	b := a
	t := time.Date(a.y, time.Month(a.m), a.d+n, 0, 0, 0, 0, time.UTC)
	b.y, b.m, b.d = t.Year(), int(t.Month()), t.Day()
	return resolve(at(a, nil), z, c.dateLoc), resolve(at(b, nil), z, c.dateLoc)
}

// departureLine reports whether the line of text holding offset i starts
// with a check-out's label or a departure's one word ("Αναχώρηση: 13
// Ιουνίου 2027", "Departure: …"): its date ends a stay or starts a
// journey, and a night count after it counts from no stay's start.
func departureLine(text string, i int) bool {
	if i < 0 || i > len(text) {
		return false
	}
	from := strings.LastIndexByte(text[:i], '\n') + 1
	ln := text[from:i]
	if labelOn(checkoutLabels, ln) || labelOn(spacedCheckoutLabels, ln) {
		return true
	}
	if strings.TrimSpace(ln) == "" {
		// The date starts its line under a check-out's label alone on
		// the line above ("Check out" over "Fri 28 Mar 2025 before 12pm
		// (8 nights)"), a blank line between perhaps.
		if above := lineAbove(text, from); above != "" && (labelAlone(checkoutLabels, above) || labelAlone(spacedCheckoutLabels, above)) {
			return true
		}
	}
	w, _, _ := strings.Cut(strings.TrimSpace(ln), " ")
	w = strings.ToLower(strings.TrimRight(w, ":."))
	// Four letters or more: German "ab" is "from" too ("ab 12.07.2030").
	return utf8.RuneCountInString(w) >= 4 && depLabelWords.has(w)
}

// lineAbove is the last line with text before the line that starts at
// from, past one blank line at most; "" when there is none.
func lineAbove(text string, from int) string {
	for n := 0; n < 2 && from > 0; n++ {
		start := strings.LastIndexByte(text[:from-1], '\n') + 1
		if ln := strings.TrimSpace(text[start : from-1]); ln != "" {
			return ln
		}
		from = start
	}
	return ""
}

// labelAlone reports whether a line is one of l's labels and nothing
// more: a label over its value.
func labelAlone(l labelSet, line string) bool {
	if l.anchorSet != nil && !l.anchorSet.Any(lowerLine(line)) {
		return false
	}
	m := l.re.FindStringIndex(line)
	return m != nil && strings.TrimSpace(line[m[1]:]) == ""
}

// stayNights is the number of nights a text books, or 0 when it names
// none or several different ones.
func stayNights(text string) int {
	n := 0
	for _, re := range []*lazyregexp.Regexp{nightsLabelRE, nightsAfterRE} {
		for _, m := range re.FindAllStringSubmatch(text, 4) {
			v, _ := strconv.Atoi(m[1])
			if v == 0 || n != 0 && v != n {
				return 0
			}
			n = v
		}
	}
	return n
}

// ruleLine reports whether a line is a rule drawn in text: three or more
// dashes, equals signs or underscores and nothing else.
func ruleLine(ln string) bool {
	ln = strings.TrimSpace(ln)
	return len(ln) >= 3 && strings.Trim(ln, "-=_") == ""
}
