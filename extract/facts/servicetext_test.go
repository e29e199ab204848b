package facts_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"mailnode/assets"
	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

// scheduleChange is an airline's own, authenticated schedule change for
// the demo booking XK4R7Q, with a line of its usual service text.
func scheduleChange(service string) string {
	return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=lufthansa.com; spf=pass smtp.mailfrom=lufthansa.com; dmarc=pass header.from=lufthansa.com\r\n" +
		"From: Lufthansa <booking-confirmation@lufthansa.com>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: Schedule change for your booking XK4R7Q\r\nDate: Fri, 20 Nov 2026 09:12:44 +0100\r\nMessage-ID: <r7-change@lufthansa.com>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"Dear Alex Morgan,\r\n\r\nthe schedule of your flight has changed. Your booking code is XK4R7Q.\r\n\r\n" +
		"LH 400  Frankfurt (FRA) 14 Dec 2026 16:40  ->  New York JFK (JFK) 14 Dec 2026 19:35\r\nSeat 32K, Economy Classic\r\n\r\n" +
		service + "\r\n\r\nLufthansa Customer Service\r\n"
}

// TestServiceTextKeepsScheduleChange: an airline's own schedule change
// whose service text speaks of baggage rules, its virtual assistant or
// earlier check-in instructions is not tainted (injection.Addressed) and
// moves the trip (the seventh outside review, MEDIUM-1: the tainted
// change was ignored and the trip kept its old time).
func TestServiceTextKeepsScheduleChange(t *testing.T) {
	booking, err := fs.ReadFile(assets.DemoMailbox(), "INBOX/01-lufthansa-booking.eml")
	if err != nil {
		t.Fatal(err)
	}
	for name, service := range map[string]string{
		"baggage rules":     "Please note: new rules for carry-on baggage apply from 1 January 2027.",
		"virtual assistant": "Questions? Chat with our virtual assistant handling your booking questions.",
		"check-in":          "Please disregard the previous check-in instructions: online check-in opens 30 hours before departure.",
		"control":           "Have a good flight.",
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
			old := time.Now().AddDate(-1, 0, 0)
			change := scheduleChange(service)
			msgs := []store.NewMessage{
				{UID: 1, Raw: booking, Size: int64(len(booking)), InternalDate: old},
				{UID: 2, Raw: []byte(change), Size: int64(len(change)), InternalDate: old},
			}
			if err := st.AddMessages(ctx, inbox.ID, msgs, uint32(len(msgs))); err != nil {
				t.Fatal(err)
			}
			if _, err := fx.Pass(ctx); err != nil {
				t.Fatal(err)
			}
			got := readers{fx}.trips(t)
			if !strings.Contains(got, "16:40") || strings.Contains(got, `"tainted":true`) {
				t.Errorf("the airline's own schedule change is lost or tainted: %s", got)
			}
		})
	}
}
