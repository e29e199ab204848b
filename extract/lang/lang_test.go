package lang

import (
	"regexp"
	"strings"
	"testing"
)

// categories every language must have.
var categories = []string{"tracking", "status.out_for_delivery", "status.delivered", "status.cancelled", "status.returned",
	"status.shipped", "status.problem", "status.ordered"}

// TestFiles: the thirteen languages the extractors read, each with every
// category; labels compile as regular expressions; status phrases are
// lower case, as the text they are looked for in.
func TestFiles(t *testing.T) {
	langs := Languages()
	if want := "cs da de en es fi fr it nb nl pl pt sv"; strings.Join(langs, " ") != want {
		t.Fatalf("languages = %v, want %s", langs, want)
	}
	for _, l := range langs {
		for _, c := range categories {
			if len(Of(l, c)) == 0 {
				t.Errorf("%s has no %s", l, c)
			}
		}
		for _, p := range Of(l, "tracking") {
			if _, err := regexp.Compile("(?i)" + p); err != nil {
				t.Errorf("%s tracking %q: %v", l, p, err)
			}
		}
		for _, c := range categories[1:] {
			for _, p := range Of(l, c) {
				if p != strings.ToLower(p) {
					t.Errorf("%s %s %q is not lower case", l, c, p)
				}
			}
		}
	}
}
