package extract_test

import (
	"testing"

	"mailnode/extract"
)

// TestForwardedMarkup: JSON-LD, microdata and calendars in a forwarded
// mail or a quoted reply are the original's, never the forwarder's: read
// under the quoted sender and never authenticated, however well the
// forwarder's own mail authenticates (the outside review's HIGH-3: a
// stranger's JSON-LD bill forwarded by a trusted partner came out as the
// partner's, verified and trusted). Markup of the sender's own mail
// stays theirs.
func TestForwardedMarkup(t *testing.T) {
	const jsonLD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Invoice",` +
		`"accountId":"K-2209","paymentDueDate":"2027-01-15","provider":{"@type":"Organization","name":"Stadtwerke"},` +
		`"totalPaymentDue":{"@type":"PriceSpecification","price":"899.00","priceCurrency":"EUR"},"confirmationNumber":"R-55120"}</script>`
	mail := func(subject, before string) string {
		return "From: Partner <kim@partner-family.example>\r\nTo: ana@mail.example\r\n" +
			"Date: Tue, 17 Nov 2026 18:00:00 +0100\r\nSubject: " + subject + "\r\n" +
			"Authentication-Results: mx.provider.example; dmarc=pass header.from=partner-family.example\r\n" +
			"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" +
			"<html><body>" + before + jsonLD + "<p>Rechnung R-55120: 899,00 EUR, fällig am 15.01.2027.</p></body></html>\r\n"
	}
	tests := []struct {
		name, subject, before string
		wantFrom, wantDomain  string
	}{
		{"gmail forward", "Fwd: Ihre Rechnung", "<p>Is this real?</p><div>---------- Forwarded message ---------<br>From: Stadtwerke &lt;rechnung@stadtwerke-abrechnung.example&gt;<br>Date: Mon, 16 Nov 2026<br>Subject: Ihre Rechnung<br></div>",
			extract.FromForwarded, "stadtwerke-abrechnung.example"},
		{"quoted reply", "Re: Ihre Rechnung", "<p>Paid already?</p><p>On Mon, 16 Nov 2026 at 09:00, Stadtwerke &lt;rechnung@stadtwerke-abrechnung.example&gt; wrote:</p>",
			extract.FromForwarded, "stadtwerke-abrechnung.example"},
		{"forwarded by subject only", "Fwd: Ihre Rechnung", "", extract.FromForwarded, "partner-family.example"},
		// The second review's layouts: no address in the attribution, a
		// reply's or another language's prefix, a client's quote block.
		{"thunderbird reply without an address", "Re: Ihre Rechnung", `<div class="moz-cite-prefix">On 16.11.26 09:00, Stadtwerke wrote:</div><blockquote type="cite">`,
			extract.FromForwarded, "partner-family.example"},
		{"outlook reply in German", "AW: Ihre Rechnung", `<div id="divRplyFwdMsg"><b>Von:</b> Stadtwerke<br><b>Gesendet:</b> Montag</div>`,
			extract.FromForwarded, "partner-family.example"},
		{"swedish forward by subject", "VB: Ihre Rechnung", "", extract.FromForwarded, "partner-family.example"},
		{"a quote block only", "Ihre Rechnung", `<blockquote>`, extract.FromForwarded, "partner-family.example"},
		{"the sender's own", "Ihre Rechnung", "", extract.FromJSONLD, "partner-family.example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, res := readRaw(mail(tt.subject, tt.before))
			if !res.Auth.Authenticated {
				t.Fatalf("auth = %+v, want the forwarder authenticated", res.Auth)
			}
			if len(res.Facts) != 1 || res.Facts[0].Bill == nil {
				t.Fatalf("facts = %s, want one bill", js(res.Facts))
			}
			f := res.Facts[0]
			if f.From != tt.wantFrom || f.Bill.Domain != tt.wantDomain {
				t.Errorf("bill from %q, domain %q; want %q, %q", f.From, f.Bill.Domain, tt.wantFrom, tt.wantDomain)
			}
			merged := extract.Merge([]extract.Record{{Fact: f, Message: 1, Date: m.Date, Authenticated: res.Auth.Authenticated}})
			wantVerified := tt.wantFrom != extract.FromForwarded
			if len(merged.Bills) != 1 || merged.Bills[0].Verified != wantVerified {
				t.Errorf("merged = %s, want one bill verified %v", js(merged.Bills), wantVerified)
			}
		})
	}
}
