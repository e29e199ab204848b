package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Two flights' cards printed side by side, the outbound's and the
// return's, as a PDF's two columns flatten to one text: every line holds
// its label twice, the left card's value after the first and the right
// card's after the second ("Flight 6E 316 Flight 6E 315", "To Delhi To
// Kochi", "Departs 7:40 PM Departs 6:20 AM"), a line perhaps two labels'
// pairs ("Date 01Feb12 Date 04Feb12 From Kochi From Delhi"). Read as
// they stand, the one number's window holds both cards' clocks; written
// as two cards one under the other, each is read as any card is.

// sideBySideLines is how far from the two numbers' line the cards' other
// lines may stand: eight lines of text, a blank line after each as HTML
// and PDFs' text often sets them.
const sideBySideLines = 16

// sideBySideCards gives lines with each pair of side-by-side cards
// written as two cards, each led by its number's line: the lines of
// label pairs around a line of two numbers after the same word are taken
// from where they stand and their halves written under the numbers'
// line, the left card's, a blank line, the right card's. Lines without
// such a pair are kept as they are.
func sideBySideCards(lines []string) []string {
	var out []string
	var moved map[int]bool // made with the first pair: most mails have none
	for i := range lines {
		label, n1, n2, ok := twoNumbers(lines[i])
		if !ok {
			continue
		}
		var left, right []string
		var at []int
		for j := max(0, i-sideBySideLines); j < len(lines) && j <= i+sideBySideLines; j++ {
			if j == i || moved[j] {
				continue
			}
			l, r, ok := labelPairs(lines[j])
			if !ok {
				continue
			}
			left, right, at = append(left, l...), append(right, r...), append(at, j)
		}
		if len(at) < 2 {
			continue
		}
		if out == nil {
			out = make([]string, len(lines))
			copy(out, lines)
			moved = map[int]bool{}
		}
		for _, j := range at {
			moved[j] = true
			out[j] = ""
		}
		card := append([]string{label + " " + n1}, left...)
		card = append(card, "", label+" "+n2)
		out[i] = strings.Join(append(card, right...), "\n")
	}
	if out == nil {
		return lines
	}
	// A card's lines written into one element: split again, so that
	// each line keeps its own index.
	return strings.Split(strings.Join(out, "\n"), "\n")
}

// twoNumbers reads a line of two flights' numbers, each after the same
// word and nothing else ("Flight 6E 316 Flight 6E 315").
func twoNumbers(ln string) (label, n1, n2 string, ok bool) {
	// The word twice first, a byte test: the expression for numbers,
	// run on every line of every mail, cost a travel mail 4 %.
	first, rest, _ := strings.Cut(strings.TrimSpace(ln), " ")
	if len(first) < 2 || !strings.Contains(rest, " "+first+" ") {
		return "", "", "", false
	}
	ms := flightNumRE.FindAllStringSubmatchIndex(ln, 3)
	if len(ms) != 2 || strings.TrimSpace(ln[ms[1][1]:]) != "" {
		return "", "", "", false
	}
	for _, m := range ms {
		if !isFlightDesignator(ln[m[2]:m[3]]) {
			return "", "", "", false
		}
	}
	label = strings.TrimSpace(ln[:ms[0][0]])
	if !labelWord(label) || strings.TrimSpace(ln[ms[0][1]:ms[1][0]]) != label {
		return "", "", "", false
	}
	return label, strings.TrimSpace(ln[ms[0][0]:ms[0][1]]), strings.TrimSpace(ln[ms[1][0]:ms[1][1]]), true
}

// labelWord reports whether w is a label's one word: letters, a capital
// first, 2 to 12 of them.
func labelWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) || len(w) < 2 || len(w) > 12 {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// labelPairs reads a line of side-by-side cards' label pairs: each label
// twice, its left value between the two and its right value after the
// second, up to the next label ("Departs 7:40 PM Departs 6:20 AM",
// "Date 01Feb12 Date 04Feb12 From Kochi From Delhi"; words before the
// first label, the rest of another column, are left). It gives each
// card's lines ("Departs 7:40 PM"); ok only when every word that stands
// twice is such a label and every value is there.
func labelPairs(ln string) (left, right []string, ok bool) {
	ws := strings.Fields(ln)
	if len(ws) < 4 || len(ws) > 24 {
		return nil, nil, false
	}
	count := map[string]int{}
	for _, w := range ws {
		count[w]++
	}
	type pair struct{ a, b int }
	var pairs []pair
	seen := map[string]int{}
	for k, w := range ws {
		if count[w] != 2 {
			continue
		}
		if !labelWord(w) {
			if !hasDigit(w) {
				return nil, nil, false // "Rs Rs": no label
			}
			continue // a figure twice is a value's
		}
		if first, ok := seen[w]; ok {
			pairs = append(pairs, pair{first, k})
		} else {
			seen[w] = k
		}
	}
	if len(pairs) == 0 {
		return nil, nil, false
	}
	for n, p := range pairs {
		end := len(ws)
		if n+1 < len(pairs) {
			end = pairs[n+1].a
			if end < p.b {
				return nil, nil, false // labels interleaved
			}
		}
		if p.b-p.a < 2 || end-p.b < 2 {
			return nil, nil, false // a value missing
		}
		left = append(left, ws[p.a]+" "+strings.Join(ws[p.a+1:p.b], " "))
		right = append(right, ws[p.b]+" "+strings.Join(ws[p.b+1:end], " "))
	}
	return left, right, true
}
