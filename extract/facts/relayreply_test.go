package facts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

// TestShopWithFreeMailReplyKeepsOrder: a small shop on its own domain
// that answers from its owner's Gmail (Reply-To) is relayed by that sign
// alone (trust.RelayedByReply): never trusted, a sender of its own, but
// its order is still listed, where a seller's message through a
// marketplace (a relay's address) states none.
func TestShopWithFreeMailReplyKeepsOrder(t *testing.T) {
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	shop := "From: Kettle & Crumb <orders@kettleandcrumb.example>\r\nReply-To: Kettle & Crumb <kettleandcrumb@gmail.com>\r\n" +
		"To: Alex Morgan <alex.morgan@demo-mail.example>\r\nSubject: Order #1042 confirmed\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\n" +
		"Message-ID: <kc-1042@kettleandcrumb.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"Hi Alex,\r\n\r\nThank you for your order #1042! We are getting it ready.\r\n\r\nOrder total: €38.50\r\n\r\nKettle & Crumb\r\n"
	seller := "From: Gadgets - Amazon Marketplace <8kq2x7yb3m4lz9p@marketplace.amazon.co.uk>\r\n" +
		"To: Alex Morgan <alex.morgan@demo-mail.example>\r\nSubject: Your order 205-1234567-1234567 has been cancelled\r\nDate: Sat, 21 Nov 2026 09:00:00 +0100\r\n" +
		"Message-ID: <seller-1@marketplace.amazon.co.uk>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"Hello,\r\n\r\nYour order 205-1234567-1234567 has been cancelled and the refund issued.\r\n"
	msgs := []store.NewMessage{
		{UID: 1, Raw: []byte(shop), Size: int64(len(shop)), InternalDate: time.Now()},
		{UID: 2, Raw: []byte(seller), Size: int64(len(seller)), InternalDate: time.Now()},
	}
	if err := st.AddMessages(ctx, inbox.ID, msgs, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	got := (readers{fx}).orders(t, "Kettle & Crumb")
	if !strings.Contains(got, `"number":"1042"`) {
		t.Errorf("the shop's order with its owner's Gmail as Reply-To is not listed: %s", got)
	}
	if got := (readers{fx}).orders(t, "amazon"); strings.Contains(got, "205-1234567-1234567") {
		t.Errorf("a marketplace seller's message states an order: %s", got)
	}
	if strings.Contains(got, `"trusted_sender":true`) {
		t.Errorf("a relayed message's order is trusted: %s", got)
	}
}
