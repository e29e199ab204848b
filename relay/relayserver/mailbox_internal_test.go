package relayserver

import (
	"strings"
	"testing"
)

// TestRegistrable: the spellings registration takes, and the mailbox
// each counts under.
func TestRegistrable(t *testing.T) {
	for _, tc := range []struct {
		in, address, mailbox string // address "" means refused
	}{
		{" Owner@Example.COM ", "owner@example.com", "owner@example.com"},
		{"first.last@example.com", "first.last@example.com", "first.last@example.com"},
		{"owner+news@example.com", "owner+news@example.com", "owner+@example.com"},
		{"owner+a+b@example.com", "owner+a+b@example.com", "owner+@example.com"},
		{"owner+@example.com", "owner+@example.com", "owner+@example.com"},
		{"+tag@example.com", "+tag@example.com", "+tag@example.com"},
		{"o'brien_x-y=z#1$&*/?^`{|}~@example.com", "o'brien_x-y=z#1$&*/?^`{|}~@example.com", "o'brien_x-y=z#1$&*/?^`{|}~@example.com"},
		{"jörg@bücher.example", "jörg@bücher.example", "jörg@xn--bcher-kva.example"},
		{"jörg+x@bücher.example", "jörg+x@bücher.example", "jörg+@xn--bcher-kva.example"},
		// One spelling per domain: its A-label form, and letters IDNA
		// maps to others (fullwidth, look-alikes), are refused, as are
		// compatibility forms in the local part.
		{"jörg@xn--bcher-kva.example", "", ""},
		{"owner@\uff45xample.com", "", ""},
		{"owner@example.\uff43\uff4f\uff4d", "", ""},
		{"owner@\u212fxample.com", "", ""},
		{"owner@ex\uff41mple.com", "", ""},
		{"\uff4fwner@example.com", "", ""},
		{`"owner"@example.com`, "", ""},
		{`"\ow\ner"@example.com`, "", ""},
		{`ow\ner@example.com`, "", ""},
		{".owner@example.com", "", ""},
		{"owner.@example.com", "", ""},
		{"ow..ner@example.com", "", ""},
		{"owner%host@example.com", "", ""},
		{"host!owner@example.com", "", ""},
		{"(c)owner@example.com", "", ""},
		{"ow,ner@example.com", "", ""},
		{"owner@exa_mple.com", "", ""},
		{"owner@[127.0.0.1]", "", ""},
		{"jo\u0308rg@example.com", "", ""}, // NFD: ö as o and a combining diaeresis
		{strings.Repeat("a", 65) + "@example.com", "", ""},
	} {
		address, mailbox, detail := registrable(tc.in)
		if tc.address == "" {
			if detail == "" {
				t.Errorf("registrable(%q) = %q, %q; want refused", tc.in, address, mailbox)
			}
			continue
		}
		if detail != "" || address != tc.address || mailbox != tc.mailbox {
			t.Errorf("registrable(%q) = %q, %q, %q; want %q, %q", tc.in, address, mailbox, detail, tc.address, tc.mailbox)
		}
	}
}

// FuzzRegistrable: an accepted address is a normalised one with a
// dot-atom local part and no quoting, taken again unchanged; its mailbox
// key has the same domain in ASCII form and its local part up to any '+'.
func FuzzRegistrable(f *testing.F) {
	for _, s := range []string{"ann@example.com", `"ann"@example.com`, "a+b@c.d", "a..b@c.d", "ö@bücher.example", `a\b@c.d`, "a%b@c.d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		address, mailbox, detail := registrable(in)
		if detail != "" {
			if address != "" || mailbox != "" {
				t.Fatalf("refused %q but returned %q, %q", in, address, mailbox)
			}
			return
		}
		if n, ok := NormalizeAddress(address); !ok || n != address {
			t.Fatalf("registrable(%q) = %q, not normalised", in, address)
		}
		if strings.ContainsAny(address, "\"\\()%!, []<>:;") {
			t.Fatalf("registrable(%q) = %q: quoting or routing left in", in, address)
		}
		if again, m2, d2 := registrable(address); again != address || m2 != mailbox || d2 != "" {
			t.Fatalf("not idempotent: %q -> %q, %q -> %q, %q, %q", in, address, mailbox, again, m2, d2)
		}
		local, _, _ := strings.Cut(address, "@")
		mlocal, _, _ := strings.Cut(mailbox, "@")
		if base, _, tagged := strings.Cut(local, "+"); tagged && base != "" {
			if mlocal != base+"+" {
				t.Fatalf("mailbox of %q = %q, want %q+", address, mailbox, base)
			}
		} else if mlocal != local {
			t.Fatalf("mailbox of %q = %q", address, mailbox)
		}
	})
}
