package extract_test

import (
	"mailnode/mail/msgauth"

	"io/fs"
	"testing"

	"mailnode/assets"
	"mailnode/extract"
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
