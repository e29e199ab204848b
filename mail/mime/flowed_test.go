package mime

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestUnflow(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    string
		delSp bool
		want  string
	}{
		// RFC 3676 4.1: a line ending in a space is flowed onto the next.
		{"soft break", "Your flight LH 400 leaves Frankfurt at \n10:35 from gate B44.\n", false,
			"Your flight LH 400 leaves Frankfurt at 10:35 from gate B44.\n"},
		{"paragraph of three lines", "one \ntwo \nthree\nfour\n", false, "one two three\nfour\n"},
		// A line without a trailing space is a hard break: a table's rows stay rows.
		{"hard breaks kept", "Flight: LH 400\nDate: 12 May 2030\n", false, "Flight: LH 400\nDate: 12 May 2030\n"},
		{"empty line ends a paragraph", "a \n\nb\n", false, "a \nb\n"},
		// RFC 3676 4.2: DelSp=yes, the space before a soft break was added by the sender.
		{"delsp", "Buchungsnum \nmer: QX7YTR\n", true, "Buchungsnummer: QX7YTR\n"},
		{"delsp keeps hard breaks", "Wagen 7\nSitz 45\n", true, "Wagen 7\nSitz 45\n"},
		// RFC 3676 4.4: a line starting with a space, "From " or ">" is stuffed.
		{"stuffing", "  indented\n From here\n >not a quote\n", false, " indented\nFrom here\n>not a quote\n"},
		{"stuffed continuation", "Total: \n  EUR 12.00\n", false, "Total:  EUR 12.00\n"},
		// RFC 3676 4.5: quote depth; a soft break into another depth is a hard one.
		{"quoted paragraph", "> Booking \n> reference: ABC123\n", false, "> Booking reference: ABC123\n"},
		{"nested quote", ">> deep \n>> line\n", false, ">> deep line\n"},
		{"depth change is a hard break", "> one \n>> two\nthree\n", false, "> one \n>> two\nthree\n"},
		// RFC 3676 4.3: the signature separator "-- " is never flowed.
		{"signature separator", "Thanks\n-- \nTravel desk\n", false, "Thanks\n-- \nTravel desk\n"},
		{"no final newline", "a \nb", false, "a b"},
		{"soft at the end", "a \n", false, "a \n"},
		{"empty", "", false, ""},
	} {
		if got := Unflow(c.in, c.delSp); got != c.want {
			t.Errorf("%s: Unflow(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// A flowed part reaches the readers unwrapped; a part without format=flowed
// keeps its trailing spaces and lines.
func TestParseFlowed(t *testing.T) {
	body := "Booking reference: QX7YTR. Your train ICE 1007 leaves Berlin Hbf at \r\n08:15 from platform 7.\r\nSeat: 45\r\n"
	for _, c := range []struct{ ct, want string }{
		{"text/plain; charset=utf-8; format=flowed", "Booking reference: QX7YTR. Your train ICE 1007 leaves Berlin Hbf at 08:15 from platform 7.\nSeat: 45"},
		{"text/plain; charset=utf-8; format=Flowed; delsp=no", "Booking reference: QX7YTR. Your train ICE 1007 leaves Berlin Hbf at 08:15 from platform 7.\nSeat: 45"},
		{"text/plain; charset=utf-8", strings.TrimSuffix(strings.ReplaceAll(body, "\r\n", "\n"), "\n")},
	} {
		raw := "From: a@example.com\r\nSubject: x\r\nContent-Type: " + c.ct + "\r\n\r\n" + body
		if got := Parse([]byte(raw)).Text; got != c.want {
			t.Errorf("%s: Text = %q, want %q", c.ct, got, c.want)
		}
	}
}

// Unflow cuts only at ASCII bytes and adds at most a space after a
// paragraph's quote marks, so valid UTF-8 stays valid and the text cannot grow
// by more than two bytes a line.
func FuzzUnflow(f *testing.F) {
	f.Add("a \nb\n", false)
	f.Add("> a \n>> b \n c \n-- \n", true)
	f.Fuzz(func(t *testing.T, s string, delSp bool) {
		got := Unflow(s, delSp)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Unflow(%q) = %q, invalid UTF-8", s, got)
		}
		if len(got) > len(s)+2*strings.Count(s, "\n")+2 {
			t.Fatalf("Unflow(%q) = %q, longer than it may be", s, got)
		}
	})
}
