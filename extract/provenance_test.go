package extract_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/extract/eval"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// corpus is every mail of the evaluation's splits.
func corpus(t *testing.T) map[string][]eval.Mail {
	t.Helper()
	out := map[string][]eval.Mail{}
	for _, split := range []string{"public-headline", "public-dev", "unseen", "handwritten", "public/kitinerary", "public/mail-and-packages"} {
		p, err := eval.LoadPublic("eval/testdata/" + split)
		if err != nil {
			t.Fatal(err)
		}
		out[split] = p.Mails
	}
	syn, err := eval.Load("eval/testdata/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	out["synthetic"] = syn.Mails
	inv, err := eval.LoadInvoices("eval/testdata/public/invoices")
	if err != nil {
		t.Fatal(err)
	}
	out["public/invoices"] = inv.Mails
	return out
}

// TestProvenance: every value the extractor reads from the evaluation
// corpus's mails has a source in the mail that normalises back to it, or
// is derived by a named rule (provenance.go). It lists the values
// without one, and reports how many values each field has of each kind
// of source.
//
// And the locator is no rubber stamp: each value, changed a little (a
// reference's last character, a day 17 days on, a clock seven minutes
// on, an amount's cents, an airport's code), must have no source but in
// one case of a hundred. A changed value found is one the mail holds
// too (the next flight's number), which a locator that matched anything
// would report for every value. Both are checked in one pass, as the
// corpus takes a minute and a half to read under the race detector.
func TestProvenance(t *testing.T) {
	counts := map[string]map[string]int{} // field → source kind (and rule) → values
	var missing []string
	changed, found := map[string]int{}, map[string]int{}
	mails := 0
	for split, ms := range corpus(t) {
		for _, m := range ms {
			mails++
			msg := mime.Parse(m.Raw)
			r := extract.Extract(msg, msgauth.Verdict{})
			facts := slices.Clone(r.Facts)
			var fields []string
			for _, f := range r.Facts {
				for _, mu := range mutations(f) {
					facts = append(facts, mu.fact)
					fields = append(fields, mu.field)
				}
			}
			sources := extract.ProvenanceRaw(msg, facts)
			for i, fields := range sources[:len(r.Facts)] {
				for _, fs := range fields {
					kind := fs.Source.Kind
					if kind == extract.SourceDerived {
						kind += ": " + fs.Source.Rule
					}
					if !fs.Found() {
						kind = "none"
						missing = append(missing, fmt.Sprintf("%s/%s fact %d %s = %q", split, m.Name, i, fs.Field, fs.Value))
					}
					if counts[fs.Field] == nil {
						counts[fs.Field] = map[string]int{}
					}
					counts[fs.Field][kind]++
				}
			}
			for i, fs := range sources[len(r.Facts):] {
				// The field changed, the first of its name (a shipment's
				// is the first shipment's).
				j := slices.IndexFunc(fs, func(s extract.FieldSource) bool { return s.Field == fields[i] })
				if j < 0 {
					continue
				}
				s := fs[j]
				changed[s.Field]++
				if s.Found() {
					found[s.Field]++
					if found[s.Field] <= 3 {
						t.Logf("changed %s = %q found: %+v (%s)", s.Field, s.Value, s.Source, m.Name)
					}
				}
			}
		}
	}
	var b strings.Builder
	for _, f := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&b, "%s:", f)
		for _, k := range slices.Sorted(maps.Keys(counts[f])) {
			fmt.Fprintf(&b, " %s %d;", k, counts[f][k])
		}
		b.WriteByte('\n')
	}
	t.Logf("%d mails; values by field and source:\n%s", mails, b.String())
	slices.Sort(missing)
	for _, s := range missing {
		t.Errorf("no source: %s", s)
	}
	total, wrong := 0, 0
	for _, f := range slices.Sorted(maps.Keys(changed)) {
		t.Logf("%s: %d of %d changed values found", f, found[f], changed[f])
		total += changed[f]
		wrong += found[f]
	}
	if total == 0 || float64(wrong) > 0.01*float64(total) {
		t.Errorf("%d of %d changed values were found in their mails: the locator accepts what the mail does not say", wrong, total)
	}
}

type mutation struct {
	field string
	fact  extract.Fact
}

// mutations are copies of f, each with one field's value changed.
func mutations(f extract.Fact) []mutation {
	var out []mutation
	seg := func(field string, change func(s *extract.Segment) bool) {
		if f.Segment == nil {
			return
		}
		s := *f.Segment
		if change(&s) {
			g := f
			g.Segment = &s
			out = append(out, mutation{field, g})
		}
	}
	str := func(p *string) bool {
		if *p == "" {
			return false
		}
		*p = changeLast(*p)
		return true
	}
	// A day 17 days on; a time of day seven minutes on as well.
	tm := func(p **extract.Time) bool {
		if *p == nil {
			return false
		}
		v := **p
		v.Time = v.Time.AddDate(0, 0, 17)
		if !v.DateOnly {
			v.Time = v.Time.Add(7 * time.Minute)
		}
		*p = &v
		return true
	}
	clock := func(p **extract.Time) bool {
		if *p == nil || (*p).DateOnly {
			return false
		}
		v := **p
		v.Time = v.Time.Add(7 * time.Minute)
		*p = &v
		return true
	}
	seg("segment.depart", func(s *extract.Segment) bool { return clock(&s.Depart) })
	seg("segment.arrive", func(s *extract.Segment) bool { return clock(&s.Arrive) })
	place := func(p **extract.Place) bool {
		if *p == nil || (*p).Code == "" {
			return false
		}
		v := **p
		v.Code = changeLast(v.Code)
		*p = &v
		return true
	}
	seg("segment.reservation", func(s *extract.Segment) bool { return str(&s.Reservation) })
	seg("segment.number", func(s *extract.Segment) bool { return str(&s.Number) })
	seg("segment.hotel", func(s *extract.Segment) bool { return str(&s.Hotel) })
	seg("segment.from.code", func(s *extract.Segment) bool { return place(&s.From) })
	seg("segment.to.code", func(s *extract.Segment) bool { return place(&s.To) })
	seg("segment.depart", func(s *extract.Segment) bool { return tm(&s.Depart) })
	seg("segment.arrive", func(s *extract.Segment) bool { return tm(&s.Arrive) })
	seg("segment.check_in", func(s *extract.Segment) bool { return tm(&s.CheckIn) })
	seg("segment.check_out", func(s *extract.Segment) bool { return tm(&s.CheckOut) })
	// A status the mail does not give: a booking cancelled, a bill paid,
	// an order returned.
	seg("segment.status", func(s *extract.Segment) bool {
		s.Status = map[string]string{extract.StatusConfirmed: extract.StatusCancelled}[s.Status]
		return s.Status != ""
	})
	if f.Bill != nil && f.Bill.Status == extract.StatusDue {
		b := *f.Bill
		b.Status = extract.StatusPaid
		g := f
		g.Bill = &b
		out = append(out, mutation{"bill.status", g})
	}
	if f.Order != nil && f.Order.Status != extract.StatusReturned {
		o := *f.Order
		o.Status = extract.StatusReturned
		g := f
		g.Order = &o
		out = append(out, mutation{"order.status", g})
	}
	if f.Order != nil {
		o := *f.Order
		if str(&o.Number) {
			g := f
			g.Order = &o
			out = append(out, mutation{"order.number", g})
		}
		if len(f.Order.Shipments) > 0 && f.Order.Shipments[0].Tracking != "" {
			o := *f.Order
			o.Shipments = slices.Clone(o.Shipments)
			str(&o.Shipments[0].Tracking)
			g := f
			g.Order = &o
			out = append(out, mutation{"order.shipment.tracking", g})
		}
		if f.Order.Total != nil {
			o := *f.Order
			o.Total = &extract.Money{Amount: changeCents(o.Total.Amount), Currency: o.Total.Currency}
			g := f
			g.Order = &o
			out = append(out, mutation{"order.total.amount", g})
		}
	}
	if f.Bill != nil {
		b := *f.Bill
		if str(&b.Number) {
			g := f
			g.Bill = &b
			out = append(out, mutation{"bill.number", g})
		}
		d := *f.Bill
		if tm(&d.Due) {
			g := f
			g.Bill = &d
			out = append(out, mutation{"bill.due", g})
		}
		if f.Bill.Amount != nil {
			b := *f.Bill
			b.Amount = &extract.Money{Amount: changeCents(b.Amount.Amount), Currency: b.Amount.Currency}
			g := f
			g.Bill = &b
			out = append(out, mutation{"bill.amount.amount", g})
		}
	}
	return out
}

// changeLast changes the last letter or digit of s to another of its kind.
func changeLast(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		switch c := b[i]; {
		case c >= '0' && c <= '9':
			b[i] = '0' + (c-'0'+3)%10
			return string(b)
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+7)%26
			return string(b)
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+7)%26
			return string(b)
		}
	}
	return s + "Q"
}

// changeCents changes an amount's cents ("12.50" to "12.87").
func changeCents(a string) string {
	whole, cents, _ := strings.Cut(a, ".")
	c := 0
	fmt.Sscan(cents, &c)
	return fmt.Sprintf("%s.%02d", whole, (c+37)%100)
}

// TestProvenanceCases: what the locator takes as a value's source, after
// the extractor's own normalisation, and what it does not.
func TestProvenanceCases(t *testing.T) {
	const head = "From: Agency <a@agency.example>\r\nSubject: Trip\r\nDate: Mon, 03 May 2027 09:41:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
	at := func(s string) *extract.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &extract.Time{Time: v}
	}
	day := func(s string) *extract.Time {
		v := at(s + "T00:00:00Z")
		v.DateOnly = true
		return v
	}
	for _, c := range []struct {
		name, body string
		fact       extract.Fact
		field      string
		want       string // the source's kind (and rule), "" for none
	}{
		{"printout date without year", " 1 DL 1234Y 13JUN F JFKLHR HK1  1025P  1040A  14JUN\n",
			extract.Fact{Segment: &extract.Segment{Depart: at("2027-06-13T22:25:00-04:00")}}, "segment.depart", "derived: the year from the mail's date"},
		{"printout date, another clock", " 1 DL 1234Y 13JUN F JFKLHR HK1  1025P  1040A  14JUN\n",
			extract.Fact{Segment: &extract.Segment{Depart: at("2027-06-13T10:25:00-04:00")}}, "segment.depart", ""},
		{"date and clock far apart", "Date: 13 June 2027\n\n\n\n\n\n\n\n\n\n\nDeparture: 10:25\n",
			extract.Fact{Segment: &extract.Segment{Depart: at("2027-06-13T10:25:00Z")}}, "segment.depart", ""},
		{"a timeline's day over a chain of clocks", "Sun 13 Jun 2027\n07:12\nLeeds\nTrain\n1h 58m\nLNER\nCoach C, Seat 14\nAny unreserved seat\nOff-peak\n10:25\nLondon Kings Cross\n",
			extract.Fact{Segment: &extract.Segment{Arrive: at("2027-06-13T10:25:00Z")}}, "segment.arrive", "text"},
		{"city pair", " 1 DL 1234Y 13JUN F JFKLHR HK1  1025P  1040A  14JUN\n",
			extract.Fact{Segment: &extract.Segment{To: &extract.Place{Code: "LHR"}}}, "segment.to.code", "text"},
		{"city to airport", "FRANKFURT / LONDON HEATHROW\n",
			extract.Fact{Segment: &extract.Segment{To: &extract.Place{Code: "LHR"}}}, "segment.to.code", "derived: the airport of a name"},
		{"airport nobody named", "FRANKFURT / LONDON HEATHROW\n",
			extract.Fact{Segment: &extract.Segment{To: &extract.Place{Code: "LGW"}}}, "segment.to.code", ""},
		{"amount's separators", "Zu zahlen: 1.234,50 €\n",
			extract.Fact{Bill: &extract.Bill{Amount: &extract.Money{Amount: "1234.50", Currency: "EUR"}}}, "bill.amount.amount", "text"},
		{"amount made up", "Zu zahlen: 1.234,50 €\n",
			extract.Fact{Bill: &extract.Bill{Amount: &extract.Money{Amount: "1234.05", Currency: "EUR"}}}, "bill.amount.amount", ""},
		{"number apart from its service", "TGV INOUI n° 6603\n",
			extract.Fact{Segment: &extract.Segment{Number: "INOUI 6603"}}, "segment.number", "text"},
		{"reference made up", "Booking reference: QX7K2M\n",
			extract.Fact{Segment: &extract.Segment{Reservation: "QX7K2N"}}, "segment.reservation", ""},
		{"stay from its nights", "Arrival: Friday 12 November 2027\nNumber of nights: 2\n",
			extract.Fact{Segment: &extract.Segment{CheckIn: day("2027-11-12"), CheckOut: day("2027-11-14")}}, "segment.check_out", "derived: check-in and the nights booked"},
		{"stay's nights made up", "Arrival: Friday 12 November 2027\nNumber of nights: 2\n",
			extract.Fact{Segment: &extract.Segment{CheckIn: day("2027-11-12"), CheckOut: day("2027-11-15")}}, "segment.check_out", ""},
		{"range's first day", "vom 10. bis 13. Dezember 2027 (3 Nächte)\n",
			extract.Fact{Segment: &extract.Segment{CheckIn: day("2027-12-10"), CheckOut: day("2027-12-13")}}, "segment.check_in", "derived: a range's first day, in its end's month and year"},
		{"paid as a status", "Invoice 123\nStatus: Paid\n",
			extract.Fact{Bill: &extract.Bill{Status: extract.StatusPaid}}, "bill.status", "text"},
		{"paid made up", "Invoice 123\nIf you have already paid, thank you.\n",
			extract.Fact{Bill: &extract.Bill{Status: extract.StatusPaid}}, "bill.status", ""},
		{"cancelled made up", "Free cancellation until 1 June.\n",
			extract.Fact{Segment: &extract.Segment{Status: extract.StatusCancelled}}, "segment.status", ""},
		{"issuer from the sender's address", "Invoice 123\n",
			extract.Fact{Bill: &extract.Bill{Issuer: "agency", Domain: "agency.example"}}, "bill.issuer", "header"},
		{"issuer made up", "Invoice 123\n",
			extract.Fact{Bill: &extract.Bill{Issuer: "Acme Power", Domain: "agency.example"}}, "bill.issuer", ""},
		{"domain made up", "Invoice 123\n",
			extract.Fact{Bill: &extract.Bill{Domain: "acme.example"}}, "bill.domain", ""},
	} {
		msg := mime.Parse([]byte(head + c.body))
		got := ""
		for _, fs := range extract.Provenance(msg, []extract.Fact{c.fact})[0] {
			if fs.Field != c.field {
				continue
			}
			got = fs.Source.Kind
			if got == extract.SourceDerived {
				got += ": " + fs.Source.Rule
			}
		}
		if got != c.want {
			t.Errorf("%s: %s's source is %q, want %q", c.name, c.field, got, c.want)
		}
	}
}
