package app

import (
	"time"

	"mailnode/mail/drafts"
	"mailnode/mail/imapsync"
	"mailnode/mail/store"
)

// The node's answers as its screens see them. They are copies, not the
// mail packages' own types, so that the command line and the tray import
// app and nothing below it: those packages may change without a UI
// noticing.

// SyncResult is what one sync pass changed.
type SyncResult struct {
	Folders  int
	Added    int
	Flagged  int // messages whose flags changed
	Removed  int // messages expunged on the server
	Resets   int // folders fetched again after a UIDVALIDITY change
	Duration time.Duration
}

// Changes is how many messages the pass added, changed or removed.
func (r SyncResult) Changes() int { return r.Added + r.Flagged + r.Removed }

// Stats counts what the store holds.
type Stats struct {
	Accounts    int
	Folders     int
	Messages    int
	Attachments int
	RawBytes    int64
	WithProblem int // messages with a MIME part that could not be decoded
}

// Summary is one message in a list.
type Summary struct {
	ID          int64
	Folder      string
	UID         uint32
	Date        time.Time
	From        string
	Subject     string
	Flags       string
	Attachments int
}

// Draft is a draft an agent wrote, as the user reviews it.
type Draft struct {
	ID      string
	Agent   string // the agent domain that wrote it; only it may send it
	From    string
	To, Cc  []string
	Subject string
	Created time.Time
	Updated time.Time
	State   string
	SentAt  time.Time
	Detail  string // the SMTP server's answer to the last attempt
	// Readable is the whole message as the phone shows it before a send.
	Readable string
}

func syncResult(r imapsync.Result) SyncResult { return SyncResult(r) }

func stats(s store.Stats) Stats { return Stats(s) }

func summaries(ss []store.Summary) []Summary {
	out := make([]Summary, len(ss))
	for i, s := range ss {
		out[i] = Summary(s)
	}
	return out
}

func draftView(d drafts.Draft) Draft {
	return Draft{ID: d.ID, Agent: d.Agent, From: d.From, To: d.To, Cc: d.Cc, Subject: d.Subject,
		Created: d.Created, Updated: d.Updated, State: d.State, SentAt: d.SentAt, Detail: d.Detail, Readable: d.Readable()}
}
