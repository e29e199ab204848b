package facts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

// xf7bMail is a mail from "from" whose provider vouches for domain.
func xf7bMail(from, domain, subject, body string, n int) string {
	return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=" + domain + "; dmarc=pass header.from=" + domain + "\r\n" +
		"From: " + from + "\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: " + subject + "\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\nMessage-ID: <xf7b-" + string(rune('a'+n)) + "@x>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
}

func xf7bStore(t *testing.T, msgs ...store.NewMessage) readers {
	t.Helper()
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	if err := st.AddMessages(ctx, inbox.ID, msgs, uint32(len(msgs))); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	return readers{fx}
}

func xf7bMsg(uid uint32, raw string, arrived time.Time) store.NewMessage {
	return store.NewMessage{UID: uid, Raw: []byte(raw), Size: int64(len(raw)), InternalDate: arrived}
}

// A bank's newsletter (an established, authenticated domain) that explains
// its reminder feature with an example amount and day is a trusted bill
// due in bills_due (bill.topic's "payment reminder", "upcoming payment",
// "payment is due", 236df41; "850,00 euro", c58ee4e).
func TestXF7BNewsletterIsTrustedBill(t *testing.T) {
	seed := xf7bMail("Monzo <hello@monzo.com>", "monzo.com", "Welcome to Monzo", "Hi Alex, welcome aboard.\r\n", 0)
	news := xf7bMail("Monzo <hello@monzo.com>", "monzo.com", "Never miss a bill again",
		"Hi Alex,\r\n\r\nNever miss a payment again. Set up a payment reminder in the app and we'll nudge you\r\n"+
			"the day before your upcoming payment is due. For example, if your rent of 850,00 euro\r\n"+
			"is due on 1 December 2026, we'll remind you on 30 November.\r\n\r\nHappy saving,\r\nThe Monzo team\r\n", 1)
	revo := xf7bMail("Revolut <no-reply@revolut.com>", "revolut.com", "Your rent, sorted",
		"Hey Alex,\r\n\r\nScheduled payments are here. Your rent payment is due on the 1st? Set it once:\r\n"+
			"Amount: 1,200.00 GBP\r\nDue: 1 December 2026\r\nand we'll do the rest. Tap Payments > Scheduled to start.\r\n", 2)
	seed2 := xf7bMail("Revolut <no-reply@revolut.com>", "revolut.com", "Welcome", "Hi.\r\n", 3)
	old := time.Now().AddDate(-1, 0, 0)
	fx := xf7bStore(t, xf7bMsg(1, seed, old), xf7bMsg(2, news, time.Now()), xf7bMsg(3, seed2, old), xf7bMsg(4, revo, time.Now()))
	bills, err := fx.fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 11, 22, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	if got := join(bills); strings.Contains(got, "850.00") || strings.Contains(got, "1200.00") {
		t.Errorf("a newsletter's example is a bill due: %s", got)
	}
}
