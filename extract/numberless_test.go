package extract_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
)

// TestNumberlessOrders: one sender's notices of an order without a
// number, days apart, are one order at its latest state; a new order
// placed, another total, weeks between them, another sender, or a
// carrier's notices of other shops are other orders.
func TestNumberlessOrders(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2027, 3, d, 9, 0, 0, 0, time.UTC) }
	eur := func(a string) *extract.Money { return &extract.Money{Amount: a, Currency: "EUR"} }
	type note struct {
		sender, merchant, status string
		day                      int
		total                    *extract.Money
	}
	for _, tt := range []struct {
		name  string
		notes []note
		want  string // the orders, newest first: merchant status sources
	}{
		{"a parcel's story", []note{
			{"shop.example", "Shop", "ordered", 1, eur("20.00")},
			{"shop.example", "Shop", "shipped", 2, nil},
			{"shop.example", "Shop", "delivered", 4, eur("20.00")},
		}, "Shop delivered [1 2 3]"},
		{"a second order placed", []note{
			{"shop.example", "Shop", "ordered", 1, nil},
			{"shop.example", "Shop", "shipped", 2, nil},
			{"shop.example", "Shop", "ordered", 3, nil},
		}, "Shop ordered [3] | Shop shipped [1 2]"},
		{"another total", []note{
			{"food.example", "Food", "delivered", 1, eur("9.73")},
			{"food.example", "Food", "delivered", 3, eur("15.80")},
		}, "Food delivered [2] | Food delivered [1]"},
		{"weeks apart", []note{
			{"shop.example", "Shop", "shipped", 1, nil},
			{"shop.example", "Shop", "delivered", 25, nil},
		}, "Shop delivered [2] | Shop shipped [1]"},
		// Another sender's word joins nothing of the shop's (its name,
		// which its domain does not spell, is shown as the domain).
		{"another sender's word", []note{
			{"shop.example", "Shop", "shipped", 1, nil},
			{"other.example", "Shop", "delivered", 2, nil},
		}, "other.example delivered [2] | Shop shipped [1]"},
		{"a carrier's parcels of two shops", []note{
			{"inpost.pl", "Sklep A", "shipped", 1, nil},
			{"inpost.pl", "Sklep B", "delivered", 2, nil},
			{"inpost.pl", "Sklep A", "delivered", 3, nil},
		}, "Sklep A delivered [1 3] | Sklep B delivered [2]"},
		{"a carrier's parcels of no shop named", []note{
			{"inpost.pl", "", "shipped", 1, nil},
			{"inpost.pl", "", "delivered", 2, nil},
		}, "delivered [2] | shipped [1]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var recs []extract.Record
			for i, n := range tt.notes {
				o := &extract.Order{Merchant: n.merchant, Status: n.status, Total: n.total}
				if !strings.HasSuffix(n.sender, ".pl") {
					o.Domain = n.sender
				}
				recs = append(recs, extract.Record{Fact: extract.Fact{Kind: extract.KindOrder, From: extract.FromText, Order: o},
					Message: int64(i + 1), Date: day(n.day), Tiebreak: string(rune('a' + i)), Authenticated: true, Trusted: true, Sender: n.sender})
			}
			var got []string
			for _, o := range extract.Merge(recs).Orders {
				got = append(got, strings.TrimSpace(o.Merchant+" "+o.Status)+" "+fmt.Sprint(o.Sources))
			}
			if g := strings.Join(got, " | "); g != tt.want {
				t.Errorf("orders %q, want %q", g, tt.want)
			}
		})
	}
}
