package desktoptest

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// layoutLine is a line of the app's --dev-ui-layout file (app/ui's
// LayoutCheck): a window the app walked, or a widget in it that ends
// outside the window or is laid out smaller than its text.
type layoutLine struct {
	Window string  `json:"window"`
	Tab    string  `json:"tab"`
	Width  float32 `json:"width"`
	Height float32 `json:"height"`
	Walked int     `json:"walked"`
	Misfit string  `json:"misfit"`
}

// checkLayouts reads the app's --dev-ui-layout file once it has exited:
// it fails for every widget the app found outside its window or cut, and
// for every window and tab in want ("window" or "window/tab") that no
// check walked, so that a check that never ran cannot pass.
func checkLayouts(t *testing.T, path string, want ...string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the layout checks: %v", err)
	}
	defer f.Close()
	walked := map[string]int{} // checks of each window and tab
	most := map[string]int{}   // the most objects one of them walked
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l layoutLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("the layout checks: %q: %v", sc.Text(), err)
		}
		where := l.Window
		if l.Tab != "" {
			where += "/" + l.Tab
		}
		if l.Misfit != "" {
			t.Errorf("%s at %gx%g: %s", where, l.Width, l.Height, l.Misfit)
			continue
		}
		if l.Walked > 0 {
			walked[where]++
			most[where] = max(most[where], l.Walked)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for w, n := range walked {
		seen = append(seen, w)
		t.Logf("layout of %s checked %d times, up to %d objects", w, n, most[w])
	}
	slices.Sort(seen)
	for _, w := range want {
		if walked[w] == 0 {
			t.Errorf("the app never checked the layout of %s (checked: %s)", w, strings.Join(seen, ", "))
		}
	}
}
