package extract

import (
	"slices"
	"strings"
)

// Several bookings in one mail, each under its own code and days: an
// order of two return trips ("Votre voyage", "PARIS <> AVIGNON - les
// 15/09/2016 et 18/09/2016", "Référence de dossier : SOUHHS | SOUHKI"),
// printed apart from the legs they book. Read top down, the mail's one
// code would go to every leg; each leg takes the code of the block that
// names its day instead.

// legRefs gives each leg the code of the booking block that names the
// leg's day, when the mail holds two codes or more and each code's block
// names days: a reservation label's line, or the nearest of the four
// lines above it that names any.
// All or nothing: unless every leg's day is in exactly one block, no leg
// is given a code here (the mail's one code stands).
func (c *msgContext) legRefs(text string, legs []*Segment) {
	found := c.reservationCodesOf(text)
	if len(legs) < 2 || !slices.ContainsFunc(found, func(code string) bool { return code != found[0] }) {
		return
	}
	type block struct {
		code string
		days map[int]bool // y*10000 + m*100 + d
	}
	var blocks []block
	lines := strings.Split(text, "\n")
	for i, ln := range lines {
		if len(ln) > 200 {
			continue
		}
		vs := reservationLabels.after(ln)
		if len(vs) == 0 {
			continue
		}
		code := reservationCode(vs[0])
		if code == "" {
			continue
		}
		// The days of the label's line, else of the nearest line above
		// that names any: the block's heading, not the legs above it.
		days := map[int]bool{}
		for j := i; j >= 0 && j >= i-4 && len(days) == 0; j-- {
			for _, d := range c.dates(lines[j]) {
				if d = d.withYear(c.ref); d.y != unknownYear {
					days[d.y*10000+d.m*100+d.d] = true
				}
			}
		}
		if len(days) > 0 {
			blocks = append(blocks, block{code, days})
		}
		if len(blocks) > maxBookingBlocks {
			return // a list's, not an order's few bookings (and a hostile text's bound)
		}
	}
	if len(blocks) < 2 {
		return
	}
	codes := make([]string, len(legs))
	for k, l := range legs {
		if l.Depart == nil {
			return
		}
		t := l.Depart.Time
		day := t.Year()*10000 + int(t.Month())*100 + t.Day()
		for _, b := range blocks {
			if !b.days[day] {
				continue
			}
			if codes[k] != "" && codes[k] != b.code {
				return // the day is two bookings'
			}
			codes[k] = b.code
		}
		if codes[k] == "" {
			return
		}
	}
	for k, l := range legs {
		l.Reservation = codes[k]
	}
}

// maxBookingBlocks bounds the bookings one mail's legs are shared among.
const maxBookingBlocks = 16
