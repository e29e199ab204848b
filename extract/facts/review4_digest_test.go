package facts_test

// Outside review, fourth round: a postal digest's section
// heading that parcelList's sectionState did not know made a parcel
// listed under it inherit the "Delivered" section above, and the carrier's
// digest then moved the shop's real order to delivered.

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

func digestWithHeading(heading string) string {
	return "Authentication-Results: mx.demo-mail.example; dkim=pass header.d=email.informeddelivery.usps.com; dmarc=pass header.from=email.informeddelivery.usps.com\r\n" +
		"From: USPS Informed Delivery <USPSInformeddelivery@email.informeddelivery.usps.com>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\n" +
		"Subject: Your Daily Digest for Fri, 11/13 is ready to view\r\nDate: Fri, 13 Nov 2026 06:47:55 -0500\r\nMessage-ID: <d1@email.informeddelivery.usps.com>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"Hi, ALEX. Here's what's arriving.\r\n\r\nPACKAGES\r\n\r\nDelivered\r\n\r\n" +
		"FROM ULTA BEAUTY\r\nTracking Number\r\n9300 1022 2030 1844 6190 25\r\nDelivered, In/At Mailbox: Thursday, 11/12\r\n\r\n" +
		heading + "\r\n\r\n" +
		"FROM AMAZON.COM\r\nTracking Number\r\n1Z999AA10123456784\r\n\r\n" +
		"Looking for more? See all of your mail and packages on your Dashboard.\r\n"
}

func TestReview4DigestUnknownHeadingEndsSection(t *testing.T) {
	for _, heading := range []string{"Pending", "Awaiting Pickup", "Scheduled", "Arriving Soon"} {
		t.Run(heading, func(t *testing.T) {
			ctx := context.Background()
			st, _, fx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.demo-mail.example"}})
			real, err := fs.ReadFile(assets.DemoMailbox(), "INBOX/11-amazon-shipped.eml")
			if err != nil {
				t.Fatal(err)
			}
			digest := digestWithHeading(heading)
			msgs := []store.NewMessage{
				// Both senders long known: trusted.
				{UID: 1, Raw: real, Size: int64(len(real)), InternalDate: time.Now().AddDate(-1, 0, 0)},
				{UID: 2, Raw: []byte(digest), Size: int64(len(digest)), InternalDate: time.Now().AddDate(-1, 0, 0)},
			}
			if err := st.AddMessages(ctx, inbox.ID, msgs, 2); err != nil {
				t.Fatal(err)
			}
			if _, err := fx.Pass(ctx); err != nil {
				t.Fatal(err)
			}
			got := readers{fx}.orders(t, "amazon")
			t.Logf("order_status(amazon) = %s", got)
			if strings.Contains(got, `"delivered"`) {
				t.Errorf("a parcel listed under %q (not delivered) marked the real Amazon order delivered", heading)
			}
		})
	}
}
