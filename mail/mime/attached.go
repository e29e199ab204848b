package mime

import (
	"strings"
	"time"
)

// AttachedText is the text of the mails attached to m whole (Attached,
// and theirs), each under the lines a mail client shows above a forwarded
// mail, for reading and search; "" when none is. The store keeps it after
// the message's own text, so that a booking forwarded as an attachment
// can be found and quoted as one forwarded inline can. The extractors do
// not read it: they read Attached as forwarded originals, whose sender
// stays apart from the forwarder's.
func (m *Message) AttachedText() string {
	if len(m.Attached) == 0 {
		return ""
	}
	var b strings.Builder
	m.writeAttached(&b)
	return truncate(b.String(), maxTextBytes)
}

func (m *Message) writeAttached(b *strings.Builder) {
	for _, a := range m.Attached {
		b.WriteString("\n\n---------- Attached message ----------\n")
		if len(a.From) > 0 {
			b.WriteString("From: " + a.From[0].String() + "\n")
		}
		if !a.Date.IsZero() {
			b.WriteString("Date: " + a.Date.Format(time.RFC1123Z) + "\n")
		}
		if a.Subject != "" {
			b.WriteString("Subject: " + a.Subject + "\n")
		}
		text := a.Text
		if text == "" {
			text = a.HTMLText
		}
		b.WriteString("\n" + text)
		a.writeAttached(b)
	}
}
