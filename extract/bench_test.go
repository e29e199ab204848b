package extract_test

import (
	"mailnode/mail/msgauth"

	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/assets"
	"mailnode/extract"
	"mailnode/mail/imaptest"
	"mailnode/mail/mime"
)

// BenchmarkExtract parses and extracts every demo mail: one op is one mail.
// Run with -cpu 1 for the one-core figure.
func BenchmarkExtract(b *testing.B) {
	box := assets.DemoMailbox()
	names, _ := fs.Glob(box, "*/*.eml")
	var raws [][]byte
	for _, n := range names {
		raw, _ := fs.ReadFile(box, n)
		raws = append(raws, raw)
	}
	for i := 0; b.Loop(); i++ {
		raw := raws[i%len(raws)]
		m := mime.Parse(raw)
		extract.Extract(m, msgauth.Checker{}.Check(m, raw))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}

// BenchmarkGeneratedMail parses and extracts the mail the sync benchmark
// generates (3,000 of its messages, the same words and sizes): the
// extraction's share of `make bench`'s sync step, one op one mail. Run
// with -cpu 1.
func BenchmarkGeneratedMail(b *testing.B) {
	dir := b.TempDir()
	if _, err := imaptest.GenerateMaildir(dir, 3000, 1); err != nil {
		b.Fatal(err)
	}
	var raws [][]byte
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "/cur/") {
			return err
		}
		raw, err := os.ReadFile(p)
		raws = append(raws, raw)
		return err
	})
	if err != nil || len(raws) == 0 {
		b.Fatalf("read the generated mail: %v (%d messages)", err, len(raws))
	}
	// The extractors' phrase sets and expressions are built on their
	// first use, once per process: a pass before the timed loop.
	for _, raw := range raws {
		extract.Extract(mime.Parse(raw), msgauth.Verdict{})
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		raw := raws[i%len(raws)]
		extract.Extract(mime.Parse(raw), msgauth.Verdict{})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}
