package extract_test

// Outside review, fourth round: a hotel tip beside an airline's flights,
// and CJK sales, chats and examples, are no bookings.

import (
	"strings"
	"testing"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// review4Mail is a plain-text mail dated at +01:00.
func review4Mail(from, subject, body string) extract.Result {
	raw := "From: " + from + "\r\nTo: alex@example.com\r\nSubject: " + subject +
		"\r\nDate: Sat, 21 Nov 2026 08:00:00 +0100\r\nMessage-ID: <p@x>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		strings.ReplaceAll(body, "\n", "\r\n")
	m := mime.Parse([]byte(raw))
	return extract.Extract(m, msgauth.Checker{}.Check(m, nil))
}

// TestPackageStayNeedsItsOwnBooking: a stay under a heading beside an
// airline's flights, with no number of its own, is no booked stay when
// the mail's only number is the flights' record locator.
func TestPackageStayNeedsItsOwnBooking(t *testing.T) {
	res := review4Mail("Lufthansa <booking@lufthansa.com>", "Your booking confirmation XK4R7Q",
		"Dear Alex,\n\nBooking code: XK4R7Q\n\nLH 400  Frankfurt (FRA) 14 Dec 2026 10:05  ->  New York JFK (JFK) 14 Dec 2026 13:00\n\n"+
			"Hotel tip from other travellers\nThe Plaza Hotel\nCheck-in: 14 Dec 2026\nCheck-out: 18 Dec 2026\nRated 4.7 by 2,000 guests.\n")
	flights := 0
	for _, f := range res.Facts {
		if f.Segment == nil {
			continue
		}
		if f.Segment.Type == "hotel" {
			t.Errorf("a hotel tip gave a %s stay %q under %q", f.Segment.Status, f.Segment.Hotel, f.Segment.Reservation)
		} else {
			flights++
		}
	}
	if flights == 0 {
		t.Errorf("the flight was lost: %+v", res.Facts)
	}
}
