package trust_test

import (
	"testing"
	"time"

	"mailnode/mail/mime"
	"mailnode/mail/store"
	"mailnode/mail/trust"
)

// TestRelayed: the shapes of mail that relays another writer's words under
// its From domain (the tenth outside review, HIGH-2), and a company's own
// mail beside them, which must stay the company's.
func TestRelayed(t *testing.T) {
	addr := func(name, a string) []mime.Address { return []mime.Address{{Name: name, Address: a}} }
	for _, tt := range []struct {
		name string
		m    mime.Message
		want bool
	}{
		{"drive share", mime.Message{From: addr("Mallory (via Google Drive)", "drive-shares-dm-noreply@google.com")}, true},
		{"drive share, German", mime.Message{From: addr("Mallory (über Google Drive)", "drive-shares-noreply@google.com")}, true},
		{"drive address alone", mime.Message{From: addr("Google Drive", "drive-shares-dm-noreply@google.com")}, true},
		{"docs comment", mime.Message{From: addr("Mallory (Google Docs)", "comments-noreply@docs.google.com")}, true},
		{"calendar", mime.Message{From: addr("Google Calendar", "calendar-notification@google.com")}, true},
		{"canva", mime.Message{From: addr("Mallory Billing via Canva", "no-reply@canva.com")}, true},
		{"dropbox", mime.Message{From: addr("Mallory (via Dropbox)", "no-reply@dropbox.com")}, true},
		{"seller", mime.Message{From: addr("Gadgets - Amazon Marketplace", "8kq2x7yb3m4lz9p@marketplace.amazon.co.uk")}, true},
		{"gift card", mime.Message{From: addr("Amazon.de", "gc-orders@gc.email.amazon.de")}, true},
		{"list post", mime.Message{From: addr("Bob via Neighbours", "neighbours@lists.town.example"), ListPost: "<mailto:neighbours@lists.town.example>"}, true},
		{"list post alone", mime.Message{From: addr("Neighbours", "neighbours@lists.town.example"), ListPost: "<mailto:neighbours@lists.town.example>"}, true},
		{"list id, reply elsewhere", mime.Message{From: addr("Club", "club@club.example"), ListID: "<club.club.example>", ReplyTo: addr("", "bob@bob.example")}, true},
		{"form, reply to gmail", mime.Message{From: addr("Formular", "forms@webforms.example"), ReplyTo: addr("Mallory", "mallory@gmail.com")}, true},
		{"sender at gmail", mime.Message{From: addr("Events", "events@venue.example"), Sender: addr("", "mallory@gmail.com")}, true},
		{"zelle request", mime.Message{From: addr("Chase", "no.reply.alerts@chase.com"), Subject: "MALLORY SMITH requested $212.50 with Zelle®"}, true},
		{"money request", mime.Message{From: addr("Bank", "alerts@bank.example"), Subject: "INTERAC e-Transfer: MALLORY sent you a money request"}, true},
		{"seller subject", mime.Message{From: addr("Shop", "x@shop.example"), Subject: "Order cancellation (Message from seller)"}, true},
		{"egift", mime.Message{From: addr("Coffee Co", "gifts@coffee.example"), Subject: "Mallory sent you a Coffee Co eGift"}, true},

		{"google receipt", mime.Message{From: addr("Google Payments", "payments-noreply@google.com"), Subject: "Your Google Play order receipt"}, false},
		{"amazon order", mime.Message{From: addr("Amazon.com", "auto-confirm@amazon.com"), ReplyTo: addr("", "no-reply@amazon.com")}, false},
		{"reply to help desk", mime.Message{From: addr("Shop", "orders@shop.example"), ReplyTo: addr("", "help@shop.zendesk.com")}, false},
		{"sender at mailer", mime.Message{From: addr("Airline", "info@airline.example"), Sender: addr("", "bounces@mailer.example")}, false},
		{"list id newsletter", mime.Message{From: addr("Shop", "news@shop.example"), ListID: "<news.shop.example>"}, false},
		{"gmail friend, reply elsewhere", mime.Message{From: addr("Bob", "bob@gmail.com"), ReplyTo: addr("", "bob@hotmail.com")}, false},
		{"name with via inside", mime.Message{From: addr("Via Rail Canada", "noreply@viarail.ca")}, false},
		{"payment received", mime.Message{From: addr("Bank", "alerts@bank.example"), Subject: "You received $50.00 with Zelle®"}, false},
	} {
		if got := trust.Relayed(&tt.m); got != tt.want {
			t.Errorf("%s: Relayed = %v, want %v", tt.name, got, tt.want)
		}
		// Only a free-mail Reply-To or Sender, alone, is RelayedByReply.
		byReply := tt.name == "form, reply to gmail" || tt.name == "sender at gmail"
		if got := trust.RelayedByReply(&tt.m); got != byReply {
			t.Errorf("%s: RelayedByReply = %v, want %v", tt.name, got, byReply)
		}
	}
}

// TestRelayedSenderIsItsMessage: a relayed message is never trusted, is
// no correspondent's and is a sender of its own, however old and written
// to its domain is.
func TestRelayedSenderIsItsMessage(t *testing.T) {
	now := time.Now()
	s := store.Sender{Address: "drive-shares-dm-noreply@google.com", Domain: "google.com", FirstSeen: now.AddDate(-5, 0, 0), WroteToDomain: true}
	if !trust.Trusted(true, s, now) || trust.SenderKey(s, 7) != "google.com" {
		t.Fatalf("google.com's own mail: trusted %v, key %q", trust.Trusted(true, s, now), trust.SenderKey(s, 7))
	}
	s.Relayed = true
	if trust.Trusted(true, s, now) || trust.Corresponded(s) {
		t.Errorf("a relayed message is trusted (%v) or a correspondent's (%v)", trust.Trusted(true, s, now), trust.Corresponded(s))
	}
	if a, b := trust.SenderKey(s, 7), trust.SenderKey(s, 8); a == b || a == "google.com" {
		t.Errorf("relayed messages share a sender: %q, %q", a, b)
	}
}
