package extract

import (
	"cmp"
	"strings"
	"unicode/utf8"

	"mailnode/extract/carriers"
	"mailnode/extract/lazyregexp"
)

// Tracking numbers: a number's carrier by its form and check digit
// (trackingCarrier), and the tracking number a mail's text gives, ranked
// by that proof (trackingNumber; docs/extract.md).

// trackingCarrier recognises a tracking number by its form and check
// digit, so that a long number in a mail is taken for a parcel only when
// a carrier could have issued it.
func trackingCarrier(s string) (string, bool) {
	s = strings.ToUpper(s)
	switch {
	case len(s) == 18 && strings.HasPrefix(s, "1Z"):
		return "UPS", upsCheck(s)
	case len(s) == 15 && strings.HasPrefix(s, "TBA") && allDigits(s[3:]):
		return "Amazon Logistics", true
	case strings.HasPrefix(s, "JJD") && allDigits(s[3:]) && len(s) >= 13:
		return "DHL", true
	case len(s) == 13 && isUpper(s[:2]) && allDigits(s[2:11]) && isUpper(s[11:]):
		// A UPU S10 number names its country's postal operator.
		if op := postalOperators[s[11:]]; op != "" {
			return op, s10Check(s[2:11])
		}
		return "Post", s10Check(s[2:11])
	case allDigits(s) && (len(s) == 20 || len(s) == 22) && s[0] == '9':
		return "USPS", mod10Check31(s)
	case allDigits(s) && len(s) == 20 && strings.HasPrefix(s, "00"):
		return "DHL", mod10Check31(s) // SSCC parcel labels (DHL Paket and others)
	case allDigits(s) && len(s) == 12:
		return "FedEx", fedexCheck(s)
	case allDigits(s) && len(s) == 10:
		return "DHL", dhlCheck(s)
	}
	return "", false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// upsCheck: the 15 characters after "1Z", letters mapped to digits,
// odd positions summed once and even positions twice.
func upsCheck(s string) bool {
	sum := 0
	for i, c := range s[2:17] {
		var v int
		switch {
		case c >= '0' && c <= '9':
			v = int(c - '0')
		case c >= 'A' && c <= 'Z':
			v = (int(c-'A') + 2) % 10
		default:
			return false
		}
		if i%2 == 1 {
			v *= 2
		}
		sum += v
	}
	check := (10 - sum%10) % 10
	return int(s[17]-'0') == check
}

// mod10Check31 is the GS1 check digit: weights 3 and 1 from the right.
func mod10Check31(s string) bool {
	sum := 0
	body := s[:len(s)-1]
	for i := 0; i < len(body); i++ {
		v := int(body[len(body)-1-i] - '0')
		if i%2 == 0 {
			v *= 3
		}
		sum += v
	}
	return (10-sum%10)%10 == int(s[len(s)-1]-'0')
}

// fedexCheck: weights 1, 3, 7 from the right of the first eleven digits,
// modulo 11, then modulo 10.
func fedexCheck(s string) bool {
	weights := []int{1, 3, 7}
	sum := 0
	for i := 0; i < 11; i++ {
		sum += int(s[10-i]-'0') * weights[i%3]
	}
	return sum%11%10 == int(s[11]-'0')
}

// dhlCheck: DHL Express waybills, the first nine digits modulo 7.
func dhlCheck(s string) bool {
	n := 0
	for i := 0; i < 9; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n%7 == int(s[9]-'0')
}

// s10Check is the UPU S10 check digit over the eight serial digits.
func s10Check(d string) bool {
	weights := []int{8, 6, 4, 2, 3, 5, 9, 7}
	sum := 0
	for i := 0; i < 8; i++ {
		sum += int(d[i]-'0') * weights[i]
	}
	c := 11 - sum%11
	switch c {
	case 10:
		c = 0
	case 11:
		c = 5
	}
	return c == int(d[8]-'0')
}

// TrackingCarrier reports the carrier whose form and check digit a
// tracking number has ("UPS", "FedEx", "DHL", "USPS", "Post", "Amazon
// Logistics"), and whether it is valid.
func TrackingCarrier(s string) (carrier string, ok bool) { return trackingCarrier(s) }

// carrierOf is the carrier of a tracking number found in a mail from
// sender: the forms above first, then every format of the carriers' data
// (extract/carriers: 17 carriers' formats and check digits, UPU S10 for
// postal operators). A number that passes another carrier's check in a
// carrier's own notice is that carrier's: the check passing is chance.
//
// The carriers' data is asked only for a number that is labelled as a
// tracking number or in a carrier's own notice: with 39 formats, an
// unlabelled number in a merchant's mail (a phone or customer number)
// passes one of their checks too often by chance, and asking costs a
// regular expression per format.
func carrierOf(s, sender string, labelled bool) (string, bool) {
	car, ok := trackingCarrier(s)
	own := carrierBySender(sender)
	if !ok && (labelled || own != "") {
		if ms := carriers.Identify(s, sender); len(ms) > 0 {
			car, ok = carrierName(ms[0]), true
			if !ms[0].Checked && own == "" {
				// A form without a check digit in a mail no carrier sent
				// is a tracking number by its label, of no carrier by its
				// form ("Zendingnummer: TRK447120441" from Trunkrs is no
				// Purolator number): the mail's words and sender say whose.
				car = ""
			}
		}
	}
	if !ok && car != own {
		// A form whose check digit fails names no carrier, unless it is
		// the sender's own form (some carriers print numbers no check
		// covers).
		car = ""
	}
	// A carrier's own notice names the carrier, whatever another's
	// check says of its number.
	if own != "" && (ok || labelled) {
		car = own
	}
	return car, ok
}

// carrierName names a match: a postal operator by its S10 country.
func carrierName(m carriers.Match) string {
	if m.Code == "s10" {
		if op := postalOperators[m.Country]; op != "" {
			return op
		}
		return "Post"
	}
	if n := carriers.Name(m.Code); n != "" {
		return n
	}
	return m.Carrier
}

// postalOperators names the postal operator of an S10 number's country.
var postalOperators = map[string]string{
	"SE": "PostNord", "DK": "PostNord", "NO": "Posten Norge", "FI": "Posti", "IS": "Íslandspóstur",
	"DE": "Deutsche Post", "AT": "Österreichische Post", "CH": "Swiss Post", "NL": "PostNL", "BE": "bpost",
	"LU": "POST Luxembourg", "FR": "La Poste", "GB": "Royal Mail", "IE": "An Post", "ES": "Correos",
	"PT": "CTT", "IT": "Poste Italiane", "PL": "Poczta Polska", "CZ": "Česká pošta", "SK": "Slovenská pošta",
	"HU": "Magyar Posta", "RO": "Poșta Română", "GR": "ELTA", "US": "USPS", "CA": "Canada Post",
	"CN": "China Post", "JP": "Japan Post", "AU": "Australia Post", "NZ": "NZ Post",
	"EE": "Omniva", "LV": "Latvijas Pasts", "LT": "Lietuvos paštas", "SI": "Pošta Slovenije", "HR": "Hrvatska pošta",
	"BG": "Bulgarian Posts", "CY": "Cyprus Post", "MT": "MaltaPost", "RS": "Pošta Srbije", "UA": "Ukrposhta",
	"TR": "PTT", "RU": "Почта России", "IL": "Israel Post", "KR": "Korea Post", "SG": "SingPost", "HK": "Hongkong Post", "IN": "India Post",
	"BR": "Correios", "MX": "Correos de México", "ZA": "SAPO",
}

// masked says whether a number was blanked out for privacy
// ("XXX-5XXX882-9XXX5X3"): it names nothing.
func masked(s string) bool { return strings.Contains(strings.ToUpper(s), "XXX") }

// maskedTail reports whether what follows a number blanks the rest of it
// out ("Order# 21210***", "4471••••"): the digits shown are part of a
// number, which names nothing.
func maskedTail(rest string) bool {
	return strings.HasPrefix(rest, "*") || strings.HasPrefix(rest, "•") || strings.HasPrefix(rest, "●")
}

// trackingNumber finds a shipment's tracking number, best first: a
// labelled one whose check digit is right; one anywhere in the text with
// a right check digit; in the carrier's own mail, one in that carrier's
// form (its own notices need no proof that the number is theirs); a
// labelled one whose form no check covers.
func (c *msgContext) trackingNumber(text string) (tracking, carrier string) {
	var labelled []string
	named := "" // the carrier named between the first labelled number's label and its colon
	own := carrierBySender(c.senderDomain)
	for _, v := range c.after(trackingLabel, text) {
		name, v := carrierBeforeColon(v)
		if name == "" && own != "" {
			// The carrier's own notice names itself before the number
			// under its label ("Nº de seguimiento GLS 1349764642 está
			// en camino", from GLS): the number after its name.
			if n, rest := carrierNameFirst(v); n == own {
				name, v = n, rest
			}
		}
		n := groupedNumber(v)
		if n == "" {
			if m := trackingRE.FindStringSubmatch(v); m != nil {
				n = m[1]
			}
		}
		if n != "" && hasDigit(n) && !masked(n) {
			if car, ok := carrierOf(n, c.senderDomain, true); ok {
				return n, car
			}
			if len(labelled) == 0 {
				named = name
			}
			labelled = append(labelled, n)
		}
	}
	var ownForm string
	found := 0
	// Every form holds digits, and none spans lines: only lines with a
	// digit are searched.
	for _, start := range c.digitLinesOf(text) {
		line := text[start:]
		if end := strings.IndexByte(line, '\n'); end >= 0 {
			line = line[:end]
		}
		if !hasDigit(line) {
			continue
		}
		for _, ix := range anyTrackRE.FindAllStringIndex(line, 20-found) {
			m := line[ix[0]:ix[1]]
			if letterScanInURL(line, ix[0]) {
				continue
			}
			found++
			car, ok := carrierOf(m, c.senderDomain, false)
			if ok && own != "" && len(labelled) > 0 && !ownCheck(m, own) {
				// In a carrier's own notice the number under its tracking
				// label is its own, whatever form it has (GLS's
				// "Sendungsnummer 12111098592"); a number elsewhere that
				// passes only another carrier's check is that by chance
				// ("(Referenz: 33512352232900100030-…)", a USPS form).
				continue
			}
			if ok {
				return m, car
			}
			if car != "" && car == own && ownForm == "" {
				ownForm = m
			}
		}
		if found >= 20 {
			break
		}
	}
	if ownForm != "" {
		return ownForm, own
	}
	// A number right after a word for a parcel ("Votre colis 6A…", "Your
	// parcel 1Z…") is weaker than one after a label, and looked for only
	// when nothing else was found: one in a carrier's form must pass that
	// carrier's check.
	if len(labelled) == 0 {
		for _, m := range parcelNounNumbers(text) {
			m := []string{m[0], strings.Join(strings.Fields(m[parcelNounNum]), "")}
			if digitCount(m[1]) < 6 || masked(m[1]) {
				continue
			}
			if form, ok := trackingCarrier(m[1]); form != "" && !ok && form != own {
				continue
			}
			if car, ok := carrierOf(m[1], c.senderDomain, true); ok {
				return m[1], car
			}
			labelled = append(labelled, m[1])
		}
	}
	if len(labelled) > 0 {
		car, _ := carrierOf(labelled[0], c.senderDomain, true)
		return labelled[0], cmp.Or(car, named)
	}
	return "", ""
}

// ownCheck reports whether a number passes a check of the carrier own's
// forms, not another carrier's.
func ownCheck(n, own string) bool {
	if car, ok := trackingCarrier(n); ok {
		return car == own
	}
	for _, m := range carriers.Identify(n, "") {
		if m.Checked && carrierName(m) == own {
			return true
		}
	}
	return false
}

// groupedNumber is a labelled number printed in groups ("0034 0434 1610
// 9404 2557", "1Z 999 AA1 01 2345 6784", "99.60.123456.12345678") as one,
// or "" when the value does not start so: a first group of eight or more
// is a number of its own (trackingRE reads it).
func groupedNumber(v string) string {
	m := groupedRE.FindStringSubmatch(v)
	if m == nil || len(m[1]) >= 8 {
		return ""
	}
	n := strings.NewReplacer(" ", "", ".", "").Replace(strings.TrimLeft(m[0], "#: \t"))
	if len(n) < 8 || len(n) > 35 {
		return ""
	}
	return n
}

var groupedRE = lazyregexp.New(`^[#: \t]*([A-Z0-9]{1,8})(?:[ .][A-Z0-9]{1,8}){1,8}\b`)

// isS10 reports whether a tracking number is in the UPU S10 form with a
// right check digit.
func isS10(tracking string) bool {
	for _, m := range carriers.Identify(tracking, "") {
		if m.Code == "s10" {
			return true
		}
	}
	return false
}

// parcelNounNumbers are parcelNounRE's matches on the lines that can hold
// one: six digits or more, and a word for a parcel.
func parcelNounNumbers(text string) [][]string {
	low := lower(text)
	if !parcelNouns.Any(low) {
		return nil
	}
	if len(low) != len(text) {
		// Offsets would not match: the expression line by line.
		var out [][]string
		for ln := range strings.Lines(text) {
			if digitCount(ln) >= 6 {
				out = append(out, parcelNounRE.FindAllStringSubmatch(ln, 4)...)
			}
		}
		return out
	}
	// The expression only where a word for a parcel is, on the rest of
	// its line.
	var out [][]string
	parcelNouns.EachAt(low, func(_, end int) bool {
		// The word (a dozen letters at most) and the number right after
		// it (34 at most), on the word's line.
		start, stop := max(0, end-24), min(len(text), end+48)
		if i := strings.LastIndexByte(text[start:end], '\n'); i >= 0 {
			start += i + 1
		}
		if i := strings.IndexByte(text[end:stop], '\n'); i >= 0 {
			stop = end + i
		}
		for start > 0 && !utf8.RuneStart(text[start]) {
			start++
		}
		for stop < len(text) && !utf8.RuneStart(text[stop]) {
			stop++
		}
		if digitCount(text[end:stop]) >= 6 {
			out = append(out, parcelNounRE.FindAllStringSubmatch(text[start:stop], 4)...)
		}
		return len(out) < 8
	})
	return out
}

// compactCode is a code without the spaces and dashes it is printed with.
func compactCode(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, s)
}

// letterScanInURL says whether the number at i in line is a link's value
// under a letter scan's key ("…?token=ef34gh&mailpiece=590011223344"): a
// client's plain-text rendering writes a link's address after its words
// ("View mail piece <https://…>"), and the link reader's rule
// (letterScanKey) holds for the text too: an envelope's scan tracks
// nothing.
func letterScanInURL(line string, i int) bool {
	if i == 0 || line[i-1] != '=' || !strings.Contains(line[:i], "://") {
		return false
	}
	key := line[:i-1]
	key = key[max(strings.LastIndexAny(key, "?&;"), strings.LastIndexAny(key, " \t<"))+1:]
	return letterScanKey(strings.ToLower(key))
}
