package approvals

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"mailnode/mail/invisible"
)

// MaxDetails bounds the readable form of a request as the phone shows it.
// A draft body is at most 100,000 bytes, and the phone must show all of
// it: a request whose readable form does not fit is refused
// (ErrPromptTooLarge), never cut, because the approval binds everything
// the request would do.
const MaxDetails = 128 << 10

// ErrPromptTooLarge refuses a request whose readable form is longer than
// MaxDetails: the user could not be shown all of what they would approve.
var ErrPromptTooLarge = errors.New("the request is too long to show the user whole")

// maxBlankRun is how many blank lines in a row are shown as they are; a
// longer run is shown as one line that counts them, so that a tail
// cannot hide below a screenful of empty lines.
const maxBlankRun = 2

// Readable returns s as the user is shown it: every invisible character
// (package mail/invisible: zero-width, soft hyphen, bidi controls and the
// like) and every byte that is not UTF-8 is replaced by a visible
// ⟦U+XXXX⟧ or ⟦0xXX⟧, and runs of more than two blank lines by a line
// saying how many there are. Nothing else changes and nothing is left
// out, so what the user reads is all the request covers.
func Readable(s string) string {
	// A CRLF is a line break, as the message will write it; a lone CR
	// is shown.
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	blank := 0
	flush := func() {
		if blank > maxBlankRun {
			fmt.Fprintf(&b, "⟦%d blank lines⟧\n", blank)
		} else {
			b.WriteString(strings.Repeat("\n", blank))
		}
		blank = 0
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		last := i == len(lines)-1
		if strings.TrimSpace(line) == "" && !last && !invisible.Has(line) {
			blank++
			continue
		}
		flush()
		for len(line) > 0 {
			r, size := utf8.DecodeRuneInString(line)
			switch {
			case r == utf8.RuneError && size == 1:
				fmt.Fprintf(&b, "⟦0x%02X⟧", line[0])
			case invisible.Is(r):
				fmt.Fprintf(&b, "⟦U+%04X⟧", r)
			default:
				b.WriteString(line[:size])
			}
			line = line[size:]
		}
		if !last {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
