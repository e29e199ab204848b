package imapsync

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

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
func (s *Syncer) fetchNew(ctx context.Context, c *imapclient.Client, f *store.Folder, uidNext uint32, condstore bool, prog *Progress) (int, error) {
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
		background()
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
			if prog != nil {
				prog.Done = added
				for _, m := range b.msgs {
					prog.Bytes += int64(len(m.Raw))
				}
				prog.Total = max(prog.Total, prog.Done) // mail that arrived during the pass
				s.progress(*prog)
			}
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
			m, complete, err := readMessage(md)
			if err != nil {
				// The connection broke inside a literal. go-imap lets its
				// reader goroutine go on as soon as a literal read fails,
				// and any further read of that literal (Collect's or
				// Close's discard) would race with it. Close the client
				// and wait for its reader instead of draining.
				c.Close()
				<-c.Closed()
				return err
			}
			if !complete {
				// No body section at all: the connection broke between the
				// UID and the body (the response ends early, without an
				// error of its own), or the server sent an unsolicited
				// FETCH of flags. Either way there is nothing to store,
				// and the watermark must not pass this UID.
				continue
			}
			uid := m.UID
			if uid < from {
				continue // "n:*" names the last message even when n is above it
			}
			if uid <= watermark {
				ordered = false // servers answer in UID order; if not, hold the watermark until the end
			} else {
				watermark = uid
			}
			cur.msgs = append(cur.msgs, m)
			curBytes += len(m.Raw)
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

// readMessage reads one FETCH response item by item. A message whose body
// the server sends as NIL is kept with an empty body (the store notes the
// MIME problem) rather than dropped. complete is false when the response
// held no body section at all: the caller must not store it.
func readMessage(md *imapclient.FetchMessageData) (m store.NewMessage, complete bool, err error) {
	sawBody := false
	for {
		item := md.Next()
		if item == nil {
			return m, sawBody && m.UID != 0, nil
		}
		switch it := item.(type) {
		case imapclient.FetchItemDataUID:
			m.UID = uint32(it.UID)
		case imapclient.FetchItemDataFlags:
			m.Flags = flagStrings(it.Flags)
		case imapclient.FetchItemDataInternalDate:
			m.InternalDate = it.Time
		case imapclient.FetchItemDataRFC822Size:
			m.Size = it.Size
		case imapclient.FetchItemDataModSeq:
			m.ModSeq = it.ModSeq
		case imapclient.FetchItemDataBodySection:
			sawBody = true
			if it.Literal == nil {
				continue // NIL body
			}
			raw, err := readLiteral(it.Literal)
			if err != nil {
				return m, false, fmt.Errorf("read message body: %w", err)
			}
			m.Raw = raw
		}
	}
}

// readLiteral reads a literal into a buffer of the size the server
// announced, so that a mailbox's download is not copied again and again
// as io.ReadAll's buffer grows. The announcement is only trusted up to
// presizeLimit; a larger literal grows as it arrives.
func readLiteral(lit imap.LiteralReader) ([]byte, error) {
	size := lit.Size()
	if size < 0 || size > presizeLimit {
		return io.ReadAll(lit)
	}
	buf := make([]byte, size)
	if _, err := io.ReadFull(lit, buf); err != nil {
		return nil, err // a literal cut short is a broken connection, not a message
	}
	return buf, nil
}

const presizeLimit = 32 << 20

// prepareAll parses and compresses a batch on every core. One worker a
// core, not a processor: the desktop app runs with more processors than
// cores so that, while the workers and the committer hold theirs on their
// low-priority threads (which the kernel may leave waiting), one stays
// free for the UI goroutine and the gateway.
func (s *Syncer) prepareAll(msgs []store.NewMessage) {
	workers := min(runtime.GOMAXPROCS(0), runtime.NumCPU())
	// Each worker takes the next message not yet taken: a batch's costs
	// are uneven (a PDF's text takes a hundred mails' time), and a fixed
	// share each left a worker idle while another read its PDF.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			background()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(msgs) {
					return
				}
				s.store.Prepare(&msgs[i])
			}
		}()
	}
	wg.Wait()
}
