package facts_test

import (
	"strings"
	"testing"
	"time"
)

// TestLookAlikeBrandDomainBorrowsNoBrand: the ninth outside review's
// leftover. A domain that holds a brand's own word with role words beside
// it (amazon-orders.shop, myamazon.shop, paypal-secure.top) or the word
// under a suffix the brand does not own (amazon.top), seeded a year
// ahead, agreed with the name "Amazon" and its order was shown as
// Amazon's, trusted. The brand's own domain and a shop whose domain holds
// its own name and a role word stay named.
func TestLookAlikeBrandDomainBorrowsNoBrand(t *testing.T) {
	for _, c := range []struct {
		from, dom, query, merchant string
		shown                      bool
	}{
		{`Amazon <orders@amazon-orders.shop>`, "amazon-orders.shop", "amazon", `"merchant":"Amazon`, false},
		{`Amazon.com <orders@myamazon.shop>`, "myamazon.shop", "amazon", `"merchant":"Amazon`, false},
		{`Amazon <orders@amazon.top>`, "amazon.top", "amazon", `"merchant":"Amazon`, false},
		{`Amazon Orders <orders@amazonorders.online>`, "amazonorders.online", "amazon", `"merchant":"Amazon`, false},
		{`Amazon.de <bestellbestaetigung@amazon.de>`, "amazon.de", "amazon", `"merchant":"Amazon.de"`, true},
		{`Amazon.co.uk <auto-confirm@amazon.co.uk>`, "amazon.co.uk", "amazon", `"merchant":"Amazon.co.uk"`, true},
		{`Kaffeewerk <shop@kaffeewerk-shop.de>`, "kaffeewerk-shop.de", "kaffeewerk", `"merchant":"Kaffeewerk"`, true},
	} {
		seed := review7Mail(c.from, c.dom, "Welcome", "Hello Alex.\r\n", 1)
		order := review7Mail(c.from, c.dom, "Your order #112-9988776-1234567 has shipped",
			"Hello Alex,\r\n\r\nYour order #112-9988776-1234567 has shipped.\r\nCarrier: UPS\r\nTracking number: 1Z999AA10123456784\r\nOrder total: $349.99\r\n", 2)
		fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, order, time.Now()))
		got := fx.orders(t, c.query)
		if strings.Contains(got, c.merchant) != c.shown {
			t.Errorf("%s: order_status(%s) = %s; want %s shown: %v", c.dom, c.query, got, c.merchant, c.shown)
		}
	}
}
