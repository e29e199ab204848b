package extract

import "strings"

// A ticket sent as a text message or printed for a phone's screen opens
// with its code alone on the first line, no label before it ("1NBNYMU-0"
// over "1 Ungdom den 14 oktober 2011" / "Linje 830" / the stops; a
// coach's or a regional train's ticket). The code is the booking's only
// name: a coach's legs, which are kept only with a booking's code, were
// lost.

// headCode is the code alone on the text's first line that is not blank:
// one word of capitals and digits, six to twenty of them, a dash or two
// allowed inside, a capital and two digits at least (digits alone are as
// often a phone's, a customer's or a parcel's number), that is no train's
// or bus's number the text names (serviceCode), no date and no clock. "" when the line holds anything
// else: a greeting, a heading, a label.
func headCode(text string) string {
	ln := ""
	for l := range strings.Lines(text) {
		if ln = strings.TrimSpace(l); ln != "" {
			break
		}
	}
	if len(ln) < 6 || len(ln) > 20 || ln[0] == '-' || ln[len(ln)-1] == '-' {
		return ""
	}
	dashes, letters := 0, 0
	for i := 0; i < len(ln); i++ {
		switch b := ln[i]; {
		case b >= 'A' && b <= 'Z':
			letters++
		case isDigitByte(b):
		case b == '-' && ln[i-1] != '-':
			dashes++
		default:
			return ""
		}
	}
	if dashes > 2 || letters == 0 || !codeShaped(ln) || hasClockShape(ln, ":") || len(findDates(ln, false)) > 0 {
		return ""
	}
	// A word and a number ("SUMMER25", "VAR2027") is a promotion's code
	// as often; a drawn code mixes them otherwise.
	if k := strings.IndexFunc(ln, func(r rune) bool { return r < 'A' || r > 'Z' }); k >= 3 && strings.Trim(ln[k:], "0123456789") == "" {
		return ""
	}
	if serviceCode(ln, serviceNumbers(text)) {
		return ""
	}
	return ln
}
