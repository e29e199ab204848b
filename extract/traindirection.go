package extract

import (
	"strings"
	"time"
	"unicode"
)

// A return trip printed as two blocks, each under its direction's heading
// ("ANDATA" / "RITORNO", "Viaje de ida" / "Viaje de vuelta", "Hinfahrt" /
// "Rückfahrt", "Aller" / "Retour", "Outward" / "Return"), each with its
// own train, route, labelled clocks and sometimes its own booking code.
// labelledLeg reads one leg of a whole text, the first; under such
// headings each block is read alone (issue 46, foreign-9; xf9t).

// directionBlocks are the spans of lines [start, end) from each direction
// heading to the next, the last to the end of the text; nil under fewer
// than two headings.
func directionBlocks(lines []string) [][2]int {
	var starts []int
	for i, ln := range lines {
		if directionHeading(ln) {
			starts = append(starts, i)
		}
	}
	if len(starts) < 2 {
		return nil
	}
	out := make([][2]int, len(starts))
	for k, s := range starts {
		end := len(lines)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		out[k] = [2]int{s, end}
	}
	return out
}

// directionHeading reports whether ln is a direction's heading: a short
// line without a clock whose words before any digit (a day may follow:
// "Hinfahrt am Sa, 20.12.2026", "Ida - 01/10/2026") are at most four, one
// of them a word of journey.outward or journey.return ("Viaggio di
// ritorno", "Trajet retour", "Your outward journey").
func directionHeading(ln string) bool {
	t := strings.TrimSpace(ln)
	if t == "" || len(t) > 80 || !strings.ContainsFunc(t, unicode.IsLetter) {
		return false
	}
	if i := strings.IndexFunc(t, unicode.IsDigit); i >= 0 {
		if findClocks(t) != nil {
			return false // a leg's line ("Aller Paris 07h04 - Lyon 09h01")
		}
		t = t[:i]
	}
	ws := strings.FieldsFunc(lower(t), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(ws) == 0 || len(ws) > 4 {
		return false
	}
	for _, w := range ws {
		if directionWords[w] {
			return true
		}
	}
	return false
}

// labelledLegs is labelledLeg of each direction block when two blocks or
// more give a leg, each leg with the booking code its own block names if
// it names one; else labelledLeg of the whole text, or nil.
func (c *msgContext) labelledLegs(lines []string, ref time.Time) []*Segment {
	if blocks := directionBlocks(lines); blocks != nil {
		var legs []*Segment
		for _, b := range blocks {
			leg := c.labelledLeg(lines[b[0]:b[1]], ref)
			if leg == nil {
				continue
			}
			if codes := reservationCodes(strings.Join(lines[b[0]:b[1]], "\n")); len(codes) > 0 {
				leg.Reservation = codes[0]
			}
			legs = append(legs, leg)
		}
		if len(legs) >= 2 {
			return legs
		}
	}
	if leg := c.labelledLeg(lines, ref); leg != nil {
		return []*Segment{leg}
	}
	return nil
}
