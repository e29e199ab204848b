package store

import (
	"context"
	"database/sql"

	"mailnode/mail/mime"
)

// MessageHook derives something from each new message while the sync
// already has it in hand, and stores it in the same transaction as the
// message. The extracted facts use it: a mailbox is ready for agents only
// when its facts are, and reading every message back after the sync to
// extract them (decompress, parse again, and compete with the sync for the
// one writer) made the first sync of a mailbox several times slower.
//
// Prepare runs on the sync's parse workers, concurrently, with the raw
// bytes and the parsed message; it must not write. Store runs once per
// batch, inside the batch's transaction, with what Prepare returned for
// each message the batch newly stored (a message already stored under its
// UID is left out), before the transaction commits.
type MessageHook interface {
	Prepare(raw []byte, parsed *mime.Message) any
	Store(ctx context.Context, tx *sql.Tx, folderID int64, msgs []Prepared) error
}

// Prepared is one newly stored message and what the hook's Prepare made of
// it.
type Prepared struct {
	ID    int64 // the store's message id
	Value any
}

// SetMessageHook installs h for every later AddMessages. Set it before the
// first sync, once; it is not safe to change while messages are added.
func (s *Store) SetMessageHook(h MessageHook) { s.hook = h }
