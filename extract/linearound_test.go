package extract

import (
	"strings"
	"testing"
	"time"
)

// TestLineAround: the bounded part of a line around an offset, on rune
// boundaries.
func TestLineAround(t *testing.T) {
	s := "first line\nsecond línea here\nthird"
	at := strings.Index(s, "here")
	for _, c := range []struct {
		before, after int
		want          string
	}{
		{100, 100, "second línea here"},
		{5, 100, "nea here"}, // "í" is two bytes: the window starts after it
		{100, 2, "second línea he"},
		{0, 0, ""},
	} {
		start, stop := lineAround(s, at, c.before, c.after)
		if got := s[start:stop]; got != c.want {
			t.Errorf("lineAround(%d, %d) = %q, want %q", c.before, c.after, got, c.want)
		}
	}
}

// TestLabelledInBounded: a line of ": CODE" repeated under a label with a
// digit costs each occurrence a bounded look back for its label (1 MB took
// seconds when each looked back to the line's start).
func TestLabelledInBounded(t *testing.T) {
	text := "9" + strings.Repeat(" : ABC12345", 1_000_000/11)
	start := time.Now()
	if labelledIn(text, "ABC12345") {
		t.Errorf("a code after a label with a digit read as labelled")
	}
	if d := time.Since(start); d > 2*time.Second*raceSlowdown {
		t.Errorf("labelledIn of a 1 MB line took %v", d)
	}
}
