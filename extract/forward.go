package extract

import (
	"net/mail"
	"regexp"
	"slices"
	"strings"
)

// Users forward order and booking mails to themselves, or to the address
// the node syncs. The facts of a forwarded mail belong to its original
// sender (the shop, not the user), but that sender is only claimed by the
// forwarded text: anyone can type "From: Amazon.com". Such facts are
// marked FromForwarded, and the merge never counts them as authenticated,
// whatever the outer message's authentication says.

// appleMarkers are Apple Mail's "Begin forwarded message" in the languages
// it writes, lower case, each alone on its line before a colon.
var appleMarkers = []string{"begin forwarded message", "anfang der weitergeleiteten nachricht", "début du message réexpédié",
	"inicio del mensaje reenviado", "inizio messaggio inoltrato", "begin doorgestuurd bericht", "vidarebefordrat brev",
	"start på videresendt besked", "videresendt melding", "início da mensagem encaminhada", "início da mensagem reencaminhada",
	"välitetty viesti alkaa", "początek przekazywanej wiadomości", "začátek přeposlané zprávy"}

// fromLabels are the sender's label of a forward's header block.
var fromLabels = []string{"from", "von", "de", "da", "van", "från", "fra", "od", "lähettäjä", "remetente"}

var (
	// forwardMarkerRE opens the quoted original in the forms mail clients
	// write: Gmail's and Thunderbird's dashed "Forwarded message", Outlook's
	// dashed "Original Message" and its rule of underscores, Apple Mail's
	// "Begin forwarded message:", each in the languages the clients speak.
	forwardMarkerRE = regexp.MustCompile(`(?im)^[>\s]*(?:(?:` + strings.Join(quoteAll(appleMarkers), "|") + `)\s*:|` +
		`-{3,}\s*(?:forwarded message|original message|weitergeleitete nachricht|ursprüngliche nachricht|message transféré|message d'origine|` +
		`mensaje reenviado|mensaje original|messaggio inoltrato|messaggio originale|doorgestuurd bericht|oorspronkelijk bericht|` +
		`vidarebefordrat meddelande|ursprungligt meddelande|videresendt (?:meddelelse|melding)|oprindelig meddelelse|opprinnelig melding|` +
		`mensagem encaminhada|mensagem original|välitetty viesti|alkuperäinen viesti|wiadomość przekazana dalej|wiadomość oryginalna|` +
		`přeposlaná zpráva|původní zpráva)\s*-{3,}|` +
		`_{10,})\s*$`)
	forwardFromRE = regexp.MustCompile(`(?im)^[>\s]*(?:` + strings.Join(fromLabels, "|") + `)\s*:\s*(.+)$`)
	quotePrefixRE = regexp.MustCompile(`(?m)^(?:>[ \t]?)+`)
)

// forwardGate tells text that may hold a forward marker, so that most
// mail is passed over without the (slow, case-folding) expressions: every
// dashed marker holds "---", and every header block a sender's line with
// an address, looked at only where an "@" is.
func forwardGate(text string) bool {
	if strings.Contains(text, "---") || strings.Contains(text, "orwarded") || strings.Contains(text, "ORWARDED") {
		return true
	}
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '@')
		if j < 0 {
			return false
		}
		at := i + j
		from := max(0, at-120) // a sender's line is short: no scan back over a long one
		if k := strings.LastIndexByte(text[from:at], '\n'); k >= 0 || from == 0 {
			line := strings.TrimLeft(text[from+k+1:at], "> \t")
			if label, _, ok := strings.Cut(line, ":"); ok && len(label) <= 12 {
				label = strings.TrimSpace(label)
				if slices.ContainsFunc(fromLabels, func(l string) bool { return strings.EqualFold(label, l) }) {
					return true
				}
			}
		}
		i = at + 1
	}
}

// forwarded finds a forwarded original in text: its sender, and its text
// after the header block the client wrote (From, Sent, To, Subject: a
// "Sent"'s word is a shipment's in half the languages, a Date line no
// date of the booking), quote marks taken away. ok is false when the text
// forwards nothing or names no sender within the header lines.
func forwarded(text string) (from *mail.Address, body string, ok bool) {
	if !forwardGate(text) {
		return nil, "", false
	}
	loc := forwardMarkerRE.FindStringIndex(text)
	if loc == nil {
		return nil, "", false
	}
	rest := strings.TrimLeft(quotePrefixRE.ReplaceAllString(text[loc[1]:], ""), "\r\n")
	head := firstLines(rest, 8)
	m := forwardFromRE.FindStringSubmatchIndex(head)
	if m == nil {
		return nil, "", false
	}
	a, err := mail.ParseAddress(strings.TrimSpace(head[m[2]:m[3]]))
	if err != nil || !strings.Contains(a.Address, "@") {
		return nil, "", false
	}
	return a, afterHeaderBlock(rest, m[1]), true
}

// afterHeaderBlock is rest after the header block whose sender line ends
// at from: from the first blank line within the next few lines on, or
// rest whole when there is none.
func afterHeaderBlock(rest string, from int) string {
	i := from
	for k := 0; k < 8 && i < len(rest); k++ {
		j := strings.IndexByte(rest[i+1:], '\n')
		if j < 0 {
			break
		}
		line := rest[i+1 : i+1+j]
		i += 1 + j
		if strings.TrimSpace(line) == "" {
			return rest[i+1:]
		}
	}
	return rest
}

// asForwarded makes c speak for the forwarded original's claimed sender:
// its domain and name, and no authentication.
func (c *msgContext) asForwarded(from *mail.Address) {
	c.setSender(from.Address, from.Name)
	c.authenticated = false
}
