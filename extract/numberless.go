package extract

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// Orders that print neither an order's number nor a tracking number
// ("Il tuo ordine è stato spedito" from Amazon.it, "Twoja paczka jest w
// drodze" from InPost; numberlessNotice) have no key to join their
// notices by. One shop's notices a few days apart are one order, moving
// forward as they come; a new order placed, another total or weeks
// between them start another.

// numberlessGap is the longest a numberless order waits between two of
// its notices: a parcel's notices come days apart, a shop's next order
// weeks later.
const numberlessGap = 14 * 24 * time.Hour

// numberlessSpan and numberlessMost bound one numberless order: a
// parcel's story ends within weeks, and a sender's notices every few days
// for months (a newsletter misread) make orders of a few each, not one
// that every later notice is compared with.
const (
	numberlessSpan = 60 * 24 * time.Hour
	numberlessMost = 12
)

// numberlessOrders groups the records of orders without a key: each group
// one order, by one sender about one shop, in the order of their dates,
// with the key its ID is made of (the first record's). A record with no
// sender and no domain to group it by is left out, as before.
func numberlessOrders(recs []Record) (roots []string, groups [][]Record) {
	by := map[string][]Record{}
	var whos []string
	for _, r := range recs {
		if r.Order == nil || len(orderKeys(r.Order)) > 0 {
			continue
		}
		who := cmp.Or(r.Sender, orgDomain(r.Order.Domain))
		if who == "" {
			continue
		}
		// A carrier's notices are about many shops' parcels: the shop
		// it names tells them apart, and one that names none joins
		// nothing.
		key := who + "|" + strings.ToLower(r.Order.Merchant)
		if _, ok := by[key]; !ok {
			whos = append(whos, key)
		}
		by[key] = append(by[key], r)
	}
	slices.Sort(whos)
	for _, key := range whos {
		// Only the records the merge would keep of this sender (the
		// trusted, the authenticated): a forged notice in the shop's name
		// that no check caught must not join, split or fill the shop's
		// real orders before onlyTrusted drops it.
		rs, _, _ := onlyTrusted(by[key])
		slices.SortStableFunc(rs, func(a, b Record) int {
			return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(a.Tiebreak, b.Tiebreak))
		})
		var cur []Record
		flush := func() {
			if len(cur) > 0 {
				roots = append(roots, "nonum|"+key+"|"+strings.ToUpper(cur[0].Tiebreak)+"|"+cur[0].Date.UTC().Format(time.RFC3339))
				groups = append(groups, cur)
				cur = nil
			}
		}
		for _, r := range rs {
			if len(cur) > 0 && !joinsNumberless(cur, r) {
				flush()
			}
			cur = append(cur, r)
		}
		flush()
	}
	return roots, groups
}

// joinsNumberless reports whether r is a later notice of the order whose
// notices are cur: days after the last and weeks at most after the
// first, not an order placed again (a confirmation after one, or after
// the order went on), no other total, and no carrier's notice that names
// no shop.
func joinsNumberless(cur []Record, r Record) bool {
	last := cur[len(cur)-1]
	// A copy of a notice already joined (the same message in two
	// folders, or sent twice) is that notice.
	if last.Tiebreak == r.Tiebreak && last.Date.Equal(r.Date) {
		return true
	}
	if r.Date.Sub(last.Date) > numberlessGap || r.Date.Sub(cur[0].Date) > numberlessSpan || len(cur) >= numberlessMost ||
		r.Order.Merchant == "" && carrierNotices([]Record{r}) {
		return false
	}
	for _, x := range cur {
		if r.Order.Status == StatusOrdered && x.Order.Status != "" {
			return false
		}
		// A state behind one the order reached ("shipped" after
		// "delivered") is another order's.
		if rank(r.Order.Status) > 0 && rank(r.Order.Status) < rank(x.Order.Status) {
			return false
		}
		if r.Order.Total != nil && x.Order.Total != nil && *r.Order.Total != *x.Order.Total {
			return false
		}
	}
	return true
}
