package trust

import (
	_ "embed"
	"regexp"
	"strings"
	"sync"

	"mailnode/mail/mime"
	"mailnode/mail/store"
)

//go:embed relays.txt
var relayList string

// relayAddrs are relays.txt's patterns, each compiled.
var relayAddrs = sync.OnceValue(func() []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, line := range strings.Split(relayList, "\n") {
		line = strings.ToLower(strings.TrimSpace(line))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		local, host, _ := strings.Cut(line, "@")
		q := func(s string) string { return strings.ReplaceAll(regexp.QuoteMeta(s), `\*`, `[^@]*`) }
		pat := "^" + q(local) + "@"
		if label, ok := strings.CutSuffix(host, ".*"); ok {
			pat += regexp.QuoteMeta(label) + `\.[a-z.]+$`
		} else {
			pat += q(host) + "$"
		}
		out = append(out, regexp.MustCompile(pat))
	}
	return out
})

// viaName is a From display name that names its writer "via" the service
// that mails it: "Mallory via Canva", "Mallory (via Google Drive)", and
// the words the services write in other languages, in parentheses
// ("(über Google Drive)", "(tramite Dropbox)", "(a través de Box)").
var viaName = regexp.MustCompile(`(?i)\S\s+(?:via\s+\S.*|\((?:via|über|uber|tramite|par l'intermédiaire de|a través de|por meio d[eo]|através d[eo]|przez|prostřednictvím|genom|gennem|gjennom|kautta)\s+[^)]+\))\s*$`)

// relaySubject is a subject that says the mail carries a stranger's
// words: a marketplace seller's message, a money request through a
// payment service (a bank's "requested $212.50 with Zelle"), a gift card
// with its giver's message.
var relaySubject = regexp.MustCompile(`(?i)\bmessage from (?:the )?seller\b|` +
	`\brequest(?:ed|s|ing)?\b.{0,60}\b(?:with|via|through|using|on|per|mit|con|avec|med)\s+(?:zelle|venmo|cash app|bizum|swish|vipps|mobilepay|twint|blik|interac|paylib|payconiq|satispay|wero)\b|` +
	`\b(?:money|payment) request from\b|\bsent you a (?:money|payment) request\b|` +
	`\bsent you an? .{0,40}\b(?:gift ?card|e-?gift)\b`)

// relaySubjectMatch is relaySubject.MatchString, after a test of the words
// every alternative holds ("seller", "request", "gift"): the expression took
// 6 µs a subject, about 1 % of a sync's CPU, for subjects it never matches. The
// letters tested fold only to their ASCII capitals, as the expression's
// (?i) folds them ("ſ" folds to "s", so "seller" is tested by "eller").
func relaySubjectMatch(subject string) bool {
	if !containsFoldASCII(subject, "eller") && !containsFoldASCII(subject, "reque") && !containsFoldASCII(subject, "gift") {
		return false
	}
	return relaySubject.MatchString(subject)
}

// containsFoldASCII reports whether s holds sub, a lower-case ASCII word,
// in any mix of ASCII cases.
func containsFoldASCII(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && s[i+j]|0x20 == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

// Relayed reports whether message m shows that it relays another
// writer's words under the domain of its From: a display name that names
// a writer "via" the service, a mailing list's post (a List-Post field; a
// List-Id one beside a Reply-To elsewhere), a Reply-To or Sender address
// at a free-mail provider's domain other than the From's (the writer's own
// address behind a form's, a share's, an invitation's notice), a From
// address of relays.txt, or a subject of such a relay (relaySubject).
// Such a message is a sender of its own, never trusted (Trusted,
// SenderKey): its words are its writer's, not the domain's. The tenth
// outside review (2026-11-29, HIGH-2) had strangers' invoices through
// Google Drive, Dropbox, Box and Canva shares, a list post, a Calendar
// invitation and a bank's Zelle request read as trusted bills and trips,
// and an Amazon seller's message cancel the person's Amazon order.
//
// A Reply-To or Sender at another company's domain is no sign alone: a
// company's own mail names its help desk's or its mailing service's
// address there, and splitting it from the rest of that company's mail
// would part a booking from its own cancellation.
func Relayed(m *mime.Message) bool { return relayedBy(m) != notRelayed }

// RelayedByReply reports whether message m is Relayed only by a Reply-To
// or Sender address at a free-mail provider: the one sign a small shop's
// own mail also shows (a shop on its own domain that answers from its
// owner's Gmail). Such a message is still a sender of its own and never
// trusted, but what it says of orders stands under that message alone
// (extract/facts), where the stronger signs (a "via" name, a relay's
// address, a list post, a relay's subject) drop it.
func RelayedByReply(m *mime.Message) bool { return relayedBy(m) == byReply }

// How a message shows that it relays another writer's words.
const (
	notRelayed = iota
	byShape    // a "via" name, a relay's address, a list post or subject
	byReply    // a Reply-To or Sender at a free-mail provider, alone
)

func relayedBy(m *mime.Message) int {
	if len(m.From) == 0 {
		return notRelayed
	}
	from := m.From[0]
	if viaName.MatchString(from.Name) {
		return byShape
	}
	addr := strings.ToLower(from.Address)
	for _, re := range relayAddrs() {
		if re.MatchString(addr) {
			return byShape
		}
	}
	if m.ListPost != "" {
		return byShape
	}
	if relaySubjectMatch(m.Subject) {
		return byShape
	}
	fromOrg := store.OrgDomain(addr)
	elsewhere, personal := false, false
	// At a free-mail provider the address is the sender already.
	for _, as := range [][]mime.Address{m.ReplyTo, m.Sender} {
		if FreeMail(fromOrg) {
			break
		}
		for _, a := range as {
			d := store.OrgDomain(a.Address)
			if d == "" || d == fromOrg {
				continue
			}
			// A person's mailbox, not a help desk's (zendesk.com is
			// shared, and a shop's Reply-To there is the shop's).
			personal = personal || freeMail().has(d)
			elsewhere = true
		}
	}
	switch {
	case m.ListID != "" && elsewhere:
		return byShape
	case personal:
		return byReply
	}
	return notRelayed
}
