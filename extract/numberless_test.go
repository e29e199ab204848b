package extract_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
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
		copyOf                   int  // a copy of the note at this 1-based index (same Date and Tiebreak)
		forged                   bool // unauthenticated: a forged From that no check caught
	}
	for _, tt := range []struct {
		name  string
		notes []note
		want  string // the orders, newest first: merchant status sources
	}{
		{"a parcel's story", []note{
			{"shop.example", "Shop", "ordered", 1, eur("20.00"), 0, false},
			{"shop.example", "Shop", "shipped", 2, nil, 0, false},
			{"shop.example", "Shop", "delivered", 4, eur("20.00"), 0, false},
		}, "Shop delivered [1 2 3]"},
		{"a second order placed", []note{
			{"shop.example", "Shop", "ordered", 1, nil, 0, false},
			{"shop.example", "Shop", "shipped", 2, nil, 0, false},
			{"shop.example", "Shop", "ordered", 3, nil, 0, false},
		}, "Shop ordered [3] | Shop shipped [1 2]"},
		{"another total", []note{
			{"food.example", "Food", "delivered", 1, eur("9.73"), 0, false},
			{"food.example", "Food", "delivered", 3, eur("15.80"), 0, false},
		}, "Food delivered [2] | Food delivered [1]"},
		{"weeks apart", []note{
			{"shop.example", "Shop", "shipped", 1, nil, 0, false},
			{"shop.example", "Shop", "delivered", 25, nil, 0, false},
		}, "Shop delivered [2] | Shop shipped [1]"},
		// Another sender's word joins nothing of the shop's (its name,
		// which its domain does not spell, is shown as the domain).
		{"another sender's word", []note{
			{"shop.example", "Shop", "shipped", 1, nil, 0, false},
			{"other.example", "Shop", "delivered", 2, nil, 0, false},
		}, "other.example delivered [2] | Shop shipped [1]"},
		{"a carrier's parcels of two shops", []note{
			{"inpost.pl", "Sklep A", "shipped", 1, nil, 0, false},
			{"inpost.pl", "Sklep B", "delivered", 2, nil, 0, false},
			{"inpost.pl", "Sklep A", "delivered", 3, nil, 0, false},
		}, "Sklep A delivered [1 3] | Sklep B delivered [2]"},
		// Copies of one notice (one message in two folders) are one
		// notice: two orders of one ID stopped every merge of the store.
		{"copies of a confirmation", []note{
			{"shop.example", "Shop", "ordered", 1, nil, 0, false},
			{"shop.example", "Shop", "ordered", 1, nil, 1, false},
		}, "Shop ordered [1 2]"},
		{"thirteen copies", slices.Repeat([]note{{"shop.example", "Shop", "shipped", 2, nil, 1, false}}, 13),
			"Shop shipped [1 2 3 4 5 6 7 8 9 10 11 12 13]"},
		// A forged notice in the shop's name neither joins nor splits
		// its real orders.
		{"a forged notice between two orders", []note{
			{"shop.example", "Shop", "delivered", 1, nil, 0, false},
			{"shop.example", "Shop", "shipped", 10, nil, 0, true},
			{"shop.example", "Shop", "shipped", 20, nil, 0, false},
		}, "Shop shipped [3] | Shop delivered [1]"},
		// A state behind the one reached is the next order's.
		{"shipped after delivered", []note{
			{"shop.example", "Shop", "shipped", 1, nil, 0, false},
			{"shop.example", "Shop", "delivered", 2, nil, 0, false},
			{"shop.example", "Shop", "shipped", 5, nil, 0, false},
		}, "Shop shipped [3] | Shop delivered [1 2]"},
		{"a carrier's parcels of no shop named", []note{
			{"inpost.pl", "", "shipped", 1, nil, 0, false},
			{"inpost.pl", "", "delivered", 2, nil, 0, false},
		}, "delivered [2] | shipped [1]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var recs []extract.Record
			for i, n := range tt.notes {
				o := &extract.Order{Merchant: n.merchant, Status: n.status, Total: n.total}
				if !strings.HasSuffix(n.sender, ".pl") {
					o.Domain = n.sender
				}
				tiebreak := string(rune('a' + i))
				if n.copyOf > 0 {
					tiebreak = string(rune('a' + n.copyOf - 1))
				}
				recs = append(recs, extract.Record{Fact: extract.Fact{Kind: extract.KindOrder, From: extract.FromText, Order: o},
					Message: int64(i + 1), Date: day(n.day), Tiebreak: tiebreak, Authenticated: !n.forged, Trusted: !n.forged, Sender: n.sender})
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

// TestNumberlessOrderIDs: whatever numberless notices a store holds
// (copies, forged ones, one sender's many), no two orders share an ID:
// it keys the store's merged table, where a repeat stops every merge.
func TestNumberlessOrderIDs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	statuses := []string{"ordered", "shipped", "out_for_delivery", "delivered"}
	for round := range 300 {
		var recs []extract.Record
		for i := range 1 + r.IntN(40) {
			o := &extract.Order{Merchant: []string{"Shop", "Other", ""}[r.IntN(3)], Status: statuses[r.IntN(len(statuses))], Domain: "shop.example"}
			if r.IntN(4) == 0 {
				o.Total = &extract.Money{Amount: fmt.Sprint(r.IntN(3)), Currency: "EUR"}
			}
			recs = append(recs, extract.Record{Fact: extract.Fact{Kind: extract.KindOrder, From: extract.FromText, Order: o},
				Message: int64(i + 1), Date: time.Date(2027, 3, 1+r.IntN(60), 9, 0, 0, 0, time.UTC),
				Tiebreak: fmt.Sprint(r.IntN(5)), Authenticated: r.IntN(3) > 0, Sender: []string{"shop.example", "inpost.pl"}[r.IntN(2)]})
		}
		seen := map[string]bool{}
		for _, o := range extract.Merge(recs).Orders {
			if seen[o.ID] {
				t.Fatalf("round %d: two orders of ID %s", round, o.ID)
			}
			seen[o.ID] = true
		}
	}
}
