package extract_test

import (
	"testing"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestTrackedByLink: a shop's HTML mail that prints a tracking number and
// links to its carrier's page with that number, and says no state in
// words, tells of a parcel shipped; a link with another number, or no
// link, tells nothing (foreign-5's Thalia mail).
func TestTrackedByLink(t *testing.T) {
	page := func(link string) string {
		return "<html><body><p>Auftrag 1443660001</p><p>Ein Roman, ISBN 9783745934649</p>" +
			"<p>Sendungsnummer: 00340434721045331774</p>" + link + "</body></html>"
	}
	for _, c := range []struct{ html, want string }{
		{page(`<p>https://www.dhl.de/de/privatkunden/pakete-empfangen/verfolgen.html?lang=de&amp;idc=00340434721045331774</p>`),
			"1443660001 shipped 00340434721045331774 DHL"},
		{page(`<p><a href="https://www.dhl.de/verfolgen.html?idc=00340434721045331774">Sendung verfolgen</a></p>`),
			"1443660001 shipped 00340434721045331774 DHL"},
		{page(`<p><a href="https://www.dhl.de/verfolgen.html?idc=00340434161094042557">Sendung verfolgen</a></p>`), ""},
		{page(``), ""},
	} {
		msg := mime.Parse([]byte("From: Buchladen <info@buchladen.example>\r\nSubject: Ihre Lieferung\r\n" +
			"Date: Wed, 25 Mar 2026 10:17:45 +0100\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + c.html))
		got := ""
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if o := f.Order; o != nil {
				got = o.Number + " " + o.Status
				for _, s := range o.Shipments {
					got += " " + s.Tracking + " " + s.Carrier
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.html, got, c.want)
		}
	}
}
