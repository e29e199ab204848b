package extract

import (
	"net/mail"
	"regexp"
	"strings"
)

// Users forward order and booking mails to themselves, or to the address
// the node syncs. The facts of a forwarded mail belong to its original
// sender (the shop, not the user), but that sender is only claimed by the
// forwarded text: anyone can type "From: Amazon.com". Such facts are
// marked FromForwarded, and the merge never counts them as authenticated,
// whatever the outer message's authentication says.

var (
	// forwardMarkers open the quoted original in the forms mail clients
	// write: Apple Mail, Gmail, Thunderbird, Outlook, in several languages.
	forwardMarkerRE = regexp.MustCompile(`(?im)^[>\s]*(?:begin forwarded message:|-{3,}\s*(?:forwarded message|original message|weitergeleitete nachricht|ursprüngliche nachricht|message transféré|message d'origine|mensaje reenviado|messaggio inoltrato|doorgestuurd bericht)\s*-{3,})\s*$`)
	forwardFromRE   = regexp.MustCompile(`(?im)^[>\s]*(?:from|von|de|da|van)\s*:\s*(.+)$`)
	quotePrefixRE   = regexp.MustCompile(`(?m)^(?:>[ \t]?)+`)
)

// forwarded finds a forwarded original in text: its sender, and its text
// from the marker on with quote marks taken away. ok is false when the
// text forwards nothing or names no sender within the header lines.
func forwarded(text string) (from *mail.Address, body string, ok bool) {
	// Every marker holds "---" or "begin forwarded message": most mail
	// is passed over without the (slow, case-folding) expression.
	if !strings.Contains(text, "---") && !strings.Contains(text, "orwarded") && !strings.Contains(text, "ORWARDED") {
		return nil, "", false
	}
	loc := forwardMarkerRE.FindStringIndex(text)
	if loc == nil {
		return nil, "", false
	}
	rest := quotePrefixRE.ReplaceAllString(text[loc[1]:], "")
	head := firstLines(strings.TrimLeft(rest, "\r\n"), 8)
	m := forwardFromRE.FindStringSubmatch(head)
	if m == nil {
		return nil, "", false
	}
	a, err := mail.ParseAddress(strings.TrimSpace(m[1]))
	if err != nil || !strings.Contains(a.Address, "@") {
		return nil, "", false
	}
	return a, rest, true
}

// asForwarded makes c speak for the forwarded original's claimed sender:
// its domain and name, and no authentication.
func (c *msgContext) asForwarded(from *mail.Address) {
	c.setSender(from.Address, from.Name)
	c.authenticated = false
}
