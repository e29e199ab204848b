package facts_test

// The third outside review of 2026-11-28: hostile mail against
// splitBySender, SenderKey and the shared domains, written by the
// reviewer. Each test asserts the safe behaviour and failed before the
// fixes; its message says what the tools showed.

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"mailnode/assets"
	"mailnode/extract/facts"
	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

var x3tables *store.Tables

// x3merged is facts_merged's rows of kind whose data holds like.
func x3merged(t *testing.T, kind, like string) string {
	rows, err := x3tables.DB().Query(`SELECT data, trusted FROM facts_merged WHERE kind = ? AND data LIKE ?`, kind, "%"+like+"%")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var d string
		var tr int
		rows.Scan(&d, &tr)
		out = append(out, fmt.Sprintf("trusted=%d %s", tr, d))
	}
	return strings.Join(out, "\n")
}

type x3msg struct {
	raw     string
	arrived time.Time
}

// x3run stores msgs (uid = index+1) in a facts store that trusts
// mx.demo-mail.example and runs a pass.
func x3run(t *testing.T, msgs []x3msg) *facts.Store {
	t.Helper()
	ctx := context.Background()
	st, tables, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	x3tables = tables
	var nm []store.NewMessage
	for i, m := range msgs {
		nm = append(nm, store.NewMessage{UID: uint32(i + 1), Raw: []byte(m.raw), Size: int64(len(m.raw)), InternalDate: m.arrived})
	}
	if err := st.AddMessages(ctx, inbox.ID, nm, uint32(len(nm))); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	return fx
}

func x3demo(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(assets.DemoMailbox(), name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

func x3noAuth(raw string) string {
	i := strings.Index(raw, "Authentication-Results:")
	j := i + strings.Index(raw[i:], "\n") + 1
	return raw[:i] + raw[j:]
}

// x3mail is a plain mail; auth is its provider's Authentication-Results
// value after the authserv-id ("" for none at all).
func x3mail(auth, from, subject, date, id, body string) string {
	h := ""
	if auth != "" {
		h = "Authentication-Results: mx.demo-mail.example; " + auth + "\r\n"
	}
	return h + "From: " + from + "\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\nSubject: " + subject +
		"\r\nDate: " + date + "\r\nMessage-ID: <" + id + ">\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
}

type x3thing struct {
	ID          string  `json:"id"`
	Status      string  `json:"status"`
	Reservation string  `json:"reservation"`
	Number      string  `json:"number"`
	Domain      string  `json:"domain"`
	Sources     []int64 `json:"sources"`
	Verified    bool    `json:"verified_sender"`
	Trusted     bool    `json:"trusted_sender"`
	Segments    []struct {
		Number string `json:"number"`
	} `json:"segments"`
	Shipments []struct {
		Tracking string `json:"tracking"`
	} `json:"shipments"`
	Amount *struct {
		Amount string `json:"amount"`
	} `json:"amount"`
}

func x3parse(t *testing.T, s string) []x3thing {
	t.Helper()
	var all []x3thing
	if err := json.Unmarshal([]byte(s), &all); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return all
}

// x3of returns the things whose sources include message id.
func x3of(all []x3thing, id int64) []x3thing {
	var out []x3thing
	for _, x := range all {
		for _, s := range x.Sources {
			if s == id {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

const x3leg = "LH 400  Frankfurt (FRA) 14 Dec 2026 10:05  ->  New York JFK (JFK) 14 Dec 2026 13:00\r\nBooking code: XK4R7Q\r\n"

// 1. The real booking lost its DKIM on a list (unauthenticated). The
// stranger simply does not authenticate either: any From, no DKIM. All
// records are unauthenticated, so splitBySender keeps them one thing and
// the newest (the stranger's) wins: the booking is cancelled. Same for an
// order and a bill.
func TestX3UnauthenticatedStrangerChangesDKIMBrokenThings(t *testing.T) {
	year := time.Now().AddDate(-1, 0, 0)
	t.Run("trip cancelled", func(t *testing.T) {
		fx := x3run(t, []x3msg{
			{x3noAuth(x3demo(t, "INBOX/01-lufthansa-booking.eml")), year},
			{x3mail("", "Flight Desk <desk@flight-status-alerts.example>", "Flight LH 400 cancelled", "Sat, 21 Nov 2026 08:00:00 +0100", "u1@x",
				"your flight has been cancelled.\r\n\r\n"+x3leg), time.Now()},
		})
		got := readers{fx}.trips(t)
		// cancelled trips are left out of get_upcoming_travel
		if r := x3of(x3parse(t, got), 1); len(r) == 0 {
			t.Errorf("the real LH 400 (message 1) is gone from get_upcoming_travel: %s", got)
		}
	})
	t.Run("order cancelled", func(t *testing.T) {
		fx := x3run(t, []x3msg{
			{x3noAuth(x3demo(t, "INBOX/11-amazon-shipped.eml")), year},
			{x3mail("", "Shipping <noreply@parcel-updates.example>", "Your order has been cancelled", "Sat, 21 Nov 2026 08:00:00 +0100", "u2@x",
				"your order has been cancelled and the parcel returned to sender.\r\n\r\nOrder #112-4471093-5520261\r\nShipped with UPS, tracking number 1Z999AA10123456784\r\n"), time.Now()},
		})
		got := readers{fx}.orders(t, "amazon")
		r := x3of(x3parse(t, got), 1)
		if len(r) == 0 {
			t.Errorf("order_status(amazon) = %s; order_status(parcel-updates) = %s", got, readers{fx}.orders(t, "parcel-updates"))
		}
		for _, x := range r {
			if x.Status == "cancelled" || len(x.Sources) > 1 {
				t.Errorf("the real Amazon order = %+v; an unauthenticated stranger changed it: %s", x, got)
			}
		}
	})
}

// 2. The person forwarded the real booking to the node (authenticated for
// the person's domain, facts "forwarded"). A mail with a forged From of
// the person's own address (unauthenticated, dmarc=fail: delivered under
// p=none) joins the person's part ("records join the authenticated sender
// their From names"), and since the forwarded records are not counted as
// authenticated by onlyTrusted, the forgery is not outranked: it cancels.
func TestX3ForgedOwnAddressCancelsForwardedBooking(t *testing.T) {
	fwd := x3forwarded(t)
	forged := x3mail("dkim=none; spf=fail smtp.mailfrom=demo-mail.example; dmarc=fail header.from=demo-mail.example",
		"Alex Morgan <alex.morgan@demo-mail.example>", "LH 400 cancelled", "Sat, 21 Nov 2026 09:00:00 +0100", "g1@x",
		"your flight has been cancelled.\r\n\r\n"+x3leg)
	fx := x3run(t, []x3msg{{fwd, time.Now().Add(-time.Hour)}, {forged, time.Now()}})
	got := readers{fx}.trips(t)
	if r := x3of(x3parse(t, got), 1); len(r) == 0 {
		t.Errorf("the forwarded LH 400 (message 1) is gone from get_upcoming_travel after a forged From of the person: %s", got)
	}
}

// 3. A trusted, verified booking. An unauthenticated mail (any From) names
// its booking code with another flight: that flight's group holds no
// authenticated record, so its part gets who "" and joins the real trip
// in byBooking. The real trip then shows a bogus leg, starts/ends where
// the stranger says, and is verified_sender false, trusted false: listed
// under unverified.
func TestX3UnauthenticatedLegTaintsTrustedTrip(t *testing.T) {
	year := time.Now().AddDate(-1, 0, 0)
	fx := x3run(t, []x3msg{
		{x3demo(t, "INBOX/01-lufthansa-booking.eml"), year},
		{x3mail("", "Lufthansa <booking-confirmation@lufthansa-service.example>", "Your return flight XK4R7Q", "Sat, 21 Nov 2026 08:00:00 +0100", "u3@x",
			"your return flight has been added.\r\n\r\nLH 401  New York JFK (JFK) 02 Dec 2026 17:00  ->  Frankfurt (FRA) 03 Dec 2026 07:00\r\nBooking code: XK4R7Q\r\n"), time.Now()},
	})
	got := readers{fx}.trips(t)
	for _, x := range x3of(x3parse(t, got), 1) {
		if !x.Verified || !x.Trusted || len(x.Sources) != 1 {
			t.Errorf("the real Lufthansa trip = %+v after one unauthenticated mail: %s", x, got)
		}
	}
}

// 4. Two trusted orders of different shops. A stranger's mail (here
// authenticated Gmail; unauthenticated works the same) lists both
// parcels' tracking numbers: union-find joins both orders into one group,
// splitBySender sees trusted records and returns it whole, onlyTrusted
// keeps both shops' records, and mergeOrder folds them into ONE order: the
// older shop's order disappears from order_status.
func TestX3StrangerFusesTwoTrustedOrders(t *testing.T) {
	year := time.Now().AddDate(-1, 0, 0)
	fx := x3run(t, []x3msg{
		{x3demo(t, "INBOX/14-ikea-shipped.eml"), year},
		{x3demo(t, "INBOX/11-amazon-shipped.eml"), year},
		{stranger("Your order 5512 has shipped", "Your order 5512 has shipped in two parcels.\r\n\r\nOrder #5512\r\n"+
			"Parcel 1: DHL tracking number 00340434161094015902\r\nParcel 2: UPS tracking number 1Z999AA10123456784\r\n"), time.Now()},
	})
	ikea := readers{fx}.orders(t, "ikea")
	amazon := readers{fx}.orders(t, "amazon")
	if !strings.Contains(ikea, `"number":"1158340927"`) || !strings.Contains(amazon, `"number":"112-4471093-5520261"`) {
		t.Errorf("after one stranger mail naming both tracking numbers:\norder_status(ikea) = %s\norder_status(amazon) = %s", ikea, amazon)
	}
}

// 6. freemail.txt made QuickBooks (intuit.com) free mail, so its sender
// key is the ADDRESS, and every QuickBooks customer's invoices come from
// the one address quickbooks@notification.intuit.com. A real contractor's
// invoice 1001 and a stranger's QuickBooks invoice 1001 (numbers are
// chosen by the issuer) are one sender and one bill key: the stranger's
// newer amount and due date replace the contractor's. Same for DocuSign's
// dse@docusign.net, Square's, Stripe's, a Google Group's address.
func TestX3SharedServiceAddressTakesOverBill(t *testing.T) {
	inv := func(id, who, date, amount, due string) string {
		return x3mail("dkim=pass header.d=notification.intuit.com; dmarc=pass header.from=notification.intuit.com",
			who+" <quickbooks@notification.intuit.com>", "Invoice 1001 from "+who, date, id,
			"Dear Alex Morgan,\r\n\r\nHere's your invoice! We appreciate your prompt payment.\r\n\r\nInvoice no.: 1001\r\nAmount due: $"+amount+"\r\nDue date: "+due+"\r\n\r\nThanks for your business!\r\n"+who+"\r\n")
	}
	year := time.Now().AddDate(-1, 0, 0)
	fx := x3run(t, []x3msg{
		{inv("q1@intuit.com", "Miller Roofing LLC", "Mon, 02 Nov 2026 09:00:00 +0100", "1,250.00", "12/15/2026"), year},
		{inv("q2@intuit.com", "Miller Roofing LLC", "Sat, 21 Nov 2026 09:00:00 +0100", "9,800.00", "12/10/2026"), time.Now()},
	})
	got, err := fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	s := join(got)
	for _, x := range x3of(x3parse(t, s), 1) {
		if x.Amount == nil || x.Amount.Amount != "1250.00" || len(x.Sources) != 1 {
			t.Errorf("the contractor's QuickBooks invoice 1001 = %+v after a stranger's QuickBooks invoice 1001: %s", x, s)
		}
	}
}

// 7. Services of freemail.txt's class that are not listed: a stranger's
// bill sent through them from the service's long-known domain is a
// trusted bill (trusted_sender true), listed first by bills_due.
func TestX3UnlistedRelayServiceBillTrusted(t *testing.T) {
	cases := []struct{ from, d string }{
		{"Cash App <cash@square.com>", "square.com"},
		{"Bogus Plumbing via Wave <invoice@waveapps.com>", "waveapps.com"},
		{"Bogus Plumbing <notification@hq.bill.com>", "bill.com"},
		{"Bogus Plumbing <billing@bogusplumbing.onmicrosoft.com>", "bogusplumbing.onmicrosoft.com"},
		{"Bogus Plumbing <support@bogusplumbing.zendesk.com>", "bogusplumbing.zendesk.com"},
	}
	for _, c := range cases {
		t.Run(c.d, func(t *testing.T) {
			auth := "dkim=pass header.d=" + c.d + "; dmarc=pass header.from=" + c.d
			_, addr, _ := strings.Cut(c.from, "<")
			oldFrom, oldAuth := c.from, auth
			if strings.Count(c.d, ".") > 1 { // another tenant of the same service wrote a year ago
				other := "other" + c.d[strings.Index(c.d, "."):]
				oldFrom, oldAuth = "Other <x@"+other+">", "dkim=pass header.d="+other+"; dmarc=pass header.from="+other
			}
			old := x3mail(oldAuth, oldFrom, "Your receipt", "Mon, 03 Nov 2025 09:00:00 +0100", "o@"+c.d, "Thanks.\r\n")
			_ = addr
			bill := x3mail(auth, c.from, "Invoice INV-7731 from Bogus Plumbing", "Sat, 21 Nov 2026 09:00:00 +0100", "b@"+c.d,
				"Dear Alex Morgan,\r\n\r\nBogus Plumbing sent you an invoice.\r\n\r\nInvoice number: INV-7731\r\nAmount due: $2,400.00\r\nDue date: 1 December 2026\r\n")
			fx := x3run(t, []x3msg{{old, time.Now().AddDate(-1, 0, 0)}, {bill, time.Now()}})
			got, err := fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), 20)
			if err != nil {
				t.Fatal(err)
			}
			s := join(got)
			for _, x := range x3parse(t, s) {
				if x.Trusted {
					t.Errorf("a stranger's invoice through %s is a trusted bill: %s", c.d, s)
				}
			}
			if len(got) == 0 {
				t.Logf("no bill read from the %s mail", c.d)
			}
		})
	}
}

// Controls: the same real mails without the attack show the real thing.
func TestX3Controls(t *testing.T) {
	year := time.Now().AddDate(-1, 0, 0)
	real, fwd := x3demo(t, "INBOX/01-lufthansa-booking.eml"), x3forwarded(t)
	for name, raw := range map[string]string{"dkim broken": x3noAuth(real), "forwarded": fwd} {
		fx := x3run(t, []x3msg{{raw, year}})
		got := readers{fx}.trips(t)
		if !strings.Contains(got, "XK4R7Q") || !strings.Contains(got, `"status":"confirmed"`) {
			t.Errorf("%s: control shows no confirmed LH 400: %s", name, got)
		} else {
			t.Logf("%s control: %s", name, got)
		}
	}
	fx := x3run(t, []x3msg{{x3demo(t, "INBOX/14-ikea-shipped.eml"), year}, {x3demo(t, "INBOX/11-amazon-shipped.eml"), year}})
	a, i := readers{fx}.orders(t, "amazon"), readers{fx}.orders(t, "ikea")
	if !strings.Contains(a, "112-4471093-5520261") || !strings.Contains(i, "1158340927") {
		t.Errorf("control orders: %s %s", a, i)
	}
}

// 8. A Firefox Relay mask: Relay forwards every sender's mail to the
// mask From the mask address itself ("orig@sender [via Relay]"
// <mask@mozmail.com>; Mozilla's ADR of 2023-08, option 3; before it, From
// was replies@relay.firefox.com for everyone). SenderKey is that address,
// so a stranger who mails the mask (masks leak with the shop's customer
// data) is the SAME sender as the airline: one part, newest wins.
func TestX3RelayMaskStrangerCancelsBooking(t *testing.T) {
	real := x3demo(t, "INBOX/01-lufthansa-booking.eml")
	real = strings.Replace(real, "From: Lufthansa <booking-confirmation@lufthansa.com>", `From: "booking-confirmation@lufthansa.com [via Relay]" <r4nd0m@mozmail.com>`, 1)
	real = strings.Replace(real, "dkim=pass header.d=lufthansa.com; spf=pass smtp.mailfrom=lufthansa.com; dmarc=pass header.from=lufthansa.com",
		"dkim=pass header.d=mozmail.com; dmarc=pass header.from=mozmail.com", 1)
	atk := x3mail("dkim=pass header.d=mozmail.com; dmarc=pass header.from=mozmail.com",
		`"flightdesk.notice@gmail.com [via Relay]" <r4nd0m@mozmail.com>`, "Flight LH 400 cancelled", "Sat, 21 Nov 2026 08:00:00 +0100", "r1@x",
		"your flight has been cancelled.\r\n\r\n"+x3leg)
	year := time.Now().AddDate(-1, 0, 0)
	fx := x3run(t, []x3msg{{real, year}, {atk, time.Now()}})
	got := readers{fx}.trips(t)
	if r := x3of(x3parse(t, got), 1); len(r) == 0 {
		t.Errorf("the real LH 400 received through the person's Relay mask is gone (cancelled by a stranger mailing the mask): %s", got)
	}
	fx = x3run(t, []x3msg{{real, year}})
	t.Logf("control without the stranger: %s", readers{fx}.trips(t))
}

// 9. onmicrosoft.com is no public suffix: every Microsoft 365 tenant
// (a free trial, made in minutes) sends as x@TENANT.onmicrosoft.com, DKIM
// signed and DMARC-aligned for it, and its registrable domain is
// onmicrosoft.com: one long-established, non-free-mail domain for all
// tenants. A stranger's tenant is then a TRUSTED sender once any tenant's
// mail reached the person more than 14 days ago (here a supplier's), and a
// trusted stranger's mail is merged with the airline's: it cancels the
// real, trusted booking, and the result still says verified and trusted.
func TestX3OnMicrosoftTenantCancelsTrustedBooking(t *testing.T) {
	year := time.Now().AddDate(-1, 0, 0)
	supplier := x3mail("dkim=pass header.d=smallfirm.onmicrosoft.com; dmarc=pass header.from=smallfirm.onmicrosoft.com",
		"Small Firm <office@smallfirm.onmicrosoft.com>", "Meeting", "Mon, 03 Nov 2025 09:00:00 +0100", "m1@x", "See you Monday.\r\n")
	atk := x3mail("dkim=pass header.d=lh-rebooking.onmicrosoft.com; dmarc=pass header.from=lh-rebooking.onmicrosoft.com",
		"Lufthansa Rebooking <service@lh-rebooking.onmicrosoft.com>", "Flight LH 400 cancelled", "Sat, 21 Nov 2026 08:00:00 +0100", "a9@x",
		"your flight has been cancelled.\r\n\r\n"+x3leg)
	fx := x3run(t, []x3msg{{x3demo(t, "INBOX/01-lufthansa-booking.eml"), year}, {supplier, year}, {atk, time.Now()}})
	got := readers{fx}.trips(t)
	if r := x3of(x3parse(t, got), 1); len(r) == 0 {
		t.Errorf("the trusted Lufthansa booking is gone from get_upcoming_travel after one mail of a Microsoft 365 trial tenant: %s; facts_merged: %s", got, x3merged(t, "trip", "XK4R7Q"))
	}
}

// 10. NewDomainAge is served by the attacker: one harmless mail from a
// domain registered for the purpose, 15 days before the attack, makes the
// domain "first seen" long enough ago, and its later mail is trusted. A
// trusted stranger naming the parcel's tracking number is merged with
// the shop's trusted records: it cancels the real Amazon order (or takes
// it over), verified and trusted.
func TestX3PreseededDomainTakesOverTrustedOrder(t *testing.T) {
	auth := "dkim=pass header.d=parcel-notice.example; dmarc=pass header.from=parcel-notice.example"
	seed := x3mail(auth, "Parcel Notice <news@parcel-notice.example>", "Welcome", "Fri, 06 Nov 2026 08:00:00 +0100", "p0@x", "Thanks for subscribing.\r\n")
	atk := x3mail(auth, "Parcel Notice <noreply@parcel-notice.example>", "Your order has been cancelled", "Sat, 21 Nov 2026 08:00:00 +0100", "p1@x",
		"your order has been cancelled and the parcel returned to sender.\r\n\r\nOrder #5512\r\nShipped with UPS, tracking number 1Z999AA10123456784\r\n")
	fx := x3run(t, []x3msg{
		{x3demo(t, "INBOX/11-amazon-shipped.eml"), time.Now().AddDate(-1, 0, 0)},
		{seed, time.Now().Add(-15 * 24 * time.Hour)},
		{atk, time.Now()},
	})
	got := readers{fx}.orders(t, "amazon")
	r := x3of(x3parse(t, got), 1)
	if len(r) == 0 || r[0].Status == "cancelled" || len(r[0].Sources) > 1 {
		t.Errorf("order_status(amazon) after a pre-seeded domain's mail: %s\nfacts_merged: %s", got, x3merged(t, "order", "1Z999AA10123456784"))
	}
}

// 12. Payment notices join "the bill of the same sender and amount" by
// registrable domain: a stranger's Microsoft 365 tenant "pays" a real
// supplier's bill sent from the supplier's own tenant (same registrable
// domain onmicrosoft.com, both trusted): bills_due drops it.
func TestX3TenantPaymentNoticePaysRealBill(t *testing.T) {
	real := x3mail("dkim=pass header.d=acmeaccounting.onmicrosoft.com; dmarc=pass header.from=acmeaccounting.onmicrosoft.com",
		"Acme Accounting <billing@acmeaccounting.onmicrosoft.com>", "Invoice AC-2211", "Sat, 14 Nov 2026 09:00:00 +0100", "r12@x",
		"Dear Alex Morgan,\r\n\r\nplease find our invoice.\r\n\r\nInvoice number: AC-2211\r\nAmount due: $890.00\r\nDue date: 10 December 2026\r\n")
	paid := x3mail("dkim=pass header.d=payments-desk.onmicrosoft.com; dmarc=pass header.from=payments-desk.onmicrosoft.com",
		"Payments <noreply@payments-desk.onmicrosoft.com>", "Payment received - thank you", "Sat, 21 Nov 2026 08:00:00 +0100", "p12@x",
		"Thank you, we have received your payment.\r\n\r\nAmount paid: $890.00\r\nPayment date: 11/20/2026\r\nStatus: Paid\r\n")
	year := time.Now().AddDate(-1, 0, 0)
	ctl := x3run(t, []x3msg{{real, year}})
	c, _ := ctl.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), 20)
	t.Logf("control, the supplier's bill alone: %s", join(c))
	fx := x3run(t, []x3msg{{real, year}, {paid, time.Now()}})
	got, err := fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	if s := join(got); !strings.Contains(s, "AC-2211") {
		t.Errorf("bills_due = %s after a stranger tenant's payment notice; facts_merged: %s", s, x3merged(t, "bill", "890.00"))
	}
}

// 2b. The person's mailbox is at a domain others share and that is no
// free-mail provider (an employer, a university, a small ISP; here the
// demo's provider demo-mail.example). Anyone else with an address there
// is the same sender (SenderKey: the registrable domain) as the person's
// own forward: their authenticated mail lands in the person's part, where
// onlyTrusted keeps it ALONE (the forward's records are "forwarded"): the
// booking the person forwarded is cancelled, and shown verified.
func TestX3ColleagueCancelsForwardedBooking(t *testing.T) {
	fwd := x3forwarded(t)
	atk := x3mail("dkim=pass header.d=demo-mail.example; dmarc=pass header.from=demo-mail.example",
		"Flight Desk <mallory@demo-mail.example>", "LH 400 cancelled", "Sat, 21 Nov 2026 09:00:00 +0100", "m2@demo-mail.example",
		"your flight has been cancelled.\r\n\r\n"+x3leg)
	fx := x3run(t, []x3msg{{fwd, time.Now().Add(-time.Hour)}, {atk, time.Now()}})
	got := readers{fx}.trips(t)
	if r := x3of(x3parse(t, got), 1); len(r) == 0 {
		t.Errorf("the forwarded LH 400 is gone after mail from another user of the person's domain: %s; facts_merged: %s", got, x3merged(t, "trip", "XK4R7Q"))
	}
}

// 11. A trusted order's ID is the union-find root of every record's keys,
// strangers' included: an unauthenticated mail whose own order key sorts
// first ("order|0…") and that names the parcel's tracking number renames
// the real order (IDs are documented "stable across passes").
func TestX3StrangerRenamesTrustedOrder(t *testing.T) {
	year := time.Now().AddDate(-1, 0, 0)
	fx := x3run(t, []x3msg{{x3demo(t, "INBOX/11-amazon-shipped.eml"), year}})
	before := x3parse(t, readers{fx}.orders(t, "amazon"))
	atk := x3mail("", "Parcel <noreply@0parcel.example>", "Shipment update", "Sat, 21 Nov 2026 08:00:00 +0100", "i1@x",
		"your parcel is on its way.\r\n\r\nOrder #100234\r\nShipped with UPS, tracking number 1Z999AA10123456784\r\n")
	fx = x3run(t, []x3msg{{x3demo(t, "INBOX/11-amazon-shipped.eml"), year}, {atk, time.Now()}})
	after := x3parse(t, readers{fx}.orders(t, "amazon"))
	if len(before) != 1 || len(after) != 1 || before[0].ID != after[0].ID {
		t.Errorf("the real Amazon order's id: %+v before, %+v after an unauthenticated stranger's mail", before, after)
	}
}

// 5. The person forwarded a real booking (unverified by design). Twenty
// Gmail strangers' trips that leave earlier fill all twenty places among
// the untrusted things (ORDER BY trusted DESC, start_at): the person's real
// booking is not in the answer at all.
func TestX3StrangersCrowdOutForwardedBooking(t *testing.T) {
	fwd := x3forwarded(t)
	msgs := append([]x3msg{{fwd, time.Now().Add(-time.Hour)}}, x3crowd()...)
	fx := x3run(t, msgs)
	got := readers{fx}.trips(t)
	if !strings.Contains(got, "XK4R7Q") {
		t.Errorf("get_upcoming_travel holds %d trips, none of them the person's forwarded LH 400", strings.Count(got, `"id":"t_`))
	}
}

// 5b. The person's first booking with an airline (its domain first seen
// today, so authenticated but untrusted for 14 days): twenty Gmail
// strangers' earlier trips push it out of get_upcoming_travel.
func TestX3StrangersCrowdOutNewDomainBooking(t *testing.T) {
	msgs := append([]x3msg{{x3demo(t, "INBOX/01-lufthansa-booking.eml"), time.Now().Add(-time.Hour)}}, x3crowd()...)
	fx := x3run(t, msgs)
	got := readers{fx}.trips(t)
	if !strings.Contains(got, "XK4R7Q") {
		t.Errorf("get_upcoming_travel holds %d trips, none of them the real (verified) Lufthansa LH 400", strings.Count(got, `"id":"t_`))
	}
}

// x3crowd is twenty Gmail strangers' bookings of trips that leave
// earlier than the demo's LH 400, arriving now.
func x3crowd() []x3msg {
	var msgs []x3msg
	for i := range 20 {
		code := fmt.Sprintf("QQ%c7XY", 'A'+i)
		atk := strings.Replace(stranger("Your booking confirmation "+code, "thank you for booking with us.\r\n\r\n"+
			fmt.Sprintf("LH 2%02d  Munich (MUC) 12 Dec 2026 10:05  ->  Berlin (BER) 12 Dec 2026 11:10\r\nBooking code: %s\r\n", i, code)),
			"<s1@", "<s"+code+"@", 1)
		msgs = append(msgs, x3msg{atk, time.Now()})
	}
	return msgs
}

// x3forwarded is the demo's Lufthansa booking as the person forwards it
// to the node from their own address.
func x3forwarded(t *testing.T) string {
	t.Helper()
	real := x3demo(t, "INBOX/01-lufthansa-booking.eml")
	body := real[strings.Index(real, "Dear Alex"):strings.Index(real, "--alt-boundary-7f3a\nContent-Type: text/html")]
	return x3mail("dkim=pass header.d=demo-mail.example; dmarc=pass header.from=demo-mail.example",
		"Alex Morgan <alex.morgan@demo-mail.example>", "Fwd: Your booking confirmation XK4R7Q", "Sat, 21 Nov 2026 07:00:00 +0100", "f1@demo-mail.example",
		"---------- Forwarded message ---------\r\nFrom: Lufthansa <booking-confirmation@lufthansa.com>\r\nDate: Tue, 3 Nov 2026 at 09:12\r\n"+
			"Subject: Your booking confirmation XK4R7Q: Frankfurt - New York\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n\r\n"+
			strings.ReplaceAll(body, "\n", "\r\n"))
}
