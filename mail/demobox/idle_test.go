package demobox_test

import (
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"mailnode/mail/demobox"
)

// TestIdleReportsEarlierDelivery: a message delivered after the client's
// last command and before its IDLE is reported as soon as IDLE starts.
func TestIdleReportsEarlierDelivery(t *testing.T) {
	srv, err := demobox.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	exists := make(chan uint32, 4)
	c, err := imapclient.DialInsecure(srv.Addr, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				exists <- *d.NumMessages
			}
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(demobox.Username, demobox.Password).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Deliver([]byte("From: a@example.com\r\nSubject: hi\r\n\r\nhello\r\n")); err != nil {
		t.Fatal(err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { idle.Close(); idle.Wait() }()
	select {
	case n := <-exists:
		if n != 1 {
			t.Fatalf("EXISTS %d, want 1", n)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the delivery before IDLE was not reported once IDLE started")
	}
}
