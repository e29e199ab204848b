package extract

import (
	"regexp"
	"strings"

	"mailnode/extract/places"
)

// printedCode is the airport's code a mail prints beside a stop's name
// elsewhere in its text, when the name alone means no one airport
// ("Valencia": Spain's or Venezuela's): a leg's line reads "Ankunft 09:40
// Uhr Valencia", the booking's route "Köln-Bonn ( CGN ) - Valencia ( VLC
// )". The code in parentheses right after the same name, one the places
// tables say serves it (places.Serves); two different codes beside the
// name give none. "" when the mail prints none.
func (c *msgContext) printedCode(name string) string {
	name = strings.TrimSpace(name)
	if len(name) < 3 || len(name) > 40 || c.langText == "" {
		return ""
	}
	key := c.langText
	if c.printedFor != key {
		c.printedFor, c.printed = key, map[string]string{}
	}
	if code, ok := c.printed[name]; ok {
		return code
	}
	code := ""
	if strings.Contains(key, "(") {
		re, err := regexp.Compile(`(?i)(?:^|[^\p{L}])` + regexp.QuoteMeta(name) + `[ \t]*\([ \t]*([A-Z]{3})[ \t]*\)`)
		if err == nil {
			for _, m := range re.FindAllStringSubmatch(key, 8) {
				w := m[1]
				if !places.Known(w) || !places.Serves(name, w) || code != "" && code != w {
					code = ""
					break
				}
				code = w
			}
		}
	}
	c.printed[name] = code
	return code
}
