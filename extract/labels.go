package extract

import (
	"unsafe"
)

// The labelled-text reader: a value after a label that names it, on its
// line or the next, or under it in a column; label sets are built from
// extract/lang/data's entries.

// labelledDate finds the first date (and clock, if on the same line)
// after one of the labels.
func (c *msgContext) labelledDate(l labelSet, text string, z zoneHint) *Time {
	for _, v := range c.after(l, text) {
		ds := c.dates(v)
		if len(ds) == 0 || ds[0].start > 40 {
			continue
		}
		d := ds[0].withYear(c.ref)
		var ck *clockMatch
		if cs := findClocks(v); len(cs) > 0 {
			ck = &cs[0]
		}
		return resolve(at(d, ck), z, c.dateLoc)
	}
	return nil
}

// digitLinesOf is digitLines(text), worked out once per text.
func (c *msgContext) digitLinesOf(text string) []int {
	if len(text) != len(c.digitText) || unsafe.StringData(text) != unsafe.StringData(c.digitText) {
		c.digitText, c.digitLines = text, digitLines(text)
	}
	return c.digitLines
}
