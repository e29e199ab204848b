package extract

import (
	"strings"
	"testing"
)

// TestLinkTracking: a tracking number is read from a link to a carrier's
// own site (query under a tracking key, the only value, the path's last
// part), never from a link to anyone else's.
func TestLinkTracking(t *testing.T) {
	for _, c := range []struct {
		html, text, want string
	}{
		{`<a href="https://www.dhl.de/de/verfolgen.html?lang=de&amp;piececode=00340434161094042557">Track</a>`, "", "00340434161094042557 DHL"},
		{`<a href="https://www.evri.com/track/parcel/H01HYA0012345678">Track</a>`, "", "H01HYA0012345678 Evri"},
		{`<a href="https://jouw.postnl.nl/track-and-trace/3SZLND1234567-NL-1012AB">Volg</a>`, "", "3SZLND1234567 PostNL"},
		{`<a href="https://www.seur.com/livetracking/?segOnlineIdentificador=09876543210123&amp;segOnlineIdioma=es">Seguir</a>`, "", "09876543210123 SEUR"},
		{"", "Track it: https://tracking.postnord.com/se/?id=00373400112233445566\n", "00373400112233445566 PostNord"},
		{`<a href="https://www.ups.com/track?loc=en_US&amp;tracknum=1z999aa10123456784">Track</a>`, "", "1Z999AA10123456784 UPS"},
		{`<a href="https://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&amp;Nspediz=084017003021456">Traccia</a>`, "", "084017003021456 BRT"},
		// A click counter or a redirect whose query holds the carrier's
		// page whole leads there: the number is the carrier's as on a
		// direct link.
		{`<a href="https://click.mail.shop.example/?u=https%3A%2F%2Fwww.dhl.de%2F%3Fpiececode%3D003404341610">x</a>`, "", "003404341610 DHL"},
		{"", "https://www.google.com/url?q=https://www.correos.es/localizador/detalle?tracking-number%3DPQ4F6P0701234560128011K&sa=D\n", "PQ4F6P0701234560128011K Correos"},
		// A shop's page, a click counter whose target is coded or is no
		// carrier's, a carrier's home page behind a counter, a masked or
		// short number, a carrier's page with no number.
		{`<a href="https://www.shop.example/orders/track?id=00340434161094042557">Track</a>`, "", " "},
		{`<a href="https://u123.ct.sendgrid.example/ls/click?upn=00340434161094042557">x</a>`, "", " "},
		{`<a href="https://click.mail.shop.example/?u=https%3A%2F%2Fwww.shop.example%2Ftrack%3Fid%3D00340434161094042557">x</a>`, "", " "},
		{`<a href="https://click.mail.shop.example/?u=https%3A%2F%2Fwww.ups.com%2Fus%2Fen%2FHome.page">x</a>`, "", " "},
		{`<a href="https://www.dhl.de/verfolgen?piececode=0034XXXXXX4557">x</a>`, "", " "},
		{`<a href="https://www.dhl.de/verfolgen?piececode=12345">x</a>`, "", " "},
		{`<a href="https://www.dhl.de/de/privatkunden.html">x</a>`, "", " "},
		{`<a href="javascript:alert(1)">x</a><a href="https://www.dhl.de/%zz">y</a>`, "", " "},
		// A postal digest's letter scans track nothing; its package does.
		{`<a href="https://informeddelivery.usps.com/box/pages/tracking/email?token=ab&amp;campaign=13&amp;mailpiece=365100846937">x</a>`, "", " "},
		{`<a href="https://informeddelivery.usps.com/box/pages/tracking/email?mailpiece=365100846937">x</a>`, "", " "},
		{`<a href="https://informeddelivery.usps.com/x?mailpiece=365100846937">x</a><a href="https://tools.usps.com/go/TrackConfirmAction?tLabels=94001118992235617846">y</a>`, "", "94001118992235617846 USPS"},
	} {
		m := &msgContext{}
		tr, car := m.linkTracking([]string{c.html}, c.text)
		if got := tr + " " + car; got != c.want {
			t.Errorf("linkTracking(%q, %q) = %q, want %q", c.html, c.text, got, c.want)
		}
	}
}

// TestLinkedCarrier: the carrier a mail links the site of, when it links
// one carrier's only.
func TestLinkedCarrier(t *testing.T) {
	for _, c := range []struct{ html, want string }{
		{`<a href="https://www.dpd.com/de/de/empfangen/sendungsverfolgung/">Sendung verfolgen</a>`, "DPD"},
		{`<a href="https://www.ups.com/track">Track</a><a href="https://www.ups.com/help">Help</a>`, "UPS"},
		{`<a href="https://www.ups.com/track">a</a><a href="https://www.dhl.de/">b</a>`, ""},
		{`<a href="https://www.shop.example/track">a</a>`, ""},
	} {
		m := &msgContext{html: []string{c.html}}
		if got := m.linkedCarrier(""); got != c.want {
			t.Errorf("linkedCarrier(%q) = %q, want %q", c.html, got, c.want)
		}
	}
}

func FuzzLinkTracking(f *testing.F) {
	f.Add(`<a href="https://www.dhl.de/x?piececode=00340434161094042557">a</a>`, "https://www.evri.com/track/parcel/H01HYA0012345678")
	f.Add(`<area href="https://jouw.postnl.nl/track-and-trace/3SZLND1234567-NL-1012AB">`, "")
	f.Fuzz(func(t *testing.T, html, text string) {
		m := &msgContext{}
		if tr, car := m.linkTracking([]string{html}, text); (tr == "") != (car == "") {
			t.Errorf("number %q without carrier %q or the other way", tr, car)
		}
		if n := len(linkURLs([]string{html}, text)); n > maxLinks {
			t.Errorf("%d links read, more than %d", n, maxLinks)
		}
	})
}

// TestGroupedNumber: a labelled number printed in groups is one number; a
// first group of eight or more, or words, are not joined.
func TestGroupedNumber(t *testing.T) {
	for v, want := range map[string]string{
		" 0034 0434 1610 9404 2557":   "00340434161094042557",
		": 1Z 999 AA1 01 2345 6784":   "1Z999AA10123456784",
		" 99.60.123456.12345678":      "996012345612345678",
		" 4001 2345 678":              "40012345678",
		" 00340434161094042557 (DHL)": "",
		" 12 34":                      "",
		" see the link below":         "",
	} {
		if got := groupedNumber(v); got != want {
			t.Errorf("groupedNumber(%q) = %q, want %q", v, got, want)
		}
	}
}

// TestMentionedCarrier: the one carrier a text names as a word, none when
// it names several or only a word that is spelt like one.
func TestMentionedCarrier(t *testing.T) {
	for text, want := range map[string]string{
		"Din ordre er pakket og sendt med Bring.": "Bring",
		"zostało wysłane kurierem InPost.":        "InPost",
		"Envío con Correos Express, llega mañana": "Correos Express",
		"We ship with DHL, UPS and GLS.":          "",
		"The dao of shipping, ups and downs":      "",
		"Sent by DHL. Track it on the DHL site.":  "DHL",
		"Tilauksesi on luovutettu Postille.":      "Posti",
		"Paczka wysłana InPostem.":                "InPost",
		"Postinumero 00100":                       "",
		"Bring photo ID. We hold it for 14 days.": "",
		"Pakken leveres av Bring i morgen.":       "Bring",
	} {
		if got := mentionedCarrier(text); got != want {
			t.Errorf("mentionedCarrier(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestNamedCarrier: a known carrier after its label wherever the value
// stands; an unknown one only after the label and a colon on its line, or
// after a phrase of shipping with it.
func TestNamedCarrier(t *testing.T) {
	for text, want := range map[string]string{
		"Transporteur : Colissimo\n":                                  "Colissimo",
		"Carrier\nDB Schenker\n":                                      "DB Schenker",
		"Carrier: Speedline\n":                                        "Speedline",
		"Your order has been shipped via Delhivery.\n":                "Delhivery",
		"Votre colis a été remis au transporteur\nBonjour Camille,\n": "",
		"The courier will deliver your parcel today.\n":               "",
		"Thank you for choosing us.\nCourier Center\n":                "",
		// A shop system's label with the carrier's name before its colon.
		"Numéro de suivi Colissimo : 6A24417760931\n":                  "Colissimo",
		"Número de seguimiento de Correos Express: 3230012345678901\n": "Correos Express",
		"Numero di tracking BRT: 084171203399511\n":                    "BRT",
		"Tracking number: 1Z4F8E720391726418 (UPS)\n":                  "",
		"Tracking number Mobile: 0612345678\n":                         "",
		// A person after a courier's label, a day after "delivered by".
		"Courier: Mr. Wang\n":                                  "",
		"Zusteller: Herr Kowalski\n":                           "",
		"Kurier: Pan Marek, tel. 600 123 456\n":                "",
		"Refund if the item is not delivered by Apr 28.\n":     "",
		"Your parcel will be delivered by Hermes on Monday.\n": "Hermes",
	} {
		c := &msgContext{}
		if got := c.namedCarrier(text); got != want {
			t.Errorf("namedCarrier(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestLetterScanInURL(t *testing.T) {
	for _, c := range []struct {
		line, num string
		want      bool
	}{
		{"View mail piece <https://informeddelivery.usps.com/box/pages/tracking/email?token=ef34gh&mailpiece=590011223344&source=image> From STATE DMV", "590011223344", true},
		{"Track <https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223850174624>", "9400111899223850174624", false},
		{"Tracking number: 9400111899223850174624", "9400111899223850174624", false},
		{"mailpiece=590011223344 without a link", "590011223344", false},
	} {
		i := strings.Index(c.line, c.num)
		if got := letterScanInURL(c.line, i); got != c.want {
			t.Errorf("letterScanInURL(%q at %d) = %v, want %v", c.line, i, got, c.want)
		}
	}
}
