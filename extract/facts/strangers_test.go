package facts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"mailnode/assets"
	"mailnode/extract/facts"
	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

// stranger is a mail from a free-mail address the person never wrote
// to, authenticated by its provider (any Gmail user can send one), with
// body as its text.
func stranger(subject, body string) string {
	return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=gmail.com; dmarc=pass header.from=gmail.com\r\n" +
		"From: Flight Desk <flightdesk.notice@gmail.com>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: " + subject + "\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\nMessage-ID: <s1@gmail.com>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
}

// TestStrangersCannotChangeTrustedFacts: an authenticated stranger (a
// Gmail address, or a domain first seen days ago) who names a real
// booking's code or a real parcel's tracking number changes nothing of
// what the trusted sender's mail states: it cannot cancel the trip, move
// its times, or take the order over (the outside review of 2026-11-28,
// HIGH-2; docs/extract.md, "Trust").
func TestStrangersCannotChangeTrustedFacts(t *testing.T) {
	leg := "LH 400  Frankfurt (FRA) 14 Dec 2026 %s  ->  New York JFK (JFK) 14 Dec 2026 %s\r\nBooking code: XK4R7Q\r\n"
	tests := []struct {
		name, real, attack string
		check              func(t *testing.T, fx readers)
	}{
		{"cancels a trip", "INBOX/01-lufthansa-booking.eml",
			stranger("Flight LH 400 cancelled", "your flight has been cancelled.\r\n\r\n"+strings.ReplaceAll(strings.Replace(leg, "%s", "10:05", 1), "%s", "13:00")),
			func(t *testing.T, fx readers) {
				if got := fx.trips(t); !strings.Contains(got, `"LH 400"`) || strings.Contains(got, "cancelled") {
					t.Errorf("trips = %s, want LH 400 confirmed", got)
				}
			}},
		{"moves a trip", "INBOX/01-lufthansa-booking.eml",
			stranger("Schedule change XK4R7Q", "your new flight time:\r\n\r\n"+strings.ReplaceAll(strings.Replace(leg, "%s", "06:05", 1), "%s", "09:00")),
			func(t *testing.T, fx readers) {
				// The stranger's schedule is a trip of its own, never trusted.
				got := fx.trips(t)
				var trips []struct {
					Start   struct{ At string } `json:"start"`
					Sources []int64             `json:"sources"`
					Trusted bool                `json:"trusted_sender"`
				}
				if err := json.Unmarshal([]byte(got), &trips); err != nil {
					t.Fatal(err)
				}
				for _, tr := range trips {
					real := slices.Equal(tr.Sources, []int64{1})
					if real && (tr.Start.At != "2026-12-14T10:05:00+01:00" || !tr.Trusted) || !real && tr.Trusted {
						t.Errorf("trips = %s, want LH 400 at 10:05, trusted, and the stranger's apart", got)
					}
				}
			}},
		{"takes an order over", "INBOX/11-amazon-shipped.eml",
			stranger("Your order has been cancelled", "your order has been cancelled and the parcel returned to sender.\r\n\r\n"+
				"Order #998-0000000-0000001\r\nShipped with UPS, tracking number 1Z999AA10123456784\r\n"),
			func(t *testing.T, fx readers) {
				if got := fx.orders(t, "amazon"); !strings.Contains(got, `"domain":"amazon.com"`) || strings.Contains(got, "cancelled") {
					t.Errorf("order_status(amazon) = %s, want Amazon's order as Amazon's mail states it", got)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
			real, err := fs.ReadFile(assets.DemoMailbox(), tt.real)
			if err != nil {
				t.Fatal(err)
			}
			msgs := []store.NewMessage{
				// The airline's or shop's mail arrives from a domain known for a year.
				{UID: 1, Raw: real, Size: int64(len(real)), InternalDate: time.Now().AddDate(-1, 0, 0)},
				{UID: 2, Raw: []byte(tt.attack), Size: int64(len(tt.attack)), InternalDate: time.Now()},
			}
			if err := st.AddMessages(ctx, inbox.ID, msgs, 2); err != nil {
				t.Fatal(err)
			}
			if _, err := fx.Pass(ctx); err != nil {
				t.Fatal(err)
			}
			tt.check(t, readers{fx})
		})
	}
}

// readers asks a facts store what the read tools ask, as of now.
type readers struct{ fx *facts.Store }

func (r readers) trips(t *testing.T) string {
	t.Helper()
	got, err := r.fx.Trips(context.Background(), time.Now(), time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), time.Time{}, 20)
	if err != nil {
		t.Fatal(err)
	}
	return join(got)
}

func (r readers) orders(t *testing.T, merchant string) string {
	t.Helper()
	got, err := r.fx.Orders(context.Background(), time.Now(), merchant, 20)
	if err != nil {
		t.Fatal(err)
	}
	return join(got)
}

// TestStrangersCannotCrowdOutTrustedFacts: twenty strangers' trips that
// leave before the real one do not fill the tools' twenty places ahead
// of it: trusted facts come first (facts_merged.trusted; the second
// outside review of 2026-11-28).
func TestStrangersCannotCrowdOutTrustedFacts(t *testing.T) {
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	real, err := fs.ReadFile(assets.DemoMailbox(), "INBOX/01-lufthansa-booking.eml")
	if err != nil {
		t.Fatal(err)
	}
	msgs := []store.NewMessage{{UID: 1, Raw: real, Size: int64(len(real)), InternalDate: time.Now().AddDate(-1, 0, 0)}}
	for i := range 20 {
		code := fmt.Sprintf("QQ%c7XY", 'A'+i)
		atk := strings.Replace(stranger("Your booking confirmation "+code, "thank you for booking with us.\r\n\r\n"+
			fmt.Sprintf("LH 2%02d  Munich (MUC) 25 Nov 2026 10:05  ->  Berlin (BER) 25 Nov 2026 11:10\r\nBooking code: %s\r\n", i, code)),
			"<s1@", "<s"+code+"@", 1)
		msgs = append(msgs, store.NewMessage{UID: uint32(2 + i), Raw: []byte(atk), Size: int64(len(atk)), InternalDate: time.Now()})
	}
	if err := st.AddMessages(ctx, inbox.ID, msgs, 21); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	got := readers{fx}.trips(t)
	if n := strings.Count(got, `"id":"t_`); n != 20 || !strings.Contains(got, "XK4R7Q") {
		t.Errorf("%d trips listed, the real LH 400 among them: %v; want 20 with it", n, strings.Contains(got, "XK4R7Q"))
	}
}

// TestStrangersCannotChangeUnverifiedFacts: when no trusted sender's
// mail states a thing (the airline's mail lost its DKIM on a list, or
// the person forwarded the booking to the node), an authenticated
// stranger who names its booking code or tracking number still changes
// nothing of it: each sender's mail is a thing of its own
// (extract.splitBySender; the second outside review of 2026-11-28).
func TestStrangersCannotChangeUnverifiedFacts(t *testing.T) {
	unauthenticated := func(raw string) string {
		i := strings.Index(raw, "Authentication-Results:")
		j := i + strings.Index(raw[i:], "\n") + 1
		return raw[:i] + raw[j:]
	}
	// forwarded is the original's text part as the person's client
	// forwards it to the node.
	forwarded := func(raw string) string {
		body := raw[strings.Index(raw, "\n\n")+2:]
		if i := strings.Index(body, "Content-Type: text/plain"); i >= 0 {
			body = body[i:]
			body = body[strings.Index(body, "\n\n")+2:]
			body = body[:strings.Index(body, "\n--")]
		}
		hdr := func(name string) string {
			i := strings.Index(raw, "\n"+name+": ")
			return raw[i+len(name)+3 : i+strings.Index(raw[i+1:], "\n")+1]
		}
		return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=demo-mail.example; dmarc=pass header.from=demo-mail.example\r\n" +
			"From: Alex Morgan <alex.morgan@demo-mail.example>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
			"Subject: Fwd: " + hdr("Subject") + "\r\nDate: Sat, 21 Nov 2026 07:00:00 +0100\r\nMessage-ID: <fwd1@demo-mail.example>\r\n" +
			"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
			"---------- Forwarded message ---------\r\nFrom: " + hdr("From") + "\r\nDate: " + hdr("Date") + "\r\nSubject: " + hdr("Subject") +
			"\r\nTo: " + hdr("To") + "\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
	}
	leg := "LH 400  Frankfurt (FRA) 14 Dec 2026 10:05  ->  New York JFK (JFK) 14 Dec 2026 13:00\r\nBooking code: XK4R7Q\r\n"
	cancelTrip := stranger("Flight LH 400 cancelled", "your flight has been cancelled.\r\n\r\n"+leg)
	cancelOrder := stranger("Your order has been cancelled", "your order has been cancelled and the parcel returned to sender.\r\n\r\n"+
		"Order #998-0000000-0000001\r\nShipped with UPS, tracking number 1Z999AA10123456784\r\n")
	type thing struct {
		Status      string  `json:"status"`
		Reservation string  `json:"reservation"`
		Number      string  `json:"number"`
		Sources     []int64 `json:"sources"`
	}
	// realOne is the thing read from the real mail (message 1).
	realOne := func(t *testing.T, items string) thing {
		t.Helper()
		var all []thing
		if err := json.Unmarshal([]byte(items), &all); err != nil {
			t.Fatalf("%v: %s", err, items)
		}
		for _, x := range all {
			if slices.Contains(x.Sources, 1) {
				return x
			}
		}
		t.Fatalf("no thing from the real mail: %s", items)
		return thing{}
	}
	tests := []struct {
		name, file string
		real       func(string) string
		attack     string
		order      bool
	}{
		{"trip, DKIM broken", "INBOX/01-lufthansa-booking.eml", unauthenticated, cancelTrip, false},
		{"trip, forwarded by the person", "INBOX/01-lufthansa-booking.eml", forwarded, cancelTrip, false},
		{"order, DKIM broken", "INBOX/11-amazon-shipped.eml", unauthenticated, cancelOrder, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
			b, err := fs.ReadFile(assets.DemoMailbox(), tt.file)
			if err != nil {
				t.Fatal(err)
			}
			real := tt.real(strings.ReplaceAll(string(b), "\r\n", "\n"))
			msgs := []store.NewMessage{
				{UID: 1, Raw: []byte(real), Size: int64(len(real)), InternalDate: time.Now().AddDate(-1, 0, 0)},
				{UID: 2, Raw: []byte(tt.attack), Size: int64(len(tt.attack)), InternalDate: time.Now()},
			}
			if err := st.AddMessages(ctx, inbox.ID, msgs, 2); err != nil {
				t.Fatal(err)
			}
			if _, err := fx.Pass(ctx); err != nil {
				t.Fatal(err)
			}
			r := readers{fx}
			var got string
			if tt.order {
				got = r.orders(t, "amazon")
			} else {
				got = r.trips(t)
			}
			if x := realOne(t, got); x.Status == "cancelled" || slices.Contains(x.Sources, 2) {
				t.Errorf("the real mail's thing = %+v (%s); want it as the real mail states it, the stranger's apart", x, got)
			}
		})
	}
}
