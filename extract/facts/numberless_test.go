package facts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

// The store's side of orders without a number (extract/numberless.go),
// from the review of 2026-12-03: copies of one notice, a forged notice in
// a shop's name that no check caught, a look-alike carrier's domain.

func shopMail(auth, subject, date, mid, body string) string {
	return auth +
		"From: Libreria Norte <pedidos@librerianorte.es>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: " + subject + "\r\nDate: " + date + "\r\nMessage-ID: <" + mid + ">\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
}

const (
	shopPass = "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=librerianorte.es; dmarc=pass header.from=librerianorte.es\r\n"
	// No fail: the shop publishes no DMARC, the forger's SPF is softfail.
	shopForged  = "Authentication-Results: mx.demo-mail.example; spf=softfail smtp.mailfrom=librerianorte.es; dkim=none; dmarc=none\r\n"
	shopShipped = "Hola Marta,\r\nTu pedido ya esta en camino. Direccion de entrega: Calle Mayor 5, 28013 Madrid.\r\nGracias por tu compra.\r\n"
)

// TestNumberlessCopies: one numberless confirmation in two folders (INBOX
// and Gmail's All Mail), and a stranger's sent twice, are one order each;
// two orders of one ID had stopped every merge of the store.
func TestNumberlessCopies(t *testing.T) {
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	acct, _ := st.EnsureAccount(ctx, store.Account{Name: "demo", Server: "h:1", Username: "u"})
	all, err := st.EnsureFolder(ctx, acct.ID, "[Gmail]/All Mail", `\All`)
	if err != nil {
		t.Fatal(err)
	}
	conf := shopMail(shopPass, "Thank you for your order", "Mon, 01 Mar 2027 09:00:00 +0100", "c1@librerianorte.es",
		"Hello,\r\nwe have received your order of 2 items and will ship your parcel soon.\r\n")
	dup := "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=gmail.com; dmarc=pass header.from=gmail.com\r\n" +
		"From: Shop <some.shop.x@gmail.com>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: Thank you for your order\r\nDate: Tue, 02 Mar 2027 09:00:00 +0100\r\nMessage-ID: <same@x>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello,\r\nwe have received your order of 2 items and will ship your parcel soon.\r\n"
	for _, f := range []store.Folder{inbox, all} {
		if err := st.AddMessages(ctx, f.ID, []store.NewMessage{{UID: 1, Raw: []byte(conf), Size: int64(len(conf)), InternalDate: time.Now().AddDate(-1, 0, 0)}}, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.AddMessages(ctx, inbox.ID, []store.NewMessage{
		{UID: 2, Raw: []byte(dup), Size: int64(len(dup)), InternalDate: time.Now()},
		{UID: 3, Raw: []byte(dup), Size: int64(len(dup)), InternalDate: time.Now()},
	}, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatalf("merge: %v", err)
	}
	if got := (readers{fx}).orders(t, "librerianorte"); strings.Count(got, `"o_`) != 1 {
		t.Errorf("the shop's confirmation in two folders: %s, want one order", got)
	}
	if got := (readers{fx}).orders(t, "gmail.com"); strings.Count(got, `"o_`) != 1 {
		t.Errorf("a stranger's confirmation sent twice: %s, want one order", got)
	}
}

// TestNumberlessForgedJoinsNothing: a forged numberless notice in the
// shop's name, between two of the shop's real orders, does not join them
// into one.
func TestNumberlessForgedJoinsNothing(t *testing.T) {
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	delivered := "Hola Marta,\r\nTu pedido ha sido entregado en Calle Mayor 5, 28013 Madrid.\r\nGracias por tu compra.\r\n"
	raws := []string{
		shopMail(shopPass, "Tu pedido ha sido enviado", "Mon, 01 Mar 2027 09:00:00 +0100", "a1@librerianorte.es", shopShipped),
		shopMail(shopPass, "Tu pedido ha sido entregado", "Wed, 03 Mar 2027 09:00:00 +0100", "a2@librerianorte.es", delivered),
		shopMail(shopPass, "Tu pedido ha sido enviado", "Thu, 25 Mar 2027 09:00:00 +0100", "b1@librerianorte.es", shopShipped),
		shopMail(shopForged, "Tu pedido ha sido enviado", "Sun, 14 Mar 2027 09:00:00 +0100", "f1@evil.example", shopShipped),
	}
	var msgs []store.NewMessage
	for i, r := range raws {
		msgs = append(msgs, store.NewMessage{UID: uint32(i + 1), Raw: []byte(r), Size: int64(len(r)), InternalDate: time.Now().AddDate(-1, 0, 0)})
	}
	if err := st.AddMessages(ctx, inbox.ID, msgs, uint32(len(msgs))); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	got := (readers{fx}).orders(t, "librerianorte.es")
	if strings.Count(got, `"o_`) != 2 || !strings.Contains(got, `"status":"shipped"`) || !strings.Contains(got, `"status":"delivered"`) {
		t.Errorf("orders %s, want the delivered one and the shipped one apart", got)
	}
}

// TestNumberlessLookalikeCarrier: a numberless notice in a carrier's name
// from a domain no carrier's list holds ("DHL Paket" on dhl.help) about
// "your parcel from Amazon" is shown by its domain, not as Amazon's order.
func TestNumberlessLookalikeCarrier(t *testing.T) {
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	raw := "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=dhl.help; dmarc=pass header.from=dhl.help\r\n" +
		"From: DHL Paket <noreply@dhl.help>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: Ihr Paket ist unterwegs\r\nDate: Mon, 01 Mar 2027 09:00:00 +0100\r\nMessage-ID: <p@dhl.help>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHallo,\r\nIhr Paket von Amazon ist unterwegs. 1 Artikel. Zustellung am 3.3.\r\n"
	if err := st.AddMessages(ctx, inbox.ID, []store.NewMessage{{UID: 1, Raw: []byte(raw), Size: int64(len(raw)), InternalDate: time.Now().AddDate(0, -1, 0)}}, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	if got := (readers{fx}).orders(t, "amazon"); strings.Contains(got, `"o_`) {
		t.Errorf("order_status(amazon) = %s, want none: dhl.help is no carrier's", got)
	}
	if got := (readers{fx}).orders(t, "dhl.help"); !strings.Contains(got, `"domain":"dhl.help"`) {
		t.Errorf("order_status(dhl.help) = %s, want its order by its domain", got)
	}
}
