package extract

import (
	"mailnode/extract/lang"
)

// References after their labels: a booking's, a ticket's, any code
// after a label set (codeAfter).

// codeAfter is the first code of orderNumRE's form after one of labels,
// or "".
func (c *msgContext) codeAfter(labels labelSet, text string) string {
	for _, v := range c.after(labels, text) {
		if m := orderNumRE.FindStringSubmatch(v); m != nil && !masked(m[1]) {
			return m[1]
		}
	}
	return ""
}

// ticketLabels head a ticket's own code (ticket.code in extract/lang/data).
var ticketLabels = numericLabels(lang.Entries("ticket.code")...)

// ticketCode is the code after a ticket's label, or "".
func (c *msgContext) ticketCode(text string) string { return c.codeAfter(ticketLabels, text) }
