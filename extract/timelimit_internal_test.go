package extract

import (
	"testing"
	"time"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestMessageTime: once a message's time is spent, its further
// documents and attached mails are not read, what was read is kept, and
// the result says so.
func TestMessageTime(t *testing.T) {
	inner := "From: Lufthansa <booking@lufthansa.com>\r\nDate: Mon, 2 Nov 2026 10:00:00 +0100\r\n" +
		"Subject: Your booking confirmation XK4R7Q\r\nContent-Type: text/plain\r\n\r\n" +
		"Your booking code is XK4R7Q.\r\n\r\nLH 400  Frankfurt (FRA) 14 Dec 2026 10:05  ->  New York JFK (JFK) 14 Dec 2026 13:00\r\n"
	raw := "From: Sam <sam@example.net>\r\nSubject: Fwd: booking\r\nDate: Tue, 3 Nov 2026 10:00:00 +0100\r\n" +
		"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n" +
		"--b\r\nContent-Type: text/plain\r\n\r\nFor December.\r\n--b\r\nContent-Type: message/rfc822\r\n\r\n" + inner + "\r\n--b--\r\n"
	m := mime.Parse([]byte(raw))
	for _, tt := range []struct {
		name        string
		until       time.Time
		wantFacts   bool
		wantOverdue bool
	}{
		{"within its time", time.Now().Add(time.Minute), true, false},
		{"its time spent", time.Now().Add(-time.Second), false, true},
	} {
		b := &imageBudget{left: messagePixels, until: tt.until}
		res := extractWithin(m, msgauth.Verdict{}, true, b)
		if got := len(res.Facts) > 0; got != tt.wantFacts || b.overdue != tt.wantOverdue {
			t.Errorf("%s: %d facts, overdue %v; want facts %v, overdue %v", tt.name, len(res.Facts), b.overdue, tt.wantFacts, tt.wantOverdue)
		}
	}
	if res := Extract(m, msgauth.Verdict{}); res.Overdue || len(res.Facts) == 0 {
		t.Errorf("Extract: %d facts, overdue %v; want the attached booking within its time", len(res.Facts), res.Overdue)
	}
}
