package imapsync_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
	"mailnode/mail/imaptest"
	"mailnode/mail/store"
)

// servers runs f against imapmemserver and against Dovecot.
func servers(t *testing.T, f func(t *testing.T, srv *imaptest.Server)) {
	t.Run("memory", func(t *testing.T) { f(t, imaptest.NewMemory(t)) })
	t.Run("dovecot", func(t *testing.T) { f(t, imaptest.NewDovecot(t)) })
}

func newStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func config(srv *imaptest.Server) imapsync.Config {
	return imapsync.Config{
		Account: "test", Address: srv.Addr, Security: imapsync.Plain,
		Username: srv.Username, Password: credential.Secret(srv.Password),
		BatchMessages: 7, // small batches so multi-batch paths run in every test
	}
}

func newSyncer(t *testing.T, cfg imapsync.Config, st *store.Store) *imapsync.Syncer {
	t.Helper()
	s, err := imapsync.New(cfg, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// genMessage makes a realistic message: plain or multipart, sometimes with
// an attachment, unique per call.
func genMessage(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	subject := []string{"Your order has shipped", "Invoice for November", "Flight confirmation",
		"Weekly newsletter", "Re: dinner on Friday", "Ihre Bestellung", "Votre réservation"}[r.IntN(7)]
	fmt.Fprintf(&b, "From: Sender %d <sender%d@example.com>\r\nTo: me@example.org\r\n", n, r.IntN(50))
	fmt.Fprintf(&b, "Subject: %s #%d\r\nMessage-ID: <%d.%d@test.example>\r\n", subject, n, n, r.Uint64())
	fmt.Fprintf(&b, "Date: %s\r\nMIME-Version: 1.0\r\n", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n)*time.Hour).Format(time.RFC1123Z))
	body := strings.Repeat(fmt.Sprintf("Line %d of message %d with some words to index.\r\n", r.IntN(1000), n), 1+r.IntN(40))
	if r.IntN(3) == 0 {
		b.WriteString("Content-Type: multipart/mixed; boundary=\"XyZ\"\r\n\r\n--XyZ\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
		b.WriteString(body)
		b.WriteString("\r\n--XyZ\r\nContent-Type: application/pdf; name=\"doc.pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\n")
		b.WriteString(strings.Repeat("JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K\r\n", 1+r.IntN(30)))
		b.WriteString("--XyZ--\r\n")
	} else {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n")
		b.WriteString(body)
	}
	return b.Bytes()
}

func appendMsg(t *testing.T, c *imapclient.Client, folder string, raw []byte, flags []imap.Flag) {
	t.Helper()
	cmd := c.Append(folder, int64(len(raw)), &imap.AppendOptions{Flags: flags})
	cmd.Write(raw)
	cmd.Close()
	if _, err := cmd.Wait(); err != nil {
		t.Fatalf("append to %s: %v", folder, err)
	}
}

// serverContents reads a folder's messages as the server has them.
func serverContents(t *testing.T, c *imapclient.Client, folder string) []store.MessageState {
	t.Helper()
	sel, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("examine %s: %v", folder, err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var all imap.SeqSet
	all.AddRange(1, 0)
	bufs, err := c.Fetch(all, &imap.FetchOptions{UID: true, Flags: true,
		BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatalf("fetch %s: %v", folder, err)
	}
	var out []store.MessageState
	for _, m := range bufs {
		var flags []string
		for _, f := range m.Flags {
			if !strings.EqualFold(string(f), `\Recent`) {
				flags = append(flags, string(f))
			}
		}
		out = append(out, store.MessageState{UID: uint32(m.UID), Flags: store.FlagString(flags),
			RawSHA256: sha256.Sum256(m.BodySection[0].Bytes)})
	}
	slices.SortFunc(out, func(a, b store.MessageState) int { return int(a.UID) - int(b.UID) })
	return out
}

// assertMirror fails unless the store holds exactly the server's folders
// and messages (UIDs, flags and bytes).
func assertMirror(t *testing.T, c *imapclient.Client, st *store.Store, folders []string) {
	t.Helper()
	ctx := context.Background()
	acct, err := st.EnsureAccount(ctx, store.Account{Name: "test", Server: "", Username: ""})
	if err != nil {
		t.Fatal(err)
	}
	local, err := st.Folders(ctx, acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	var localNames []string
	for _, f := range local {
		localNames = append(localNames, f.Name)
	}
	want := slices.Sorted(slices.Values(folders))
	if !slices.Equal(localNames, want) {
		t.Fatalf("stored folders = %v, want %v", localNames, want)
	}
	for _, f := range local {
		got, err := st.FolderContents(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantMsgs := serverContents(t, c, f.Name)
		if !slices.Equal(got, wantMsgs) {
			t.Fatalf("folder %s: store has %d messages, server %d; first difference: %s",
				f.Name, len(got), len(wantMsgs), firstDiff(got, wantMsgs))
		}
	}
}

func firstDiff(got, want []store.MessageState) string {
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			return fmt.Sprintf("missing uid %d", want[i].UID)
		case i >= len(want):
			return fmt.Sprintf("extra uid %d", got[i].UID)
		case got[i] != want[i]:
			return fmt.Sprintf("uid %d flags %q, want uid %d flags %q (same bytes: %v)",
				got[i].UID, got[i].Flags, want[i].UID, want[i].Flags, got[i].RawSHA256 == want[i].RawSHA256)
		}
	}
	return "none"
}

// startRun runs s.Run until the returned stop is called (or the test
// ends), and delivers the result of every successful pass.
func startRun(t *testing.T, s *imapsync.Syncer) (passes <-chan imapsync.Result, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan imapsync.Result, 100)
	done := make(chan error, 1)
	go func() {
		done <- s.Run(ctx, func(r imapsync.Result, err error) {
			if err == nil {
				ch <- r
			}
		})
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run returned %v on cancel, want nil", err)
			}
		})
	}
	t.Cleanup(stop)
	return ch, stop
}
