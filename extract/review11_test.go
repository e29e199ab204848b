package extract_test

import (
	"mailnode/extract"
	"strings"
	"testing"
	"time"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// ATTACK: mail/mime salvageAddress (today's change) reads a From that
// net/mail refuses as the first "<…>" in the field, even one inside the
// quoted display name. A stranger at attacker.example (its own DKIM, so
// the provider's DMARC judges and passes header.from=attacker.example)
// sends
//
//	From: "Bank <alerts@bank.example>" <x@attacker.example> =?x?=
//
// which every reader of RFC 5322 takes as x@attacker.example; the node
// takes alerts@bank.example. The provider's results are all "pass", so
// the verdict is neither authenticated nor failed: the message is keyed,
// named and merged as bank.example's mail, where a plain forged From of
// bank.example would have failed DMARC (rejected by p=reject, or kept
// apart as AuthFailed).
// SAFE: salvage skips quoted strings and comments (takes the last
// angle-addr, as the mailbox grammar does), or the verdict's domain
// disagreeing with the provider's dmarc header.from makes the message
// Failed.
func TestReview11SalvagedFromInsideQuotedName(t *testing.T) {
	for _, from := range []string{
		`"Bank <alerts@bank.example>" <x@attacker.example> =?utf-8?q?x?=`,
		`"Bank <alerts@bank.example>" <x@attacker.example> ,`,
		`"Bank <alerts@bank.example>" <x@attacker.example> "`,
	} {
		raw := "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=attacker.example; dmarc=pass header.from=attacker.example\r\n" +
			"From: " + from + "\r\nTo: alex@demo-mail.example\r\nSubject: Your statement\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\n" +
			"Content-Type: text/plain; charset=utf-8\r\n\r\nAmount due: $212.50\r\n"
		m := mime.Parse([]byte(raw))
		if len(m.From) == 0 {
			continue
		}
		v := msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}}.Check(m, nil)
		t.Logf("%q -> %q %+v", from, m.From[0].Address, v)
		if m.From[0].Address == "alerts@bank.example" && !v.Failed {
			t.Errorf("From %s is read as %s, not the address the provider judged (attacker.example), and the verdict does not fail: %+v", from, m.From[0].Address, v)
		}
	}
}

// ATTACK (deny service): mail/mime blockClassesOf (today's change, the
// style sheet's display:block classes) calls stripComments on the whole
// remaining sheet for every rule, and stripComments rebuilds the string
// once per comment: quadratic in a sheet of 64 KiB of "/**/" (about 0.25 s
// for one part on this machine, where a whole mail takes ~140 µs). The
// cap is per HTML part, and every unnamed text/html part of a message is
// a body part converted with HTMLToText (up to maxParts, 1000): one 1.3 MB
// mail of 20 such parts holds extraction for seconds, and a 25 MB one for
// about a minute and a half, on every node it reaches, each sync.
// SAFE: a mail's HTML style sheets cost time linear in their size (strip
// comments once, in one pass; parse rules without rescanning), and the
// parse stays well under a second.
func TestReview11StyleSheetCommentsQuadratic(t *testing.T) {
	part := "--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><head><style>" + strings.Repeat("/**/", 16<<10) +
		"</style></head><body><span class=x>Order 4471</span></body></html>\r\n"
	raw := "From: Shop <shop@example.com>\r\nTo: alex@example.com\r\nSubject: hi\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" + strings.Repeat(part, 20) + "--b--\r\n"
	t0 := processCPU()
	m := mime.Parse([]byte(raw))
	extract.Extract(m, msgauth.Verdict{})
	if d := processCPU() - t0; d > time.Second*raceSlowdown {
		t.Errorf("one %d-byte mail of HTML parts with comment-filled style sheets took %v to read", len(raw), d)
	}
}

// ATTACK (deny service): extract fullName (today's change, a bill's issuer
// with the legal form the text prints after the display name) looks at
// every place the display name occurs in the body and splits the rest of
// that line into words (strings.Fields) each time: quadratic in one long
// line. A stranger's "bill" from "Acme" <billing@acme.example> whose body
// holds a line of "Acme Acme Acme …" takes ~0.8 s at 50 KB, ~8 s at
// 200 KB, and minutes at the 1 MB of text a message keeps; one mail stalls
// extraction on every sync of every node it reaches.
// SAFE: the legal form is read from the few words after the name
// (a bounded window, Fields of at most a short slice), a mail of 100 KB
// reads in well under a second.
func TestReview11FullNameLongLineQuadratic(t *testing.T) {
	raw := "From: Acme <billing@acme.example>\r\nTo: alex@example.com\r\nSubject: Invoice INV-4471\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n\r\nInvoice number: INV-4471\r\nAmount due: $212.50\r\nDue date: December 9, 2026\r\n\r\n" +
		strings.Repeat("Acme ", 20000) + "\r\n"
	t0 := processCPU()
	extract.Extract(mime.Parse([]byte(raw)), msgauth.Verdict{})
	if d := processCPU() - t0; d > time.Second*raceSlowdown {
		t.Errorf("a %d-byte bill with its sender's name repeated on one line took %v to read", len(raw), d)
	}
}
