package words

import (
	"strings"
	"testing"
)

// inEach is Categories.In the slow way: Set.Any of each list.
func inEach(lists [][]string, text string) uint32 {
	var m uint32
	for i, l := range lists {
		if NewSet(l).Any(text) {
			m |= 1 << i
		}
	}
	return m
}

func TestCategories(t *testing.T) {
	lists := [][]string{
		{"invoice", "bill", "rechnung"},
		{"paid", "bezahlt", "payment received"},
		{"minimum payment", "pago mínimo"},
		{"paid", "amount paid"}, // a phrase in two lists
		{},
	}
	c := NewCategories(lists...)
	for _, text := range []string{
		"",
		"your invoice",
		"amount paid: 30.00",
		"rechnung bezahlt",
		"pago mínimo 35,00 · bill",
		"unpaid",
		"payment received; minimum payment due; amount paid; invoice",
		strings.Repeat("x", 1000) + "bill",
	} {
		if got, want := c.In(text), inEach(lists, text); got != want {
			t.Errorf("In(%q) = %b, want %b", text, got, want)
		}
	}
}

// FuzzCategories checks In against each list's own Set.
func FuzzCategories(f *testing.F) {
	f.Add("ab\x00b\x00ba", "abba cab")
	f.Add("paid\x00amount paid\x00ai", "amount paid")
	f.Fuzz(func(t *testing.T, phrases, text string) {
		var lists [][]string
		for i, p := range strings.Split(phrases, "\x00") {
			if p == "" || len(lists) == 8 {
				continue
			}
			k := i % 3
			for len(lists) <= k {
				lists = append(lists, nil)
			}
			lists[k] = append(lists[k], p)
		}
		if got, want := NewCategories(lists...).In(text), inEach(lists, text); got != want {
			t.Fatalf("In(%q) over %q = %b, want %b", text, lists, got, want)
		}
	})
}
