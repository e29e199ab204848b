package extract

import (
	"strings"
)

// A tracker's progress bar (issue 46, the sixth outside set): a shop's
// shipping mail draws its steps as short lines or cells, "Ordered",
// "Shipped", "Out for delivery", "Delivered", and marks the current one
// only by colour. Read as words, the bar's last steps outranked the
// mail's own "Your package was shipped!": out for delivery. A bar tells
// no state: its steps are dropped before the state is read, and a mail
// that says nothing else has none.

// stepBarless is lower-cased text s without a progress bar's steps: a run
// of three or more short lines, or one line of three or more short cells
// apart by tabs, "·", "|" or ">", among which two different states are
// named.
func stepBarless(s string) string {
	lines := strings.Split(s, "\n")
	changed := false
	for i := 0; i < len(lines); {
		if cells := stepCells(lines[i]); len(cells) >= 3 && stepStates(cells) {
			lines[i], changed = "", true
			i++
			continue
		}
		j := i
		for j < len(lines) && stepLine(lines[j]) {
			j++
		}
		if j-i >= 3 && stepStates(lines[i:j]) {
			for k := i; k < j; k++ {
				lines[k] = ""
			}
			changed = true
		}
		i = max(j, i+1)
	}
	if !changed {
		return s
	}
	return strings.Join(lines, "\n")
}

// stepLine reports whether a line could be a step of a bar: a few words,
// no digit, no sentence's or label's mark.
func stepLine(ln string) bool {
	t := strings.Trim(ln, " \t\r•·✓✔›>|-")
	return t != "" && len(t) <= 32 && strings.Count(t, " ") <= 3 && !hasDigit(t) && !strings.ContainsAny(t, ".!?:,")
}

// stepCells are a line's cells when it is a row of step-like cells.
func stepCells(ln string) []string {
	if !strings.ContainsAny(ln, "\t·|>›") {
		return nil
	}
	cells := strings.FieldsFunc(ln, func(r rune) bool { return r == '\t' || r == '·' || r == '|' || r == '>' || r == '›' })
	n := 0
	for _, c := range cells {
		if strings.TrimSpace(c) == "" {
			continue
		}
		if !stepLine(c) {
			return nil
		}
		cells[n] = c
		n++
	}
	return cells[:n]
}

// stepStates reports whether steps name two different states.
func stepStates(steps []string) bool {
	first := ""
	for _, st := range steps {
		if s := statusIn(strings.TrimSpace(st)); s != "" {
			if first != "" && s != first {
				return true
			}
			if first == "" {
				first = s
			}
		}
	}
	return false
}
