package imapsync_test

import (
	"context"
	"testing"
	"time"

	"mailnode/mail/imapsync"
	"mailnode/mail/imaptest"
)

// TestAppendSent: a sent message lands in the Sent folder, seen, and the
// next sync brings it into the store.
func TestAppendSent(t *testing.T) {
	servers(t, func(t *testing.T, srv *imaptest.Server) {
		ctx := context.Background()
		cfg := config(srv)
		msg := []byte("From: me@example.org\r\nTo: you@example.com\r\nSubject: appended\r\nMessage-ID: <sent-1@example.org>\r\nDate: Mon, 02 Nov 2026 10:00:00 +0000\r\n\r\nhello\r\n")
		folder, err := imapsync.AppendSent(ctx, cfg, msg, time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		// A second send finds the folder the first one made or found.
		if again, err := imapsync.AppendSent(ctx, cfg, msg, time.Now()); err != nil || again != folder {
			t.Fatalf("second append: %q %v (first %q)", again, err, folder)
		}
		st := newStore(t)
		if _, err := newSyncer(t, cfg, st).Sync(ctx); err != nil {
			t.Fatal(err)
		}
		hits, err := st.Search(ctx, "appended", 10)
		if err != nil || len(hits) != 2 {
			t.Fatalf("synced sent messages: %v %v", hits, err)
		}
	})
}
