package facts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/mail/store"
)

// undatedItinerary is a booking printout without a Date header whose
// dates give no year: only the mail's arrival in the mailbox says which.
const undatedItinerary = "From: Iberia <noreply@iberia.example>\r\nTo: me@home.example\r\nSubject: Your e-ticket\r\n" +
	"Message-ID: <undated@iberia.example>\r\n\r\n" +
	"ELECTRONIC TICKET\r\nBOOKING REF: KQ4T9M\r\n\r\n" +
	"FROM /TO            FLIGHT   CL DATE  DEP\r\n" +
	"MADRID BARAJAS      IB 6251  N  02JUL 1215\r\n" +
	"NEW YORK JFK                            ARRIVAL TIME: 1455  ARRIVAL DATE: 02JUL\r\n"

// TestUndatedMailByArrival: a mail without a Date header is read as of
// its arrival (IMAP's INTERNALDATE), in the sync's hook and in a pass
// alike, so a date without a year gets the year the mail came in, not a
// guess and not nothing.
func TestUndatedMailByArrival(t *testing.T) {
	ctx := context.Background()
	arrived := time.Date(2027, 6, 20, 9, 0, 0, 0, time.UTC)
	for _, hooked := range []bool{true, false} {
		st, tables, fsx, inbox := hookedStore(t)
		msg := store.NewMessage{UID: 1, Raw: []byte(undatedItinerary), InternalDate: arrived}
		if hooked {
			st.Prepare(&msg) // the sync's parse worker
		}
		if err := st.AddMessages(ctx, inbox.ID, []store.NewMessage{msg}, 1); err != nil {
			t.Fatal(err)
		}
		if !hooked {
			// Read again by a pass, as after an extractor upgrade.
			if _, err := tables.DB().Exec(`DELETE FROM facts_extracted`); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := fsx.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		trips, err := fsx.Trips(ctx, arrived, arrived, arrived.AddDate(1, 0, 0), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(trips) != 1 || !strings.Contains(string(trips[0]), `"2027-07-02T12:15:00+02:00"`) {
			t.Errorf("hooked %v: trips = %s; want IB 6251 on 2 July 2027", hooked, trips)
		}
	}
}
