package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/mail/store"
)

// TestAttachedMailSearchable: a booking forwarded as an attachment is
// found by search and read with the message's text, under its own
// sender's lines, as one forwarded inline would be.
func TestAttachedMailSearchable(t *testing.T) {
	ctx := context.Background()
	s, _, f := openInbox(t)
	inner := "From: Rail Co <tickets@rail.example>\r\nDate: Mon, 2 Nov 2026 10:00:00 +0100\r\n" +
		"Subject: Your ticket\r\nContent-Type: text/plain\r\n\r\nBooking QX7781, Bern to Basel.\r\n"
	for i, outer := range []string{
		// The forwarder's note in text.
		"From: Sam <sam@example.net>\r\nSubject: Fwd: ticket\r\nMessage-ID: <f%d@example.net>\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n" +
			"--b\r\nContent-Type: text/plain\r\n\r\nFor Friday.\r\n--b\r\nContent-Type: message/rfc822\r\n\r\n" + inner + "\r\n--b--\r\n",
		// Only HTML of the forwarder's own.
		"From: Sam <sam@example.net>\r\nSubject: Fwd: ticket\r\nMessage-ID: <f%d@example.net>\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n" +
			"--b\r\nContent-Type: text/html\r\n\r\n<p>For Friday.</p>\r\n--b\r\nContent-Type: message/rfc822\r\n\r\n" + inner + "\r\n--b--\r\n",
	} {
		raw := strings.Replace(outer, "%d", string(rune('0'+i)), 1)
		if err := s.AddMessages(ctx, f.ID, []store.NewMessage{{UID: uint32(i + 1), InternalDate: time.Now(), Raw: []byte(raw)}}, uint32(i+1)); err != nil {
			t.Fatal(err)
		}
	}
	hits, err := s.Search(ctx, "QX7781", 10)
	if err != nil || len(hits) != 2 {
		t.Fatalf("Search = %d hits, %v; want both forwards", len(hits), err)
	}
	for _, h := range hits {
		text, html, err := s.Text(ctx, h.ID)
		if err != nil {
			t.Fatal(err)
		}
		read := text
		if strings.TrimSpace(read) == "" {
			read = html
		}
		for _, want := range []string{"For Friday.", "From: Rail Co <tickets@rail.example>", "Booking QX7781"} {
			if !strings.Contains(read, want) {
				t.Errorf("message %d reads %q, want it to hold %q", h.ID, read, want)
			}
		}
	}
}
