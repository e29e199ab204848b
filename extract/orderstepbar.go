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
//
// The seventh outside set's bar escaped in another shape: each step a
// block of its own, so that the flattened text holds a blank line
// between steps, and an arrow or a bullet between them ("Ordered", "→",
// "Shipped", …), or the steps on one line apart by "•" or "→".

// stepMarks are the marks a bar draws around or between its steps.
const stepMarks = " \t\r•·✓✔›>|-→➔➜⟶⇢»▸►"

// stepBarless is lower-cased text s without a progress bar's steps: a run
// of three or more short lines, or one line of three or more short cells
// apart by tabs, "·", "•", "|", ">" or an arrow, among which two
// different states are named. A run may hold lines of marks alone ("→")
// and blank lines; with blank lines and no marks between its steps, three
// of its steps name a state and each step has three words at most (a
// mail's blocks are apart by blank lines too: "Your package has
// shipped" over a bar is the mail's own).
func stepBarless(s string) string {
	lines := strings.Split(s, "\n")
	changed := false
	for i := 0; i < len(lines); {
		if cells := stepCells(lines[i]); len(cells) >= 3 && stepStates(cells) {
			lines[i], changed = "", true
			i++
			continue
		}
		if !stepLine(lines[i]) {
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
			i = j
			continue
		}
		// A spread run: steps, lines of marks and blank lines, ending on
		// a step.
		var steps []string
		end, marked, blank := i, false, false
	run:
		for j := i; j < len(lines); j++ {
			switch t := strings.TrimSpace(lines[j]); {
			case stepLine(lines[j]):
				steps = append(steps, lines[j])
				end = j + 1
			case t == "":
				blank = true
			case markLine(t):
				marked = true
			default:
				break run
			}
		}
		if len(steps) >= 3 && (blank || marked) && stepStates(steps) && (marked || shortStates(steps)) {
			for k := i; k < end; k++ {
				lines[k] = ""
			}
			changed = true
		}
		i = max(end, i+1)
	}
	if !changed {
		return s
	}
	return strings.Join(lines, "\n")
}

// stepLine reports whether a line could be a step of a bar: a few words,
// no digit, no sentence's or label's mark.
func stepLine(ln string) bool {
	t := strings.Trim(ln, stepMarks)
	return t != "" && len(t) <= 32 && strings.Count(t, " ") <= 3 && !hasDigit(t) && !strings.ContainsAny(t, ".!?:,")
}

// markLine reports whether trimmed line t holds only a bar's marks, one
// of them an arrow or a bullet: a rule of dashes parts a mail's sections,
// a quote's ">" its lines.
func markLine(t string) bool {
	return strings.Trim(t, stepMarks) == "" && strings.ContainsAny(t, "•·›→➔➜⟶⇢»▸►")
}

// stepSeparator reports whether r parts a bar's cells on one line.
func stepSeparator(r rune) bool {
	switch r {
	case '\t', '·', '•', '|', '>', '›', '→', '➔', '➜', '⟶', '⇢', '»', '▸', '►':
		return true
	}
	return false
}

// stepCells are a line's cells when it is a row of step-like cells.
func stepCells(ln string) []string {
	if !strings.ContainsFunc(ln, stepSeparator) {
		return nil
	}
	cells := strings.FieldsFunc(ln, stepSeparator)
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

// shortStates reports whether steps are all of three words at most and
// three of them name a state: a bar whose steps only blank lines part.
func shortStates(steps []string) bool {
	n := 0
	for _, st := range steps {
		t := strings.Trim(st, stepMarks)
		if strings.Count(t, " ") > 2 {
			return false
		}
		if statusIn(t) != "" {
			n++
		}
	}
	return n >= 3
}
