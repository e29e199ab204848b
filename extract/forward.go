package extract

import (
	"net/mail"
	"regexp"
	"slices"
	"strings"

	"mailnode/extract/words"
	"mailnode/mail/mime"
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

// forwarded finds a forwarded or quoted original in text: its claimed
// sender, and its text after the header block the client wrote (From,
// Sent, To, Subject: a "Sent"'s word is a shipment's in half the
// languages, a Date line no date of the booking) or after a reply's
// attribution line ("On …, Shop <addr> wrote:", whose date is the
// reply's), quote marks taken away. ok is false when the text forwards
// and quotes nothing, or names no sender with an address.
//
// Most mail is passed over without the (slow, case-folding) expressions:
// a marker is looked for only on the lines that can be one (markerLoc),
// an attribution only on a line with an "@".
func forwarded(text string) (from *mail.Address, own, body string, ok bool) {
	if from, body, ok := markedForward(text); ok {
		return from, "", body, true
	}
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '@')
		if j < 0 {
			return nil, "", "", false
		}
		at := i + j
		i = at + 1
		start := max(0, at-160) // an attribution is short: no scan back or ahead over a long line
		k := strings.LastIndexByte(text[start:at], '\n')
		if k < 0 && start > 0 {
			continue
		}
		start += k + 1
		end := len(text)
		if e := strings.IndexByte(text[at:min(len(text), at+160)], '\n'); e >= 0 {
			end = at + e
		} else if at+160 < len(text) {
			continue
		}
		if a, ok := attribution(strings.TrimSpace(strings.TrimLeft(text[start:end], "> \t"))); ok {
			return a, text[:start], quotePrefixRE.ReplaceAllString(text[end:], ""), true
		}
	}
}

// markerLoc is where forwardMarkerRE first matches text, looked for
// only on the lines a marker can be (one starting with a dash or an
// underscore, or ending in a colon, after quote marks), so that the
// case-folding expression never runs over a whole mail.
func markerLoc(text string) []int {
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := text[start:end]
		if t := strings.TrimRight(strings.TrimLeft(line, "> \t"), " \t\r"); t != "" && len(t) < 200 &&
			(t[0] == '-' || t[0] == '_' || t[len(t)-1] == ':') {
			if loc := forwardMarkerRE.FindStringIndex(line); loc != nil {
				return []int{start + loc[0], start + loc[1]}
			}
		}
		start = end + 1
	}
	return nil
}

// markedForward is forwarded for a text with a client's forward marker.
func markedForward(text string) (from *mail.Address, body string, ok bool) {
	from, body, ok = markedOnce(text)
	// A forward of a forward (a booking a partner forwarded, forwarded
	// on) is its innermost original's.
	for depth := 0; ok && depth < 3; depth++ {
		f, b, again := markedOnce(body)
		if !again {
			break
		}
		from, body = f, b
	}
	return from, body, ok
}

func markedOnce(text string) (from *mail.Address, body string, ok bool) {
	loc := markerLoc(text)
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

// attributionVerbs are a reply's "wrote" in the clients' languages.
var attributionVerbs = []string{"wrote", "schrieb", "a écrit", "escribió", "ha scritto", "schreef", "skrev", "napsal", "napisał",
	"kirjoitti", "escreveu"}

// attribution reads a reply's attribution line: one ending in a colon,
// with a verb of attributionVerbs and a sender's <address> ("On Mon, 1
// Mar 2027 at 09:00, Shop <orders@shop.example> wrote:", "Am … schrieb
// Shop <…>:"). The name is the words before the address after the last
// one with a digit, a clock's word or the verb, else none.
func attribution(line string) (*mail.Address, bool) {
	if !strings.HasSuffix(line, ":") || len(line) > 240 {
		return nil, false
	}
	lt, gt := strings.LastIndexByte(line, '<'), strings.LastIndexByte(line, '>')
	if lt < 0 || gt < lt || !strings.Contains(line[lt:gt], "@") {
		return nil, false
	}
	lower := strings.ToLower(line)
	if !slices.ContainsFunc(attributionVerbs, func(v string) bool { return strings.Contains(lower, v) }) {
		return nil, false
	}
	a, err := mail.ParseAddress(line[lt : gt+1])
	if err != nil {
		return nil, false
	}
	words := strings.Fields(strings.TrimRight(line[:lt], " ("))
	n := len(words)
	for n > 0 {
		w := strings.ToLower(strings.Trim(words[n-1], ",()"))
		if strings.ContainsAny(w, "0123456789") || slices.Contains(attributionClockWords, w) ||
			slices.ContainsFunc(attributionVerbs, func(v string) bool { return v == w || strings.HasSuffix(v, " "+w) }) {
			break
		}
		n--
	}
	a.Name = strings.Trim(strings.Join(words[n:], " "), " ,()\"")
	return a, true
}

// attributionClockWords end an attribution's date before the sender's name.
var attributionClockWords = []string{"am", "pm", "uhr", "h", "at", "um", "à", "alle", "ore", "om", "kl", "kl.", "a", "las", "às"}

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

// readText is the text a forward is looked for in: the plain text, else
// the HTML's.
func readText(m *mime.Message) string {
	if strings.TrimSpace(m.Text) == "" {
		return m.HTMLText
	}
	return m.Text
}

// forwardOf reports whether m passes on another's mail, so that its
// markup, calendars and attachments may be another's: its text is a
// forward or a quoted reply (from is the original's sender), or, with
// from nil (no sender named), its subject says it forwards or replies
// ("Fwd:", "AW:", "VB:", "Re:"), its HTML holds a mail client's quote
// (a blockquote, Gmail's, Outlook's, Thunderbird's or Yahoo's quoted
// block) or its text lines quoted with ">". Wider than the text readers'
// forward, which must find where the original starts: here a miss would
// let a stranger's markup pass for the forwarder's own, verified (the
// second outside review of 2026-11-28 got nine client layouts through
// the first version), while a false alarm only leaves a fact unverified.
func forwardOf(m *mime.Message) (from *mail.Address, ok bool) {
	text := readText(m)
	if from, _, _, ok := forwarded(text); ok {
		return from, true
	}
	if fwdPrefixRE.MatchString(m.Subject) || replyPrefixRE.MatchString(m.Subject) {
		return nil, true
	}
	for _, h := range m.HTML {
		if quoteMarkup.Any(strings.ToLower(h)) {
			return nil, true
		}
	}
	return nil, strings.HasPrefix(text, ">") || strings.Contains(text, "\n>")
}

// replyPrefixRE is a reply's subject prefix, in the languages mail
// clients write it: "Re:", "AW:", "SV:", "VS:", "Odp:", "Antw:", "RES:",
// "R:", "VL:", "ENC:", "PD:", "VB:", "YNT:", "Ref:".
var replyPrefixRE = regexp.MustCompile(`(?i)^\s*(?:re|aw|sv|vs|vl|odp|antw|res|r|enc|pd|vb|ynt|ref)\s*(?:\[\d+\])?\s*:`)

// quoteMarkup are the marks mail clients put on the quoted original in
// a reply's or forward's HTML.
var quoteMarkup = words.NewSet([]string{"<blockquote", "gmail_quote", "divrplyfwdmsg", "moz-cite-prefix", "olk_src_body_section", "yahoo_quoted", "appendonsend", "mail-quote"})
