package mime_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"mailnode/mail/mime"
)

// FuzzParse feeds arbitrary bytes through the whole MIME-to-text path. The
// parser must never panic, and what it returns must be valid UTF-8 without
// NULs, because it goes straight into SQLite text columns and FTS5.
func FuzzParse(f *testing.F) {
	f.Add([]byte("Subject: x\r\n\r\nhello"))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--b--\r\n"))
	f.Add([]byte("Content-Type: text/plain; charset=utf-16\r\nContent-Transfer-Encoding: base64\r\n\r\n//5oAGkA"))
	f.Add([]byte("Content-Type: multipart/alternative; boundary=\"\"\r\n\r\n--\r\n\r\n"))
	f.Add([]byte("Content-Type: text/plain; format=flowed; delsp=yes\r\n\r\n> a \r\n>> b \r\n c \r\n-- \r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m := mime.Parse(raw)
		for _, s := range []string{m.Subject, m.Text, m.HTMLText, m.MessageID} {
			if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
				t.Fatalf("Parse returned invalid text %q", s)
			}
		}
	})
}

func FuzzHTMLToText(f *testing.F) {
	f.Add("<p>a<b>b</p><script>x</script>")
	f.Add("<div hidden><div hidden></div>x")
	f.Fuzz(func(t *testing.T, s string) {
		mime.HTMLToText(s)
	})
}
