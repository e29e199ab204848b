package mime

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // registers every charset go-message knows
	"github.com/emersion/go-message/mail"
)

// Limits that keep one hostile message from exhausting memory or time.
const (
	maxDepth     = 32      // nested multiparts
	maxParts     = 1000    // leaf parts per message
	maxTextBytes = 1 << 20 // decoded text kept per message, per kind (plain, HTML)
	maxCalendar  = 256 << 10
	maxCalendars = 8
	// Documents the extractors read (Wallet passes, PDFs, images, XML
	// e-invoices): at most four per message, of 4 MiB each (images 1 MiB,
	// XML 2 MiB); a larger one is listed, not kept.
	maxDocument  = 4 << 20
	maxDocuments = 4
	// Mails attached whole (Message.Attached): two a message, of 8 MiB
	// each, and a mail attached to an attached mail, no deeper; so one
	// message is parsed at most seven times, each a part of the one before.
	maxAttached      = 2
	maxAttachedBytes = 8 << 20
	maxAttachedDepth = 2
)

// Address is one mailbox from an address header.
type Address struct {
	Name    string `json:"name,omitempty"`
	Address string `json:"address"`
}

// String formats the address as "Name <addr>" or "addr".
func (a Address) String() string {
	if a.Name == "" {
		return a.Address
	}
	return a.Name + " <" + a.Address + ">"
}

// Attachment describes one non-text part. Its bytes stay in the raw message.
type Attachment struct {
	Part        string `json:"part"` // IMAP-style part number, e.g. "2" or "1.3"
	Filename    string `json:"filename,omitempty"`
	ContentType string `json:"content_type"`
	Disposition string `json:"disposition,omitempty"`
	Size        int64  `json:"size"` // decoded bytes
}

// Message is the parsed form of one e-mail.
type Message struct {
	MessageID  string
	InReplyTo  string
	References []string
	Subject    string
	From       []Address
	To         []Address
	Cc         []Address
	// ReplyTo and Sender are those fields' addresses, ListID and ListPost
	// those fields' values: what tells a mail that relays another
	// writer's words under its From (mail/trust.Relayed).
	ReplyTo, Sender  []Address
	ListID, ListPost string
	Date             time.Time // zero when missing or unparseable
	// Arrived is when the mailbox received the message (IMAP's
	// INTERNALDATE), which the store sets and Parse never does: the
	// extractors read a mail without a Date by it.
	Arrived time.Time

	Text     string // text/plain parts, joined
	HTMLText string // text rendered from text/html parts, joined
	HasHTML  bool
	// HTML holds the source of each text/html part, for the extractors'
	// structured-data readers (JSON-LD, microdata). Decoded to UTF-8.
	HTML []string
	// Calendars holds the text of each iCalendar part (text/calendar or an
	// .ics attachment), at most 8 of 256 KiB each.
	Calendars []string
	// AuthResults holds the values of the Authentication-Results header
	// fields, top (most recent) first, as received.
	AuthResults []string
	Attachments []Attachment
	// Documents holds the bytes of the attachments the extractors read:
	// Wallet passes, PDFs and attached pictures (documentKind), within the caps above.
	Documents []Document
	// Attached holds the mails attached to this one whole (a
	// message/rfc822 or message/global part, an .eml file of any type:
	// "forward as attachment"), parsed, within the caps above. Their
	// senders are only what the attached bytes claim: the extractors read
	// them as forwarded originals, and the store keeps their text with the
	// message's (AttachedText) for reading and search.
	Attached []*Message
	Problems []string // what could not be decoded, one line each
}

// Document is an attachment kept for the extractors.
type Document struct {
	Part     string
	Filename string
	Kind     string // "pkpass", "pdf" or "image"
	Data     []byte
}

// documentKind says which kind of document the extractors read an
// attachment as: a Wallet pass, a PDF, or an image attached (not drawn
// inline in the HTML), a ticket's barcode sent as a picture; else "".
func documentKind(mediaType, filename, disposition string) string {
	f := strings.ToLower(filename)
	switch {
	case mediaType == "application/vnd.apple.pkpass" || strings.HasSuffix(f, ".pkpass"):
		return "pkpass"
	case mediaType == "application/pdf" || strings.HasSuffix(f, ".pdf"):
		return "pdf"
	case mediaType == "image/png" || mediaType == "image/gif" || mediaType == "image/jpeg":
		if strings.EqualFold(disposition, "attachment") {
			return "image"
		}
	case mediaType == "application/xml" || mediaType == "text/xml" || strings.HasSuffix(f, ".xml"):
		// An e-invoice sent as XML of its own (XRechnung, Peppol).
		return "xml"
	}
	return ""
}

// maxXML bounds an XML attachment kept for its e-invoice
// (extract/einvoice reads up to 2 MiB).
const maxXML = 2 << 20

// maxImage bounds an image attachment kept for its barcode: a ticket's
// code is a few kilobytes.
const maxImage = 1 << 20

// ThreadID returns a stable thread key: the root of the References chain,
// else In-Reply-To, else the message's own Message-ID.
func (m *Message) ThreadID() string {
	if len(m.References) > 0 {
		return m.References[0]
	}
	if m.InReplyTo != "" {
		return m.InReplyTo
	}
	return m.MessageID
}

// Parse parses raw message bytes. It never returns nil.
func Parse(raw []byte) *Message { return parse(raw, 0) }

// parse parses a message attached depth mails deep.
func parse(raw []byte, depth int) *Message {
	m := &Message{}
	e, err := message.Read(bytes.NewReader(raw))
	if e == nil {
		// Some senders and archivers drop the blank line between header
		// and body; read the first line that is no header field as the
		// body's start, as lenient readers (Python's email) do.
		if at := headerEnd(raw); at > 0 {
			fixed := make([]byte, 0, len(raw)+2)
			fixed = append(append(append(fixed, raw[:at]...), "\r\n"...), raw[at:]...)
			if e2, err2 := message.Read(bytes.NewReader(fixed)); e2 != nil {
				m.problem("header: no blank line before the body")
				e, err = e2, err2
			}
		}
	}
	if e == nil {
		m.problem("header: %v", err)
		// Keep something searchable even when the header block is broken.
		m.Text = truncate(sanitize(string(raw)), maxTextBytes)
		return m
	}
	if err != nil {
		m.problem("part 1: %v", err)
	}
	m.parseHeader(mail.Header{Header: e.Header})

	p := &walker{msg: m, attachedDepth: depth}
	p.walk(e, "", 0)
	m.Text = strings.TrimSpace(p.text.String())
	m.HTMLText = strings.TrimSpace(p.html.String())
	return m
}

// headerEnd returns the offset of the first line of raw that is neither a
// header field ("Name: value") nor a folded continuation, when at least
// one field comes before it and no blank line does; else 0.
func headerEnd(raw []byte) int {
	for off := 0; off < len(raw); {
		line := raw[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		trimmed := bytes.TrimRight(line, "\r\n")
		switch {
		case len(trimmed) == 0:
			return 0 // a blank line: the header is not the problem
		case trimmed[0] == ' ' || trimmed[0] == '\t':
			if off == 0 {
				return 0
			}
		case !isFieldLine(trimmed):
			return off
		}
		off += len(line)
	}
	return 0
}

// isFieldLine reports whether a line starts with a field name (printable
// ASCII but space and colon, RFC 5322 section 2.2) and a colon.
func isFieldLine(line []byte) bool {
	for i, c := range line {
		switch {
		case c == ':':
			return i > 0
		case c <= ' ' || c > '~':
			return false
		}
	}
	return false
}

func (m *Message) problem(format string, args ...any) {
	if len(m.Problems) < 50 {
		m.Problems = append(m.Problems, fmt.Sprintf(format, args...))
	}
}

func (m *Message) parseHeader(h mail.Header) {
	var err error
	if m.Subject, err = h.Subject(); err != nil {
		m.Subject = sanitize(h.Get("Subject"))
		m.problem("subject: %v", err)
	}
	m.Subject = sanitize(m.Subject)
	if id, err := h.MessageID(); err == nil {
		m.MessageID = id
	} else {
		m.MessageID = strings.Trim(strings.TrimSpace(h.Get("Message-Id")), "<>")
	}
	if ids, err := h.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	if ids, err := h.MsgIDList("References"); err == nil {
		m.References = ids
	}
	m.From = addresses(h, "From", m)
	m.To = addresses(h, "To", m)
	m.Cc = addresses(h, "Cc", m)
	m.ReplyTo = addresses(h, "Reply-To", m)
	m.Sender = addresses(h, "Sender", m)
	m.ListID = sanitize(strings.TrimSpace(h.Get("List-Id")))
	m.ListPost = sanitize(strings.TrimSpace(h.Get("List-Post")))
	for _, v := range h.Values("Authentication-Results") {
		m.AuthResults = append(m.AuthResults, sanitize(v))
	}
	if h.Has("Date") {
		if d, err := h.Date(); err == nil {
			m.Date = d
		} else {
			m.problem("date: %v", err)
		}
	}
}

func addresses(h mail.Header, key string, m *Message) []Address {
	if !h.Has(key) {
		return nil
	}
	list, err := h.AddressList(key)
	if err != nil {
		// Keep the undecodable value rather than dropping the sender.
		m.problem("%s: %v", strings.ToLower(key), err)
		if a, ok := salvageAddress(h.Get(key)); ok {
			return []Address{a}
		}
		if v := strings.TrimSpace(sanitize(h.Get(key))); v != "" {
			return []Address{{Address: v}}
		}
		return nil
	}
	out := make([]Address, 0, len(list))
	for _, a := range list {
		out = append(out, Address{Name: sanitize(a.Name), Address: asciiDomain(strings.ToLower(a.Address))})
	}
	return out
}

type walker struct {
	msg           *Message
	text, html    strings.Builder
	leaves        int
	attachedDepth int // how many mails deep the message is attached
}

func (w *walker) walk(e *message.Entity, part string, depth int) {
	if depth > maxDepth {
		w.msg.problem("part %s: nested deeper than %d", partName(part), maxDepth)
		return
	}
	if mr := e.MultipartReader(); mr != nil {
		for i := 1; ; i++ {
			child, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return
			}
			sub := joinPart(part, i)
			if child == nil {
				w.msg.problem("part %s: %v", sub, err)
				return // the multipart stream is broken past this point
			}
			if err != nil {
				w.msg.problem("part %s: %v", sub, err)
			}
			w.walk(child, sub, depth+1)
		}
	}
	w.leaves++
	if w.leaves > maxParts {
		if w.leaves == maxParts+1 {
			w.msg.problem("more than %d parts; the rest is not read", maxParts)
		}
		return
	}
	w.leaf(e, partName(part))
}

// PartType reads a part's header as clients do: its media type (text/plain
// where it names none) and that type's parameters, its disposition, and its
// file name (Content-Disposition's filename, else Content-Type's name, as
// go-message reads a parameter). An unreadable header reads as empty, not
// as an error.
func PartType(h message.Header) (mediaType string, params map[string]string, disposition, filename string) {
	mediaType, params, _ = h.ContentType()
	if mediaType == "" {
		mediaType = "text/plain"
	}
	disposition, dparams, _ := h.ContentDisposition()
	filename = dparams["filename"]
	if filename == "" {
		filename = params["name"]
	}
	return mediaType, params, disposition, filename
}

func (w *walker) leaf(e *message.Entity, part string) {
	mediaType, params, disp, filename := PartType(e.Header)
	if filename != "" {
		if dec, err := new(mime.WordDecoder).DecodeHeader(filename); err == nil {
			filename = dec
		}
	}
	isAttachment := strings.EqualFold(disp, "attachment") || filename != ""
	textual := mediaType == "text/plain" || mediaType == "text/html"
	// Some systems name the body itself ("Content-Disposition: inline;
	// filename=Body.html"): an inline text part with a name is the body
	// while the message has none of its type yet, so that a mail whose
	// only HTML is named is not left without text.
	if textual && isAttachment && strings.EqualFold(disp, "inline") {
		if mediaType == "text/html" {
			isAttachment = w.msg.HasHTML
		} else {
			isAttachment = w.text.Len() > 0
		}
	}

	if textual && !isAttachment {
		var dst *strings.Builder
		if mediaType == "text/html" {
			dst = &w.html
			w.msg.HasHTML = true
		} else {
			dst = &w.text
		}
		room := maxTextBytes - dst.Len()
		buf := textBuffers.Get().(*bytes.Buffer)
		defer putTextBuffer(buf)
		buf.Reset()
		if _, err := buf.ReadFrom(io.LimitReader(e.Body, int64(maxTextBytes)+1)); err != nil {
			w.msg.problem("part %s: %v", part, err)
		}
		if mediaType == "text/plain" && !strings.EqualFold(params["format"], "flowed") && appendPlain(dst, buf.Bytes(), room) {
			return
		}
		s := sanitize(buf.String())
		if mediaType == "text/html" {
			w.msg.HTML = append(w.msg.HTML, s)
			s = HTMLToText(s)
		} else {
			s = lineEnds(s)
			if strings.EqualFold(params["format"], "flowed") {
				s = Unflow(s, strings.EqualFold(params["delsp"], "yes"))
			}
		}
		if dst.Len() > 0 {
			s = "\n\n" + s
		}
		dst.WriteString(truncate(s, room))
		return
	}
	var n int64
	var err error
	if isCalendar(mediaType, filename) && len(w.msg.Calendars) < maxCalendars {
		var b []byte
		b, err = io.ReadAll(io.LimitReader(e.Body, maxCalendar+1))
		n = int64(len(b))
		if len(b) <= maxCalendar {
			w.msg.Calendars = append(w.msg.Calendars, sanitize(string(b)))
		} else {
			w.msg.problem("part %s: calendar larger than %d bytes", part, maxCalendar)
		}
		if err == nil {
			var rest int64
			rest, err = io.Copy(io.Discard, e.Body)
			n += rest
		}
	} else if isMail(mediaType, filename) && w.attachedDepth < maxAttachedDepth && len(w.msg.Attached) < maxAttached {
		var b []byte
		b, err = io.ReadAll(io.LimitReader(e.Body, maxAttachedBytes+1))
		n = int64(len(b))
		if len(b) <= maxAttachedBytes && err == nil {
			w.msg.Attached = append(w.msg.Attached, parse(b, w.attachedDepth+1))
		} else if err == nil {
			w.msg.problem("part %s: attached mail larger than %d bytes, not read", part, maxAttachedBytes)
			var rest int64
			rest, err = io.Copy(io.Discard, e.Body)
			n += rest
		}
	} else if kind := documentKind(mediaType, filename, disp); kind != "" && len(w.msg.Documents) < maxDocuments {
		limit := int64(maxDocument)
		switch kind {
		case "image":
			limit = maxImage
		case "xml":
			limit = maxXML
		}
		var b []byte
		b, err = io.ReadAll(io.LimitReader(e.Body, limit+1))
		n = int64(len(b))
		if int64(len(b)) <= limit && err == nil {
			w.msg.Documents = append(w.msg.Documents, Document{Part: part, Filename: sanitize(filename), Kind: kind, Data: b})
		} else if err == nil {
			w.msg.problem("part %s: %s larger than %d bytes, not read", part, kind, limit)
			var rest int64
			rest, err = io.Copy(io.Discard, e.Body)
			n += rest
		}
	} else {
		n, err = io.Copy(io.Discard, e.Body)
	}
	if err != nil {
		w.msg.problem("part %s: %v", part, err)
	}
	w.msg.Attachments = append(w.msg.Attachments, Attachment{
		Part:        part,
		Filename:    sanitize(filename),
		ContentType: mediaType,
		Disposition: strings.ToLower(disp),
		Size:        n,
	})
}

// isMail says whether a part is a whole mail: message/rfc822, its
// internationalised form message/global (RFC 6532), or an .eml file sent
// as any type (Outlook sends application/octet-stream).
func isMail(mediaType, filename string) bool {
	return mediaType == "message/rfc822" || mediaType == "message/global" ||
		strings.HasSuffix(strings.ToLower(filename), ".eml")
}

func isCalendar(mediaType, filename string) bool {
	return mediaType == "text/calendar" || mediaType == "application/ics" ||
		strings.HasSuffix(strings.ToLower(filename), ".ics")
}

func joinPart(parent string, i int) string {
	if parent == "" {
		return fmt.Sprint(i)
	}
	return fmt.Sprintf("%s.%d", parent, i)
}

func partName(p string) string {
	if p == "" {
		return "1"
	}
	return p
}

// lineEnds gives a text part's lines "\n" ends. Mail travels with CRLF
// (RFC 5322 section 2.3; RFC 2046 section 4.1.1): an IMAP server returns
// every message so however it was written, and the readers of text split
// lines on "\n", so a CR left at each line's end hid a table's last column
// from them (the end-to-end test in app found it).
func lineEnds(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// textBuffers hold a text part's decoded bytes while it is read: a sync
// reads thousands of parts on every core, and io.ReadAll grew a new slice
// from 512 bytes for each.
var textBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putTextBuffer returns buf to textBuffers, unless a large part grew it:
// a buffer kept is memory held for the process's life.
func putTextBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 256<<10 {
		textBuffers.Put(buf)
	}
}

// appendPlain writes b, a plain text part's decoded bytes, to dst as leaf's
// general path does (sanitize, lineEnds, a blank line after the text dst
// holds, truncate to room) and reports whether it did. It takes the common
// case only, valid UTF-8 without NULs that fits in room, and copies it once,
// where the general path copied it four times (ReadAll's growth, string,
// ReplaceAll and the builder's); else it writes nothing.
func appendPlain(dst *strings.Builder, b []byte, room int) bool {
	need := len(b) - bytes.Count(b, []byte("\r\n"))
	if dst.Len() > 0 {
		need += 2
	}
	if need > room || bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
		return false
	}
	dst.Grow(need)
	if dst.Len() > 0 {
		dst.WriteString("\n\n")
	}
	for {
		i := bytes.Index(b, []byte("\r\n"))
		if i < 0 {
			dst.Write(b)
			return true
		}
		dst.Write(b[:i])
		dst.WriteByte('\n')
		b = b[i+2:]
	}
}

// sanitize makes s valid UTF-8 and drops NULs, which SQLite text and FTS
// tokenisers handle badly.
func sanitize(s string) string {
	if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.ReplaceAll(s, "\x00", "")
}

// truncate cuts s to at most n bytes without splitting a rune.
func truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
