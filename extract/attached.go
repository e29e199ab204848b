package extract

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/emersion/go-message"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// Mail forwarded as an attachment (issue 46): Outlook's and Thunderbird's
// "forward as attachment", and how many people send a booking to
// themselves or a partner, attach the original whole, as a
// message/rfc822 part or an .eml file of another type. Package mime lists
// such a part as an attachment and keeps no bytes of it, so the readers
// below find it again in the raw message, by its part number, and read it
// as the mail it is: its own From, Date, Subject, text, markup and
// attachments. Its sender is claimed only by the forwarded bytes, which
// the outer mail's DKIM signature does not vouch for (a forwarder can
// attach anything, a mail they wrote themselves among it), so its facts
// are FromForwarded and never authenticated: the standing of an inline
// forward of the same mail, never more (docs/extract.md,
// "Authentication").

// Bounds on the attached mails read, against hostile nesting and size.
const (
	// maxAttachedMails is how many attached mails of one message are read.
	maxAttachedMails = 2
	// maxAttachedDepth: a mail attached to an attached mail is read, one
	// attached deeper is not (mails nested in mails cost seven readings
	// at most: the message, two, and two each).
	maxAttachedDepth = 2
	// maxAttachedBytes bounds an attached mail's decoded bytes; a larger
	// one is not read (package mime keeps 1 MiB of text a message, and a
	// booking with its PDF fits well under this).
	maxAttachedBytes = 8 << 20
	// maxAttachedWalk bounds the parts and nesting walked to find them,
	// as package mime bounds its own walk.
	maxAttachedWalk  = 1000
	maxAttachedNests = 32
)

// ExtractRaw is Extract for a message whose raw bytes are at hand (the
// store's reading, the sync's, the evaluation's): a mail attached to it
// whole is read too, as a forwarded original.
func ExtractRaw(m *mime.Message, raw []byte, auth msgauth.Verdict) Result {
	return extractRaw(m, raw, auth, true, 0)
}

// ExtractRawQuick is ExtractQuick with the mails attached whole read as
// ExtractRaw reads them (their PDFs' text left pending too).
func ExtractRawQuick(m *mime.Message, raw []byte, auth msgauth.Verdict) Result {
	return extractRaw(m, raw, auth, false, 0)
}

func extractRaw(m *mime.Message, raw []byte, auth msgauth.Verdict, full bool, depth int) Result {
	res := extract(m, auth, full)
	if depth >= maxAttachedDepth {
		return res
	}
	// Most mail attaches no mail: the attachments' list says so without
	// a second walk over the raw bytes.
	parts := attachedMailParts(m)
	if len(parts) == 0 {
		return res
	}
	type read struct {
		msg   *mime.Message
		facts []Fact
	}
	var inner []read
	taint := res.Tainted
	for _, b := range attachedMails(raw, parts) {
		am := mime.Parse(b)
		if len(am.From) == 0 || !strings.Contains(am.From[0].Address, "@") {
			// No sender to speak for, as an inline forward without a
			// From line is none: not read.
			continue
		}
		r := extractRaw(am, b, msgauth.Verdict{}, full, depth+1)
		res.Pending = res.Pending || r.Pending
		if len(r.Facts) == 0 {
			continue
		}
		for i := range r.Facts {
			r.Facts[i].From = FromForwarded
		}
		taint = taint || r.Tainted
		inner = append(inner, read{am, r.Facts})
	}
	if len(inner) == 0 {
		return res
	}
	// The forwarder's own lines are part of the message too: a note that
	// addresses an AI reader taints what it forwards (extract worked it
	// out only when the outer text gave facts).
	if !taint && len(res.Facts) == 0 {
		taint = tainted(m, textScan{})
	}
	var attached []Fact
	for _, r := range inner {
		attached = append(attached, r.facts...)
	}
	facts := withoutRestated(res.Facts, attached)
	if taint {
		facts = withoutAccounts(facts, m)
	}
	for _, r := range inner {
		if taint {
			r.facts = withoutAccounts(withoutAccounts(r.facts, r.msg), m)
		}
		facts = append(facts, r.facts...)
	}
	if len(facts) > maxFacts {
		facts = facts[:maxFacts]
	}
	res.Facts, res.Tainted = facts, taint && len(facts) > 0
	return res
}

// withoutRestated drops the outer mail's facts that an attached mail
// states too: the forwarder's subject or note restating its order's or
// bill's number ("RV: Confirmación de tu pedido 7712-0458"), or a leg's
// booking and number, read as the forwarder's own order. The attached
// mail is the source; the restatement adds a wrong sender.
func withoutRestated(outer, attached []Fact) []Fact {
	kept := outer[:0:0]
	for _, f := range outer {
		if !slices.ContainsFunc(attached, f.restates) {
			kept = append(kept, f)
		}
	}
	return kept
}

// restates reports whether f names the same order, bill or leg as a, by
// its reference.
func (f Fact) restates(a Fact) bool {
	switch {
	case f.Kind != a.Kind:
		return false
	case f.Order != nil && a.Order != nil:
		return f.Order.Number != "" && f.Order.Number == a.Order.Number
	case f.Bill != nil && a.Bill != nil:
		return f.Bill.Number != "" && f.Bill.Number == a.Bill.Number
	case f.Segment != nil && a.Segment != nil:
		return f.Segment.Reservation != "" && f.Segment.Reservation == a.Segment.Reservation &&
			f.Segment.Number == a.Segment.Number
	}
	return false
}

// attachedMailParts lists the part numbers of m's attachments that are
// mails: message/rfc822 (message/global, RFC 6532) parts and .eml files
// of any type, within the bounds.
func attachedMailParts(m *mime.Message) []string {
	var parts []string
	for _, a := range m.Attachments {
		if len(parts) == maxAttachedMails {
			break
		}
		if a.Size > maxAttachedBytes {
			continue
		}
		if a.ContentType == "message/rfc822" || a.ContentType == "message/global" ||
			strings.HasSuffix(strings.ToLower(a.Filename), ".eml") {
			parts = append(parts, a.Part)
		}
	}
	return parts
}

// attachedMails finds the parts numbered parts in raw, numbered as
// package mime numbers them (IMAP's: "2", "1.3"; a single part is "1"),
// and returns their decoded bytes, in the order found.
func attachedMails(raw []byte, parts []string) [][]byte {
	// An error with an entity is a charset or a header field go-message
	// could not read; its parts can still be walked, as package mime does.
	e, _ := message.Read(bytes.NewReader(raw))
	if e == nil {
		return nil
	}
	w := partWalk{want: parts}
	w.walk(e, "", 0)
	return w.found
}

// partWalk is one walk over a message's parts for attachedMails.
type partWalk struct {
	want   []string
	found  [][]byte
	leaves int
}

// walk visits e's leaves in package mime's order, keeping the wanted
// ones' bytes; it stops once every wanted part is found.
func (w *partWalk) walk(e *message.Entity, part string, depth int) {
	if depth > maxAttachedNests || len(w.want) == 0 {
		return
	}
	if mr := e.MultipartReader(); mr != nil {
		for i := 1; len(w.want) > 0; i++ {
			child, err := mr.NextPart()
			if child == nil || errors.Is(err, io.EOF) {
				return
			}
			sub := strconv.Itoa(i)
			if part != "" {
				sub = part + "." + sub
			}
			w.walk(child, sub, depth+1)
		}
		return
	}
	if w.leaves++; w.leaves > maxAttachedWalk {
		w.want = nil
		return
	}
	if part == "" {
		part = "1"
	}
	for i, p := range w.want {
		if p != part {
			continue
		}
		w.want = append(w.want[:i:i], w.want[i+1:]...)
		b, err := io.ReadAll(io.LimitReader(e.Body, maxAttachedBytes+1))
		if err == nil && len(b) <= maxAttachedBytes {
			w.found = append(w.found, b)
		}
		return
	}
}

// provenanceRaw is provenance for ExtractRaw's facts: a value is traced
// to the first of m and the mails attached to it (as ExtractRaw finds
// them) that holds it.
func provenanceRaw(m *mime.Message, raw []byte, facts []Fact) [][]FieldSource {
	evs := []*evidence{newEvidence(m)}
	var add func(m *mime.Message, raw []byte, depth int)
	add = func(m *mime.Message, raw []byte, depth int) {
		if depth >= maxAttachedDepth {
			return
		}
		if parts := attachedMailParts(m); len(parts) > 0 {
			for _, b := range attachedMails(raw, parts) {
				am := mime.Parse(b)
				evs = append(evs, newEvidence(am))
				add(am, b, depth+1)
			}
		}
	}
	add(m, raw, 0)
	out := make([][]FieldSource, len(facts))
	for i, f := range facts {
		for _, fv := range factFields(f) {
			var src Source
			for _, ev := range evs {
				if src = ev.locate(f, fv); src.Kind != "" {
					break
				}
			}
			out[i] = append(out[i], FieldSource{Field: fv.name, Value: fv.value, Source: src})
		}
	}
	return out
}
