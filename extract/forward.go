package extract

import (
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lazyregexp"
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
	forwardMarkerRE = lazyregexp.New(`(?im)^[>\s]*(?:(?:` + strings.Join(quoteAll(appleMarkers), "|") + `)\s*:|` +
		`-{3,}\s*(?:forwarded message|original message|weitergeleitete nachricht|ursprüngliche nachricht|message transféré|message d'origine|` +
		`mensaje reenviado|mensaje original|messaggio inoltrato|messaggio originale|doorgestuurd bericht|oorspronkelijk bericht|` +
		`vidarebefordrat meddelande|ursprungligt meddelande|videresendt (?:meddelelse|melding)|oprindelig meddelelse|opprinnelig melding|` +
		`mensagem encaminhada|mensagem original|välitetty viesti|alkuperäinen viesti|wiadomość przekazana dalej|wiadomość oryginalna|` +
		`přeposlaná zpráva|původní zpráva)\s*-{3,}|` +
		`_{10,})\s*$`)
	forwardFromRE = lazyregexp.New(`(?im)^[>\s]*(?:` + strings.Join(fromLabels, "|") + `)\s*:\s*(.+)$`)
	quotePrefixRE = lazyregexp.New(`(?m)^(?:>[ \t]?)+`)
	// quoteOnceRE is one level of quote marks: an original's own quotes
	// (a reply quoted in a reply) stay for its own attribution.
	quoteOnceRE = lazyregexp.New(`(?m)^[ \t]*>[ \t]?`)
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
	from, own, _, body, ok = forwardedHead(text)
	return from, own, body, ok
}

// forwardedHead is forwarded with the original's head: the header block
// or the attribution that names its sender (and its date).
func forwardedHead(text string) (from *mail.Address, own, head, body string, ok bool) {
	if from, head, body, ok := markedForward(text); ok {
		// A marker quoted under a reply's attribution ("On … wrote:"
		// over "> -----Original Message-----") whose sender is the
		// original's too: the replied-to mail is that sender's reply over
		// its own earlier mail, read one level down (ownOverOriginal).
		if loc := markerLoc(text); loc != nil && strings.HasPrefix(strings.TrimLeft(text[loc[0]:loc[1]], " \t"), ">") {
			if a, own, h, b, ok := attributed(text, loc[0], false); ok && sameDomain(a.Address, from.Address) {
				return a, own, h, b, true
			}
		}
		return from, "", head, body, true
	}
	if a, own, h, b, ok := attributed(text, len(text), true); ok {
		return a, own, h, b, true
	}
	return namedAttribution(text)
}

// attributed finds a reply's attribution line with a sender's address
// that starts before limit, or (blocks) a forward's header block: the
// original's sender, the reply's own words above, the head and the body.
func attributed(text string, limit int, blocks bool) (from *mail.Address, own, head, body string, ok bool) {
	for i := 0; i < limit; {
		j := strings.IndexByte(text[i:], '@')
		if j < 0 {
			break
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
		if start >= limit {
			break
		}
		if a, s, e, ok := wrappedAttribution(text, start, end); ok {
			return a, text[:s], text[s:e], quoteOnceRE.ReplaceAllString(text[e:], ""), true
		}
		if !blocks {
			continue
		}
		if a, head, body, ok := headerBlock(text, start, end); ok {
			return a, "", head, body, true
		}
	}
	return nil, "", "", "", false
}

// namedAttribution finds a reply's attribution that names its sender
// without an address, over the first block of lines quoted with ">"
// (Thunderbird's "On 03.06.27 10:14, Hotel Lumen wrote:", "Am 03.06.27
// um 10:14 schrieb Hotel Lumen:"): the original's sender is a name
// alone, and its text is what the quote marks hold.
func namedAttribution(text string) (from *mail.Address, own, head, body string, ok bool) {
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], "\n>")
		if j < 0 {
			return nil, "", "", "", false
		}
		q := i + j + 1 // a quoted line's start
		i = q
		// The attribution is the line above the quote, or above a blank
		// line over it; a short one.
		e := q - 1
		for b := 0; b < 2 && e > 0; b++ {
			s := strings.LastIndexByte(text[max(0, e-241):e], '\n')
			if s < 0 && e > 241 {
				break
			}
			s += max(0, e-241) + 1
			line := strings.TrimSpace(text[s:e])
			if line == "" {
				e = s - 1
				continue
			}
			if strings.HasPrefix(line, ">") {
				break // inside a quote: not its start
			}
			if a, ok := namedLine(line); ok {
				return a, text[:s], line, quoteOnceRE.ReplaceAllString(text[q:], ""), true
			}
			break
		}
	}
	return nil, "", "", "", false
}

// namedLine reads an attribution line without an address in angle
// brackets: it ends in a colon, holds a clock ("10:14", "10.14") and a verb of
// attributionVerbs, and the sender is the words after the verb ("…
// schrieb Hotel Lumen:") or, when those are none or hold a digit
// ("Hotel Lumen kirjoitti 3.6.2027 klo 10.14:"), the words before it
// back to the last with a digit, a clock's word or a comma ("On
// 03.06.27 10:14, Hotel Lumen wrote:"). A sender that is an address
// alone ("…, res@lumen.example wrote:") is that address.
func namedLine(line string) (*mail.Address, bool) {
	if !strings.HasSuffix(line, ":") || len(line) > 240 || !strings.ContainsAny(line, "0123456789") ||
		strings.ContainsAny(line, "<>") {
		return nil, false
	}
	words := strings.Fields(strings.TrimSuffix(line, ":"))
	if !slices.ContainsFunc(words, attributionClock) {
		return nil, false
	}
	at, n := -1, 0
	for i := 0; i < len(words) && at < 0; i++ {
		for _, v := range attributionVerbs {
			vw := strings.Fields(v)
			if i+len(vw) <= len(words) && strings.EqualFold(strings.Join(words[i:i+len(vw)], " "), v) ||
				len(vw) == 1 && strings.EqualFold(strings.TrimSuffix(words[i], "(a)"), v) {
				at, n = i, len(vw)
				break
			}
		}
	}
	if at < 0 {
		return nil, false
	}
	name := words[at+n:]
	if len(name) == 0 || slices.ContainsFunc(name, hasDigit) {
		k := at
		for k > 0 {
			w := strings.ToLower(words[k-1])
			if strings.ContainsAny(w, "0123456789,") || slices.Contains(attributionClockWords, w) {
				break
			}
			k--
		}
		name = words[k:at]
	}
	if len(name) == 0 || len(name) > 6 {
		return nil, false
	}
	if len(name) == 1 && strings.Contains(name[0], "@") {
		a, err := mail.ParseAddress(strings.Trim(name[0], ",()"))
		if err != nil {
			return nil, false
		}
		return a, true
	}
	// A name starts with a capital: "we wrote:" is a sentence's.
	if r, _ := utf8.DecodeRuneInString(name[0]); !unicode.IsUpper(r) ||
		slices.ContainsFunc(name, func(w string) bool { return strings.Contains(w, "@") }) {
		return nil, false
	}
	return &mail.Address{Name: nameOf(name)}, true
}

// attributionClock reports whether w is a clock, "10:14" or "10.14" (a
// trailing comma aside).
func attributionClock(w string) bool {
	w = strings.TrimRight(w, ",")
	k := strings.IndexAny(w, ":.")
	if k < 1 || k > 2 || len(w)-k-1 < 2 {
		return false
	}
	return strings.Trim(w[:k], "0123456789") == "" && strings.Trim(w[k+1:k+3], "0123456789") == "" &&
		(len(w) == k+3 || w[k+3] == ':')
}

// nameOf joins an attribution's name words, without their punctuation.
func nameOf(words []string) string {
	return strings.Trim(strings.Join(words, " "), " ,()\"")
}

// wrappedAttribution reads the attribution on text's line start:end, or
// on that line and the one before or after it: Gmail's plain text wraps
// a long attribution at the sender's address ("On Mon, 3 Jun 2027 at
// 10:14, Hotel Lumen <\nres@lumen.example> wrote:") or before its verb
// ("… <res@lumen.example>\nwrote:"). s and e are where the attribution's
// lines start and end.
func wrappedAttribution(text string, start, end int) (a *mail.Address, s, e int, ok bool) {
	line := quoteLine(text[start:end])
	if a, ok := attribution(line); ok {
		return a, start, end, true
	}
	if start > 0 {
		lo := max(0, start-1-160)
		if k := strings.LastIndexByte(text[lo:start-1], '\n'); strings.HasSuffix(line, ":") && (k >= 0 || lo == 0) {
			ps := lo + k + 1
			if prev := quoteLine(text[ps : start-1]); prev != "" {
				sep := " "
				if strings.HasSuffix(prev, "<") {
					sep = ""
				}
				if a, ok := attribution(prev + sep + line); ok {
					return a, ps, end, true
				}
			}
		}
	}
	if end < len(text) {
		hi := min(len(text), end+1+160)
		k := strings.IndexByte(text[end+1:hi], '\n')
		if k >= 0 || hi == len(text) {
			ne := hi
			if k >= 0 {
				ne = end + 1 + k
			}
			if next := quoteLine(text[end+1 : ne]); strings.HasSuffix(next, ":") {
				if a, ok := attribution(line + " " + next); ok {
					return a, start, ne, true
				}
			}
		}
	}
	return nil, 0, 0, false
}

// headerBlock reads a forward's header block that no marker opens, on
// text's line start:end: Outlook's HTML draws its rule as a line, not
// words, so the text of the HTML shows only "From: Shop <addr>", "Sent:
// …", "To: …", "Subject: …". The line must give a sender's label and
// an address, and the lines about it (up to a blank one) a subject's
// and a date's label; the body is what follows the blank line after
// them.
func headerBlock(text string, start, end int) (from *mail.Address, head, body string, ok bool) {
	label, value, ok := headerLine(text[start:end])
	if !ok || !slices.Contains(fromLabels, label) {
		return nil, "", "", false
	}
	a, err := headerAddress(value)
	if err != nil || !strings.Contains(a.Address, "@") {
		return nil, "", "", false
	}
	subject, date := false, false
	top := start
	for i, k := start, 0; i > 0 && k < 6; k++ { // the lines above it
		j := strings.LastIndexByte(text[:i-1], '\n') + 1
		l, _, ok := headerLine(text[j : i-1])
		if !ok {
			break
		}
		subject, date = subject || slices.Contains(subjectLabels, l), date || slices.Contains(dateLabels, l)
		i, top = j, j
	}
	for i, k := end, 0; i < len(text) && k < 6; k++ { // and below it, to the blank line
		j := strings.IndexByte(text[i+1:], '\n')
		if j < 0 {
			return nil, "", "", false
		}
		j += i + 1
		line := text[i+1 : j]
		i = j
		blank := strings.TrimSpace(strings.TrimLeft(line, ">")) == ""
		l, _, ok := headerLine(line)
		if blank || !ok || !slices.Contains(headerLabels, l) && !slices.Contains(subjectLabels, l) && !slices.Contains(dateLabels, l) {
			// The block ends at a blank line, or at the original's first
			// line where a text rendering drops the blank one.
			if !subject || !date {
				return nil, "", "", false
			}
			if blank {
				return a, text[top:j], quoteOnceRE.ReplaceAllString(text[j+1:], ""), true
			}
			return a, text[top : j-len(line)], quoteOnceRE.ReplaceAllString(text[j-len(line):], ""), true
		}
		subject, date = subject || slices.Contains(subjectLabels, l), date || slices.Contains(dateLabels, l)
	}
	return nil, "", "", false
}

// headerLabels are the other labels of a forward's header block: the
// recipients' ("To", "An", "À", "Para", "Aan", "Till", "Komu", …).
var headerLabels = []string{"to", "cc", "bcc", "an", "à", "a", "para", "aan", "till", "til", "kopia", "kopi", "do", "dw", "komu",
	"kopie", "vastaanottaja", "kopio", "reply-to", "antwort an", "répondre à", "responder a", "rispondi a", "beantwoorden aan"}

// headerLine splits a header block's line ("Sent: Monday…", "Objet :
// …", "> Date:\tMon…") into its label, lower case, and its value.
func headerLine(line string) (label, value string, ok bool) {
	line = quoteLine(line)
	k := strings.IndexByte(line, ':')
	if k <= 0 || k > 24 {
		return "", "", false
	}
	return strings.ToLower(strings.TrimSpace(line[:k])), strings.TrimSpace(line[k+1:]), true
}

// subjectLabels and dateLabels are the subject's and the date's labels
// of the header blocks mail clients write over a forwarded original
// (Outlook's "Sent", "Gesendet", "Envoyé", …, the others' "Date").
var (
	subjectLabels = []string{"subject", "betreff", "objet", "asunto", "oggetto", "onderwerp", "ämne", "emne", "aihe", "temat",
		"předmět", "assunto"}
	dateLabels = []string{"sent", "date", "gesendet", "datum", "envoyé", "enviado", "enviada", "fecha", "inviato", "data",
		"verzonden", "skickat", "sendt", "dato", "lähetetty", "päivämäärä", "päiväys", "wysłano", "wysłane", "odesláno"}
)

// headerAddress reads a header block's sender: an address as RFC 5322
// writes it, or as clients write it for people, a display name left
// unquoted over its commas and dots ("The Hoxton, Paris <stay@…>").
func headerAddress(v string) (*mail.Address, error) {
	a, err := mail.ParseAddress(v)
	if err == nil {
		return a, nil
	}
	lt, gt := strings.LastIndexByte(v, '<'), strings.LastIndexByte(v, '>')
	if lt < 0 || gt < lt || strings.TrimSpace(v[gt+1:]) != "" {
		return nil, err
	}
	a, err2 := mail.ParseAddress(v[lt : gt+1])
	if err2 != nil {
		return nil, err
	}
	a.Name = strings.Trim(strings.TrimSpace(v[:lt]), `"'`)
	return a, nil
}

// quoteLine is a line without its quote marks and spaces.
func quoteLine(line string) string {
	return strings.TrimSpace(strings.TrimLeft(line, "> \t"))
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
		if t := strings.TrimRight(strings.TrimLeft(line, "> \t"), " \t\r"); t != "" && len(t) < 200 {
			if t[0] == '-' || t[0] == '_' {
				if loc := forwardMarkerRE.FindStringIndex(line); loc != nil {
					return []int{start + loc[0], start + loc[1]}
				}
			} else if t[len(t)-1] == ':' && appleMarked(line) {
				return []int{start, end}
			}
		}
		start = end + 1
	}
	return nil
}

// appleMarked is whether forwardMarkerRE matches a line that ends in a
// colon, as its Apple Mail branch reads it (a line of a label's colon is
// common in bookings; the expression over each cost a mail more than this):
// the whole line, quote marks and spaces, a marker in any case, a colon.
func appleMarked(line string) bool {
	const space = "\t\n\f\r " // regexp's \s
	u, ok := strings.CutSuffix(strings.TrimRight(strings.TrimLeft(line, ">"+space), space), ":")
	if !ok {
		return false
	}
	u = strings.TrimRight(u, space)
	for _, m := range appleMarkers {
		if strings.EqualFold(u, m) {
			return true
		}
	}
	return false
}

// markedForward is forwarded for a text with a client's forward marker.
func markedForward(text string) (from *mail.Address, head, body string, ok bool) {
	from, head, body, ok = markedOnce(text)
	// A forward of a forward (a booking a partner forwarded, forwarded
	// on) is its innermost original's.
	for depth := 0; ok && depth < 3; depth++ {
		f, h, b, again := markedOnce(body)
		if !again {
			f, h, b, again = unmarkedForward(body)
		}
		// A sender's reply over its own earlier mail is read as a
		// reply one level down (textRulesIn, ownOverOriginal): its
		// words over the quoted original are the booking now.
		if !again || sameDomain(f.Address, from.Address) {
			break
		}
		from, head, body = f, h, b
	}
	return from, head, body, ok
}

// sameDomain reports whether two addresses are of one organisation's
// domain (orgDomain: "res@mail.hotel.example", "info@hotel.example").
func sameDomain(a, b string) bool {
	_, x, ok1 := strings.Cut(strings.ToLower(a), "@")
	_, y, ok2 := strings.Cut(strings.ToLower(b), "@")
	return ok1 && ok2 && x != "" && y != "" && orgDomain(x) == orgDomain(y)
}

// unmarkedForward finds a header block that no marker opens (headerBlock)
// on one of text's lines with an "@".
func unmarkedForward(text string) (from *mail.Address, head, body string, ok bool) {
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '@')
		if j < 0 {
			break
		}
		at := i + j
		start := strings.LastIndexByte(text[max(0, at-160):at], '\n') + 1 + max(0, at-160)
		end := len(text)
		if e := strings.IndexByte(text[at:], '\n'); e >= 0 {
			end = at + e
		}
		i = end + 1
		if at-start >= 160 || end-at >= 160 {
			continue
		}
		if a, h, b, ok := headerBlock(text, start, end); ok {
			return a, h, b, true
		}
	}
	return nil, "", "", false
}

func markedOnce(text string) (from *mail.Address, head, body string, ok bool) {
	loc := markerLoc(text)
	if loc == nil {
		return nil, "", "", false
	}
	// A quoted marker's original is quoted as deep: a level of marks
	// goes. An unquoted one's original keeps its own quotes (a reply
	// forwarded, whose attribution is found by them); the text rules
	// take them away.
	rest := text[loc[1]:]
	if strings.HasPrefix(strings.TrimLeft(text[loc[0]:loc[1]], " \t"), ">") {
		rest = quoteOnceRE.ReplaceAllString(rest, "")
	}
	rest = strings.TrimLeft(rest, "\r\n")
	first := firstLines(rest, 8)
	m := forwardFromRE.FindStringSubmatchIndex(first)
	if m == nil {
		return nil, "", "", false
	}
	a, err := headerAddress(strings.TrimSpace(first[m[2]:m[3]]))
	if err != nil || !strings.Contains(a.Address, "@") {
		return nil, "", "", false
	}
	body = afterHeaderBlock(rest, m[1])
	return a, rest[:len(rest)-len(body)], body, true
}

// attributionVerbs are a reply's "wrote" in the clients' languages.
var attributionVerbs = []string{"wrote", "schrieb", "a écrit", "escribió", "ha scritto", "schreef", "skrev", "napsal", "napisał",
	"pisze", "kirjoitti", "escreveu"}

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

// originalDay is the day a forwarded or quoted original was sent, as
// its head says it (a header block's "Date:", "Sent:", "Gesendet:"
// line, or the attribution's date), at noon: a notice that expects its
// parcel "le 30/12" was written days before the forward that passes it
// on, and its delivery day is read against its own.
func (c *msgContext) originalDay(head string) (time.Time, bool) {
	day := func(v string) (time.Time, bool) {
		for _, d := range c.findDates(v, c.usSender()) {
			if d.hasYear {
				return time.Date(d.y, time.Month(d.m), d.d, 12, 0, 0, 0, c.dateLoc), true
			}
		}
		return shortDate(v, c.usSender(), c.dateLoc)
	}
	lines := strings.Split(strings.TrimSpace(head), "\n")
	if len(lines) <= 2 { // an attribution, wrapped or not
		return day(strings.Join(lines, " "))
	}
	for _, ln := range lines[:min(len(lines), 12)] {
		if l, v, ok := headerLine(ln); ok && slices.Contains(dateLabels, l) {
			return day(v)
		}
	}
	return time.Time{}, false
}

// shortDate reads the first date of v in a client's short form with a
// two-digit year ("28-12-26", "28.12.26", US "12/28/26"), as Thunderbird
// writes a forward's Date and a reply's attribution: 20yy, day first
// unless us.
func shortDate(v string, us bool, loc *time.Location) (time.Time, bool) {
	for i := 0; i < len(v); i++ {
		if !isDigitByte(v[i]) || i > 0 && isDigitByte(v[i-1]) {
			continue
		}
		var n [3]int
		j, k := i, 0
		for ; k < 3; k++ {
			w := j
			for j < len(v) && isDigitByte(v[j]) && j-w < 3 {
				n[k] = n[k]*10 + int(v[j]-'0')
				j++
			}
			if j-w == 0 || j-w > 2 || k < 2 && (j >= len(v) || !strings.ContainsRune("-./", rune(v[j]))) {
				break
			}
			if k < 2 {
				j++
			}
		}
		if k < 3 || j < len(v) && isDigitByte(v[j]) {
			continue
		}
		d, m := n[0], n[1]
		if us {
			d, m = m, d
		}
		if m < 1 || m > 12 || d < 1 || d > 31 {
			continue
		}
		t := time.Date(2000+n[2], time.Month(m), d, 12, 0, 0, 0, loc)
		if t.Day() != d {
			continue
		}
		return t, true
	}
	return time.Time{}, false
}

// asForwarded makes c speak for the forwarded original's claimed sender:
// its domain and name, and no authentication.
func (c *msgContext) asForwarded(from *mail.Address) {
	c.setSender(from.Address, from.Name)
	c.authenticated = false
}

// quotedBy sets f.Quoted to key (quotedKey), unless a deeper original's
// is already set: an original quoted within a forward is its own
// sender's word.
func (f *Fact) quotedBy(key string) {
	if f.Quoted == "" {
		f.Quoted = key
	}
}

// quotedKey is what Fact.Quoted keeps for a forward's facts: the address
// of from, the forwarded original's claimed sender; "" when there is
// none. text is the forward's: where its outermost original quotes a
// deeper one of another domain (markedForward reads the innermost), it is
// the chain, the outer address first
// ("m@mallory.example>service@lufthansa.com"): a stranger's mail that
// the person's rule forwards, holding a forged block of an airline's,
// shares no key with the person's own forward of the airline's mail (the
// twelfth outside review, HIGH-4). Found once per forward, not per fact.
func quotedKey(from *mail.Address, text string) string {
	if from == nil {
		return ""
	}
	key := strings.ToLower(strings.TrimSpace(from.Address))
	if outer, _, _, ok := markedOnce(text); ok && !sameDomain(outer.Address, from.Address) {
		key = strings.ToLower(strings.TrimSpace(outer.Address)) + QuotedChain + key
	}
	return key
}

// QuotedChain parts the addresses of a forward's chain in Fact.Quoted.
const QuotedChain = ">"

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
		if hasQuoteMarkup(h) {
			return nil, true
		}
	}
	return nil, strings.HasPrefix(text, ">") || strings.Contains(text, "\n>")
}

// replyPrefixRE is a reply's subject prefix, in the languages mail
// clients write it: "Re:", "AW:", "SV:", "VS:", "Odp:", "Antw:", "RES:",
// "R:", "VL:", "ENC:", "PD:", "VB:", "YNT:", "Ref:".
var replyPrefixRE = lazyregexp.New(`(?i)^\s*(?:re|aw|sv|vs|vl|odp|antw|res|r|enc|pd|vb|ynt|ref)\s*(?:\[\d+\])?\s*:`)

// hasQuoteMarkup is whether an HTML body has quoteMarkup in any case,
// searched without a lower-cased copy of it; only a Kelvin sign or a
// dotted capital I, which lower-case to 'k' and 'i', need one.
func hasQuoteMarkup(h string) bool {
	if quoteMarkup.AnyFold(h) {
		return true
	}
	return (strings.Contains(h, "\u212a") || strings.Contains(h, "\u0130")) && quoteMarkup.Any(strings.ToLower(h))
}

// quoteMarkup are the marks mail clients put on the quoted original in
// a reply's or forward's HTML.
var quoteMarkup = words.NewSet([]string{"<blockquote", "gmail_quote", "divrplyfwdmsg", "moz-cite-prefix", "olk_src_body_section", "yahoo_quoted", "appendonsend", "mail-quote"})

// ownOverOriginal is the text above a forward's marker or header block
// when the original's sender is the mail's own (forwardedHead leaves it
// out): a hotel's or an agency's reply that states a changed booking over
// the confirmation it quotes, Outlook's "-----Original Message-----" or its
// "From:/Sent:" block, as Gmail's "On … wrote:" (whose reply's words
// forwardedHead gives). A person's note over what they forward is theirs,
// of another domain, and stays unread ("Die Bestellung 4471-2290 ist noch
// nicht verschickt" over a postal digest).
func (c *msgContext) ownOverOriginal(text, head string, from *mail.Address) string {
	if c.senderDomain == "" || !sameDomain(from.Address, "@"+c.senderDomain) {
		return ""
	}
	if loc := markerLoc(text); loc != nil {
		return text[:loc[0]]
	}
	if i := strings.Index(text, head); i > 0 {
		return text[:i]
	}
	return ""
}
