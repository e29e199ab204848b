package mime

import (
	"strings"
	"testing"
)

// TestMalformedFromAddress: a From field net/mail refuses still gives its
// address, the one in angle brackets, and never words after it as part
// of its domain; a field with no address of a domain's shape gives none
// that has one.
func TestMalformedFromAddress(t *testing.T) {
	for _, c := range []struct{ from, name, addr string }{
		// A folded field with a stray encoded word after the address.
		{"=?utf-8?q?Gr=C3=BCnwald_Holzhandel_GmbH?= <rechnung@gruenwald-holz.example>\r\n =?utf-8?q?olz=2Eexample=3E?=",
			"Grünwald Holzhandel GmbH", "rechnung@gruenwald-holz.example"},
		{"\"Lefèvre, Matériaux\" <factures@lefevre-materiaux.example> trailing words",
			"Lefèvre, Matériaux", "factures@lefevre-materiaux.example"},
		// No brackets: the word that is an address.
		{"billing@tallis-print.example (Tallis Print) <", "", "billing@tallis-print.example"},
	} {
		m := Parse([]byte("From: " + c.from + "\r\nTo: a@b.example\r\nSubject: x\r\n\r\nHi\r\n"))
		if len(m.From) != 1 || m.From[0].Address != c.addr || m.From[0].Name != c.name {
			t.Errorf("Parse(From: %q).From = %+v, want %q <%s>", c.from, m.From, c.name, c.addr)
		}
	}
	// Nothing of an address's shape: whatever is kept has no domain.
	m := Parse([]byte("From: Billing <billing@> =?utf-8?q?x?= <\r\nTo: a@b.example\r\nSubject: x\r\n\r\nHi\r\n"))
	for _, a := range m.From {
		if i := strings.LastIndexByte(a.Address, '@'); i >= 0 && IsDomain(a.Address[i+1:]) {
			t.Errorf("From = %+v: a domain from a field without one", m.From)
		}
	}
}

func TestIsDomain(t *testing.T) {
	for d, want := range map[string]bool{
		"holz-baustoffe-mueller.example":         true,
		"mail.pge.com":                           true,
		"bücher.de":                              true,
		"xn--pypal-4ve.com":                      true,
		"example":                                false,
		"example> =?utf-8?q?ller=2eexample=3e?=": false,
		"-bad.example":                           false,
		"bad-.example":                           false,
		"a..example":                             false,
		"shop.example>":                          false,
		"":                                       false,
	} {
		if got := IsDomain(d); got != want {
			t.Errorf("IsDomain(%q) = %v, want %v", d, got, want)
		}
	}
}
