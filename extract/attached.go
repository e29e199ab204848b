package extract

import (
	"net/mail"
	"slices"
	"strings"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// Mail forwarded as an attachment (issue 46): Outlook's and Thunderbird's
// "forward as attachment", and how many people send a booking to
// themselves or a partner, attach the original whole, as a
// message/rfc822 part or an .eml file of another type. Package mime
// parses such a mail (mime.Message.Attached, within its caps: two a
// message, one mail attached to an attached mail, no deeper), and the
// readers below read it as the mail it is: its own From, Date, Subject,
// text, markup and attachments. Its sender is claimed only by the
// forwarded bytes, which the outer mail's DKIM signature does not vouch
// for (a forwarder can attach anything, a mail they wrote themselves among
// it), so its facts are FromForwarded and never authenticated: the
// standing of an inline forward of the same mail, never more
// (docs/extract.md, "Authentication").

// extractAll reads m and the mails attached to it whole.
func extractAll(m *mime.Message, auth msgauth.Verdict, full bool) Result {
	b := newBudget()
	res := extractWithin(m, auth, full, b)
	res.Overdue = b.overdue
	return res
}

// extractWithin is extractAll with the images of m and of the mails
// attached to it read within one budget.
func extractWithin(m *mime.Message, auth msgauth.Verdict, full bool, images *imageBudget) Result {
	return withAttached(m, extract(m, auth, full, images), full, images)
}

// withAttached adds to res, the facts of m itself, those of the mails
// attached to m whole, read as forwarded originals.
func withAttached(m *mime.Message, res Result, full bool, images *imageBudget) Result {
	type read struct {
		msg   *mime.Message
		facts []Fact
	}
	var inner []read
	taint := res.Tainted
	for _, am := range m.Attached {
		if images.late() {
			break
		}
		if len(am.From) == 0 || !strings.Contains(am.From[0].Address, "@") {
			// No sender to speak for, as an inline forward without a
			// From line is none: not read.
			continue
		}
		r := extractWithin(am, msgauth.Verdict{}, full, images)
		res.Pending = res.Pending || r.Pending
		if len(r.Facts) == 0 {
			continue
		}
		for i := range r.Facts {
			r.Facts[i].From = FromForwarded
			r.Facts[i].quotedBy(quotedKey(&mail.Address{Address: am.From[0].Address}, ""))
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

// provenanceRaw is provenance for facts that may come from the mails
// attached to m whole: a value is traced to the first of m and those
// mails that holds it.
func provenanceRaw(m *mime.Message, facts []Fact) [][]FieldSource {
	evs := []*evidence{newEvidence(m)}
	var add func(m *mime.Message)
	add = func(m *mime.Message) {
		for _, am := range m.Attached {
			evs = append(evs, newEvidence(am))
			add(am)
		}
	}
	add(m)
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
