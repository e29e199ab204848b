package drafts_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/mail/drafts"
	"mailnode/mail/store"
)

func open(t *testing.T) *drafts.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f, err := st.Attach(ctx, "drafts", drafts.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	return drafts.New(f, nil, nil)
}

func TestDraftLifecycle(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	d, err := s.Create(ctx, drafts.Input{Agent: "a.example", From: "Ann <ann@example.org>", To: []string{"Bob <bob@example.com>"},
		Cc: []string{"carl@example.net"}, Subject: "Lunch", Body: "Noon?\nAnn", InReplyTo: "<m1@x>", References: []string{"<m0@x>", "<m1@x>"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d.ID, "d_") {
		t.Fatalf("id %q", d.ID)
	}
	if _, err := s.Get(ctx, "b.example", d.ID); !errors.Is(err, drafts.ErrNotFound) {
		t.Fatalf("another agent's draft: %v", err)
	}
	got, err := s.Get(ctx, "a.example", d.ID)
	if err != nil {
		t.Fatal(err)
	}
	h1, _ := d.Hash()
	h2, _ := got.Hash()
	if h1 != h2 {
		t.Fatal("the stored draft builds another message than the created one")
	}
	msg, _ := got.Message()
	for _, want := range []string{"From: \"Ann\" <ann@example.org>\r\n", "Cc: <carl@example.net>\r\n", "In-Reply-To: <m1@x>\r\n", "References: <m0@x> <m1@x>\r\n", "\r\n\r\nNoon?\r\nAnn"} {
		if !strings.Contains(string(msg), want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if r := got.Readable(); !strings.Contains(r, "To: Bob <bob@example.com>\nCc: carl@example.net\n") || !strings.HasSuffix(r, "Noon?\nAnn") {
		t.Errorf("readable:\n%s", r)
	}

	body := "Noon? Or one."
	if _, err := s.Edit(ctx, d.ID, nil, &body); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.BeginSend(ctx, "a.example", d.ID, h1); !errors.Is(err, drafts.ErrChanged) {
		t.Fatalf("send of the approved text after an edit: %v", err)
	}
	edited, _ := s.Get(ctx, "a.example", d.ID)
	h3, _ := edited.Hash()
	if _, _, err := s.BeginSend(ctx, "b.example", d.ID, h3); !errors.Is(err, drafts.ErrNotFound) {
		t.Fatalf("send by another agent: %v", err)
	}
	if _, _, err := s.BeginSend(ctx, "a.example", d.ID, h3); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.BeginSend(ctx, "a.example", d.ID, h3); !errors.Is(err, drafts.ErrInFlight) {
		t.Fatalf("second send while the first runs: %v", err)
	}
	if n, err := s.Recover(ctx); err != nil || n != 1 {
		t.Fatalf("recover: %d %v", n, err)
	}
	if _, _, err := s.BeginSend(ctx, "a.example", d.ID, h3); !errors.Is(err, drafts.ErrUncertain) {
		t.Fatalf("send after a crash mid-send: %v", err)
	}

	for _, in := range []drafts.Input{
		{To: nil, Body: "x"},
		{To: []string{"not an address"}, Body: "x"},
		{To: []string{"a@example.com"}, Subject: "two\r\nBcc: x@evil.example", Body: "x"},
		{To: []string{"a@example.com\r\nBcc: x@evil.example"}, Body: "x"},
		{To: []string{"a@example.com"}, Body: strings.Repeat("x", drafts.MaxBody+1)},
		// What the user could not see or read whole on the phone.
		{To: []string{strings.Repeat("\u200b", 40_000/3) + " <a@example.com>"}, Body: "x"},
		{To: []string{"Ann\u00adie <a@example.com>"}, Body: "x"},
		{To: []string{"\u202eelgoog <a@example.com>"}, Body: "x"},
		{Cc: []string{"a@exa\u200dmple.com"}, To: []string{"b@example.com"}, Body: "x"},
		{To: []string{strings.Repeat("n", drafts.MaxDisplayName+1) + " <a@example.com>"}, Body: "x"},
		{To: []string{strings.Repeat("a", 250) + "@example.com"}, Body: "x"},
		{To: []string{"a@example.com"}, Subject: "Invoice\u2060 paid", Body: "x"},
		{To: []string{"a@example.com"}, Subject: "\ufeffHello", Body: "x"},
		// Line separators would fake a line of the prompt on the phone.
		{To: []string{"a@example.com"}, Subject: "Hello\u2028To: boss@example.com", Body: "x"},
		{To: []string{"Ann\u2029Cc: x <a@example.com>"}, Body: "x"},
	} {
		in.Agent, in.From = "a.example", "ann@example.org"
		var ie *drafts.InvalidError
		if _, err := s.Create(ctx, in); !errors.As(err, &ie) {
			t.Errorf("Create(%+.60v): %v, want an InvalidError", in, err)
		}
	}
}
