package extract_test

import (
	"strings"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// mailFacts are the facts of a plain-text mail from "Name <address>"
// (or a bare address), sent at date, as the table tests read one.
func mailFacts(from, subject, text string, date time.Time) []extract.Fact {
	name, addr, ok := strings.Cut(strings.TrimSuffix(from, ">"), " <")
	if !ok {
		name, addr = "", from
	}
	msg := &mime.Message{From: []mime.Address{{Name: name, Address: addr}}, Subject: subject, Text: text, Date: date}
	return extract.Extract(msg, msgauth.Verdict{}).Facts
}
