package redact

import "regexp"

// Placeholders for Contacts.
const (
	Address = "[address]"
	Phone   = "[phone]"
)

// Contacts returns s with e-mail addresses and phone numbers replaced by
// placeholders, on top of Text. It is for text from a sender whose domain
// could not be authenticated: whoever wrote it may be anyone, and an
// answer must not hand an agent a look-alike's address or number to
// contact (a phishing mail's "call us at", "reply to").
func Contacts(s string) string {
	s = Text(s)
	s = emailRE.ReplaceAllString(s, Address)
	return phoneRE.ReplaceAllStringFunc(s, func(m string) string {
		digits := 0
		for i := 0; i < len(m); i++ {
			if m[i] >= '0' && m[i] <= '9' {
				digits++
			}
		}
		if digits < 7 || dateLikeRE.MatchString(m) {
			return m // an amount, a date, a short reference
		}
		return Phone
	})
}

var (
	emailRE = regexp.MustCompile(`(?i)[a-z0-9._%+\-]+(?:@|\s?\[at\]\s?|\s\(at\)\s)[a-z0-9.\-]+\.[a-z]{2,24}`)
	// A phone number: an optional + or 00 and a country code, then digits
	// in groups separated by spaces, dots, dashes, slashes or parentheses.
	phoneRE    = regexp.MustCompile(`(?:\+|\b00)?\(?\d[\d ().\-/]{5,}\d\b`)
	dateLikeRE = regexp.MustCompile(`^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$`)
)
