package extract_test

import (
	"mailnode/mail/msgauth"

	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
)

// sequence is the mails of one story, oldest first.
func sequence() []*mime.Message {
	d := "Mon, %02d Nov 2026 09:00:00 +0100"
	day := func(n int) string { return fmt.Sprintf(d, n) }
	return []*mime.Message{
		textMessage("Shop|orders@shop.example", "Thank you for your order", day(2), "Order number: 4471093\nOrder total: €64.97\n"),
		textMessage("Shop|orders@shop.example", "Your order has shipped", day(3), "Order number: 4471093\nTracking number: 1Z999AA10123456784\n"),
		textMessage("Shop|orders@shop.example", "Out for delivery", day(5), "Order number: 4471093\nTracking number: 1Z999AA10123456784\n"),
		textMessage("Shop|orders@shop.example", "Delivered: your order", day(6), "Order number: 4471093\nTracking number: 1Z999AA10123456784\n"),
		textMessage("Stadtwerke|rechnung@stadtwerke.example", "Ihre Rechnung", day(4), "Rechnungsnummer: R-2026-0042\nRechnungsbetrag: 87,40 €\nZahlbar bis 30.11.2026\n"),
		textMessage("Stadtwerke|rechnung@stadtwerke.example", "Zahlungseingang bestätigt", day(7), "Rechnungsnummer: R-2026-0042\nZahlung über 87,40 € erhalten.\n"),
		textMessage("Air|booking@air.example", "Booking confirmation ABC123", day(1), "Booking reference: ABC123\nFlight AB 1234 on 3 Jan 2027\nDEP 07:00 (LIS)\nARR 09:40 (FRA)\n"),
		textMessage("Air|booking@air.example", "Your booking ABC123 has been cancelled", day(8), "Booking reference: ABC123\nYour flight booking was cancelled.\n"),
	}
}

func records(msgs []*mime.Message) []extract.Record {
	var out []extract.Record
	for i, m := range msgs {
		res := extract.Extract(m, msgauth.Checker{}.Check(m, nil))
		for _, f := range res.Facts {
			out = append(out, extract.Record{Fact: f, Message: int64(i + 1), Date: m.Date, Tiebreak: m.Subject})
		}
	}
	return out
}

func TestMergeFinalState(t *testing.T) {
	got := extract.Merge(records(sequence()))
	if len(got.Orders) != 1 || got.Orders[0].Status != extract.StatusDelivered || got.Orders[0].Total == nil {
		t.Errorf("orders = %s, want one delivered order with its total", js(got.Orders))
	}
	if len(got.Bills) != 1 || got.Bills[0].Status != extract.StatusPaid {
		t.Errorf("bills = %s, want one paid bill", js(got.Bills))
	}
	if len(got.Trips) != 1 || got.Trips[0].Status != extract.StatusCancelled {
		t.Errorf("trips = %s, want one cancelled trip", js(got.Trips))
	}
}

// TestMergeOrderIndependent replays the same mails in many orders, and the
// records of each in many orders: the merged state must not change.
func TestMergeOrderIndependent(t *testing.T) {
	msgs := sequence()
	want := js(extract.Merge(records(msgs)))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		shuffled := append([]*mime.Message(nil), msgs...)
		rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		// Message ids follow arrival order, as in the store; they must not
		// matter either, except in the sources lists, so map them back.
		recs := records(shuffled)
		for j := range recs {
			arrived := shuffled[recs[j].Message-1]
			for k, m := range msgs {
				if m == arrived {
					recs[j].Message = int64(k + 1)
					break
				}
			}
		}
		if got := js(extract.Merge(recs)); got != want {
			t.Fatalf("replay %d differs:\n%s\nwant\n%s", i, got, want)
		}
	}
}

// TestUnauthenticatedCannotOverride: a spoofed cancellation does not cancel
// a booking confirmed by an authenticated sender.
func TestUnauthenticatedCannotOverride(t *testing.T) {
	msgs := sequence()
	recs := records([]*mime.Message{msgs[6], msgs[7]})
	recs[0].Authenticated = true
	got := extract.Merge(recs)
	if len(got.Trips) != 1 || got.Trips[0].Status != extract.StatusConfirmed || !got.Trips[0].Verified {
		t.Errorf("trips = %s, want the verified booking still confirmed", js(got.Trips))
	}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestSenderNames (hardening item 10): an issuer or merchant is named by
// the mail only when its domain was authenticated and the name agrees
// with the domain; otherwise by the domain.
func TestSenderNames(t *testing.T) {
	due := &extract.Time{Time: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	for _, tc := range []struct {
		issuer, domain string
		verified       bool
		want           string
	}{
		{"Deutsche Telekom", "rechnung.telekom.de", true, "Deutsche Telekom"},
		{"Vattenfall Europe Sales", "vattenfall.de", true, "Vattenfall Europe Sales"},
		{"Amazon.de", "amazon.de", true, "Amazon.de"},
		{"PayPal", "paypa1-billing.example", true, "paypa1-billing.example"},
		{"Vattenfall", "vattenfall-billing-secure.example", false, "vattenfall-billing-secure.example"},
		{"Vattenfall", "vattenfall.de", false, "vattenfall.de"},
		{"", "stadtwerke.example", true, "stadtwerke.example"},
	} {
		recs := []extract.Record{{Fact: extract.Fact{Kind: extract.KindBill, From: extract.FromText,
			Bill: &extract.Bill{Issuer: tc.issuer, Domain: tc.domain, Status: extract.StatusDue, Due: due}},
			Message: 1, Date: due.Time.Add(-72 * time.Hour), Authenticated: tc.verified}}
		got := extract.Merge(recs)
		if len(got.Bills) != 1 || got.Bills[0].Issuer != tc.want || got.Bills[0].Verified != tc.verified {
			t.Errorf("issuer %q from %s (verified %v) = %s, want %q", tc.issuer, tc.domain, tc.verified, js(got.Bills), tc.want)
		}
		recs[0].Fact = extract.Fact{Kind: extract.KindOrder, From: extract.FromText,
			Order: &extract.Order{Merchant: tc.issuer, Domain: tc.domain, Number: "123-4567", Status: "ordered"}}
		if got := extract.Merge(recs); len(got.Orders) != 1 || got.Orders[0].Merchant != tc.want {
			t.Errorf("merchant %q from %s (verified %v) = %s, want %q", tc.issuer, tc.domain, tc.verified, js(got.Orders), tc.want)
		}
	}
}

// TestMergeTaint: a merged fact with a tainted contributing record is
// tainted; a tainted record cannot change what clean authenticated mail
// states (a tainted "paid" does not pay a bill, a tainted cancellation
// cancels nothing).
func TestMergeTaint(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2027, 6, d, 8, 0, 0, 0, time.UTC) }
	due := &extract.Time{Time: day(20), DateOnly: true}
	bill := func(msg int64, d int, status string, auth, tainted bool) extract.Record {
		return extract.Record{Fact: extract.Fact{Kind: extract.KindBill, From: extract.FromText,
			Bill: &extract.Bill{Issuer: "Power", Domain: "power.example", Number: "4411", Status: status, Due: due}},
			Message: msg, Date: day(d), Tiebreak: fmt.Sprint(msg), Authenticated: auth, Tainted: tainted}
	}
	for _, tt := range []struct {
		name              string
		recs              []extract.Record
		status            string
		verified, tainted bool
		sources           string
	}{
		{"clean", []extract.Record{bill(1, 1, extract.StatusDue, true, false)}, extract.StatusDue, true, false, "[1]"},
		{"tainted, authenticated", []extract.Record{bill(1, 1, extract.StatusDue, true, true)}, extract.StatusDue, true, true, "[1]"},
		{"tainted, not authenticated", []extract.Record{bill(1, 1, extract.StatusDue, false, true)}, extract.StatusDue, false, true, "[1]"},
		{"a tainted reminder beside unauthenticated clean mail", []extract.Record{bill(1, 1, extract.StatusDue, false, false), bill(2, 2, extract.StatusDue, false, true)},
			extract.StatusDue, false, true, "[1,2]"},
		{"a tainted 'paid' does not pay a clean bill", []extract.Record{bill(1, 1, extract.StatusDue, true, false), bill(2, 2, extract.StatusPaid, true, true)},
			extract.StatusDue, true, false, "[1]"},
		{"tainted mail from authenticated senders only", []extract.Record{bill(1, 1, extract.StatusDue, true, true), bill(2, 2, extract.StatusPaid, true, true)},
			extract.StatusPaid, true, true, "[1,2]"},
	} {
		got := extract.Merge(tt.recs)
		if len(got.Bills) != 1 {
			t.Errorf("%s: Merge() bills = %s, want one", tt.name, js(got.Bills))
			continue
		}
		b := got.Bills[0]
		if b.Status != tt.status || b.Verified != tt.verified || b.Tainted != tt.tainted || js(b.Sources) != tt.sources {
			t.Errorf("%s: Merge() = %s, want status %s, verified %v, tainted %v, sources %s", tt.name, js(b), tt.status, tt.verified, tt.tainted, tt.sources)
		}
		if tt.tainted && b.Issuer != "power.example" {
			t.Errorf("%s: a tainted bill is named %q, want its domain", tt.name, b.Issuer)
		}
	}
	// A trip and an order carry the taint of any record kept.
	seg := extract.Record{Fact: extract.Fact{Kind: extract.KindFlight, From: extract.FromText, Segment: &extract.Segment{Type: extract.KindFlight,
		Status: extract.StatusConfirmed, Number: "LH 400", Depart: &extract.Time{Time: day(20)}}}, Message: 1, Date: day(1), Tainted: true}
	ord := extract.Record{Fact: extract.Fact{Kind: extract.KindOrder, From: extract.FromText, Order: &extract.Order{Domain: "shop.example",
		Number: "123", Status: extract.StatusOrdered}}, Message: 2, Date: day(1), Tainted: true}
	got := extract.Merge([]extract.Record{seg, ord})
	if len(got.Trips) != 1 || !got.Trips[0].Tainted || len(got.Orders) != 1 || !got.Orders[0].Tainted {
		t.Errorf("Merge(tainted flight, tainted order) = %s %s, want both tainted", js(got.Trips), js(got.Orders))
	}
	if b, _ := json.Marshal(got.Orders[0]); !strings.Contains(string(b), `"tainted":true`) {
		t.Errorf("a tainted order's JSON = %s, want the marker", b)
	}
}

// TestMergeHotelStays: two hotels' stays that give the same reservation
// number on other days stay two stays; a booking's changed dates and a
// cancellation naming only the number still apply to its one stay.
func TestMergeHotelStays(t *testing.T) {
	d := "Mon, %02d Nov 2026 09:00:00 +0100"
	day := func(n int) string { return fmt.Sprintf(d, n) }
	stays := func(msgs ...*mime.Message) []extract.Segment {
		var out []extract.Segment
		for _, tr := range extract.Merge(records(msgs)).Trips {
			out = append(out, tr.Segments...)
		}
		return out
	}
	gdansk := textMessage("Hotel Wolne Miasto|recepcja@hotelwolnemiasto.example", "Rezerwacja potwierdzona", day(2),
		"Hotel: Hotel Wolne Miasto\nReservation number: 66120447\nCheck-in: 03.03.2028\nCheck-out: 05.03.2028\n")
	lindau := textMessage("Hotel Bayerischer Hof|reservierung@bayerischerhof.example", "Reservierungsbestätigung", day(3),
		"Hotel: Hotel Bayerischer Hof\nReservation number: 66120447\nCheck-in: 12.01.2029\nCheck-out: 14.01.2029\n")
	got := stays(gdansk, lindau)
	if len(got) != 2 || got[0].Hotel == got[1].Hotel {
		t.Fatalf("two hotels with one number = %s, want two stays", js(got))
	}
	for _, s := range got {
		if s.Hotel == "Hotel Wolne Miasto" && s.CheckIn.Format("2006-01-02") != "2028-03-03" {
			t.Errorf("Wolne Miasto's stay = %s, want its own dates", js(s))
		}
	}
	moved := textMessage("Hotel Wolne Miasto|recepcja@hotelwolnemiasto.example", "Zmiana rezerwacji", day(4),
		"Hotel: Hotel Wolne Miasto\nReservation number: 66120447\nCheck-in: 10.03.2028\nCheck-out: 12.03.2028\n")
	if got := stays(gdansk, moved); len(got) != 1 || got[0].CheckIn.Format("2006-01-02") != "2028-03-10" {
		t.Errorf("a booking's changed dates = %s, want one stay on the new dates", js(got))
	}
}

// TestMergeBySender: a sender's mail changes only what its own mail
// states; a carrier's notice only moves the shipments of an order that
// lists its tracking number forward.
func TestMergeBySender(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 9, 0, 0, 0, time.UTC) }
	const shop, carrier, stranger = "shop.example", "ups.com", "x@gmail.com"
	type by struct {
		sender         string
		auth, trusted  bool
		numbered       bool // the shop's order number; else a carrier's notice
		status, parcel string
	}
	rec := func(msg int64, b by) extract.Record {
		// The mail's sender domain is its sender's (a free-mail
		// address's provider), the shop's where unknown.
		domain := "shop.example"
		if b.sender != "" {
			domain = b.sender[strings.LastIndexByte(b.sender, '@')+1:]
		}
		o := &extract.Order{Domain: domain, Status: b.status,
			Shipments: []extract.Shipment{{Tracking: "1Z999AA10123456784", Status: b.parcel}}}
		if b.numbered {
			o.Number = "4471093"
		}
		return extract.Record{
			Fact:    extract.Fact{Kind: extract.KindOrder, From: extract.FromText, Order: o},
			Message: msg, Date: day(int(msg)), Tiebreak: fmt.Sprint(msg), Authenticated: b.auth, Trusted: b.trusted, Sender: b.sender,
		}
	}
	shipped := by{shop, false, false, true, extract.StatusShipped, extract.StatusShipped}
	tests := []struct {
		name string
		recs []extract.Record
		want []string // each order's status and sources
	}{
		{"senders unknown: one thing, as before", []extract.Record{
			rec(1, by{"", false, false, true, extract.StatusShipped, ""}), rec(2, by{"", true, false, true, extract.StatusCancelled, ""})},
			[]string{"cancelled [2]"}},
		{"a stranger cannot cancel an unverified order", []extract.Record{
			rec(1, shipped), rec(2, by{stranger, true, false, true, extract.StatusCancelled, ""})},
			[]string{"cancelled [2]", "shipped [1]"}},
		{"nor a trusted stranger a trusted one", []extract.Record{
			rec(1, by{shop, true, true, true, extract.StatusShipped, extract.StatusShipped}),
			rec(2, by{"contoso.example", true, true, true, extract.StatusCancelled, ""})},
			[]string{"cancelled [2]", "shipped [1]"}},
		{"its own sender can", []extract.Record{
			rec(1, by{shop, false, false, true, extract.StatusShipped, ""}), rec(2, by{shop, false, false, true, extract.StatusCancelled, ""})},
			[]string{"cancelled [1 2]"}},
		{"a forged From of the sender loses to its authenticated mail", []extract.Record{
			rec(1, by{shop, true, false, true, extract.StatusShipped, ""}), rec(2, by{shop, false, false, true, extract.StatusCancelled, ""})},
			[]string{"shipped [1]"}},
		{"a carrier's notice moves the shop's order", []extract.Record{
			rec(1, shipped), rec(2, by{carrier, false, false, false, "", extract.StatusDelivered})},
			[]string{"delivered [1 2]"}},
		{"a trusted carrier's moves a new shop's", []extract.Record{
			rec(1, by{shop, true, false, true, extract.StatusShipped, extract.StatusShipped}),
			rec(2, by{carrier, true, true, false, "", extract.StatusDelivered})},
			[]string{"delivered [1 2]"}},
		{"a stranger's notice moves no trusted order", []extract.Record{
			rec(1, by{shop, true, true, true, extract.StatusShipped, extract.StatusShipped}),
			rec(2, by{stranger, true, false, false, "", extract.StatusDelivered})},
			[]string{"delivered [2]", "shipped [1]"}},
		{"a stranger as vouched for as a new shop moves not its order", []extract.Record{
			rec(1, by{shop, true, false, true, extract.StatusShipped, extract.StatusShipped}),
			rec(2, by{stranger, true, false, false, "", extract.StatusDelivered})},
			[]string{"delivered [2]", "shipped [1]"}},
		{"a carrier's notice cancels nothing", []extract.Record{
			rec(1, by{shop, true, true, true, extract.StatusShipped, extract.StatusShipped}),
			rec(2, by{carrier, true, true, false, "", extract.StatusReturned})},
			[]string{"shipped [1 2]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, o := range extract.Merge(tt.recs).Orders {
				got = append(got, fmt.Sprint(o.Status, " ", o.Sources))
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("orders = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestMergeBySenderTrips: a stranger who cancels one leg of a booking
// that no trusted sender's mail states cancels nothing of it, and the
// booking's legs stay one trip.
func TestMergeBySenderTrips(t *testing.T) {
	leg := func(msg int64, sender string, auth bool, number string, day int, status string) extract.Record {
		at := &extract.Time{Time: time.Date(2027, 1, day, 7, 0, 0, 0, time.UTC), Zone: "UTC"}
		return extract.Record{
			Fact: extract.Fact{Kind: extract.KindFlight, From: extract.FromText, Segment: &extract.Segment{
				Type: extract.KindFlight, Status: status, Reservation: "ABC123", Number: number, Depart: at}},
			Message: msg, Date: time.Date(2026, 11, int(msg), 9, 0, 0, 0, time.UTC), Tiebreak: fmt.Sprint(msg),
			Authenticated: auth, Sender: sender,
		}
	}
	for _, auth := range []bool{true, false} {
		recs := []extract.Record{
			leg(1, "newair.example", auth, "NA 1", 3, extract.StatusConfirmed),
			leg(1, "newair.example", auth, "NA 2", 10, extract.StatusConfirmed),
			leg(2, "x@gmail.com", true, "NA 2", 10, extract.StatusCancelled),
		}
		var got []string
		for _, tr := range extract.Merge(recs).Trips {
			got = append(got, fmt.Sprint(tr.Status, " ", len(tr.Segments), " ", tr.Sources))
		}
		slices.Sort(got)
		if want := []string{"cancelled 1 [2]", "confirmed 2 [1]"}; !slices.Equal(got, want) {
			t.Errorf("airline's mail authenticated %v: trips = %q, want %q", auth, got, want)
		}
	}
}

// TestMergeAgencyStays: an agency's mail that books two hotels under its
// one number, the second's block naming no hotel, gives two stays on their
// own dates; a later mail under that number with no name and other dates
// is still a change of the one stay.
func TestMergeAgencyStays(t *testing.T) {
	for _, c := range []struct{ from, subject, body string }{
		{"Harbour Travel|bookings@harbourtravel.example", "Your trip - accommodation confirmed",
			"Dear James,\n\nBooking reference: HHT-40917\n\nHOTEL 1\nThe Balmoral Arms Hotel\nCheck-in: Monday 14 June 2027\nCheck-out: Thursday 17 June 2027\n\n" +
				"Brachla, Inverness-shire IV3 8LA\nCheck-in: Thursday 17 June 2027\nCheck-out: Sunday 20 June 2027\nRoom: 1 Loch View King\n"},
		{"Reisebüro Sonne|buchung@reisebuero-sonne.example", "Ihre Reisebestätigung",
			"Guten Tag Frau Berger,\n\nBuchungsnummer: RS-55120\n\nUnterkunft 1\nHotel Villa Maria\nAnreise: 10.05.2027\nAbreise: 13.05.2027\n\n" +
				"Passo Sella 4, 39048 Wolkenstein\nAnreise: 13.05.2027\nAbreise: 16.05.2027\nZimmer: Doppelzimmer mit Frühstück\n"},
	} {
		msg := textMessage(c.from, c.subject, "Tue, 20 Apr 2027 10:22:00 +0100", c.body)
		var in []string
		for _, tr := range extract.Merge(records([]*mime.Message{msg})).Trips {
			for _, s := range tr.Segments {
				in = append(in, s.Hotel+" "+s.CheckIn.Format("2006-01-02"))
			}
		}
		if len(in) != 2 {
			t.Errorf("%s: stays %q, want two on their own days", c.subject, in)
		}
	}
	// A later mail's stay under that number with no name and other dates
	// is the one stay's change; in the same mail, a second stay.
	stay := func(msg int64, hotel string, day int) extract.Record {
		in := time.Date(2027, 6, day, 0, 0, 0, 0, time.UTC)
		out := in.AddDate(0, 0, 3)
		return extract.Record{Message: msg, Date: time.Date(2027, 4, int(msg), 0, 0, 0, 0, time.UTC), Fact: extract.Fact{Kind: extract.KindHotel,
			Segment: &extract.Segment{Type: extract.KindHotel, Reservation: "HHT-40917", Hotel: hotel,
				CheckIn: &extract.Time{Time: in, DateOnly: true}, CheckOut: &extract.Time{Time: out, DateOnly: true}}}}
	}
	for _, c := range []struct {
		second extract.Record
		want   int
	}{{stay(2, "", 15), 1}, {stay(1, "", 17), 2}, {stay(2, "The Balmoral Arms", 15), 1}, {stay(1, "", 14), 1}} {
		n := 0
		for _, tr := range extract.Merge([]extract.Record{stay(1, "The Balmoral Arms Hotel", 14), c.second}).Trips {
			n += len(tr.Segments)
		}
		if n != c.want {
			t.Errorf("a stay in mail %d named %q on day %s beside the named one: %d stays, want %d", c.second.Message, c.second.Segment.Hotel, c.second.Segment.CheckIn.Format("02"), n, c.want)
		}
	}
}
