package trust_test

import (
	"testing"
	"time"

	"mailnode/mail/store"
	"mailnode/mail/trust"
)

func TestFreeMail(t *testing.T) {
	for _, tt := range []struct {
		domain string
		want   bool
	}{
		{"gmail.com", true},
		{"GoogleMail.com", true},
		{"hotmail.co.uk", true}, // hotmail.* under a two-label suffix
		{"outlook.de", true},
		{"yahoo.co.jp", true},
		{"mail.yahoo.com", true}, // a host of the provider
		{"gmx.at", true},
		{"web.de", true},
		{"shops.squarespace.com", true}, // a hosted shop platform (shared.txt)
		{"proton.me", true},
		{"protonmail.ch", true},
		{"icloud.com", true},
		{"email.com", true}, // one of mail.com's domains (ispdb)
		{"sbcglobal.net", true},
		// Alias and relay services: every sender's mail arrives from them.
		{"duck.com", true},
		{"mozmail.com", true},
		{"jane.mozmail.com", true}, // a Relay premium subdomain
		{"relay.firefox.com", true},
		{"simplelogin.com", true},
		{"simplelogin.co", true},
		{"aleeas.com", true},
		{"slmails.com", true},
		{"addy.io", true},
		{"anonaddy.com", true},
		{"johndoe.anonaddy.me", true},
		{"passmail.net", true},
		{"passmail.com", true},
		{"privaterelay.appleid.com", true},
		{"private.icloud.com", true},
		// Services that send strangers' words under their own domain.
		{"docusign.net", true},
		{"paypal.com", true},
		{"paypal.de", true},
		{"paypal.co.uk", true},
		{"messaging.squareup.com", true},
		{"notification.intuit.com", true},
		{"stripe.com", true},
		{"googlegroups.com", true},
		// Notifications that carry a stranger's words.
		{"github.com", true},
		{"gitlab.com", true},
		{"slack.com", true},
		{"meetup.com", true},
		{"linkedin.com", true},
		{"githubusercontent.com", false},
		// The eighth review's relays: file shares, newsletters, events,
		// expenses, card readers.
		{"wetransfer.com", true},
		{"mallory.substack.com", true},
		{"order.eventbrite.com", true},
		{"splitwise.com", true},
		{"sumup.com", true},
		{"x.com", true},
		{"box.com", false},
		{"cash.square.com", true},
		// Platforms whose customers send from subdomains of theirs.
		{"contoso.onmicrosoft.com", true},
		{"acme.zendesk.com", true},
		{"paypal-billing.example", false},
		// Consumer providers missing from the ISP database.
		{"disroot.org", true},
		{"riseup.net", true},
		{"interia.pl", true},
		{"poczta.fm", true},
		{"apple.com", false}, // Apple's own mail, not its relay
		{"duckduckgo.com", false},
		{"google.com", false}, // hosted by Google, not free-mail
		{"nyu.edu", false},
		{"telekom.de", false},
		{"service-mail.zalando.de", false},
		{"gmail-billing.example", false},
		{"", false},
	} {
		if got := trust.FreeMail(tt.domain); got != tt.want {
			t.Errorf("FreeMail(%q) = %v, want %v", tt.domain, got, tt.want)
		}
	}
}

func TestTrusted(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	old := now.AddDate(-2, 0, 0)
	fresh := now.Add(-3 * 24 * time.Hour)
	justOld := now.Add(-trust.NewDomainAge)
	for _, tt := range []struct {
		name     string
		verified bool
		s        store.Sender
		want     bool
	}{
		{"an established company, authenticated", true, store.Sender{Address: "rechnung@telekom.de", Domain: "telekom.de", FirstSeen: old}, true},
		{"an established company, not authenticated", false, store.Sender{Address: "rechnung@telekom.de", Domain: "telekom.de", FirstSeen: old}, false},
		{"a new domain with DKIM pass", true, store.Sender{Address: "billing@telekom-rechnung.example", Domain: "telekom-rechnung.example", FirstSeen: fresh}, false},
		{"a domain never seen", true, store.Sender{Address: "a@b.example", Domain: "b.example"}, false},
		{"a domain exactly NewDomainAge old", true, store.Sender{Address: "a@b.example", Domain: "b.example", FirstSeen: justOld}, true},
		{"a free-mail sender with DKIM pass", true, store.Sender{Address: "vattenfall.rechnung@gmail.com", Domain: "gmail.com", FirstSeen: old}, false},
		{"a free-mail sender the user wrote to another gmail user", true, store.Sender{Address: "stranger@gmail.com", Domain: "gmail.com", FirstSeen: old, WroteToDomain: true}, false},
		{"a free-mail sender the user wrote to", true, store.Sender{Address: "sam@gmail.com", Domain: "gmail.com", FirstSeen: old, WroteToDomain: true, WroteToAddress: true}, true},
		{"a new domain the user wrote to", true, store.Sender{Address: "priya@newcorp.example", Domain: "newcorp.example", FirstSeen: fresh, WroteToDomain: true}, true},
		{"a forged From of a correspondent", false, store.Sender{Address: "priya@democorp.example", Domain: "democorp.example", FirstSeen: old, WroteToDomain: true, WroteToAddress: true}, false},
		{"a forged From of a free-mail correspondent", false, store.Sender{Address: "sam@gmail.com", Domain: "gmail.com", FirstSeen: old, WroteToDomain: true, WroteToAddress: true}, false},
		{"no From address", true, store.Sender{}, false},
		// A relay's domain is old and authenticated whoever wrote through
		// it: one correspondent there is one address.
		{"mail through a relay", true, store.Sender{Address: "billing_at_telekom-rechnung.example_abc@duck.com", Domain: "duck.com", FirstSeen: old}, false},
		{"mail through a relay the user wrote to another address of", true, store.Sender{Address: "x7k2@mozmail.com", Domain: "mozmail.com", FirstSeen: old, WroteToDomain: true}, false},
		{"a relay address the user wrote to", true, store.Sender{Address: "circus.waltz449@anonaddy.me", Domain: "anonaddy.me", FirstSeen: old, WroteToDomain: true, WroteToAddress: true}, true},
		{"Sign in with Apple's relay", true, store.Sender{Address: "abc@privaterelay.appleid.com", Domain: "appleid.com", FirstSeen: old}, false},
		// A service that sends its account holders' invoices and envelopes
		// under its own old domain: a stranger's invoice through PayPal is
		// not PayPal's word.
		{"an invoice through PayPal", true, store.Sender{Address: "service@paypal.com", Domain: "paypal.com", FirstSeen: old}, false},
		{"an envelope through DocuSign", true, store.Sender{Address: "dse_na2@docusign.net", Domain: "docusign.net", FirstSeen: old}, false},
		{"a Microsoft 365 tenant made yesterday", true, store.Sender{Address: "alerts@flightdesk.onmicrosoft.com", Domain: "onmicrosoft.com", FirstSeen: old}, false},
	} {
		if got := trust.Trusted(tt.verified, tt.s, now); got != tt.want {
			t.Errorf("%s: Trusted(%v, %+v) = %v, want %v", tt.name, tt.verified, tt.s, got, tt.want)
		}
	}
}

func TestSenderKey(t *testing.T) {
	for _, tt := range []struct {
		s    store.Sender
		want string
	}{
		{store.Sender{Address: "booking@mail.lufthansa.com", Domain: "lufthansa.com"}, "lufthansa.com"},
		{store.Sender{Address: "flightdesk.notice@gmail.com", Domain: "gmail.com"}, "flightdesk.notice@gmail.com"},
		// One address for many writers: each message a sender of its own.
		{store.Sender{Address: "service@paypal.com", Domain: "paypal.com"}, "service@paypal.com#7"},
		{store.Sender{Address: "quickbooks@notification.intuit.com", Domain: "intuit.com"}, "quickbooks@notification.intuit.com#7"},
		{store.Sender{Address: "a1b2c3@mozmail.com", Domain: "mozmail.com"}, "a1b2c3@mozmail.com#7"},
		{store.Sender{Address: "billing@contoso.onmicrosoft.com", Domain: "onmicrosoft.com"}, "billing@contoso.onmicrosoft.com#7"},
		{store.Sender{Address: "store-55501@wix.com", Domain: "wix.com"}, "store-55501@wix.com#7"},
		{store.Sender{Address: "odd"}, "odd"},
	} {
		if got := trust.SenderKey(tt.s, 7); got != tt.want {
			t.Errorf("SenderKey(%+v, 7) = %q, want %q", tt.s, got, tt.want)
		}
	}
}
