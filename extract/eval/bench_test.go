package eval_test

import (
	"mailnode/mail/msgauth"

	"testing"

	"mailnode/extract"
	"mailnode/extract/eval"
	"mailnode/extract/places"
	"mailnode/mail/mime"
)

// BenchmarkExtractEval parses and extracts the evaluation mails: the
// synthetic set and the public order mails. One op is one mail; run
// with -cpu 1 for the one-core figure.
func BenchmarkExtractEval(b *testing.B) {
	syn, err := eval.Load("testdata/synthetic")
	if err != nil {
		b.Fatal(err)
	}
	var raws [][]byte
	for _, m := range syn.Mails {
		raws = append(raws, m.Raw)
	}
	orders, err := eval.LoadPublic("testdata/public/mail-and-packages")
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range orders.Mails {
		raws = append(raws, m.Raw)
	}
	opt := msgauth.Checker{AuthServIDs: []string{eval.AuthServID}}
	places.Zone("FRA") // the tables load once per process, not per mail
	for i := 0; b.Loop(); i++ {
		raw := raws[i%len(raws)]
		m := mime.Parse(raw)
		extract.Extract(m, opt.Check(m, raw))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
	b.ReportMetric(float64(len(raws)), "distinct-mails")
}

// BenchmarkExtractTravel parses and extracts the public travel mails, the
// set compared with KItinerary. One op is one mail.
func BenchmarkExtractTravel(b *testing.B) {
	p, err := eval.LoadPublic("testdata/public/kitinerary")
	if err != nil {
		b.Fatal(err)
	}
	places.Zone("FRA") // the tables load once per process, not per mail
	for i := 0; b.Loop(); i++ {
		m := p.Mails[i%len(p.Mails)]
		msg := mime.Parse(m.Raw)
		extract.Extract(msg, msgauth.Checker{}.Check(msg, m.Raw))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}
