package facts_test

// The ninth outside review (2026-11-29), M1: role-word domains borrowed a
// brand (from the review's x9_test.go).

import (
	"strings"
	"testing"
	"time"
)

// Proves M1 of the ninth outside review is fixed: role words never make a
// name agree with a domain (namesDomain). Before: a domain named by role words ("online-orders.top",
// "fast-delivery.top", "support-desk.top"), seeded 14 days ahead, agrees
// with any "<Brand> Orders" display name by its role word: its order is
// shown as "Amazon Orders", trusted, and answers order_status("amazon").
// Pre-existing at e597c1d.
// And "Amazon.com via mallory-shop" agreed with mallory-shop.example by
// "mallory" and was shown whole: the part after "via" is now the name.
func TestReview9RoleWordDomainBorrowsBrand(t *testing.T) {
	for _, c := range []struct{ from, dom string }{
		{`Amazon Orders <orders@online-orders.top>`, "online-orders.top"},
		{`Amazon Delivery <noreply@fast-delivery.top>`, "fast-delivery.top"},
		{`Amazon Support <noreply@support-desk.top>`, "support-desk.top"},
		{`Amazon Payments <noreply@online-payments.top>`, "online-payments.top"},
		{`Amazon Account <noreply@account-mail.top>`, "account-mail.top"},
		{`Amazon.com via mallory-shop <orders@mallory-shop.example>`, "mallory-shop.example"},
	} {
		seed := review7Mail(c.from, c.dom, "Welcome", "Hello Alex.\r\n", 1)
		order := review7Mail(c.from, c.dom, "Your Amazon.com order #112-9988776-1234567 has shipped",
			"Hello Alex,\r\n\r\nYour order #112-9988776-1234567 has shipped.\r\nCarrier: UPS\r\nTracking number: 1Z999AA10123456784\r\nOrder total: $349.99\r\n", 2)
		fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, order, time.Now()))
		if got := fx.orders(t, "amazon"); strings.Contains(got, `"merchant":"Amazon`) {
			t.Errorf("%s: order_status(amazon) answers the stranger's order as %q, trusted=%v", c.dom,
				got[strings.Index(got, `"merchant":`):strings.Index(got, `,"domain"`)], strings.Contains(got, `"trusted_sender":true`))
		}
	}
}
