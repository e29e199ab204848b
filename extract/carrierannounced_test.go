package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestCarrierNoticeAnnounced: a carrier's own notice of the reader's
// parcel ("your … parcel", "Ihr Paket", "je pakket"), which says nothing
// of its state but gives the parcel's number after a word for the parcel
// and its colon ("Your parcel: 1500 0000 000 000", "Paket: 2301 4455
// 6612"), is a parcel on its way; a number of the carrier's form that no
// label gives (an account's), a word for the parcel before no number, and
// a carrier's help mail that shows a number (no parcel of the reader's)
// make none.
func TestCarrierNoticeAnnounced(t *testing.T) {
	for _, tt := range []struct{ from, addr, subject, text, tracking, carrier string }{
		{"Yodel", "notifications@yodel.co.uk", "A parcel is coming our way for you",
			"Your Hartwell Books parcel is heading our way.\n\nYour parcel: JD00 0221 0044 1877 11\n", "JD0002210044187711", "Yodel"},
		{"GLS", "noreply@gls-pakete.de", "Paketankündigung",
			"Kaffeehaus Sander hat uns Ihr Paket angekündigt.\n\nPaket:\t2301 4455 6612\n", "230144556612", "GLS"},
		{"Budbee", "noreply@budbee.com", "Binnenkort een pakket",
			"Wonenplus heeft ons je pakket aangekondigd.\n\nPakket: 9921 8810 4471\n", "992188104471", "Budbee"},
		{"Yodel Business", "business@yodel.co.uk", "Changes to your account terms",
			"From 1 January 2027 our terms change. Your account number 406188223317 stays the same.\n\nPackage: Business Plus\n", "", ""},
		{"UPS", "mcinfo@ups.com", "Get more from UPS My Choice",
			"Where do I find my number?\nTracking number: 1Z4A9V83E038127748\nIt starts with 1Z and has 18 characters.\n", "", ""},
	} {
		m := &mime.Message{From: []mime.Address{{Name: tt.from, Address: tt.addr}}, Subject: tt.subject, Text: tt.text,
			Date: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
		_, dom, _ := strings.Cut(tt.addr, "@")
		res := extract.Extract(m, msgauth.Verdict{Authenticated: true, Domain: dom})
		tracking, carrier, status := "", "", ""
		for _, f := range res.Facts {
			if f.Order != nil && len(f.Order.Shipments) > 0 {
				tracking, carrier, status = f.Order.Shipments[0].Tracking, f.Order.Shipments[0].Carrier, f.Order.Status
			}
		}
		if tracking != tt.tracking || carrier != tt.carrier {
			t.Errorf("Extract(%s %q) shipment = %q by %q, want %q by %q", tt.from, tt.subject, tracking, carrier, tt.tracking, tt.carrier)
		}
		if tt.tracking != "" && status != extract.StatusShipped {
			t.Errorf("Extract(%s %q) status = %q, want %q", tt.from, tt.subject, status, extract.StatusShipped)
		}
	}
}
