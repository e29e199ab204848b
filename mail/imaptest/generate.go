package imaptest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Fill generates n messages (GenerateMaildir, seeded by n) into the
// Dovecot's Maildir, owned as Dovecot expects, and returns their bytes.
// The benchmarks measure on this mailbox.
func (d *Dovecot) Fill(n int) (int64, error) {
	total, err := GenerateMaildir(d.MailDir, n, uint64(n))
	if err != nil {
		return total, err
	}
	return total, chownLike(d.MailDir, filepath.Dir(d.MailDir))
}

// chownLike gives everything under dir the owner of ref.
func chownLike(dir, ref string) error {
	fi, err := os.Stat(ref)
	if err != nil {
		return err
	}
	st := fi.Sys().(*syscall.Stat_t)
	return filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, int(st.Uid), int(st.Gid))
	})
}

var words = strings.Fields(`the order shipped invoice payment due flight booking hotel train
	confirmation reference number amount total delivery tracking package customer account
	meeting tomorrow please thanks regards attached report quarterly update schedule change
	Rechnung Bestellung Lieferung Zahlung Buchung réservation commande facture livraison
	about would could their there which these other after first never through between`)

// GenerateMaildir writes n messages into Maildir folders under root, as a
// delivery agent would: sizes log-uniform between 2 and 50 KiB, one in ten
// with a binary attachment, a third of them read. 70% go to INBOX, the rest
// to Archive. It returns the total bytes written.
func GenerateMaildir(root string, n int, seed uint64) (int64, error) {
	r := rand.New(rand.NewPCG(seed, 7))
	folders := map[string]string{"INBOX": root, "Archive": filepath.Join(root, ".Archive")}
	for _, dir := range folders {
		for _, sub := range []string{"cur", "new", "tmp"} {
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
				return 0, err
			}
		}
	}
	os.WriteFile(filepath.Join(folders["Archive"], "maildirfolder"), nil, 0o600)
	var total int64
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	for i := range n {
		b.Reset()
		size := int(2048 * math.Pow(25, r.Float64())) // 2 KiB .. 50 KiB, log-uniform
		date := base.Add(time.Duration(i) * 17 * time.Minute)
		fmt.Fprintf(&b, "Return-Path: <sender%d@example.com>\nFrom: Sender %d <sender%d@example.com>\nTo: demo@example.org\n",
			r.IntN(500), r.IntN(500), r.IntN(500))
		fmt.Fprintf(&b, "Subject: %s %s %s #%d\nDate: %s\nMessage-ID: <bench-%d@example.com>\nMIME-Version: 1.0\n",
			words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))], i, date.Format(time.RFC1123Z), i)
		attach := r.IntN(10) == 0
		if attach {
			b.WriteString("Content-Type: multipart/mixed; boundary=\"b0undary\"\n\n--b0undary\nContent-Type: text/plain; charset=utf-8\n\n")
		} else {
			b.WriteString("Content-Type: text/plain; charset=utf-8\n\n")
		}
		textTarget := size
		if attach {
			textTarget = size / 4
		}
		col := 0
		for b.Len() < textTarget {
			w := words[r.IntN(len(words))]
			b.WriteString(w)
			col += len(w) + 1
			if col > 72 {
				b.WriteByte('\n')
				col = 0
			} else {
				b.WriteByte(' ')
			}
		}
		if attach {
			b.WriteString("\n--b0undary\nContent-Type: application/octet-stream; name=\"data.bin\"\nContent-Transfer-Encoding: base64\n\n")
			raw := make([]byte, (size-b.Len())*3/4)
			for j := range raw {
				raw[j] = byte(r.Uint32())
			}
			enc := base64.StdEncoding.EncodeToString(raw)
			for len(enc) > 76 {
				b.WriteString(enc[:76] + "\n")
				enc = enc[76:]
			}
			b.WriteString(enc + "\n--b0undary--\n")
		}
		folder := folders["INBOX"]
		if r.IntN(10) >= 7 {
			folder = folders["Archive"]
		}
		flags := ""
		if r.IntN(3) == 0 {
			flags = "S"
		}
		name := fmt.Sprintf("%d.M%dP1.bench,S=%d:2,%s", date.Unix(), i, b.Len(), flags)
		if err := os.WriteFile(filepath.Join(folder, "cur", name), b.Bytes(), 0o600); err != nil {
			return total, err
		}
		total += int64(b.Len())
	}
	return total, nil
}
