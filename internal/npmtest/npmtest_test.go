package npmtest

import (
	"strings"
	"testing"
)

func TestParseMajor(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		err  bool
	}{
		{"v20.20.2\n", 20, false},
		{"v22.23.3", 22, false},
		{"  v18.19.1\r\n", 18, false},
		{"v9.0.0", 9, false},
		{"v23", 23, false},
		{"v24.0.0-nightly2025", 24, false},
		{"20.1.0", 0, true},
		{"", 0, true},
		{"v", 0, true},
		{"v.1.2", 0, true},
		{"vx.1.2", 0, true},
		{"v-1.0.0", 0, true},
		{"node: command not found", 0, true},
	} {
		got, err := ParseMajor(tt.in)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("ParseMajor(%q) = %d, %v, want %d, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestDirName(t *testing.T) {
	files := []string{"package.json", "package-lock.json"}
	base := dirName("tool", files, [][]byte{[]byte("{}"), []byte("lock")})
	if !strings.HasPrefix(base, "tool-") || len(base) != len("tool-")+16 {
		t.Fatalf("dirName = %q, want tool- and 16 hex digits", base)
	}
	for _, tt := range []struct {
		name     string
		files    []string
		contents []string
		same     bool
	}{
		{"tool", files, []string{"{}", "lock"}, true},
		{"other", files, []string{"{}", "lock"}, false},
		{"tool", files, []string{"{ }", "lock"}, false},
		{"tool", files, []string{"{}", "lock2"}, false},
		// Bytes moved from one file to the next name another install.
		{"tool", files, []string{"{}l", "ock"}, false},
		{"tool", []string{"package.json", "other.json"}, []string{"{}", "lock"}, false},
		{"tool", append(files, "client.mjs"), []string{"{}", "lock", ""}, false},
	} {
		c := make([][]byte, len(tt.contents))
		for i, s := range tt.contents {
			c[i] = []byte(s)
		}
		if got := dirName(tt.name, tt.files, c); (got == base) != tt.same {
			t.Errorf("dirName(%q, %q, %q) = %q, base %q, want same %v", tt.name, tt.files, tt.contents, got, base, tt.same)
		}
	}
}
