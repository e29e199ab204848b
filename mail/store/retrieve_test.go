package store_test

import (
	"context"
	"fmt"
	"testing"

	"mailnode/mail/store"
)

func TestRetrieve(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	acct, _ := s.EnsureAccount(ctx, store.Account{Name: "a", Server: "h:1", Username: "u"})
	inbox, _ := s.EnsureFolder(ctx, acct.ID, "INBOX", "")
	junk, _ := s.EnsureFolder(ctx, acct.ID, "Junk", `\Junk`)
	msg := func(uid int, subject, body string) store.NewMessage {
		return store.NewMessage{UID: uint32(uid), Raw: []byte(fmt.Sprintf(
			"From: Shop <shop@example.org>\r\nSubject: %s\r\nMessage-ID: <%d@example.org>\r\n\r\n%s\r\n", subject, uid, body))}
	}
	var batch []store.NewMessage
	for i := 1; i <= 30; i++ {
		batch = append(batch, msg(i, fmt.Sprintf("Newsletter %d", i), "Hello, here is the news of the week."))
	}
	batch = append(batch,
		msg(31, "Your dentist appointment", "The appointment is on Tuesday at 9:30 in Kreuzberg."),
		msg(32, "Appointments this month", "Two appointments are planned."),
		msg(33, "Dinner", "See you at the café on Friday."))
	if err := s.AddMessages(ctx, inbox.ID, batch, 33); err != nil {
		t.Fatal(err)
	}
	if err := s.AddMessages(ctx, junk.ID, []store.NewMessage{msg(1, "Dentist appointment offer", "Cheap dentist appointment.")}, 1); err != nil {
		t.Fatal(err)
	}

	terms := []store.Term{{Word: "dentist"}, {Word: "appointment", Prefix: true}, {Word: "news"}, {Word: "cafe"}}
	r, err := s.TermStats(ctx, terms)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := s.Retrieve(ctx, terms, r, 5)
	if err != nil {
		t.Fatal(err)
	}
	if r.Docs != 34 {
		t.Errorf("Docs = %d, want 34", r.Docs)
	}
	for term, want := range map[string]int{"dentist": 2, "appointment": 3, "news": 30, "cafe": 1} {
		if got := r.DocFreq[term]; got != want {
			t.Errorf("DocFreq[%q] = %d, want %d", term, got, want)
		}
	}
	// The rarest terms are searched for; "news" is in most messages and
	// is not. The junk message matches best but is left out.
	var subjects []string
	for _, h := range hits {
		subjects = append(subjects, h.Subject)
	}
	want := []string{"Your dentist appointment", "Appointments this month", "Dinner"}
	if fmt.Sprint(subjects) != fmt.Sprint(want) {
		t.Errorf("Retrieve hits = %q, want %q", subjects, want)
	}

	// Operators in terms are not FTS5 syntax.
	quote := []store.Term{{Word: `x" OR "y`}}
	st, _ := s.TermStats(ctx, quote)
	if hits, err := s.Retrieve(ctx, quote, st, 5); err != nil || len(hits) != 0 {
		t.Errorf("Retrieve(quote) = %v, %v; want nothing", hits, err)
	}
}
