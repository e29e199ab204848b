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
	srv, c, _, exists := idleClient(t)
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

// TestIdleReportsDeliveryAtItsStart: a message delivered while IDLE is
// starting, from another goroutine and at a moment that varies, is always
// reported within two seconds, wherever it falls: before the poll at
// IDLE's start, between that poll and the tracker's wait, or during it.
func TestIdleReportsDeliveryAtItsStart(t *testing.T) {
	srv, c, want, exists := idleClient(t)
	for i := range 100 {
		want++
		delivered := make(chan error, 1)
		go func() {
			time.Sleep(time.Duration(i%20) * 50 * time.Microsecond)
			delivered <- srv.Deliver([]byte("From: a@example.com\r\nSubject: hi\r\n\r\nhello\r\n"))
		}()
		idle, err := c.Idle()
		if err != nil {
			t.Fatal(err)
		}
		if err := <-delivered; err != nil {
			t.Fatal(err)
		}
		timeout := time.After(2 * time.Second)
	wait:
		for {
			select {
			case n := <-exists:
				if n == want {
					break wait
				}
			case <-timeout:
				t.Fatalf("delivery %d while IDLE started: not reported within 2 s", i)
			}
		}
		if err := idle.Close(); err != nil {
			t.Fatal(err)
		}
		if err := idle.Wait(); err != nil {
			t.Fatal(err)
		}
	}
}

// idleClient starts a demo server and a client logged in to it with INBOX
// selected; exists receives each EXISTS the server reports unasked, and n
// is INBOX's count at the SELECT.
func idleClient(t *testing.T) (srv *demobox.Server, c *imapclient.Client, n uint32, exists <-chan uint32) {
	t.Helper()
	srv, err := demobox.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ch := make(chan uint32, 64)
	c, err = imapclient.DialInsecure(srv.Addr, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				ch <- *d.NumMessages
			}
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(demobox.Username, demobox.Password).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, sel.NumMessages, ch
}
