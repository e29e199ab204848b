package eval

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime/quotedprintable"
	"regexp"
	"strings"
	"time"

	gomessage "github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // the originals' charsets, decoded to UTF-8
	"github.com/emersion/go-message/mail"
	"golang.org/x/net/html"
	"golang.org/x/text/encoding/charmap"

	"mailnode/mail/mime"
)

// The metamorphic part takes a labelled mail apart into what a mail
// client keeps when it forwards, re-encodes or converts a message (its
// headers, its text and HTML bodies decoded to UTF-8, its attachments)
// and writes it again as that client would.

// parts is one mail taken apart.
type parts struct {
	header      []headerField // the top-level fields but the MIME ones
	from        []*mail.Address
	to          string
	subject     string
	date        time.Time
	raw         []byte
	text, html  string
	hasText     bool
	hasHTML     bool
	attachments []leaf
}

type headerField struct{ key, value string }

// leaf is an attachment as it was: its type, name and decoded bytes.
type leaf struct {
	mediaType   string
	params      map[string]string
	disposition string
	filename    string
	body        []byte
}

// takeApart reads raw; ok is false when the mail cannot be read whole.
func takeApart(raw []byte) (p parts, ok bool) {
	e, err := gomessage.Read(bytes.NewReader(raw))
	if err != nil && !gomessage.IsUnknownCharset(err) {
		return p, false
	}
	p.raw = raw
	fields := e.Header.Fields()
	for fields.Next() {
		switch strings.ToLower(fields.Key()) {
		case "content-type", "content-transfer-encoding", "mime-version":
			continue
		}
		p.header = append(p.header, headerField{fields.Key(), fields.Value()})
	}
	h := mail.Header{Header: e.Header}
	p.from, _ = h.AddressList("From")
	p.to, _ = h.Text("To")
	p.subject, _ = h.Subject()
	p.date, _ = h.Date()
	ok = p.walk(e, 0)
	return p, ok
}

func (p *parts) walk(e *gomessage.Entity, depth int) bool {
	if depth > 8 {
		return false
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			child, err := mr.NextPart()
			if err == io.EOF {
				return true
			}
			if err != nil && !gomessage.IsUnknownCharset(err) {
				return false
			}
			if !p.walk(child, depth+1) {
				return false
			}
		}
	}
	mediaType, params, disp, filename := mime.PartType(e.Header)
	body, err := io.ReadAll(e.Body)
	if err != nil {
		return false
	}
	textual := (mediaType == "text/plain" || mediaType == "text/html") && filename == "" && !strings.EqualFold(disp, "attachment")
	if textual && mediaType == "text/plain" && strings.EqualFold(params["format"], "flowed") {
		// A client shows, quotes and re-encodes a flowed part unwrapped;
		// its soft breaks kept as hard ones would be lines no client shows.
		body = []byte(mime.Unflow(strings.ReplaceAll(string(body), "\r\n", "\n"), strings.EqualFold(params["delsp"], "yes")))
	}
	switch {
	case textual && mediaType == "text/plain" && !p.hasText:
		p.text, p.hasText = string(body), true
	case textual && mediaType == "text/html" && !p.hasHTML:
		p.html, p.hasHTML = string(body), true
	case textual && mediaType == "text/plain":
		p.text += "\n\n" + string(body)
	case textual:
		p.html += string(body)
	default:
		delete(params, "charset")
		p.attachments = append(p.attachments, leaf{mediaType, params, disp, filename, body})
	}
	return true
}

// textBody is the mail's text as a client shows it in a plain-text
// reply or forward: its text part, or its HTML rendered.
func (p parts) textBody() string {
	if p.hasText {
		return p.text
	}
	if p.hasHTML {
		return renderText(p.html)
	}
	return ""
}

// htmlBody is the mail's HTML, or its text as Gmail's composer wraps a
// text-only mail it quotes (escaped lines under one div, <br> between).
func (p parts) htmlBody() string {
	if p.hasHTML {
		return p.html
	}
	return textToHTML(p.text, false)
}

func textToHTML(text string, pre bool) string {
	esc := html.EscapeString(strings.ReplaceAll(text, "\r\n", "\n"))
	if pre {
		return "<html><body><pre>" + esc + "</pre></body></html>"
	}
	// The composer keeps runs of spaces as no-break spaces, so that a
	// text's columns stay apart.
	esc = spaceRunRE.ReplaceAllStringFunc(esc, func(run string) string {
		return strings.Repeat("&nbsp;", len(run)-1) + " "
	})
	return `<div dir="ltr">` + strings.ReplaceAll(esc, "\n", "<br>\n") + "</div>"
}

var spaceRunRE = regexp.MustCompile(`[ \t]{2,}`)

// renderText renders HTML to text as mail clients do in their plain-text
// alternative: blocks and rows on lines of their own, table cells apart by
// a tab (Apple Mail), a link's address after its words in angle brackets
// (Gmail, Thunderbird), scripts, styles and the head left out.
func renderText(src string) string {
	z := html.NewTokenizer(strings.NewReader(src))
	var b strings.Builder
	skip := 0
	var href string
	var linkText strings.Builder
	inLink := false
	pre, preStart := 0, false
	newline := func() {
		if s := b.String(); s != "" && !strings.HasSuffix(s, "\n") {
			b.WriteByte('\n')
		}
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return strings.TrimSpace(b.String()) + "\n"
		case html.TextToken:
			if skip > 0 {
				continue
			}
			if pre > 0 {
				// A <pre>'s spaces and line ends are its text's, in a
				// client's rendering as in a browser.
				t := strings.ReplaceAll(string(z.Text()), "\r", "")
				if preStart {
					t, preStart = strings.TrimPrefix(t, "\n"), false
				}
				b.WriteString(strings.ReplaceAll(t, "\u00a0", " "))
				continue
			}
			// HTML's whitespace collapses; a no-break space does not, so
			// a run of them between words stays a run of spaces, as
			// Thunderbird's and Apple Mail's plain-text conversions keep it.
			t := strings.Trim(strings.ReplaceAll(strings.Join(strings.FieldsFunc(string(z.Text()), htmlSpace), " "), "\u00a0", " "), " ")
			if t == "" {
				continue
			}
			if s := b.String(); s != "" && !strings.HasSuffix(s, "\n") && !strings.HasSuffix(s, "\t") && !strings.HasSuffix(s, " ") {
				b.WriteByte(' ')
			}
			b.WriteString(t)
			if inLink {
				linkText.WriteString(t)
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			end := tt == html.EndTagToken
			switch tag {
			case "script", "style", "head", "title":
				if tt == html.StartTagToken {
					skip++
				} else if end && skip > 0 {
					skip--
				}
			case "br", "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "blockquote", "hr", "pre", "ul", "ol":
				newline()
				if tag == "pre" && end {
					pre = max(pre-1, 0)
				} else if tag == "pre" && tt == html.StartTagToken {
					pre, preStart = pre+1, true
				}
			case "td", "th":
				if s := b.String(); !end && s != "" && !strings.HasSuffix(s, "\n") {
					b.WriteByte('\t')
				}
			case "a":
				if !end {
					href, inLink = "", true
					linkText.Reset()
					for hasAttr {
						var k, v []byte
						k, v, hasAttr = z.TagAttr()
						if string(k) == "href" {
							href = string(v)
						}
					}
				} else if inLink {
					inLink = false
					if strings.HasPrefix(href, "http") && linkText.String() != href {
						fmt.Fprintf(&b, " <%s>", href)
					}
				}
			}
		}
	}
}

// htmlSpace is HTML's collapsible whitespace (not the no-break space).
func htmlSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' }

// withoutScripts drops the <script> elements of a forwarded HTML body:
// webmail composers strip them, JSON-LD with them.
func withoutScripts(h string) string {
	var b strings.Builder
	for {
		i := indexFold(h, "<script")
		if i < 0 {
			b.WriteString(h)
			return b.String()
		}
		b.WriteString(h[:i])
		j := indexFold(h[i:], "</script>")
		if j < 0 {
			return b.String()
		}
		h = h[i+j+len("</script>"):]
	}
}

func indexFold(s, sub string) int { return strings.Index(strings.ToLower(s), sub) }

// encoding is how a text part is written: its charset and transfer
// encoding.
type encoding struct{ charset, transfer string }

var utf8QP = encoding{"utf-8", "quoted-printable"}

// eightBit is the single-byte charset text fits in: ISO-8859-1 when it
// holds nothing else, else windows-1252 (the euro sign, curly quotes),
// else "" (it needs UTF-8).
func eightBit(text string) (string, []byte) {
	if b, err := charmap.ISO8859_1.NewEncoder().String(text); err == nil {
		return "iso-8859-1", []byte(b)
	}
	if b, err := charmap.Windows1252.NewEncoder().String(text); err == nil {
		return "windows-1252", []byte(b)
	}
	return "", nil
}

// writer builds a MIME message.
type writer struct {
	b        bytes.Buffer
	boundary int
}

func (w *writer) header(key, value string) { fmt.Fprintf(&w.b, "%s: %s\r\n", key, value) }

// textPart writes one text part's header and body in enc; flowed wraps
// a plain text part's lines as format=flowed at 72 columns.
func (w *writer) textPart(mediaType, body string, enc encoding, flowed bool) {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	params := ""
	if flowed && mediaType == "text/plain" {
		body, params = flow(body, 72), "; format=flowed"
	}
	data := []byte(body)
	charset := enc.charset
	if charset == "8bit" {
		if cs, b := eightBit(body); cs != "" {
			charset, data = cs, b
		} else {
			charset = "utf-8"
		}
	}
	fmt.Fprintf(&w.b, "Content-Type: %s; charset=%s%s\r\nContent-Transfer-Encoding: %s\r\n\r\n", mediaType, charset, params, enc.transfer)
	w.encode(data, enc.transfer)
}

func (w *writer) encode(data []byte, transfer string) {
	switch transfer {
	case "base64":
		s := base64.StdEncoding.EncodeToString(data)
		for len(s) > 76 {
			w.b.WriteString(s[:76] + "\r\n")
			s = s[76:]
		}
		w.b.WriteString(s + "\r\n")
	default:
		q := quotedprintable.NewWriter(&w.b)
		q.Write(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")))
		q.Close()
		w.b.WriteString("\r\n")
	}
}

func (w *writer) attachment(l leaf) {
	params := ""
	for k, v := range l.params {
		if k != "name" {
			params += fmt.Sprintf("; %s=%q", k, v)
		}
	}
	if l.filename != "" {
		params += fmt.Sprintf("; name=%q", l.filename)
	}
	fmt.Fprintf(&w.b, "Content-Type: %s%s\r\n", l.mediaType, params)
	disp := l.disposition
	if disp == "" {
		disp = "attachment"
	}
	if l.filename != "" {
		disp += fmt.Sprintf("; filename=%q", l.filename)
	}
	fmt.Fprintf(&w.b, "Content-Disposition: %s\r\n", disp)
	if l.mediaType == "message/rfc822" {
		w.b.WriteString("\r\n")
		w.b.Write(l.body)
		w.b.WriteString("\r\n")
		return
	}
	w.b.WriteString("Content-Transfer-Encoding: base64\r\n\r\n")
	w.encode(l.body, "base64")
}

// body writes the message's Content-Type and its parts: the text and
// HTML (as an alternative when both), then the attachments (mixed).
func (w *writer) body(text, htmlBody *string, attachments []leaf, enc encoding, flowed bool) {
	w.header("MIME-Version", "1.0")
	alt := func() {
		switch {
		case text != nil && htmlBody != nil:
			w.boundary++
			bd := fmt.Sprintf("=_alt_%d", w.boundary)
			fmt.Fprintf(&w.b, "Content-Type: multipart/alternative; boundary=%q\r\n\r\n--%s\r\n", bd, bd)
			w.textPart("text/plain", *text, enc, flowed)
			fmt.Fprintf(&w.b, "--%s\r\n", bd)
			w.textPart("text/html", *htmlBody, enc, false)
			fmt.Fprintf(&w.b, "--%s--\r\n", bd)
		case htmlBody != nil:
			w.textPart("text/html", *htmlBody, enc, false)
		default:
			t := ""
			if text != nil {
				t = *text
			}
			w.textPart("text/plain", t, enc, flowed)
		}
	}
	if len(attachments) == 0 {
		alt()
		return
	}
	w.boundary++
	bd := fmt.Sprintf("=_mixed_%d", w.boundary)
	fmt.Fprintf(&w.b, "Content-Type: multipart/mixed; boundary=%q\r\n\r\n--%s\r\n", bd, bd)
	alt()
	for _, a := range attachments {
		fmt.Fprintf(&w.b, "--%s\r\n", bd)
		w.attachment(a)
	}
	fmt.Fprintf(&w.b, "--%s--\r\n", bd)
}

// flow wraps text as format=flowed (RFC 3676) at width columns: a long
// line is broken after a space, which stays at the end of the line (a
// soft break); lines starting with a space, ">" or "From " are stuffed
// with a space.
func flow(text string, width int) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " ")
		for {
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, ">") || strings.HasPrefix(line, "From ") {
				line = " " + line
			}
			if len(line) <= width {
				b.WriteString(line + "\n")
				break
			}
			cut := strings.LastIndexByte(line[:width], ' ')
			if cut <= 0 {
				cut = strings.IndexByte(line[width:], ' ')
				if cut < 0 {
					b.WriteString(line + "\n")
					break
				}
				cut += width
			}
			b.WriteString(line[:cut+1] + "\n")
			line = line[cut+1:]
		}
	}
	return b.String()
}
