package facts_test

import (
	"mailnode/mail/msgauth"

	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mailnode/assets"
	"mailnode/extract/facts"
	"mailnode/mail/store"
)

// openDemo stores the demo mailbox's INBOX in a fresh store and returns the
// facts over it.
func openDemo(t *testing.T) (*store.Store, *facts.Store, store.Folder) {
	t.Helper()
	return openDemoSource(t, nil)
}

// openDemoSource is openDemo whose facts read messages through
// source(the store), if source is not nil.
func openDemoSource(t *testing.T, source func(*store.Store) facts.Source) (*store.Store, *facts.Store, store.Folder) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	acct, err := st.EnsureAccount(ctx, store.Account{Name: "demo", Server: "h:1", Username: "u"})
	if err != nil {
		t.Fatal(err)
	}
	inbox, err := st.EnsureFolder(ctx, acct.ID, "INBOX", "")
	if err != nil {
		t.Fatal(err)
	}
	trash, err := st.EnsureFolder(ctx, acct.ID, "Trash", `\Trash`)
	if err != nil {
		t.Fatal(err)
	}
	box := assets.DemoMailbox()
	var msgs []store.NewMessage
	names, _ := fs.Glob(box, "INBOX/*.eml")
	for i, name := range names {
		raw, _ := fs.ReadFile(box, name)
		msgs = append(msgs, store.NewMessage{UID: uint32(i + 1), Raw: raw, Size: int64(len(raw)), InternalDate: time.Now()})
	}
	if err := st.AddMessages(ctx, inbox.ID, msgs, uint32(len(msgs))); err != nil {
		t.Fatal(err)
	}
	// A bill in the Trash is not the user's business any more.
	bill, _ := fs.ReadFile(box, "INBOX/21-vodafone-bill.eml")
	if err := st.AddMessages(ctx, trash.ID, []store.NewMessage{{UID: 1, Raw: bill}}, 1); err != nil {
		t.Fatal(err)
	}
	tables, err := st.Attach(ctx, "facts", facts.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	var src facts.Source = st
	if source != nil {
		src = source(st)
	}
	return st, facts.New(tables, src, msgauth.Checker{}, nil), inbox
}

func TestPassAndQueries(t *testing.T) {
	ctx := context.Background()
	st, fs, inbox := openDemo(t)
	stats, err := fs.Pass(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Read == 0 || stats.Facts == 0 || !stats.Merged {
		t.Fatalf("Pass() = %+v, want messages read, facts and a merge", stats)
	}
	if again, err := fs.Pass(ctx); err != nil || again.Read != 0 || again.Merged {
		t.Errorf("second Pass() = %+v, %v, want nothing to do", again, err)
	}

	from := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	trips, err := fs.Trips(ctx, time.Now(), from, time.Time{}, 20)
	if err != nil {
		t.Fatal(err)
	}
	if s := join(trips); !strings.Contains(s, `"LH 400"`) || !strings.Contains(s, `"Europe/Berlin"`) || strings.Contains(s, "BK-55120873") {
		t.Errorf("Trips() = %s, want LH 400 with its zone and without the cancelled hotel", s)
	}
	for _, merchant := range []string{"zalando", "ZALANDO.de", "Zalándo"} {
		orders, err := fs.Orders(ctx, time.Now(), merchant, 20)
		if err != nil || len(orders) != 1 || !strings.Contains(string(orders[0]), `"returned"`) {
			t.Errorf("Orders(%q) = %s, %v, want the returned Zalando order", merchant, join(orders), err)
		}
	}
	if orders, _ := fs.Orders(ctx, time.Now(), "zal%", 20); len(orders) != 0 {
		t.Errorf("Orders(zal%%) = %s, want a literal match only", join(orders))
	}
	bills, err := fs.BillsDue(ctx, time.Now(), time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	s := join(bills)
	if !strings.Contains(s, "INV-2026-11-7730219") || strings.Contains(s, "INV-2026-10-7730219") || strings.Count(s, `"domain":"vodafone.co.uk"`) != 1 {
		t.Errorf("BillsDue() = %s, want the open Vattenfall bill, not the paid one, and Vodafone once", s)
	}
	// Soonest first.
	var prev string
	for _, b := range bills {
		var v struct{ Due struct{ At string } }
		json.Unmarshal(b, &v)
		at, _ := time.Parse(time.RFC3339, v.Due.At)
		if k := at.UTC().Format(time.RFC3339); k < prev {
			t.Errorf("bills not soonest first: %s after %s", k, prev)
		} else {
			prev = k
		}
	}

	// The facts go with their message.
	uids, _ := st.UIDs(ctx, inbox.ID)
	if err := st.RemoveUIDs(ctx, inbox.ID, uids); err != nil {
		t.Fatal(err)
	}
	if stats, err := fs.Pass(ctx); err != nil || !stats.Merged {
		t.Fatalf("Pass() after deletion = %+v, %v, want a merge", stats, err)
	}
	if trips, _ := fs.Trips(ctx, time.Now(), from, time.Time{}, 20); len(trips) != 0 {
		t.Errorf("Trips() after deleting every message = %s, want none", join(trips))
	}
}

func join(rs []json.RawMessage) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, string(r))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// TestUnreadableMessage: a message whose stored bytes are damaged is
// skipped with a warning; the pass ends and the rest is read.
func TestUnreadableMessage(t *testing.T) {
	ctx := context.Background()
	st, fs, _ := openDemo(t)
	tables, err := st.Attach(ctx, "facts", facts.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	err = tables.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE message_content SET raw_s2 = x'ff00ff' WHERE message_id = (SELECT min(id) FROM messages)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var stats facts.PassStats
	go func() {
		defer close(done)
		stats, err = fs.Pass(ctx)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Pass() did not end with a damaged message in the store")
	}
	if err != nil || stats.Facts == 0 {
		t.Errorf("Pass() = %+v, %v, want the other messages' facts", stats, err)
	}
}

// TestExtractedInTheSync (hardening item 16): with the facts as the
// store's message hook, messages are extracted as they are stored, in the
// same transaction: the pass after the sync reads again only what the
// sync leaves pending (attachments' images and printed text) and merges,
// to the same result as a pass over the same mail.
func TestExtractedInTheSync(t *testing.T) {
	ctx := context.Background()
	// The reference: stored first, read by a pass.
	_, ref, _ := openDemo(t)
	if _, err := ref.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	want, _ := ref.BillsDue(ctx, time.Now(), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), 50)

	st, tables, fsx, inbox := hookedStore(t)
	trash, _ := st.EnsureFolder(ctx, inbox.AccountID, "Trash", `\Trash`)
	box := assets.DemoMailbox()
	names, _ := fs.Glob(box, "INBOX/*.eml")
	var msgs []store.NewMessage
	for i, name := range names {
		raw, _ := fs.ReadFile(box, name)
		msgs = append(msgs, store.NewMessage{UID: uint32(i + 1), Raw: raw, Size: int64(len(raw)), InternalDate: time.Now()})
	}
	for i := range msgs {
		st.Prepare(&msgs[i]) // as the sync's parse workers do
	}
	if err := st.AddMessages(ctx, inbox.ID, msgs, uint32(len(msgs))); err != nil {
		t.Fatal(err)
	}
	bill, _ := fs.ReadFile(box, "INBOX/21-vodafone-bill.eml")
	if err := st.AddMessages(ctx, trash.ID, []store.NewMessage{{UID: 1, Raw: bill}}, 1); err != nil {
		t.Fatal(err)
	}
	var extracted int
	tables.DB().QueryRow(`SELECT count(*) FROM facts_extracted`).Scan(&extracted)
	if extracted != len(msgs) {
		t.Fatalf("%d messages extracted in the sync's transactions, want %d (not the Trash)", extracted, len(msgs))
	}
	// Only the mail with a picture attached is read again: a picture is
	// looked at for a ticket's barcode after the sync, not in it.
	stats, err := fsx.Pass(ctx)
	if err != nil || stats.Read != 1 || !stats.Merged {
		t.Fatalf("Pass() after the sync = %+v, %v; want the one mail with a picture read again, a merge", stats, err)
	}
	got, _ := fsx.BillsDue(ctx, time.Now(), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), 50)
	if join(got) != join(want) {
		t.Errorf("bills extracted in the sync:\n%s\nwant as a pass reads them:\n%s", join(got), join(want))
	}
}

// TestPlans: an event ticket in a Wallet pass becomes a plan that a
// question finds by its name, and never a trip of get_upcoming_travel.
func TestPlans(t *testing.T) {
	ctx := context.Background()
	st, fs, inbox := openDemo(t)
	pass, err := os.ReadFile("../pkpass/testdata/apple-semantic-event-ticket-scrubbed.pkpass")
	if err != nil {
		t.Fatal(err)
	}
	raw := "From: Tickets <tickets@venue.example>\r\nTo: me@example.org\r\nSubject: Your ticket\r\nDate: Mon, 01 Jun 2026 10:00:00 +0000\r\n" +
		"Message-ID: <ticket-1@venue.example>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n" +
		"Content-Type: text/plain\r\n\r\nYour ticket is attached.\r\n--b\r\nContent-Type: application/vnd.apple.pkpass\r\n" +
		"Content-Disposition: attachment; filename=ticket.pkpass\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		base64.StdEncoding.EncodeToString(pass) + "\r\n--b--\r\n"
	if err := st.AddMessages(ctx, inbox.ID, []store.NewMessage{{UID: 1000, Raw: []byte(raw), Size: int64(len(raw))}}, 1000); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	trips, err := fs.Trips(ctx, time.Now(), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if s := join(trips); strings.Contains(s, "Event Name") {
		t.Errorf("Trips() holds the event: %s", s)
	}
	about, err := fs.About(ctx, time.Now(), []string{"event", "name"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if s := join(about); !strings.Contains(s, `"id":"p_`) || !strings.Contains(s, `"Event Location Name"`) || !strings.Contains(s, `"type":"event"`) {
		t.Errorf("About(event name) = %s, want the event plan", s)
	}
}

// TestPDFPending: the sync reads a mail's PDF only for an embedded
// e-invoice; a PDF without one leaves the mail pending, and the pass after
// the sync reads its text, as the facts service does in idle time.
func TestPDFPending(t *testing.T) {
	ctx := context.Background()
	st, _, fsx, inbox := hookedStore(t)
	mail := func(uid uint32, pdfFile string) store.NewMessage {
		pdf, err := os.ReadFile("../pdfdoc/testdata/" + pdfFile)
		if err != nil {
			t.Fatal(err)
		}
		raw := fmt.Sprintf("From: Billing <rechnung@hoster.example>\r\nTo: me@example.org\r\nSubject: Ihre Rechnung\r\n"+
			"Date: Tue, 19 Jan 2016 08:00:00 +0100\r\nMessage-ID: <r%d@hoster.example>\r\nMIME-Version: 1.0\r\n"+
			"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nAnbei Ihre Rechnung.\r\n"+
			"--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=r.pdf\r\n"+
			"Content-Transfer-Encoding: base64\r\n\r\n%s\r\n--b--\r\n", uid, base64.StdEncoding.EncodeToString(pdf))
		return store.NewMessage{UID: uid, Raw: []byte(raw), Size: int64(len(raw))}
	}
	msgs := []store.NewMessage{mail(1, "RE-E-974-Hetzner_2016-01-19_R0005532486.pdf"), mail(2, "EN16931_Einfach_DueDate.pdf")}
	if err := st.AddMessages(ctx, inbox.ID, msgs, 2); err != nil {
		t.Fatal(err)
	}
	stats, err := fsx.Pass(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Read != 1 {
		t.Errorf("the pass after the sync read %d messages, want the one pending PDF", stats.Read)
	}
	// Read in 2016, when the bills were due (now they are stale).
	bills, err := fsx.BillsDue(ctx, time.Date(2016, 2, 1, 0, 0, 0, 0, time.UTC), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), 10)
	if err != nil {
		t.Fatal(err)
	}
	if s := join(bills); !strings.Contains(s, "R0005532486") || !strings.Contains(s, "471102") {
		t.Errorf("BillsDue() = %s, want the e-invoice's bill and the printed one's", s)
	}
	if again, _ := fsx.Pass(ctx); again.Read != 0 {
		t.Errorf("a second pass read %d messages", again.Read)
	}
}

// hookedStore opens an empty store with the facts as its message hook, as
// the node runs it, and an account's INBOX.
func hookedStore(t *testing.T) (*store.Store, *store.Tables, *facts.Store, store.Folder) {
	t.Helper()
	return hookedStoreWith(t, msgauth.Checker{})
}

// hookedStoreWith is hookedStore believing the Authentication-Results of
// the checker's authserv-ids.
func hookedStoreWith(t *testing.T, check msgauth.Checker) (*store.Store, *store.Tables, *facts.Store, store.Folder) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tables, err := st.Attach(ctx, "facts", facts.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	fsx := facts.New(tables, st, check, nil)
	st.SetMessageHook(fsx)
	acct, _ := st.EnsureAccount(ctx, store.Account{Name: "demo", Server: "h:1", Username: "u"})
	inbox, _ := st.EnsureFolder(ctx, acct.ID, "INBOX", "")
	return st, tables, fsx, inbox
}

// TestBillsDueKeepsUpcoming: when more bills are due than the limit, the
// ones not yet due are kept, then the most recently overdue, and the
// answer is soonest first: a year of unpaid monthly bills does not hide
// the one due next week.
func TestBillsDueKeepsUpcoming(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2030, 6, 15, 12, 0, 0, 0, time.UTC)
	st, _, fsx, inbox := hookedStore(t)
	var msgs []store.NewMessage
	for i, due := range []time.Time{now.AddDate(0, -10, 0), now.AddDate(0, -9, 0), now.AddDate(0, -1, 0), now.AddDate(0, 0, 7)} {
		raw := fmt.Sprintf("From: Stadtwerke Nord <rechnung@stadtwerke-nord.example>\r\nTo: me@home.example\r\nSubject: Your bill\r\n"+
			"Date: %s\r\nMessage-ID: <b%d@x>\r\n\r\nYour new bill is ready.\r\n\r\nBill number: SW-%d\r\nAmount Due: $%d.50\r\nDue Date: %s\r\n",
			due.AddDate(0, 0, -14).Format(time.RFC1123Z), i, 1000+i, 40+i, due.Format("01/02/2006"))
		msgs = append(msgs, store.NewMessage{UID: uint32(i + 1), Raw: []byte(raw), InternalDate: now})
	}
	if err := st.AddMessages(ctx, inbox.ID, msgs, uint32(len(msgs))); err != nil {
		t.Fatal(err)
	}
	if _, err := fsx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	numbers := func(limit int) []string {
		bills, err := fsx.BillsDue(ctx, now, now.AddDate(0, 1, 0), limit)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range bills {
			var v struct{ Number string }
			json.Unmarshal(b, &v)
			out = append(out, v.Number)
		}
		return out
	}
	if got, want := numbers(20), []string{"SW-1000", "SW-1001", "SW-1002", "SW-1003"}; !slices.Equal(got, want) {
		t.Fatalf("BillsDue(limit 20) = %v, want %v (the mails must read as four due bills)", got, want)
	}
	if got, want := numbers(2), []string{"SW-1002", "SW-1003"}; !slices.Equal(got, want) {
		t.Errorf("BillsDue(limit 2) = %v, want %v: the bill due next week, then the latest overdue, soonest first", got, want)
	}
}
