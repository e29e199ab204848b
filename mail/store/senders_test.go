package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mailnode/mail/store"
)

// senderMail is a message from from to to, with a Date header the sender
// chose.
func senderMail(uid uint32, from, to, date string, arrived time.Time) store.NewMessage {
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nCc: Cc Person <cc@cc-corp.example>\r\nDate: %s\r\nSubject: m%d\r\nMessage-ID: <%d@x>\r\n\r\nHello.\r\n", from, to, date, uid, uid)
	return store.NewMessage{UID: uid, Raw: []byte(raw), InternalDate: arrived}
}

func TestSenders(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	acct, _ := s.EnsureAccount(ctx, store.Account{Name: "a", Server: "h:1", Username: "u"})
	inbox, _ := s.EnsureFolder(ctx, acct.ID, "INBOX", "")
	sent, _ := s.EnsureFolder(ctx, acct.ID, "Sent", `\Sent`)
	junk, _ := s.EnsureFolder(ctx, acct.ID, "Junk", `\Junk`)
	y2020 := time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC)
	y2024 := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	recent := time.Now().Add(-48 * time.Hour)
	before := time.Now()
	// INBOX: telekom.de from two hosts, the earlier arrival counts; a new
	// domain whose Date header claims 2015; a message without an internal
	// date; a free-mail sender.
	if err := s.AddMessages(ctx, inbox.ID, []store.NewMessage{
		senderMail(1, "Telekom <rechnung@telekom.de>", "me@home.example", "Mon, 2 Mar 2020 10:00:00 +0000", y2024),
		senderMail(2, "Telekom <news@mail.telekom.de>", "me@home.example", "Mon, 2 Mar 2020 10:00:00 +0000", y2020),
		senderMail(3, "Billing <billing@telekom-rechnung.example>", "me@home.example", "Mon, 2 Mar 2015 10:00:00 +0000", recent),
		senderMail(4, "No Date <a@undated.example>", "me@home.example", "Mon, 2 Mar 2015 10:00:00 +0000", time.Time{}),
		senderMail(5, "Sam <Sam@Gmail.com>", "me@home.example", "Mon, 2 Mar 2020 10:00:00 +0000", y2020),
		senderMail(6, "Stranger <stranger@gmail.com>", "me@home.example", "Mon, 2 Mar 2020 10:00:00 +0000", y2020),
		senderMail(7, "Priya <priya@democorp.example>", "me@home.example", "Mon, 2 Mar 2020 10:00:00 +0000", recent),
	}, 7); err != nil {
		t.Fatal(err)
	}
	// Junk: a look-alike that sent spam years ago is not established by it.
	if err := s.AddMessages(ctx, junk.ID, []store.NewMessage{
		senderMail(1, "Billing <billing@telekom-rechnung.example>", "me@home.example", "Mon, 2 Mar 2015 10:00:00 +0000", y2020),
	}, 1); err != nil {
		t.Fatal(err)
	}
	// Sent: the user wrote to Sam and to someone at democorp.example.
	if err := s.AddMessages(ctx, sent.ID, []store.NewMessage{
		senderMail(1, "Me <me@home.example>", "Sam <sam@gmail.com>, Boss <boss@office.democorp.example>", "Mon, 2 Mar 2020 10:00:00 +0000", y2020),
	}, 1); err != nil {
		t.Fatal(err)
	}
	got, err := s.Senders(ctx, []int64{1, 2, 3, 4, 5, 6, 7, 999})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		id                 int64
		domain             string
		firstSeen          time.Time // zero: check the stored time instead
		wroteDom, wroteAdr bool
	}{
		{1, "telekom.de", y2020, false, false},
		{2, "telekom.de", y2020, false, false},
		{3, "telekom-rechnung.example", recent.Truncate(time.Second), false, false}, // not 2015 (Date), not 2020 (Junk)
		{4, "undated.example", time.Time{}, false, false},
		{5, "gmail.com", y2020, true, true},
		{6, "gmail.com", y2020, true, false},
		{7, "democorp.example", recent.Truncate(time.Second), true, false},
	} {
		g, ok := got[tt.id]
		if !ok {
			t.Errorf("Senders: message %d missing", tt.id)
			continue
		}
		if g.Domain != tt.domain || g.WroteToDomain != tt.wroteDom || g.WroteToAddress != tt.wroteAdr {
			t.Errorf("Senders()[%d] = %+v, want domain %s, wrote to domain %v, to address %v", tt.id, g, tt.domain, tt.wroteDom, tt.wroteAdr)
		}
		if tt.firstSeen.IsZero() {
			// No internal date: the time the node stored it.
			if g.FirstSeen.Before(before.Truncate(time.Second)) || g.FirstSeen.After(time.Now()) {
				t.Errorf("Senders()[%d].FirstSeen = %v, want the time it was stored (after %v)", tt.id, g.FirstSeen, before)
			}
		} else if !g.FirstSeen.Equal(tt.firstSeen) {
			t.Errorf("Senders()[%d].FirstSeen = %v, want %v", tt.id, g.FirstSeen, tt.firstSeen)
		}
	}
	if _, ok := got[999]; ok {
		t.Errorf("Senders: a message not stored is listed")
	}
	if g := got[5]; g.Address != "sam@gmail.com" {
		t.Errorf("Senders()[5].Address = %q, want it lower case", g.Address)
	}
}

func TestOrgDomain(t *testing.T) {
	for _, tt := range []struct{ addr, want string }{
		{"info@service-mail.zalando.de", "zalando.de"},
		{"x@Mail.Example.CO.UK", "example.co.uk"},
		{"a@b@evil.example", "evil.example"},
		{"no-domain", ""},
		{"a@", ""},
	} {
		if got := store.OrgDomain(tt.addr); got != tt.want {
			t.Errorf("OrgDomain(%q) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// TestMigrateSendersFromVersion4: a file of schema 4 gets its senders and
// correspondents from the messages it holds.
func TestMigrateSendersFromVersion4(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "node.db")
	var schema strings.Builder
	for _, f := range []string{"0001_init.sql", "0002_components.sql", "0003_fts_vocab.sql", "0004_fts_automerge.sql"} {
		b, err := os.ReadFile(filepath.Join("sql/migrations", f))
		if err != nil {
			t.Fatal(err)
		}
		schema.Write(b)
		schema.WriteString(";\n")
	}
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(schema.String() + `PRAGMA user_version = 4;
		INSERT INTO accounts (id, name, server, username) VALUES (1, 'old', 'h:1', 'me');
		INSERT INTO folders (id, account_id, name, special_use) VALUES (1, 1, 'INBOX', ''), (2, 1, 'Sent', '\Sent'), (3, 1, 'Junk', '\Junk');
		INSERT INTO messages (id, folder_id, uid, internal_date, from_addr, to_addrs) VALUES
			(1, 1, 1, 1600000000, 'rechnung@telekom.de', ''),
			(2, 1, 2, 1500000000, 'news@mail.telekom.de', ''),
			(3, 1, 3, 0, 'a@undated.example', ''),
			(4, 3, 1, 1400000000, 'a@undated.example', ''),
			(5, 2, 1, 1600000000, 'me@home.example', '[{"name":"Sam","address":"Sam@Gmail.com"}]'),
			(6, 1, 4, 1600000000, 'sam@gmail.com', '');`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	start := time.Now().Truncate(time.Second)
	s, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatalf("Open(v4 file) = %v", err)
	}
	defer s.Close()
	got, err := s.Senders(ctx, []int64{1, 3, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	if g := got[1]; !g.FirstSeen.Equal(time.Unix(1500000000, 0)) {
		t.Errorf("after migration, telekom.de first seen %v, want %v", g.FirstSeen, time.Unix(1500000000, 0))
	}
	if g := got[3]; g.FirstSeen.Before(start) {
		t.Errorf("after migration, undated.example first seen %v, want the migration's time (its only other mail is in Junk)", g.FirstSeen)
	}
	// The user's own address is no sender the user has written to, but
	// sam@gmail.com is a correspondent now.
	if g := got[5]; g.Domain != "home.example" || g.WroteToDomain {
		t.Errorf("after migration, Senders()[5] = %+v", g)
	}
	if g := got[6]; !g.WroteToAddress || !g.FirstSeen.Equal(time.Unix(1600000000, 0)) {
		t.Errorf("after migration, Senders()[6] = %+v, want sam@gmail.com written to", g)
	}
}

// TestKnownSince: a history told to the store moves a domain's first
// arrival back, never forward, and mail stored later keeps the earliest.
func TestKnownSince(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	acct, _ := s.EnsureAccount(ctx, store.Account{Name: "a", Server: "h:1", Username: "u"})
	inbox, _ := s.EnsureFolder(ctx, acct.ID, "INBOX", "")
	y2016 := time.Date(2016, 3, 1, 0, 0, 0, 0, time.UTC)
	y2030 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	nov := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	if err := s.KnownSince(ctx, map[string]time.Time{"lufthansa.com": y2016, "ikea.de": y2030}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddMessages(ctx, inbox.ID, []store.NewMessage{
		senderMail(1, "Lufthansa <online@booking.lufthansa.com>", "me@home.example", "Fri, 20 Nov 2026 08:00:00 +0000", nov),
		senderMail(2, "IKEA <order@ikea.de>", "me@home.example", "Fri, 20 Nov 2026 08:00:00 +0000", nov),
		senderMail(3, "New <hi@new-shop.example>", "me@home.example", "Fri, 20 Nov 2026 08:00:00 +0000", nov),
	}, 3); err != nil {
		t.Fatal(err)
	}
	got, err := s.Senders(ctx, []int64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]time.Time{1: y2016, 2: nov, 3: nov} {
		if !got[id].FirstSeen.Equal(want) {
			t.Errorf("message %d (%s): first seen %v, want %v", id, got[id].Domain, got[id].FirstSeen, want)
		}
	}
}
