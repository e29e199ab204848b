package words

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// found is what Each reports, as a set of phrase indexes.
func found(s *Set, text string) map[int]bool {
	got := map[int]bool{}
	s.Each(text, func(i int) bool { got[i] = true; return true })
	return got
}

func TestSet(t *testing.T) {
	phrases := []string{"he", "she", "his", "hers", "delivered", "will be delivered today", "levert", "er levert", "ø", "på vei"}
	s := NewSet(phrases)
	for _, text := range []string{"ushers", "the parcel will be delivered today", "pakken er levert", "på vei til deg", "nothing", "",
		"hhhers shshe", "delivereddelivered", "ø"} {
		got := found(s, text)
		for i, p := range phrases {
			if want := strings.Contains(text, p); got[i] != want {
				t.Errorf("%q in %q: got %v, want %v", p, text, got[i], want)
			}
		}
	}
	stopped := 0
	s.Each("she sells his hers", func(int) bool { stopped++; return false })
	if stopped != 1 {
		t.Errorf("fn called %d times after returning false", stopped)
	}
}

// FuzzSet: Each finds exactly the phrases strings.Contains finds.
func FuzzSet(f *testing.F) {
	f.Add("abcab", "ab|bc|cab|b")
	f.Add("aaaa", "a|aa|aaa")
	f.Fuzz(func(t *testing.T, text, list string) {
		phrases := strings.Split(list, "|")
		if len(phrases) > 20 {
			phrases = phrases[:20]
		}
		got := found(NewSet(phrases), text)
		for i, p := range phrases {
			if p == "" {
				continue
			}
			if want := strings.Contains(text, p); got[i] != want && !(got[i] == false && dup(phrases, i)) {
				t.Fatalf("%q in %q: got %v, want %v", p, text, got[i], want)
			}
		}
	})
}

// dup reports whether phrase i repeats an earlier one (reported under that
// one's index).
func dup(phrases []string, i int) bool {
	for j := 0; j < i; j++ {
		if phrases[j] == phrases[i] {
			return true
		}
	}
	return false
}

// FuzzWholeSet: a WholeSet finds a text's words exactly as Has does one
// phrase at a time, also when two languages' lists give the same words
// with and without a star ("fatura" and "fatura*", "kasse" and "*kasse").
func FuzzWholeSet(f *testing.F) {
	phrases := []string{"deliver*", "today", "i dag", "was", "has been", "doręcz*", "aujourd'hui", "*bussen", "fatura", "fatura*", "kasse", "*kasse"}
	set := NewWholeSet(phrases)
	for _, s := range []string{"we're delivering today", "redelivered", "wasabi", "i dagen", "doręczymy dziś", "x aujourd'hui.", "västkustbussen", "bussens", "bussen",
		"faturaniz", "sua fatura", "sparkasse", "kassen"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := false
		for _, p := range phrases {
			want = want || Has(s, p)
		}
		if got := set.In(s); got != want {
			t.Errorf("In(%q) = %v, Has says %v", s, got, want)
		}
	})
}

// TestSetEveryByte: a list that holds all 256 byte values still finds
// each of them (no byte is left in the class of bytes no phrase has).
func TestSetEveryByte(t *testing.T) {
	var phrases []string
	for b := range 256 {
		phrases = append(phrases, string([]byte{byte(b)}))
	}
	s := NewSet(phrases)
	for b := range 256 {
		if got := found(s, string([]byte{'x', byte(b)})); !got[b] {
			t.Errorf("byte %#x not found", b)
		}
	}
}

// BenchmarkSetAny: a mail's first lines (about 2 KB, no phrase in them)
// against sixty phrases, the test every mail passes for every kind.
func BenchmarkSetAny(b *testing.B) {
	var phrases []string
	for _, w := range strings.Split("invoice|bill|statement|rechnung|facture|factura|fattura|faktura|factuur|fatura|lasku|regning|"+
		"payment due|amount due|zahlung|paiement|pago|pagamento|betaling|płatność|platba|betalning|maksu|"+
		"your invoice|ihre rechnung|votre facture|su factura|la tua fattura|twoja faktura|uw factuur|a sua fatura", "|") {
		phrases = append(phrases, w, w+" is ready")
	}
	s := NewSet(phrases)
	text := strings.ToLower(strings.Repeat("Hello Anna, thanks for shopping with us. We thought you'd like these picks, "+
		"chosen for you from what you viewed last week: garden chairs, a lamp and 3 more.\n", 13))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if s.Any(text) {
			b.Fatal("found a phrase")
		}
	}
}

// naiveAt is what EachAt must report: for each offset just after a
// phrase, in increasing order, the phrases that end there (a repeated
// phrase under its first index), longest first.
func naiveAt(phrases []string, text string) [][2]int {
	var want [][2]int
	seen := map[string]bool{}
	var first []int // the phrases but repeated ones
	for i, p := range phrases {
		if p != "" && !seen[p] {
			first, seen[p] = append(first, i), true
		}
	}
	for end := 1; end <= len(text); end++ {
		var here []int
		for _, i := range first {
			if strings.HasSuffix(text[:end], phrases[i]) {
				here = append(here, i)
			}
		}
		slices.SortStableFunc(here, func(a, b int) int { return len(phrases[b]) - len(phrases[a]) })
		for _, i := range here {
			want = append(want, [2]int{i, end})
		}
	}
	return want
}

// checkAt compares a set's EachAt, Any and AnyFold with naiveAt.
func checkAt(t *testing.T, phrases []string, text string) {
	t.Helper()
	s := NewSet(phrases)
	var got [][2]int
	s.EachAt(text, func(p, end int) bool { got = append(got, [2]int{p, end}); return true })
	want := naiveAt(phrases, text)
	if !slices.Equal(got, want) {
		t.Fatalf("phrases %q in %q: EachAt gives %v, want %v", phrases, text, got, want)
	}
	if s.Any(text) != (len(want) > 0) {
		t.Fatalf("phrases %q in %q: Any gives %v", phrases, text, !(len(want) > 0))
	}
	folded := []byte(text)
	for i, c := range folded {
		if 'A' <= c && c <= 'Z' {
			folded[i] = c + 'a' - 'A'
		}
	}
	if s.AnyFold(text) != (len(naiveAt(phrases, string(folded))) > 0) {
		t.Fatalf("phrases %q in %q: AnyFold differs from Any of the folded text", phrases, text)
	}
}

// TestSetRandom compares the automaton with a naive search on random
// phrase lists (small and large, over few letters and over multi-byte
// ones, so that rows share prefixes and the packed rows crowd each
// other) and texts of their pieces.
func TestSetRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(46, 1))
	alphabets := [][]string{
		{"a", "b"},
		{"a", "b", "c", " ", "é"},
		{"д", "о", "с", "т", "а", "в", "к", "a", " "},
		{"配", "達", "済", "み", "の", "お", "知", "ら", "せ", " ", "x"},
		{"ı", "ş", "ğ", "ö", "ü", "ç", "i", "s", "g", "o", "Ü", "A", "B"},
		{"\x00", "\xff", "\x80", "\xc3", "a", "ő", "ű", "\n"},
	}
	var every []string // every byte: rows as wide as they get, cells of many owners in reach of each other
	for b := range 256 {
		every = append(every, string([]byte{byte(b)}))
	}
	word := func(alpha []string, n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alpha[rng.IntN(len(alpha))])
		}
		return b.String()
	}
	for round := range 1200 {
		alpha := alphabets[round%len(alphabets)]
		n := 1 + rng.IntN(8)
		if round%20 == 0 {
			n = 100 + rng.IntN(400)
		}
		if round%20 == 1 {
			alpha, n = every, 1000+rng.IntN(1000)
		}
		phrases := make([]string, n)
		for i := range phrases {
			phrases[i] = word(alpha, rng.IntN(7))
		}
		for range 3 {
			// Pieces of phrases among other letters, so that phrases
			// start, break off and end.
			var text strings.Builder
			for size := rng.IntN(160); text.Len() < size; {
				if p := phrases[rng.IntN(len(phrases))]; rng.IntN(2) == 0 {
					text.WriteString(p[:rng.IntN(len(p)+1)])
				} else {
					text.WriteString(word(alpha, 1))
				}
			}
			checkAt(t, phrases, text.String())
		}
	}
}

// FuzzSetAt: EachAt reports every phrase at every end as a naive search
// does, and Any and AnyFold agree with it.
func FuzzSetAt(f *testing.F) {
	f.Add("abcab", "ab|bc|cab|b")
	f.Add("aaaa", "a|aa|aaa|a")
	f.Add("доставка доставлено", "доставка|ставлен|а д|о")
	f.Add("配達済みのお知らせ", "配達|済み|達済|お知らせ|み")
	f.Add("Grüße AUS Köln", "grüße|aus|öln|ü")
	f.Fuzz(func(t *testing.T, text, list string) {
		phrases := strings.Split(list, "|")
		if len(phrases) > 40 || len(text) > 400 {
			return
		}
		checkAt(t, phrases, text)
	})
}

// TestSetFirstUseFromManyGoroutines: a set is built on its first use, and
// the extractors' sets are package variables that parse workers reach at
// once; each must see the whole automaton (run with -race).
func TestSetFirstUseFromManyGoroutines(t *testing.T) {
	phrases := []string{"delivered", "out for delivery", "levert", "zugestellt"}
	s := NewSet(phrases)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if got := found(s, "Ihr Paket wurde zugestellt, er levert"); !got[2] || !got[3] || len(got) != 2 {
				t.Errorf("found %v, want phrases 2 and 3", got)
			}
		})
	}
	wg.Wait()
}
