package extract_test

import (
	"fmt"
	"testing"
	"time"

	"mailnode/extract"
)

// Only the domains carriers send from make a notice a carrier's: a domain
// that merely starts with a carrier's name (dhl.help, ups.express,
// gls.app; hermes.com is a fashion house) is anyone's, and its notice
// moves no other sender's order, however trusted (the eighth outside
// review). The carrier's own domain does, known by the record's sender as
// the facts store sets it.
func TestReview8LookalikeCarrierDomain(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 9, 0, 0, 0, time.UTC) }
	rec := func(msg int64, sender string, numbered bool, parcel string) extract.Record {
		o := &extract.Order{Shipments: []extract.Shipment{{Tracking: "1Z999AA10123456784", Status: parcel}}}
		if numbered {
			o.Domain, o.Number, o.Status = sender, "4471093", extract.StatusShipped
		}
		return extract.Record{Fact: extract.Fact{Kind: extract.KindOrder, From: extract.FromText, Order: o},
			Message: msg, Date: day(int(msg)), Tiebreak: fmt.Sprint(msg), Authenticated: true, Trusted: true, Sender: sender}
	}
	for _, c := range []struct {
		dom       string
		delivered bool
	}{{"ups.com", true}, {"dhl.help", false}, {"ups.express", false}, {"hermes.com", false}, {"gls.app", false}} {
		m := extract.Merge([]extract.Record{rec(1, "amazon.com", true, extract.StatusShipped), rec(2, c.dom, false, extract.StatusDelivered)})
		for _, o := range m.Orders {
			if o.Domain == "amazon.com" && (o.Shipments[0].Status == extract.StatusDelivered) != c.delivered {
				t.Errorf("%s's notice: amazon.com's parcel %s, want delivered = %v", c.dom, o.Shipments[0].Status, c.delivered)
			}
		}
	}
}
