package eval

import (
	"fmt"
	"hash/fnv"
	"maps"

	"html"
	"mailnode/mail/msgauth"
	"mime"
	"slices"
	"strings"
	"time"
)

// The metamorphic part (issue 46): mail reaches a person forwarded,
// quoted, converted to text or HTML and re-encoded by mail clients, and
// none of that changes what the mail says. Each Transformation writes a
// labelled development mail again as a client would; the transformed mail
// is scored against the same labels (docs/extract.md, "The evaluation's
// parts").

// Transformation rewrites one mail; ok is false when it does not apply
// (a text-only conversion of a mail that has no HTML).
type Transformation struct {
	Name, About string
	// Forward is set when the mail's sender becomes someone else: the
	// fields bound to the sender (SenderFields) are scored apart.
	Forward bool
	apply   func(p parts, pick uint32) ([]byte, bool)
}

// Transformations are the clients' rewritings the metamorphic part applies.
var Transformations = []Transformation{
	{"fwd-gmail", "inline forward as Gmail writes it (marker, From, Date, Subject, To; EN/DE/FR/ES/IT/NL), text and HTML", true, fwdGmail},
	{"fwd-outlook", "inline forward as Outlook writes it (a rule, From/Sent/To/Subject in EN/DE/FR/NL/ES/IT/SV), text and HTML", true, fwdOutlook},
	{"fwd-apple", "inline forward as Apple Mail writes it (\"Begin forwarded message:\" in EN/DE/FR/ES/IT/NL)", true, fwdApple},
	{"fwd-thunderbird", "inline forward as Thunderbird writes it (\"-------- Forwarded Message --------\", Subject first; EN/DE/FR/ES/IT/NL)", true, fwdThunderbird},
	{"reply-quoted", "the person's reply quoting the mail with \"> \" under an attribution line (Gmail's and Apple Mail's; EN/DE/FR/ES/IT/NL/SV)", true, replyQuoted},
	{"fwd-attached", "forwarded as a message/rfc822 attachment", true, fwdAttached},
	{"text-only", "the HTML part dropped, or an HTML-only mail rendered to text (cells apart by tabs, links' addresses in <>)", false, textOnly},
	{"html-only", "the text part dropped, or a text-only mail wrapped in <div> with <br> or in <pre>", false, htmlOnly},
	{"charset-qp", "every text part in ISO-8859-1 or windows-1252 where it fits, quoted-printable", false, charsetQP},
	{"charset-base64", "every text part in ISO-8859-1 or windows-1252 where it fits, base64", false, charsetBase64},
	{"flowed", "the text part format=flowed, wrapped at 72 columns", false, flowed},
	{"no-date", "the Date header dropped, as a ticket's text carried without its mail's header is", false, noDate},
	{"bare-input", "the Date header dropped and the sender replaced by \"Reservations <reservations@example.com>\", as a vendor's input without its mail's header is carried (the public part's inputs without a context.eml)", true, bareInput},
}

// SenderFields are the labelled fields a mail's sender decides, per kind:
// under a forward or reply they belong to the claimed original sender,
// whom the forwarded text names (or, in a reply, nobody).
var SenderFields = map[string][]string{"order": {"domain", "merchant"}, "bill": {"domain", "issuer"}}

// The forwarder: another person, writing two days after the original.
const forwarder = "Sam Rivera <sam.rivera@example.net>"

func pick(name string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()
}

// fwdLang is one language of a client's forward header block.
type fwdLang struct {
	marker, from, date, subject, to, prefix string
	day                                     func(time.Time) string
}

var months = map[string][12]string{
	"de": {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
	"es": {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
	"it": {"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"},
	"nl": {"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
	"sv": {"januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober", "november", "december"},
}

func longDate(lang string) func(time.Time) string {
	return func(t time.Time) string {
		m := months[lang][t.Month()-1]
		switch lang {
		case "de":
			return fmt.Sprintf("%d. %s %d um %s", t.Day(), m, t.Year(), t.Format("15:04"))
		case "es":
			return fmt.Sprintf("%d de %s de %d %s", t.Day(), m, t.Year(), t.Format("15:04"))
		default:
			return fmt.Sprintf("%d %s %d %s", t.Day(), m, t.Year(), t.Format("15:04"))
		}
	}
}

func enDate(t time.Time) string { return t.Format("Mon, Jan 2, 2006 at 3:04 PM") }

var gmailLangs = []fwdLang{
	{"---------- Forwarded message ---------", "From", "Date", "Subject", "To", "Fwd: ", enDate},
	{"---------- Weitergeleitete Nachricht ---------", "Von", "Date", "Subject", "To", "Fwd: ", longDate("de")},
	{"---------- Message transféré ---------", "De :", "Date", "Subject", "To", "Fwd: ", longDate("fr")},
	{"---------- Mensaje reenviado ---------", "De", "Date", "Subject", "To", "Fwd: ", longDate("es")},
	{"---------- Messaggio inoltrato ---------", "Da", "Date", "Subject", "To", "Fwd: ", longDate("it")},
	{"---------- Doorgestuurd bericht ---------", "Van", "Date", "Subject", "To", "Fwd: ", longDate("nl")},
}

var outlookLangs = []fwdLang{
	{"", "From", "Sent", "Subject", "To", "FW: ", func(t time.Time) string { return t.Format("Monday, January 2, 2006 3:04 PM") }},
	{"", "Von", "Gesendet", "Betreff", "An", "WG: ", longDate("de")},
	{"", "De :", "Envoyé :", "Objet :", "À :", "TR: ", longDate("fr")},
	{"", "Van", "Verzonden", "Onderwerp", "Aan", "FW: ", longDate("nl")},
	{"", "De", "Enviado", "Asunto", "Para", "RV: ", longDate("es")},
	{"", "Da", "Inviato", "Oggetto", "A", "I: ", longDate("it")},
	{"", "Från", "Skickat", "Ämne", "Till", "VB: ", longDate("sv")},
}

var appleLangs = []fwdLang{
	{"Begin forwarded message:", "From", "Date", "Subject", "To", "Fwd: ", func(t time.Time) string { return t.Format("2 January 2006 at 15:04:05 MST") }},
	{"Anfang der weitergeleiteten Nachricht:", "Von", "Datum", "Betreff", "An", "WG: ", longDate("de")},
	{"Début du message réexpédié :", "De", "Date", "Objet", "À", "Tr: ", longDate("fr")},
	{"Inicio del mensaje reenviado:", "De", "Fecha", "Asunto", "Para", "RV: ", longDate("es")},
	{"Inizio messaggio inoltrato:", "Da", "Data", "Oggetto", "A", "I: ", longDate("it")},
	{"Begin doorgestuurd bericht:", "Van", "Datum", "Onderwerp", "Aan", "Doorst: ", longDate("nl")},
}

var thunderbirdLangs = []fwdLang{
	{"-------- Forwarded Message --------", "From", "Date", "Subject", "To", "Fwd: ", func(t time.Time) string { return t.Format("Mon, 2 Jan 2006 15:04:05 -0700") }},
	{"-------- Weitergeleitete Nachricht --------", "Von", "Datum", "Betreff", "An", "WG: ", func(t time.Time) string { return t.Format("02.01.06 15:04") }},
	{"-------- Message transféré --------", "De :", "Date :", "Sujet :", "Pour :", "Fwd: ", func(t time.Time) string { return t.Format("02/01/2006 15:04") }},
	{"-------- Mensaje reenviado --------", "De", "Fecha", "Asunto", "Para", "Fwd: ", func(t time.Time) string { return t.Format("02/01/06 15:04") }},
	{"-------- Messaggio Inoltrato --------", "Da", "Data", "Oggetto", "A", "Fwd: ", func(t time.Time) string { return t.Format("02/01/06 15:04") }},
	{"-------- Doorgestuurd bericht --------", "Van", "Datum", "Onderwerp", "Aan", "Fwd: ", func(t time.Time) string { return t.Format("02-01-06 15:04") }},
}

// label writes a header block's label: "From:", or the French "De :" as given.
func label(l string) string {
	if strings.HasSuffix(l, ":") {
		return l
	}
	return l + ":"
}

// senderText is the original's sender as a header block prints it:
// `Name <address>`, unencoded.
func (p parts) senderText() string {
	if len(p.from) == 0 {
		return ""
	}
	if p.from[0].Name == "" {
		return "<" + p.from[0].Address + ">"
	}
	return p.from[0].Name + " <" + p.from[0].Address + ">"
}

func (p parts) when() time.Time {
	if p.date.IsZero() {
		return time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	}
	return p.date
}

// outer writes the forwarder's header and the new body.
func outer(p parts, from, subject string, text, htmlBody *string, attachments []leaf) []byte {
	var w writer
	if !p.date.IsZero() {
		w.header("Date", p.date.Add(48*time.Hour).Format(time.RFC1123Z))
	}
	w.header("From", from)
	if p.to != "" {
		w.header("To", mimeWord(p.to))
	} else {
		w.header("To", "traveller@example.org")
	}
	w.header("Subject", mimeWord(subject))
	w.header("Message-ID", fmt.Sprintf("<fwd.%08x@example.net>", pick(string(p.raw))))
	w.body(text, htmlBody, attachments, utf8QP, false)
	return w.b.Bytes()
}

func mimeWord(s string) string { return mime.BEncoding.Encode("utf-8", s) }

// inlineForward writes p forwarded inline: the forwarder's note, the
// header block (lines as block gives them) and the original's text; in
// HTML the same block over the original's HTML (scripts stripped).
func inlineForward(p parts, subjectPrefix string, block []string, htmlBlock string) ([]byte, bool) {
	if len(p.from) == 0 || (!p.hasText && !p.hasHTML) {
		return nil, false
	}
	text := "FYI, see below.\n\n" + strings.Join(block, "\n") + "\n\n" + p.textBody()
	h := `<div dir="ltr">FYI, see below.<br><br>` + htmlBlock + "<br>" + withoutScripts(p.htmlBody()) + "</div>"
	return outer(p, forwarder, subjectPrefix+p.subject, &text, &h, p.attachments), true
}

func blockHTML(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(html.EscapeString(l) + "<br>\n")
	}
	return b.String()
}

func fwdGmail(p parts, n uint32) ([]byte, bool) {
	l := gmailLangs[n%uint32(len(gmailLangs))]
	block := []string{l.marker, label(l.from) + " " + p.senderText(), label(l.date) + " " + l.day(p.when()),
		label(l.subject) + " " + p.subject, label(l.to) + " " + p.to}
	return inlineForward(p, l.prefix, block, `<div class="gmail_quote"><div dir="ltr" class="gmail_attr">`+blockHTML(block)+"</div>")
}

func fwdOutlook(p parts, n uint32) ([]byte, bool) {
	l := outlookLangs[n%uint32(len(outlookLangs))]
	block := []string{"________________________________", label(l.from) + " " + p.senderText(), label(l.date) + " " + l.day(p.when()),
		label(l.to) + " " + p.to, label(l.subject) + " " + p.subject}
	var hb strings.Builder
	hb.WriteString(`<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000">`)
	for _, line := range block[1:] {
		k, v, _ := strings.Cut(line, ": ")
		if strings.HasSuffix(line[:len(k)+1], " :") {
			k, v, _ = strings.Cut(line, " : ")
			k += " :"
		} else {
			k += ":"
		}
		fmt.Fprintf(&hb, "<b>%s</b> %s<br>\n", html.EscapeString(k), html.EscapeString(v))
	}
	hb.WriteString("</font><div>&nbsp;</div></div>")
	return inlineForward(p, l.prefix, block, hb.String())
}

func fwdApple(p parts, n uint32) ([]byte, bool) {
	l := appleLangs[n%uint32(len(appleLangs))]
	block := []string{l.marker, "", label(l.from) + " " + p.senderText(), label(l.subject) + " " + p.subject,
		label(l.date) + " " + l.day(p.when()), label(l.to) + " " + p.to}
	var hb strings.Builder
	fmt.Fprintf(&hb, "<div>%s</div><br><blockquote type=\"cite\">", html.EscapeString(l.marker))
	for _, line := range block[2:] {
		k, v, _ := strings.Cut(line, ": ")
		fmt.Fprintf(&hb, `<div style="margin:0"><span><b>%s:</b> %s</span></div>`+"\n", html.EscapeString(k), html.EscapeString(v))
	}
	hb.WriteString("</blockquote>")
	return inlineForward(p, l.prefix, block, hb.String())
}

func fwdThunderbird(p parts, n uint32) ([]byte, bool) {
	l := thunderbirdLangs[n%uint32(len(thunderbirdLangs))]
	block := []string{l.marker, label(l.subject) + " \t" + p.subject, label(l.date) + " \t" + l.day(p.when()),
		label(l.from) + " \t" + p.senderText(), label(l.to) + " \t" + p.to}
	var hb strings.Builder
	fmt.Fprintf(&hb, `<div class="moz-forward-container">%s<table class="moz-email-headers-table" border="0" cellspacing="0" cellpadding="0"><tbody>`, html.EscapeString(l.marker))
	for _, line := range block[1:] {
		k, v, _ := strings.Cut(line, " \t")
		fmt.Fprintf(&hb, `<tr><th valign="BASELINE" nowrap="nowrap" align="RIGHT">%s </th><td>%s</td></tr>`+"\n", html.EscapeString(k), html.EscapeString(v))
	}
	hb.WriteString("</tbody></table><br></div>")
	return inlineForward(p, l.prefix, block, hb.String())
}

// attributions are the reply's attribution lines as Gmail and Apple Mail
// write them, in six languages.
var attributions = []func(t time.Time, who string) string{
	func(t time.Time, who string) string { return fmt.Sprintf("On %s %s wrote:", enDate(t), who) },
	func(t time.Time, who string) string {
		return fmt.Sprintf("On %s, at %s, %s wrote:", t.Format("2 Jan 2006"), t.Format("15:04"), who)
	},
	func(t time.Time, who string) string {
		return fmt.Sprintf("Am %d. %s %d um %s Uhr schrieb %s:", t.Day(), months["de"][t.Month()-1], t.Year(), t.Format("15:04"), who)
	},
	func(t time.Time, who string) string {
		return fmt.Sprintf("Le %d %s %d à %s, %s a écrit :", t.Day(), months["fr"][t.Month()-1], t.Year(), t.Format("15:04"), who)
	},
	func(t time.Time, who string) string {
		name, addr, _ := strings.Cut(who, " <")
		return fmt.Sprintf("El %d %s %d a las %s, %s (<%s) escribió:", t.Day(), months["es"][t.Month()-1], t.Year(), t.Format("15:04"), name, addr)
	},
	func(t time.Time, who string) string {
		return fmt.Sprintf("Il giorno %d %s %d alle ore %s %s ha scritto:", t.Day(), months["it"][t.Month()-1], t.Year(), t.Format("15:04"), who)
	},
	func(t time.Time, who string) string {
		return fmt.Sprintf("Op %d %s %d om %s schreef %s:", t.Day(), months["nl"][t.Month()-1], t.Year(), t.Format("15:04"), who)
	},
	func(t time.Time, who string) string {
		return fmt.Sprintf("Den %d %s %d kl. %s skrev %s:", t.Day(), months["sv"][t.Month()-1], t.Year(), t.Format("15:04"), who)
	},
}

// replyQuoted is the person's reply: a line of their own, the attribution
// and the original's text with "> " before every line; in HTML the
// original in a blockquote.
func replyQuoted(p parts, n uint32) ([]byte, bool) {
	if len(p.from) == 0 || (!p.hasText && !p.hasHTML) {
		return nil, false
	}
	me := p.to
	if me == "" {
		me = "traveller@example.org"
	}
	attr := attributions[n%uint32(len(attributions))](p.when(), p.senderText())
	var b strings.Builder
	b.WriteString("Thanks, that works for me.\n\n" + attr + "\n")
	for _, line := range strings.Split(strings.ReplaceAll(p.textBody(), "\r\n", "\n"), "\n") {
		if line == "" || strings.HasPrefix(line, ">") {
			b.WriteString(">" + line + "\n")
		} else {
			b.WriteString("> " + line + "\n")
		}
	}
	text := b.String()
	h := `<div dir="ltr">Thanks, that works for me.</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">` + html.EscapeString(attr) +
		`<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">` +
		withoutScripts(p.htmlBody()) + "</blockquote></div>"
	return outer(p, me, "Re: "+p.subject, &text, &h, p.attachments), true
}

func fwdAttached(p parts, _ uint32) ([]byte, bool) {
	if len(p.from) == 0 {
		return nil, false
	}
	text := "Forwarding this one, see the attached message.\n"
	att := leaf{mediaType: "message/rfc822", disposition: "attachment", filename: "forwarded message.eml", body: p.raw}
	return outer(p, forwarder, "Fwd: "+p.subject, &text, nil, []leaf{att}), true
}

// same writes p again with its own header and a new body.
func same(p parts, text, htmlBody *string, enc encoding, flowed bool) []byte {
	var w writer
	for _, f := range p.header {
		w.header(f.key, f.value)
	}
	w.body(text, htmlBody, p.attachments, enc, flowed)
	return w.b.Bytes()
}

func textOnly(p parts, _ uint32) ([]byte, bool) {
	if !p.hasHTML {
		return nil, false
	}
	t := p.textBody()
	return same(p, &t, nil, utf8QP, false), true
}

func htmlOnly(p parts, n uint32) ([]byte, bool) {
	if !p.hasText {
		return nil, false
	}
	h := p.html
	if !p.hasHTML {
		h = textToHTML(p.text, n%2 == 0)
	}
	return same(p, nil, &h, utf8QP, false), true
}

func reencoded(p parts, enc encoding, flowed bool) ([]byte, bool) {
	if !p.hasText && !p.hasHTML {
		return nil, false
	}
	var t, h *string
	if p.hasText {
		t = &p.text
	}
	if p.hasHTML {
		h = &p.html
	}
	return same(p, t, h, enc, flowed), true
}

func charsetQP(p parts, _ uint32) ([]byte, bool) {
	return reencoded(p, encoding{"8bit", "quoted-printable"}, false)
}

func charsetBase64(p parts, _ uint32) ([]byte, bool) {
	return reencoded(p, encoding{"8bit", "base64"}, false)
}

func flowed(p parts, _ uint32) ([]byte, bool) {
	if !p.hasText || !slices.ContainsFunc(strings.Split(p.text, "\n"), func(l string) bool { return len(l) > 72 }) {
		return nil, false
	}
	return reencoded(p, utf8QP, true)
}

// noDate is p without its Date header: nothing but the text says when
// the mail was written.
func noDate(p parts, _ uint32) ([]byte, bool) {
	if p.date.IsZero() || !p.hasText && !p.hasHTML {
		return nil, false
	}
	return rewriteHeader(p, "")
}

// bareInput is p as the evaluation's import carries a vendor's input that
// came without its mail's header (public.go's asMail): no Date, and a
// sender that says nothing of the vendor.
func bareInput(p parts, _ uint32) ([]byte, bool) {
	if !p.hasText && !p.hasHTML {
		return nil, false
	}
	return rewriteHeader(p, "Reservations <reservations@example.com>")
}

// rewriteHeader writes p again without its Date header, and with from as
// its sender when from is given.
func rewriteHeader(p parts, from string) ([]byte, bool) {
	var w writer
	for _, f := range p.header {
		switch {
		case strings.EqualFold(f.key, "Date"):
			continue
		case from != "" && (strings.EqualFold(f.key, "From") || strings.EqualFold(f.key, "Sender") || strings.EqualFold(f.key, "Reply-To")):
			continue
		}
		w.header(f.key, f.value)
	}
	if from != "" {
		w.header("From", from)
	}
	var t, h *string
	if p.hasText {
		t = &p.text
	}
	if p.hasHTML {
		h = &p.html
	}
	w.body(t, h, p.attachments, utf8QP, false)
	return w.b.Bytes(), true
}

// Transform applies t to one mail; ok is false when it does not apply or
// the mail cannot be taken apart.
func (t Transformation) Transform(m Mail) (Mail, bool) {
	p, ok := takeApart(m.Raw)
	if !ok {
		return m, false
	}
	raw, ok := t.apply(p, pick(m.Name))
	if !ok {
		return m, false
	}
	return Mail{Name: m.Name, Raw: raw, Sequence: m.Sequence}, true
}

// MetaRow is one transformation's scores over the mails it applies to:
// before and after, the sender's fields (SenderFields) apart from the
// rest, and the misses of the transformed mails.
type MetaRow struct {
	Transformation
	Mails, Changed       int
	Before, After        map[string]Score
	SenderBefore, Sender map[string]Score
	Misses               []Mismatch
}

// Metamorphic applies each transformation to every mail of sets and
// scores the transformed mails against the same labels. The first row is
// the untransformed mails. A set's mail names are prefixed with the set's
// name, so that the misses say where a mail is.
func Metamorphic(sets map[string]Public, ts []Transformation) []MetaRow {
	var all Public
	names := slices.Sorted(maps.Keys(sets))
	for _, name := range names {
		for _, m := range sets[name].Mails {
			m.Name = name + "/" + m.Name
			all.Mails = append(all.Mails, m)
		}
		for _, e := range sets[name].Expected {
			e.Mail = name + "/" + e.Mail
			all.Expected = append(all.Expected, e)
		}
	}
	opt := msgauth.Checker{AuthServIDs: []string{AuthServID}}
	orig := make(map[string][]Entity, len(all.Mails))
	var found []Entity
	for _, m := range all.Mails {
		orig[m.Name] = mailEntities(opt, m)
		found = append(found, orig[m.Name]...)
	}
	row := MetaRow{Transformation: Transformation{Name: "none", About: "the mails as labelled"}, Mails: len(all.Mails)}
	scores, misses := ComparePerMail(all.Expected, found)
	row.After, row.Sender = splitSender(scores, misses, all.Expected)
	row.Before, row.SenderBefore = row.After, row.Sender
	rows := []MetaRow{row}
	for _, t := range ts {
		row := MetaRow{Transformation: t}
		in := map[string]bool{}
		var before, after []Entity
		for _, m := range all.Mails {
			tm, ok := t.Transform(m)
			if !ok {
				continue
			}
			row.Mails++
			in[m.Name] = true
			before = append(before, orig[m.Name]...)
			after = append(after, mailEntities(opt, tm)...)
		}
		var exp []Entity
		for _, e := range all.Expected {
			if in[e.Mail] {
				exp = append(exp, e)
			}
		}
		scores, misses := ComparePerMail(exp, before)
		row.Before, row.SenderBefore = splitSender(scores, misses, exp)
		scores, row.Misses = ComparePerMail(exp, after)
		row.After, row.Sender = splitSender(scores, row.Misses, exp)
		rows = append(rows, row)
	}
	return rows
}

// splitSender takes the sender's fields (SenderFields) out of scores:
// their labels counted from expected, their misses from misses.
func splitSender(scores map[string]Score, misses []Mismatch, expected []Entity) (rest, sender map[string]Score) {
	rest, sender = map[string]Score{}, map[string]Score{}
	maps.Copy(rest, scores)
	for _, e := range expected {
		for _, f := range SenderFields[e.Kind] {
			if _, ok := e.Fields[f]; ok {
				s := sender[e.Kind]
				s.Expected++
				s.TP++
				sender[e.Kind] = s
			}
		}
	}
	for _, m := range misses {
		if !slices.Contains(SenderFields[m.Kind], m.Field) {
			continue
		}
		s := sender[m.Kind]
		if m.Want != "(none)" {
			s.TP--
		}
		if m.Got != "" {
			s.Predicted++
		}
		sender[m.Kind] = s
	}
	for kind, s := range sender {
		s.Predicted += s.TP
		sender[kind] = s
		r := rest[kind]
		r.TP -= s.TP
		r.Predicted -= s.Predicted
		r.Expected -= s.Expected
		rest[kind] = r
	}
	return rest, sender
}
