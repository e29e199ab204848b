package mime

import "strings"

// Unflow undoes format=flowed (RFC 3676) in a text part whose lines end
// in "\n": a line ending in a space is soft-broken and joins the next
// line of the same quote depth (the space dropped too when delSp), a
// line starting with a space was stuffed and loses it, and the
// signature separator "-- " stays a line of its own. Every other line
// ending is a hard break and stays one, so a sender's table, address
// or list keeps its lines. A quoted paragraph keeps its first line's
// quote marks. One pass, linear in the text.
func Unflow(s string, delSp bool) string {
	var b strings.Builder
	b.Grow(len(s))
	open := false // the previous line was soft-broken
	depth := 0    // the quote depth of the paragraph being joined
	for len(s) > 0 {
		line := s
		nl := strings.IndexByte(s, '\n')
		if nl >= 0 {
			line, s = s[:nl], s[nl+1:]
		} else {
			s = ""
		}
		d := 0
		for d < len(line) && line[d] == '>' {
			d++
		}
		prefix, text := line[:d], line[d:]
		text = strings.TrimPrefix(text, " ") // space-stuffing, or the space after quote marks
		if open && d != depth {
			// A soft break into another quote depth is a sender's
			// error; RFC 3676 4.5 reads it as a hard break.
			b.WriteByte('\n')
			open = false
		}
		if !open {
			if d > 0 {
				b.WriteString(prefix)
				b.WriteByte(' ')
			}
			depth = d
		}
		soft := strings.HasSuffix(text, " ") && text != "-- "
		if soft && delSp {
			text = text[:len(text)-1]
		}
		b.WriteString(text)
		open = soft
		if !soft && nl >= 0 {
			b.WriteByte('\n')
		}
	}
	if open {
		b.WriteByte('\n')
	}
	return b.String()
}
