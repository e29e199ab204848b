package relayclient_test

import (
	"bytes"
	"net/mail"
	"slices"
	"strings"
	"testing"

	"mailnode/relay"
	"mailnode/relay/relayclient"
)

func TestCodesInMail(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      []string
	}{
		{"relay's mail", "Subject: mailnode relay code, ref abcdefghijklmnop\r\nMailnode-Relay-Code: ABCDE-FGHIJ-KLMNO-PQRST-UVWXY\r\n\r\n" +
			"Code: ABCDE-FGHIJ-KLMNO-PQRST-UVWXY\r\n", []string{"ABCDE-FGHIJ-KLMNO-PQRST-UVWXY"}},
		{"text only", "Subject: x\r\n\r\nhello\r\n  Code:   WXYZ-1234 and more\r\n", []string{"WXYZ-1234"}},
		{"header only, twice", "Mailnode-Relay-Code: one-code\r\nmailnode-relay-code:  two-code \r\n\r\n", []string{"one-code", "two-code"}},
		{"too short or too long", "Mailnode-Relay-Code: abc\r\n\r\nCode: " + strings.Repeat("x", 65) + "\r\n", nil},
		{"no code", "Subject: mailnode relay code: ABCDE-FGHIJ\r\n\r\nnothing here\r\n", nil},
		{"capped", "Subject: x\r\n\r\n" + strings.Repeat("Code: aaaaaaa\r\nCode: bbbbbbbb\r\n", 3) + codeLines(40), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := mail.ReadMessage(strings.NewReader(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			text.ReadFrom(m.Body)
			got := relayclient.CodesInMail(m.Header, text.String())
			if tc.name == "capped" {
				if len(got) != 16 || got[0] != "aaaaaaa" || got[1] != "bbbbbbbb" {
					t.Fatalf("CodesInMail = %d candidates %v, want 16, distinct, in order", len(got), got)
				}
				return
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("CodesInMail = %q, want %q", got, tc.want)
			}
		})
	}
}

func codeLines(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("Code: code-" + strings.Repeat("z", i+1) + "\r\n")
	}
	return b.String()
}

// FuzzCodesInMail: any mail, never a panic, never more than 16
// candidates, each 6 to 64 bytes and free of spaces.
func FuzzCodesInMail(f *testing.F) {
	f.Add("Mailnode-Relay-Code: ABCDE-FGHIJ\r\n\r\nCode: ABCDE-FGHIJ\r\n")
	f.Add("Subject: " + relay.CodeSubject + "abcdefghijklmnop\r\n\r\nCode:\r\nCode: \xff\xfe\xfd\xfc\xfb\xfa\r\n")
	f.Fuzz(func(t *testing.T, raw string) {
		m, err := mail.ReadMessage(strings.NewReader(raw))
		if err != nil {
			return
		}
		var text bytes.Buffer
		text.ReadFrom(m.Body)
		got := relayclient.CodesInMail(m.Header, text.String())
		if len(got) > 16 {
			t.Fatalf("%d candidates", len(got))
		}
		for _, c := range got {
			if len(c) < 6 || len(c) > 64 || strings.TrimSpace(c) != c {
				t.Fatalf("candidate %q", c)
			}
		}
	})
}
