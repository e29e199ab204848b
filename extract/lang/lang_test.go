package lang

import (
	"fmt"
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

// TestCalendarWords: every language names the twelve months and seven
// weekdays, and no month name means two months.
func TestCalendarWords(t *testing.T) {
	month := map[string]string{}
	for _, l := range Languages() {
		for i := 1; i <= 12; i++ {
			names := Of(l, fmt.Sprintf("month.%d", i))
			if len(names) == 0 {
				t.Errorf("%s has no month %d", l, i)
			}
			for _, n := range names {
				key := strings.ToLower(n)
				if prev, ok := month[key]; ok && prev != fmt.Sprint(i) {
					t.Errorf("%q is month %s and %d", n, prev, i)
				}
				month[key] = fmt.Sprint(i)
			}
		}
		for i := 1; i <= 7; i++ {
			if len(Of(l, fmt.Sprintf("weekday.%d", i))) == 0 {
				t.Errorf("%s has no weekday %d", l, i)
			}
		}
	}
	if Months()["desember"] != 12 || Months()["października"] != 10 || Weekdays()["fredag"] != 5 {
		t.Error("Months or Weekdays misread the files")
	}
}
