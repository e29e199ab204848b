package eval_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mailnode/extract/eval"
)

// TestUntunedSplit: each part holds exactly the inputs its README lists,
// each on the side of the split its path's hash puts it, and the two
// parts share no input; so a mail cannot move into the development part
// (where its misses are read) without the hash saying so.
func TestUntunedSplit(t *testing.T) {
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| `([^`]+)\\.eml` \\| \\d+ \\|$")
	seen := map[string]string{}
	for _, part := range []struct {
		dir      string
		headline bool
	}{{"testdata/public-headline", true}, {"testdata/public-dev", false}} {
		readme, err := os.ReadFile(filepath.Join(part.dir, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		listed := map[string]bool{}
		for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
			path, name := m[1], m[2]
			if eval.HeadlinePath(path) != part.headline {
				t.Errorf("%s: %s is on the other side of the split", part.dir, path)
			}
			if other, ok := seen[path]; ok {
				t.Errorf("%s in %s and %s", path, other, part.dir)
			}
			seen[path], listed[name] = part.dir, true
		}
		p, err := eval.LoadPublic(part.dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Mails) == 0 || len(p.Mails) != len(listed) {
			t.Errorf("%s: %d mails, %d listed", part.dir, len(p.Mails), len(listed))
		}
		for _, m := range p.Mails {
			if !listed[m.Name] {
				t.Errorf("%s: %s not listed", part.dir, m.Name)
			}
		}
		for _, e := range p.Expected {
			if !listed[e.Mail] {
				t.Errorf("%s: label of unknown mail %q", part.dir, e.Mail)
			}
		}
	}
	// The hash is SHA-256 of the path: fixed, whatever the machine.
	if !eval.HeadlinePath("mail-and-packages/informed_delivery.eml") || eval.HeadlinePath("kitinerary/calendarhandlerdata/train.ics") {
		t.Error("the split moved")
	}
	if !strings.HasPrefix(seen["mail-and-packages/informed_delivery.eml"], "testdata/public-headline") {
		t.Error("informed_delivery.eml not in the headline part")
	}
}
