package facts

import (
	"strings"
	"testing"
	"time"
)

// TestStemRun: a domain's name as a run of a name's words, each whole or
// cut to its stem, to the name's end; and a hostile name of many like
// words against a label of their letters answers at once.
func TestStemRun(t *testing.T) {
	for _, tt := range []struct {
		name, label string
		want        bool
	}{
		{"hurtownia detailingowa pro", "detailingpro", true},
		{"sklep rowerowy kolo", "rowerkolo", true},
		{"sklep rowerowy kolo", "rowerk0lo", false},
		{"sklep rowerowy kolo", "rowe", false},     // a stem is four letters and more, the whole label
		{"acme tools", "acmetool", true},           // "tools" cut to "tool"
		{"acme tools", "acmet", false},             // but not to one letter
		{"detailingowa", "detailingowapro", false}, // the run ends where the label does
	} {
		if got := stemRun(strings.Fields(tt.name), tt.label); got != tt.want {
			t.Errorf("stemRun(%q, %q) = %v, want %v", tt.name, tt.label, got, tt.want)
		}
	}
	start := time.Now()
	stemRun(strings.Fields(strings.Repeat("aaaaaaa ", 60)), strings.Repeat("a", 62)+"b")
	if d := time.Since(start); d > time.Second {
		t.Errorf("a hostile name took %v", d)
	}
}
