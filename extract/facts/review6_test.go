package facts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

// review6Mail is an unauthenticated mail from "from".
func review6Mail(from, subject, body string, n int) string {
	return "From: " + from + "\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: " + subject + "\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\nMessage-ID: <review6-" + string(rune('a'+n)) + "@x>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
}

// TestReservedNameSenderNamedByDomain: a stranger writing from an address
// under a reserved name (RFC 2606/6761: example.com, *.invalid, *.localhost)
// is shown under its display name, with no domain, where any other
// unverified sender is shown under its registrable domain
// ("Trust": "PayPal" from paypa1-billing.example reads paypa1-billing.example).
func TestReservedNameSenderNamedByDomain(t *testing.T) {
	bill := "Dear customer,\r\n\r\nInvoice number: INV-88213\r\nAmount due: $349.99\r\nDue date: December 20, 2026\r\n"
	order := "Hello,\r\n\r\nYour order #112-5550001-7777777 has been cancelled and the refund issued.\r\n"
	for i, from := range []string{
		"PayPal <service@paypa1-billing.example>", // the documented look-alike: named by its domain
		"PayPal <service@paypal.invalid>",
		"PayPal <service@example.com>",
		"PayPal <billing@paypal.localhost>",
	} {
		t.Run(from, func(t *testing.T) {
			ctx := context.Background()
			st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
			b := review6Mail(from, "Your PayPal invoice", bill, 2*i)
			o := review6Mail(strings.Replace(from, "PayPal", "Amazon.com", 1), "Your Amazon.com order has been cancelled", order, 2*i+1)
			msgs := []store.NewMessage{
				{UID: 1, Raw: []byte(b), Size: int64(len(b)), InternalDate: time.Now()},
				{UID: 2, Raw: []byte(o), Size: int64(len(o)), InternalDate: time.Now()},
			}
			if err := st.AddMessages(ctx, inbox.ID, msgs, 2); err != nil {
				t.Fatal(err)
			}
			if _, err := fx.Pass(ctx); err != nil {
				t.Fatal(err)
			}
			bills, err := fx.BillsDue(ctx, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 11, 22, 0, 0, 0, 0, time.UTC), 20)
			if err != nil {
				t.Fatal(err)
			}
			if got := join(bills); strings.Contains(got, `"issuer":"PayPal"`) || !strings.Contains(got, "349.99") {
				t.Errorf("an unverified stranger's bill is shown as PayPal's, or not at all: %s", got)
			}
			if got := (readers{fx}).orders(t, "amazon"); strings.Contains(got, `"merchant":"Amazon.com"`) {
				t.Errorf("order_status(amazon) shows a stranger's order under the name it claims: %s", got)
			}
		})
	}
}

// TestClaimlessNoticeNamedByDomain: the building's-notice path (parcel.held,
// 24b570f) clears the domain of any sender that is no carrier and names
// as merchant whoever the text names: a look-alike's "front desk" notice
// is listed by order_status("amazon") as Amazon.com's, with no domain,
// where the same sender's other mail is named by its domain.
func TestClaimlessNoticeNamedByDomain(t *testing.T) {
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	raw := review6Mail("Parcel Desk <desk@amaz0n-lockers.com>", "A parcel is waiting for you",
		"Hello Alex,\r\n\r\nYour package from Amazon.com is waiting at the front desk.\r\nTracking number: 1Z999AA10123456784\r\n", 20)
	msgs := []store.NewMessage{{UID: 1, Raw: []byte(raw), Size: int64(len(raw)), InternalDate: time.Now()}}
	if err := st.AddMessages(ctx, inbox.ID, msgs, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	if got := (readers{fx}).orders(t, "amazon"); strings.Contains(got, `"merchant":"Amazon.com"`) {
		t.Errorf("order_status(amazon) shows a look-alike's notice as Amazon.com's: %s", got)
	}
	if got := (readers{fx}).orders(t, "amaz0n-lockers"); !strings.Contains(got, `"merchant":"amaz0n-lockers.com"`) {
		t.Errorf("the notice is not found and named by its sender's domain: %s", got)
	}
}
