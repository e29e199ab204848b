package extract

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"mailnode/extract/lazyregexp"
)

// Tracking numbers in links. A shop's shipping mail often shows a "Track
// your parcel" button and no number: the number is in the button's link
// to the carrier's tracking page ("https://www.dhl.de/…?piececode=…").
// A carrier's own page with a number in its query or path is the carrier's
// word that the number is theirs, so no check digit is asked for; so is
// a click counter's or a redirect's link whose query holds the carrier's
// page whole (the counter leads there). Links to anyone else (a shop's
// page, a counter whose target is coded) are not read.

// Bounds on what is read: a mail's links are hostile input like its text.
const (
	maxLinks   = 200
	maxLinkLen = 2048
)

// linkURLs returns the links of a mail's HTML parts (href of <a> and
// <area>) and the URLs written in its text, in order, at most maxLinks.
func linkURLs(htmls []string, text string) []string {
	var out []string
	for _, h := range htmls {
		z := html.NewTokenizer(strings.NewReader(h))
		for len(out) < maxLinks {
			tt := z.Next()
			if tt == html.ErrorToken {
				break
			}
			if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
				continue
			}
			name, hasAttr := z.TagName()
			if string(name) != "a" && string(name) != "area" {
				continue
			}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if string(k) == "href" && len(v) <= maxLinkLen {
					out = append(out, string(v))
				}
			}
		}
	}
	for _, u := range urlRE.FindAllString(text, maxLinks) {
		if len(out) >= maxLinks {
			break
		}
		if len(u) <= maxLinkLen {
			out = append(out, u)
		}
	}
	return out
}

var urlRE = lazyregexp.New(`https?://[^\s<>"'()\[\]]+`)

// linkNumberRE is what a tracking number in a link looks like: letters and
// digits, at least six of them digits.
var linkNumberRE = lazyregexp.New(`^[A-Za-z0-9]{8,35}$`)

// trackingKeys are what carriers' tracking pages name the number's query
// key by, in part, in the thirteen languages' words for a shipment
// ("Nspediz", "sendungsnummer", "zasilka"); any other key's value is
// only taken when it is the query's one value.
var trackingKeys = []string{"track", "piece", "idc", "barcode", "consign", "parcel", "shipment", "awb", "number", "nr", "code", "id", "ref", "q", "search",
	"sendung", "paket", "pakke", "sped", "envio", "envío", "suivi", "colis", "zasilk", "przesyl", "lahetys", "forsand", "kolli", "sending", "zending", "objeto", "encomenda"}

// linkTracking is the first tracking number in a link to a carrier's
// site, and that carrier.
func (c *msgContext) linkTracking(htmls []string, text string) (tracking, carrier string) {
	for _, raw := range linkURLs(htmls, text) {
		u, car := carrierLink(raw)
		if car == "" {
			continue
		}
		if n := numberInLink(u); n != "" {
			return strings.ToUpper(n), car
		}
	}
	return "", ""
}

// linkedCarrier is the carrier whose own site the mail links to ("Track
// your parcel" to dpd.com, with or without the number in the link), when
// it links to one carrier's only: a shop's notice that prints the number
// and links to the carrier's page names the carrier by the link.
func (c *msgContext) linkedCarrier(text string) string {
	found := ""
	for _, raw := range linkURLs(c.html, text) {
		_, car := carrierLink(raw)
		switch {
		case car == "" || car == found:
		case found != "":
			return "" // two carriers' sites: neither is named by it
		default:
			found = car
		}
	}
	return found
}

// carrierLink parses a link and names the carrier whose site it leads
// to: its own host's, else, for a click counter's or a redirect's link,
// the carrier's URL one of its query values holds whole
// ("https://click.e.shop.example/ls/click?u=https%3A%2F%2Fwww.ups.com%2Ftrack%3Ftracknum%3D1Z…").
// The URL returned is the carrier's; nil and "" when it leads to none.
func carrierLink(raw string) (*url.URL, string) {
	u, err := url.Parse(strings.TrimSpace(html.UnescapeString(raw)))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, ""
	}
	if car := carrierBySender(strings.ToLower(u.Hostname())); car != "" {
		return u, car
	}
	if !strings.Contains(u.RawQuery, "http") {
		return nil, ""
	}
	for _, vs := range u.Query() {
		for _, v := range vs {
			if !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "http://") {
				continue
			}
			if t, err := url.Parse(v); err == nil {
				if car := carrierBySender(strings.ToLower(t.Hostname())); car != "" {
					return t, car
				}
			}
		}
	}
	return nil, ""
}

// numberInLink finds a tracking number in a carrier's URL: a query value
// under a tracking key, the query's only value, or the path's last part.
func numberInLink(u *url.URL) string {
	q := u.Query()
	ok := func(v string) bool {
		v = strings.TrimSpace(v)
		return linkNumberRE.MatchString(v) && len(strings.Map(keepDigits, v)) >= 6 && !masked(v)
	}
	for k, vs := range q {
		lk := strings.ToLower(k)
		if letterScanKey(lk) {
			continue
		}
		for _, key := range trackingKeys {
			if strings.Contains(lk, key) {
				for _, v := range vs {
					// Some pages take several numbers, comma-separated.
					for _, one := range strings.Split(v, ",") {
						if ok(one) {
							return strings.TrimSpace(one)
						}
					}
				}
			}
		}
	}
	if len(q) == 1 {
		for k, vs := range q {
			if letterScanKey(strings.ToLower(k)) {
				continue
			}
			if len(vs) == 1 && ok(vs[0]) {
				return strings.TrimSpace(vs[0])
			}
		}
	}
	// The path's last part, or its first part before a hyphen
	// ("/track-and-trace/3SABCD1234567-NL-1012AB").
	last := u.Path[strings.LastIndexByte(u.Path, '/')+1:]
	if first, _, _ := strings.Cut(last, "-"); ok(last) {
		return last
	} else if ok(first) {
		return first
	}
	return ""
}

// letterScanKey is a query key that names a letter's scan, not a
// parcel: a postal operator's daily digest links each scanned envelope
// by its id (USPS Informed Delivery's "mailpiece=365100846937"), which
// tracks nothing.
func letterScanKey(k string) bool {
	return strings.Contains(k, "mailpiece") || strings.Contains(k, "mail_piece") || strings.Contains(k, "letter")
}

func keepDigits(r rune) rune {
	if r >= '0' && r <= '9' {
		return r
	}
	return -1
}

// trackedByLink reports whether a mail that says no state in words prints
// a tracking number and links to its carrier's tracking page with that
// same number: a shop's shipping mail that names its carrier only in the
// link ("Sendungsnummer: 00340434…" and
// "https://www.dhl.de/…verfolgen.html?idc=00340434…", an ISBN beside
// them). The carrier has the parcel: it is shipped. A carrier's own
// mail is not read so: its digests link every parcel they list, in
// whatever state (the digest's reader, parcellist.go, tells each). The
// gates first: a link at all, and a tracking label's words.
func (c *msgContext) trackedByLink(text string) bool {
	if len(c.html) == 0 && !strings.Contains(text, "://") || carrierBySender(c.senderDomain) != "" {
		return false
	}
	if trackingLabel.anchorSet != nil && !trackingLabel.anchorSet.AnyFold(text) {
		return false
	}
	n, _ := c.trackingNumber(text)
	if n == "" {
		return false
	}
	ln, car := c.linkTracking(c.html, text)
	return car != "" && strings.EqualFold(compactCode(ln), compactCode(n))
}
