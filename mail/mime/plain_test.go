package mime

import (
	"strings"
	"testing"
)

// generalPlain is leaf's general path for a plain text part, which
// appendPlain must match wherever it takes the part.
func generalPlain(dst *strings.Builder, b []byte, room int) {
	s := lineEnds(sanitize(string(b)))
	if dst.Len() > 0 {
		s = "\n\n" + s
	}
	dst.WriteString(truncate(s, room))
}

// checkPlain reports where appendPlain, given before as dst's text, writes
// other than the general path would.
func checkPlain(t *testing.T, before string, b []byte, room int) {
	t.Helper()
	var fast, general strings.Builder
	fast.WriteString(before)
	general.WriteString(before)
	generalPlain(&general, b, room)
	if !appendPlain(&fast, b, room) {
		if fast.String() != before {
			t.Fatalf("appendPlain(%q, %q, %d) declined but wrote %q", before, b, room, fast.String())
		}
		return
	}
	if fast.String() != general.String() {
		t.Fatalf("appendPlain(%q, %q, %d) = %q, the general path %q", before, b, room, fast.String(), general.String())
	}
}

func TestAppendPlain(t *testing.T) {
	for _, tc := range []struct {
		name, before, text string
		room               int
		taken              bool
	}{
		{"plain", "", "Hello\nworld", 100, true},
		{"CRLF", "", "Hello\r\nworld\r\n", 100, true},
		{"CR before CRLF", "", "a\r\r\nb", 100, true},
		{"lone CR", "", "a\rb", 100, true},
		{"after a part", "first", "second\r\n", 100, true},
		{"fits exactly", "", "abc\r\n", 4, true},
		{"a byte over", "", "abcd\r\n", 4, false},
		{"the blank line counts", "x", "ab", 3, false},
		{"NUL", "", "a\x00b", 100, false},
		{"invalid UTF-8", "", "caf\xe9", 100, false},
		{"NUL between CR and LF", "", "a\r\x00\nb", 100, false},
		{"empty", "", "", 100, true},
		{"no room", "", "a", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dst strings.Builder
			dst.WriteString(tc.before)
			if got := appendPlain(&dst, []byte(tc.text), tc.room); got != tc.taken {
				t.Fatalf("taken = %v, want %v", got, tc.taken)
			}
			checkPlain(t, tc.before, []byte(tc.text), tc.room)
		})
	}
}

// FuzzAppendPlain checks that the one-copy path writes what the general
// path writes, whatever a part holds.
func FuzzAppendPlain(f *testing.F) {
	f.Add("", []byte("Hello\r\nworld"), 100)
	f.Add("x", []byte("a\r\r\n\x00\xff"), 5)
	f.Fuzz(func(t *testing.T, before string, b []byte, room int) {
		if room < 0 || room > 1<<20 {
			return
		}
		checkPlain(t, before, b, room)
	})
}
