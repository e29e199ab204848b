package words

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSetLanguages: every phrase of the language tables (twenty
// languages' labels and words, one set much wider and deeper than any
// the extractor builds) over a real travel mail, lower-cased: the scan
// on text where many phrases start and few end.
func BenchmarkSetLanguages(b *testing.B) {
	files, _ := filepath.Glob("../lang/data/*.txt")
	var phrases []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			_, list, ok := strings.Cut(line, ":")
			if !ok || strings.HasPrefix(line, "#") {
				continue
			}
			for p := range strings.SplitSeq(list, "|") {
				if p = strings.Trim(strings.TrimSpace(p), `*\.?`); p != "" {
					phrases = append(phrases, p)
				}
			}
		}
	}
	mail, err := os.ReadFile("../eval/testdata/public/kitinerary/deutschebahn_deutschebahn_two-leg-single.txt.eml")
	if err != nil {
		b.Skip(err)
	}
	s := NewSet(phrases)
	text := strings.ToLower(string(mail))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		n := 0
		s.EachAt(text, func(_, _ int) bool { n++; return true })
		if n == 0 {
			b.Fatal("no phrase found")
		}
	}
	b.ReportMetric(float64(len(phrases)), "phrases")
}
