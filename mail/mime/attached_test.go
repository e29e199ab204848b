package mime

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// attach wraps inner as a part of a mail from the forwarder, with the
// part's header lines given.
// Each level takes its own boundary, as clients make them.
func attach(partHeader, inner string) string {
	bd := fmt.Sprintf("b%d", len(inner))
	return "From: Sam <sam@example.net>\r\nSubject: Fwd: booking\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=\"" + bd + "\"\r\n\r\n--" + bd + "\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n" +
		"--" + bd + "\r\n" + partHeader + "\r\n\r\n" + inner + "\r\n--" + bd + "--\r\n"
}

const innerMail = "From: Rail Co <tickets@rail.example>\r\nDate: Mon, 2 Nov 2026 10:00:00 +0100\r\n" +
	"Subject: Your ticket\r\nContent-Type: text/plain\r\n\r\nBooking ABC123, Bern to Basel.\r\n"

func TestAttached(t *testing.T) {
	tests := []struct {
		name, header, inner string
		want                []string // the attached mails' subjects
	}{
		{"rfc822", "Content-Type: message/rfc822", innerMail, []string{"Your ticket"}},
		{"global", "Content-Type: message/global", innerMail, []string{"Your ticket"}},
		{"eml as octet-stream", "Content-Type: application/octet-stream; name=\"ticket.eml\"\r\nContent-Disposition: attachment; filename=\"ticket.eml\"", innerMail, []string{"Your ticket"}},
		{"eml in base64", "Content-Type: message/rfc822\r\nContent-Transfer-Encoding: base64", b64(innerMail), []string{"Your ticket"}},
		{"no mail", "Content-Type: application/octet-stream; name=\"ticket.bin\"", "xyz", nil},
		// Nested: a mail attached to an attached mail is read, one more
		// level is not.
		{"nested twice", "Content-Type: message/rfc822", attach("Content-Type: message/rfc822", innerMail), []string{"Fwd: booking", "Your ticket"}},
		{"nested thrice", "Content-Type: message/rfc822", attach("Content-Type: message/rfc822", attach("Content-Type: message/rfc822", innerMail)), []string{"Fwd: booking", "Fwd: booking"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Parse([]byte(attach(tt.header, tt.inner)))
			var got []string
			var walk func(m *Message)
			walk = func(m *Message) {
				for _, a := range m.Attached {
					got = append(got, a.Subject)
					walk(a)
				}
			}
			walk(m)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("attached subjects = %q, want %q (problems %q)", got, tt.want, m.Problems)
			}
			if len(m.Attachments) != 1 {
				t.Errorf("attachments = %+v, want the part listed", m.Attachments)
			}
			if strings.Contains(m.Text, "ABC123") {
				t.Errorf("Text = %q: an attached mail is no text of the forwarder's", m.Text)
			}
		})
	}
}

func TestAttachedCaps(t *testing.T) {
	var b strings.Builder
	b.WriteString("From: Sam <sam@example.net>\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n")
	for range 5 {
		b.WriteString("--b1\r\nContent-Type: message/rfc822\r\n\r\n" + innerMail + "\r\n")
	}
	b.WriteString("--b1--\r\n")
	m := Parse([]byte(b.String()))
	if len(m.Attached) != maxAttached || len(m.Attachments) != 5 {
		t.Fatalf("attached %d, attachments %d; want %d read of 5 listed", len(m.Attached), len(m.Attachments), maxAttached)
	}
}

func TestAttachedText(t *testing.T) {
	m := Parse([]byte(attach("Content-Type: message/rfc822", innerMail)))
	got := m.AttachedText()
	for _, want := range []string{"Attached message", "From: Rail Co <tickets@rail.example>", "Subject: Your ticket", "Booking ABC123, Bern to Basel."} {
		if !strings.Contains(got, want) {
			t.Errorf("AttachedText() = %q, want it to hold %q", got, want)
		}
	}
	if Parse([]byte(innerMail)).AttachedText() != "" {
		t.Error("AttachedText of a mail with no attached mail is not empty")
	}
}

func b64(s string) string {
	enc := base64.StdEncoding.EncodeToString([]byte(s))
	var b strings.Builder
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	return b.String() + enc
}
