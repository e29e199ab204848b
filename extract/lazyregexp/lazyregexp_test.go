package lazyregexp

import (
	"slices"
	"sync"
	"testing"
)

// TestFirstUseFromManyGoroutines compiles one expression from the first
// calls of many goroutines at once (run with -race): each sees it whole.
func TestFirstUseFromManyGoroutines(t *testing.T) {
	r := &Regexp{expr: `(\d+)-(\d+)`} // as New makes it outside a test binary: not compiled yet
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if got := r.FindStringSubmatch("a 12-34 b"); !slices.Equal(got, []string{"12-34", "12", "34"}) {
				t.Errorf("FindStringSubmatch = %q", got)
			}
		})
	}
	wg.Wait()
}

func TestMethods(t *testing.T) {
	r := New(`(?P<n>[a-z]+)(\d)`)
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"MatchString", r.MatchString("ab1"), true},
		{"FindString", r.FindString("-- ab1 cd2"), "ab1"},
		{"FindAllString", r.FindAllString("ab1 cd2", -1), []string{"ab1", "cd2"}},
		{"ReplaceAllString", r.ReplaceAllString("ab1 cd2", "<$n>"), "<ab> <cd>"},
		{"Split", r.Split("-ab1+cd2=", -1), []string{"-", "+", "="}},
		{"SubexpIndex", r.SubexpIndex("n"), 1},
		{"NumSubexp", r.NumSubexp(), 2},
		{"String", r.String(), `(?P<n>[a-z]+)(\d)`},
	} {
		if g, w := tc.got, tc.want; !equal(g, w) {
			t.Errorf("%s = %v, want %v", tc.name, g, w)
		}
	}
}

func equal(a, b any) bool {
	if x, ok := a.([]string); ok {
		return slices.Equal(x, b.([]string))
	}
	return a == b
}

// TestBadPatternFailsInTests: in a test binary New compiles at once, so a
// package's bad pattern fails its tests, not a mail in production.
func TestBadPatternFailsInTests(t *testing.T) {
	if !inTest {
		t.Fatal("inTest is false in a test binary")
	}
	defer func() {
		if recover() == nil {
			t.Error("New(`(`) did not panic in a test binary")
		}
	}()
	New(`(`)
}
