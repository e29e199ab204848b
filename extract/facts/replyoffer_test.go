package facts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/mail/msgauth"
	"mailnode/mail/store"
)

func replyHotelMail(id, subject, date, body string) string {
	return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=hotel-adler.example; dmarc=pass header.from=hotel-adler.example\r\n" +
		"From: Hotel Adler <reservations@hotel-adler.example>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: " + subject + "\r\nDate: " + date + "\r\nMessage-ID: <" + id + "@hotel-adler.example>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
}

// TestReplyOfferIsNoStay: the hotel confirms 12-15 July (booking 58213); later it replies to a
// request, OFFERING 14-16 July instead ("until then your booking stays as it is") over the quoted
// confirmation. get_upcoming_travel must still show one stay, 12-15 July.
func TestReplyOfferIsNoStay(t *testing.T) {
	conf := "Dear Ms Morgan,\n\nYour booking is confirmed.\nBooking number: 58213\nHotel Adler, Innsbruck\nCheck-in: 12.07.2027\nCheck-out: 15.07.2027\n"
	reply := "Dear Ms Morgan,\n\nthank you for your request. Unfortunately the room is not available for your new dates.\n" +
		"We could offer you instead, maybe:\n\nCheck-in: 14.07.2027\nCheck-out: 16.07.2027\n\n" +
		"Please let us know if you would like this option; until then your booking stays as it is.\n\nKind regards\nHotel Adler\n\n" +
		"-----Original Message-----\nFrom: Hotel Adler <reservations@hotel-adler.example>\nSent: Monday, June 7, 2027 10:00\n" +
		"To: Alex Morgan <alex.morgan@demo-mail.example>\nSubject: Booking confirmation 58213\n\n" + conf
	ctx := context.Background()
	st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
	a := replyHotelMail("c1", "Booking confirmation 58213", "Mon, 07 Jun 2027 10:00:00 +0200", conf)
	b := replyHotelMail("r1", "RE: Your booking 58213", "Wed, 09 Jun 2027 10:00:00 +0200", reply)
	msgs := []store.NewMessage{
		{UID: 1, Raw: []byte(a), Size: int64(len(a)), InternalDate: time.Now().AddDate(-1, 0, 0)},
		{UID: 2, Raw: []byte(b), Size: int64(len(b)), InternalDate: time.Now().AddDate(-1, 0, 0)},
	}
	if err := st.AddMessages(ctx, inbox.ID, msgs, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	got := readers{fx}.trips(t)
	t.Logf("trips = %s", got)
	if strings.Contains(got, "2027-07-14") || strings.Contains(got, "2027-07-16") || !strings.Contains(got, "2027-07-12") {
		t.Errorf("the hotel's offer of 14-16 July became a stay (or the real 12-15 July stay was lost)")
	}
}
