package mime

import "testing"

func TestConfusableDomain(t *testing.T) {
	for _, tt := range []struct {
		domain string
		want   bool
	}{
		{"p\u0430ypal.com", true},                                    // Cyrillic а among Latin letters
		{"xn--pypal-4ve.com", true},                                  // the same in its ASCII form
		{"\u0440\u0430\u0443\u0440\u0430l.com", true},                // раураl: Cyrillic, one Latin l
		{"\u0440\u0430\u0443.com", true},                             // рау: all Cyrillic, all look-alikes
		{"p\u0251ypal.com", true},                                    // Latin alpha
		{"\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444", false}, // пример.рф
		{"b\u00fccher.de", false},                                    // bücher.de
		{"xn--bcher-kva.de", false},
		{"m\u00fcnchen-ticket.de", false},
		{"\u4f8b\u3048.jp", false}, // 例え.jp: Han and Hiragana
		{"paypal.com", false},
		{"xn--zz.com", true}, // a broken A-label
	} {
		if got := ConfusableDomain(tt.domain); got != tt.want {
			t.Errorf("ConfusableDomain(%q) = %v, want %v", tt.domain, got, tt.want)
		}
	}
}

// TestConfusableFromShownASCII: such a domain in From is kept in its
// xn-- form, which is how every reader names it.
func TestConfusableFromShownASCII(t *testing.T) {
	m := Parse([]byte("From: PayPal <service@p\u0430ypal.com>\r\nTo: a@b.example\r\nSubject: x\r\n\r\nHi\r\n"))
	if len(m.From) != 1 || m.From[0].Address != "service@xn--pypal-4ve.com" {
		t.Errorf("From = %+v, want service@xn--pypal-4ve.com", m.From)
	}
	m = Parse([]byte("From: Buch <info@b\u00fccher.de>\r\nTo: a@b.example\r\nSubject: x\r\n\r\nHi\r\n"))
	if len(m.From) != 1 || m.From[0].Address != "info@b\u00fccher.de" {
		t.Errorf("From = %+v, want info@bücher.de as written", m.From)
	}
}
