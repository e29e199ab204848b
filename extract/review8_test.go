package extract_test

import (
	"fmt"
	"strings"
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

// review8StopLine is a budget airline's confirmation as one line, its
// flight number, route and three clocked stops on it (the review's
// "seven-line" mail).
const review8StopLine = "PRIYA, here are the details for booking KWTDHZL Payment of £84.18 by Visa Debit on 12/04/2028 " +
	"London Gatwick (North Terminal) to Copenhagen (Terminal 2) Flight NJ 8126 Departs: Sat 20 May 07:05 " +
	"Arrives: Sat 20 May 09:55 Bag drop closes: Sat 20 May 06:25 Ms PRIYA SHAH Seat 14C"

// TestReview8TextCost: a mail's text costs its readers about a second at
// most, however it repeats a flight's line: 250 KB of numbered lines held
// the flight reader 5-10 s (each stop's line searched for a departure's
// and an arrival's label from every byte), and a chain of four forwarded
// 256 KB parts four times that (MEDIUM-1). Each shape is timed under a
// bound well above what it now takes (0.3-1 s on this project's machines)
// and well under what it took.
func TestReview8TextCost(t *testing.T) {
	block := func(n int, sep string) string {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(review8StopLine + sep)
		}
		return b.String()
	}
	const fwd = "\n---------- Forwarded message ---------\nFrom: Nordjet <noreply@nordjet.example>\n" +
		"Date: Wed, 12 Apr 2028 09:31:45 +0100\nSubject: booking\nTo: me@example.com\n\n"
	lines := block(250<<10, "\n")
	for _, c := range []struct{ name, text string }{
		{"numbered lines", lines},
		{"one line", block(250<<10, " ")},
		{"a chain of four forwards", lines + fwd + lines + fwd + lines + fwd + lines},
	} {
		start := time.Now()
		mailFacts("Nordjet <noreply@nordjet.example>", "Fwd: Nordjet booking reference: KWTDHZL", c.text, time.Date(2028, 4, 12, 10, 0, 0, 0, time.UTC))
		if d := time.Since(start); d > 4*time.Second*raceSlowdown {
			t.Errorf("%s (%d bytes) held the readers %v", c.name, len(c.text), d)
		}
	}
}
