package imapsync

import (
	"strings"
	"testing"
)

// TestAnswered feeds server output to answered in every split into two
// reads, and in reads of 1 to 7 bytes: a completion line is found wherever
// the reads cut it, and a body line is never taken for one.
func TestAnswered(t *testing.T) {
	long := strings.Repeat("QUJD", 40) // a base64 line: no space in it
	tests := []struct {
		name   string
		stream string
		want   bool
	}{
		{"tagged OK", "A12 OK done\r\n", true},
		{"tagged NO", "* 3 EXISTS\r\nA12 NO [ALERT] no\r\n", true},
		{"tagged BAD", "A12 BAD what\r\n", true},
		{"continuation", "+ idling\r\n", true},
		{"bare continuation", "+\r\n", true},
		{"untagged only", "* 1 FETCH (UID 5)\r\n* OK still here\r\n", false},
		{"literal body", "* 1 FETCH (BODY[] {40}\r\n" + long + "\r\nsecond line of it\r\n", false},
		{"tag after a long line", long + "\r\n" + long + "\r\nA7 OK FETCH completed\r\n", true},
		{"space only in a later line", long + "\r\nOK\r\n", false},
		{"long tag line", "A1 OK " + strings.Repeat("x", 200) + "\r\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			feed := func(parts ...string) bool {
				c := &deadlineConn{}
				got := false
				for _, p := range parts {
					if c.answered([]byte(p)) {
						got = true
					}
				}
				return got
			}
			if got := feed(tt.stream); got != tt.want {
				t.Fatalf("one read: answered = %v, want %v", got, tt.want)
			}
			for i := range len(tt.stream) {
				if got := feed(tt.stream[:i], tt.stream[i:]); got != tt.want {
					t.Fatalf("reads split at %d (%q | %q): answered = %v, want %v", i, tt.stream[:i], tt.stream[i:], got, tt.want)
				}
			}
			for n := 1; n < 8; n++ {
				var parts []string
				for s := tt.stream; len(s) > 0; s = s[min(n, len(s)):] {
					parts = append(parts, s[:min(n, len(s))])
				}
				if got := feed(parts...); got != tt.want {
					t.Fatalf("reads of %d bytes: answered = %v, want %v", n, got, tt.want)
				}
			}
		})
	}
}
