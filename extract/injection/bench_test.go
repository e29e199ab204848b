package injection

import (
	"os"
	"strings"
	"testing"
)

// benignMail is a long mail that instructs no one: shop, travel and
// newsletter text in seven languages, with links, addresses, hyphens and
// accented letters, repeated to the size of a long newsletter.
func benignMail(tb testing.TB) string {
	b, err := os.ReadFile("testdata/benign-newsletter.txt")
	if err != nil {
		tb.Fatalf("read benign mail: %v", err)
	}
	return strings.Repeat(string(b), 8)
}

// BenchmarkAddressed is what Tainted costs a message: Addressed runs over
// the text of every message with facts.
func BenchmarkAddressed(b *testing.B) {
	s := benignMail(b)
	if Addressed(s) {
		b.Fatal("the benign mail reads as addressed to an AI")
	}
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Addressed(s)
	}
}

// BenchmarkAddressedASCII is Addressed over English text alone, which
// needs no second folding unless a word is split by a hyphen or a dot.
func BenchmarkAddressedASCII(b *testing.B) {
	var ascii []string
	for _, l := range strings.Split(benignMail(b), "\n") {
		if !strings.ContainsFunc(l, func(r rune) bool { return r >= 0x80 }) {
			ascii = append(ascii, l)
		}
	}
	s := strings.Join(ascii, "\n")
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Addressed(s)
	}
}

// BenchmarkInstructive is the test each quoted sentence and each fact
// field of six words or more passes.
func BenchmarkInstructive(b *testing.B) {
	lines := strings.Split(benignMail(b), "\n")[:40]
	for b.Loop() {
		for _, l := range lines {
			Instructive(l)
		}
	}
}
