package relaycheck

import (
	"strings"
	"testing"
)

// TestPrintable: what a server answers cannot steer the operator's
// terminal (an SMTP reply with escape sequences printed a fake "ok" over
// the FAIL line; outside attack).
func TestPrintable(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"EHLO failed: 554 go away", "EHLO failed: 554 go away"},
		{"554 \x1b]0;owned\a\x1b[2J\x1b[32mok    SMTP: all good", `554 '\x1b']0;owned'\a''\x1b'[2J'\x1b'[32mok    SMTP: all good`},
		{"line\r\nok  fake", `line'\r''\n'ok  fake`},
		{"bad \xff byte", `bad \xff byte`},
		{"real \uFFFD stays", "real \uFFFD stays"},
		{"bidi \u202e reversed", `bidi '\u202e' reversed`},
		{"grüße", "grüße"},
	} {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := printable(strings.Repeat("x", 5000))
	if len(long) > maxDetail+10 || !strings.HasSuffix(long, "...") {
		t.Errorf("a 5,000-byte detail came out %d bytes", len(long))
	}
	r := fail("SMTP", "hint", "EHLO failed: %s", "\x1b[2J")
	if strings.ContainsRune(r.String(), 0x1b) {
		t.Errorf("Result.String holds an escape: %q", r.String())
	}
}
