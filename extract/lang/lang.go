// Package lang holds the words the text extractors read mail by, as data:
// one file per language (data/*.txt) with the labels that head a value
// ("tracking:", "invoice:", "checkin:"), the phrases that say a state
// ("status.delivered:") or a kind of mail ("words.flight:",
// "notice.payment_failed:"), month and weekday names, and the small words
// that tell the language, so that a language is added or corrected
// without touching code. The
// extractors take every language's entries at once: a mail does not say
// which language it is in, and many mix two.
package lang

import (
	"bufio"
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"unicode"
)

//go:embed data/*.txt
var files embed.FS

// Languages are the languages with a file, by their ISO 639-1 code.
func Languages() []string {
	t := load()
	out := make([]string, 0, len(t.byLang))
	for l := range t.byLang {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Entries returns every language's entries of a category, in the order of
// the languages' codes and then of the file.
func Entries(category string) []string {
	t := load()
	var out []string
	for _, l := range Languages() {
		out = append(out, t.byLang[l][category]...)
	}
	return out
}

// Of returns one language's entries of a category.
func Of(language, category string) []string { return load().byLang[language][category] }

type table struct {
	byLang map[string]map[string][]string
}

var (
	once   sync.Once
	loaded table
)

func load() table {
	once.Do(func() {
		t, err := parse()
		if err != nil {
			// The files are embedded and tested: a broken one is a
			// build that must not ship.
			panic(err)
		}
		loaded = t
	})
	return loaded
}

func parse() (table, error) {
	t := table{byLang: map[string]map[string][]string{}}
	entries, err := files.ReadDir("data")
	if err != nil {
		return t, err
	}
	for _, e := range entries {
		code := strings.TrimSuffix(e.Name(), ".txt")
		f, err := files.Open(path.Join("data", e.Name()))
		if err != nil {
			return t, err
		}
		cats := map[string][]string{}
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			cat, rest, ok := strings.Cut(line, ":")
			if !ok || strings.ContainsAny(cat, " \t") {
				f.Close()
				return t, fmt.Errorf("lang: %s:%d: want \"category: entry | entry\"", e.Name(), n)
			}
			// " | " between entries: a label's own alternatives are
			// written without spaces, "tracking (?:number|no\.?)".
			for _, v := range strings.Split(" "+strings.TrimSpace(rest)+" ", " | ") {
				if v = strings.TrimSpace(v); v != "" {
					cats[cat] = append(cats[cat], v)
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return t, err
		}
		for c, ps := range cats {
			if foldedCategory(c) {
				cats[c] = WithFolded(ps)
			}
		}
		t.byLang[code] = cats
	}
	return t, nil
}

// Months maps every language's month names and abbreviations, lower case,
// to 1-12 (categories month.1 to month.12).
func Months() map[string]int {
	m := map[string]int{}
	for i := 1; i <= 12; i++ {
		for _, n := range Entries(fmt.Sprintf("month.%d", i)) {
			m[strings.ToLower(n)] = i
		}
	}
	return m
}

// OwnMonths maps, for each language that has any, the month names it reads
// as another month than Months does (category month.own.1 to month.own.12:
// Croatian "listopad" is October, Czech's and Polish's November).
func OwnMonths() map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, l := range Languages() {
		for i := 1; i <= 12; i++ {
			for _, n := range Of(l, fmt.Sprintf("month.own.%d", i)) {
				if out[l] == nil {
					out[l] = map[string]int{}
				}
				out[l][strings.ToLower(n)] = i
			}
		}
	}
	return out
}

// Weekdays maps every language's weekday names and abbreviations, lower
// case, to 1 (Monday) to 7 (Sunday).
func Weekdays() map[string]int {
	m := map[string]int{}
	for i := 1; i <= 7; i++ {
		for _, n := range Entries(fmt.Sprintf("weekday.%d", i)) {
			m[strings.ToLower(n)] = i
		}
	}
	return m
}

// Detect guesses the language of a text from its most common small words
// (category "common"), counted over its first few kilobytes, and returns
// its code, or "" when fewer than three such words are found. Only the
// reading of ambiguous forms hangs on it (is 12/06 the 12th of June or
// December 6th?): every language's labels are read whatever it says.
func Detect(text string) string {
	counts := commonCounts(text, false)
	best, bestN := "", 2
	for _, l := range Languages() {
		if counts[l] > bestN {
			best, bestN = l, counts[l]
		}
	}
	return best
}

// commonCounts counts, for each language, the words of the first 4 KiB
// of text that are its common words: every one, or with distinct only
// the different ones of two letters or more.
func commonCounts(text string, distinct bool) map[string]int {
	if len(text) > 4096 {
		text = text[:4096]
	}
	byWord := commonWords()
	seen := map[string]bool{}
	counts := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\''
	}) {
		if distinct {
			if len([]rune(w)) < 2 || seen[w] {
				continue
			}
			seen[w] = true
		}
		for _, l := range byWord[w] {
			counts[l]++
		}
	}
	return counts
}

// DetectSure is Detect for a reading that may be wrong by hours, not by a
// day or month: the language whose common words of two letters or more
// the text holds at least three different ones of, twice as many as any
// other language's, else "". A line of codes ("NDLS TO FDB,S7 49") holds
// Czech's "to" and "s", not a Czech sentence.
func DetectSure(text string) string {
	counts := commonCounts(text, true)
	best, bestN, second := "", 0, 0
	for _, l := range Languages() {
		switch n := counts[l]; {
		case n > bestN:
			best, bestN, second = l, n, bestN
		case n > second:
			second = n
		}
	}
	if bestN < 3 || bestN < 2*second {
		return ""
	}
	return best
}

var commonOnce = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, l := range Languages() {
		for _, w := range Of(l, "common") {
			m[w] = append(m[w], l)
		}
	}
	return m
})

func commonWords() map[string][]string { return commonOnce() }
