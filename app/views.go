package app

import (
	"mailnode/app/localapi"
	"mailnode/mail/drafts"
	"mailnode/mail/imapsync"
	"mailnode/mail/store"
)

// The node's answers as its screens see them. They are copies, not the
// mail packages' own types, so that the command line and the tray import
// app and nothing below it: those packages may change without a UI
// noticing.

// The views the command line also gets through the local API are the
// contract's own types (package localapi), so a command prints the same
// answer whether a running node gave it or the store opened directly.
type (
	// SyncResult is what one sync pass changed.
	SyncResult = localapi.SyncResult
	// Stats counts what the store holds.
	Stats = localapi.Stats
	// Summary is one message in a list.
	Summary = localapi.Summary
	// Draft is a draft an agent wrote, as the user reviews it.
	Draft = localapi.Draft
)

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
