package facts_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"mailnode/mail/store"
)

// ATTACK (denial of a real fact): the tools return at most 20 things,
// trusted first, soonest first. Through a share service's trusted relay
// (TestReview10ShareServiceStrangerIsNoTrustedBill), 25 Drive shares
// each naming a flight in the coming weeks are 25 trusted trips: the
// person's real Lufthansa booking, later in the month, is no longer in
// get_upcoming_travel at all.
// SAFE: the relay's mail is untrusted, so the person's trusted trip is
// listed first; more generally one sender's (or one relay's) things
// never fill the whole limit.
func TestReview10RelayFloodHidesRealTrip(t *testing.T) {
	var msgs []store.NewMessage
	seed := review10Mail("Lufthansa <booking@lufthansa.com>", "lufthansa.com", "", "Welcome", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 1)
	msgs = append(msgs, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)))
	real := review10Mail("Lufthansa <booking@lufthansa.com>", "lufthansa.com", "", "Your booking XK4R7Q", "Fri, 20 Nov 2026 08:00:00 +0100",
		"Booking reference: XK4R7Q\r\n\r\nLH 400 Frankfurt (FRA) 10:10 -> New York (JFK) 12:55\r\nDate: 28 December 2026\r\n", 2)
	msgs = append(msgs, review7Msg(2, real, time.Now().AddDate(0, 0, -1)), review7Msg(3, review10Mail("Google <no-reply@accounts.google.com>", "google.com", "", "Hi", "Sat, 21 Nov 2025 08:00:00 +0100", "Hello.\r\n", 3), time.Now().AddDate(-1, 0, 0)))
	for i := 0; i < 25; i++ {
		m := review10Mail("\"Mallory (via Google Drive)\" <drive-shares-dm-noreply@google.com>", "google.com", "", fmt.Sprintf("Your booking ZZ%04d", i), "Sat, 21 Nov 2026 08:00:00 +0100",
			fmt.Sprintf("Booking reference: ZQ%04d\r\n\r\nLH %d Frankfurt (FRA) 10:10 -> New York (JFK) 12:55\r\nDate: %d December 2026\r\n", i, 1000+i, 1+i), 10+i)
		msgs = append(msgs, review7Msg(uint32(10+i), m, time.Now()))
	}
	fx := review7Store(t, msgs...)
	got := fx.trips(t)
	t.Logf("trips: %d, the real booking listed: %v", strings.Count(got, `"id":"t_`), strings.Contains(got, "XK4R7Q"))
	if !strings.Contains(got, "XK4R7Q") {
		t.Errorf("25 strangers' shares through google.com hid the person's trusted trip XK4R7Q")
	}
}
