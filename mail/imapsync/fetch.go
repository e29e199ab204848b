package imapsync

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"mailnode/mail/store"
)

// batch is a run of fetched messages committed in one transaction, and the
// watermark that commit may set.
type batch struct {
	msgs    []store.NewMessage
	lastUID uint32
}

// fetchNew fetches every message above f.LastUID. Three stages overlap: this
// goroutine reads the network, a second parses (on all cores), a third
// commits. Channels of one batch bound memory to about three batches,
// whatever the folder's size.
func (s *Syncer) fetchNew(ctx context.Context, c *imapclient.Client, f *store.Folder, uidNext uint32, condstore bool) (int, error) {
	from := f.LastUID + 1
	var uids imap.UIDSet
	uids.AddRange(imap.UID(from), 0) // from:*
	cmd := c.Fetch(uids, &imap.FetchOptions{
		UID: true, Flags: true, InternalDate: true, RFC822Size: true, ModSeq: condstore,
		BodySection: []*imap.FetchItemBodySection{{Peek: true}},
	})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	toParse := make(chan batch, 1)
	toWrite := make(chan batch, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer close(toWrite)
		for b := range toParse {
			s.prepareAll(b.msgs)
			select {
			case toWrite <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	var added int
	var writeErr error
	go func() {
		defer wg.Done()
		for b := range toWrite {
			if writeErr != nil {
				continue // drain
			}
			if err := s.store.AddMessages(ctx, f.ID, b.msgs, b.lastUID); err != nil {
				writeErr = err
				cancel()
				continue
			}
			added += len(b.msgs)
		}
	}()

	fetchErr := func() error {
		defer close(toParse)
		var cur batch
		var curBytes int
		watermark := f.LastUID
		ordered := true
		send := func() bool {
			if ordered {
				cur.lastUID = watermark
			} else {
				cur.lastUID = f.LastUID
			}
			select {
			case toParse <- cur:
			case <-ctx.Done():
				return false
			}
			cur, curBytes = batch{}, 0
			return true
		}
		for {
			md := cmd.Next()
			if md == nil {
				break
			}
			buf, err := md.Collect()
			if err != nil {
				cmd.Close()
				return err
			}
			uid := uint32(buf.UID)
			if uid < from {
				continue // "n:*" names the last message even when n is above it
			}
			if uid <= watermark {
				ordered = false // servers answer in UID order; if not, hold the watermark until the end
			} else {
				watermark = uid
			}
			var raw []byte
			if len(buf.BodySection) > 0 {
				raw = buf.BodySection[0].Bytes
			}
			cur.msgs = append(cur.msgs, store.NewMessage{
				UID: uid, ModSeq: buf.ModSeq, Flags: flagStrings(buf.Flags),
				InternalDate: buf.InternalDate, Size: buf.RFC822Size, Raw: raw,
			})
			curBytes += len(raw)
			if len(cur.msgs) >= s.cfg.BatchMessages || curBytes >= s.cfg.BatchBytes {
				if !send() {
					cmd.Close()
					return ctx.Err()
				}
			}
		}
		if err := cmd.Close(); err != nil {
			return err
		}
		// Every message below UIDNEXT that existed when the folder was
		// selected has been fetched, so the watermark may rise to
		// UIDNEXT-1 even if the last of them were expunged meanwhile.
		if uidNext > 0 && uidNext-1 > watermark {
			watermark = uidNext - 1
		}
		ordered = true // the fetch completed: everything up to the highest UID is in
		if len(cur.msgs) > 0 || watermark > f.LastUID {
			if !send() {
				return ctx.Err()
			}
		}
		return nil
	}()
	// Batches handed over before a fetch error are complete; let them commit
	// so the next pass resumes after them.
	wg.Wait()
	if fetchErr != nil {
		return added, fmt.Errorf("fetch new messages of %q: %w", f.Name, fetchErr)
	}
	return added, writeErr
}

// prepareAll parses and compresses a batch on every core.
func (s *Syncer) prepareAll(msgs []store.NewMessage) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(msgs); i += workers {
				s.store.Prepare(&msgs[i])
			}
		}()
	}
	wg.Wait()
}
