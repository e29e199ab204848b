package relayserver_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/relay/relayserver"
)

// TestSMTPMailerValidate: plain SMTP only to loopback unless the
// development flag allows it; an unknown security is refused, not taken
// as starttls. SendCode refuses what Validate refuses, before dialling.
func TestSMTPMailerValidate(t *testing.T) {
	for _, tc := range []struct {
		name, addr, security string
		allowInsecure        bool
		wantErr              string
	}{
		{"starttls default", "smtp.example.com:587", "", false, ""},
		{"tls", "smtp.example.com:465", "tls", false, ""},
		{"plain to loopback", "127.0.0.1:25", "plain", false, ""},
		{"plain to localhost", "localhost:25", "plain", false, ""},
		{"plain to IPv6 loopback", "[::1]:25", "plain", false, ""},
		{"plain to a remote host", "smtp.example.com:25", "plain", false, "refusing plain SMTP to smtp.example.com"},
		{"plain to a LAN address", "192.168.1.5:25", "plain", false, "refusing plain SMTP"},
		{"plain to a remote host allowed", "smtp.example.com:25", "plain", true, ""},
		{"unknown security", "smtp.example.com:587", "ssl", false, `SMTP security "ssl"`},
		{"no port", "smtp.example.com", "starttls", false, "want host:port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &relayserver.SMTPMailer{Addr: tc.addr, Security: tc.security, AllowInsecure: tc.allowInsecure}
			err := m.Validate()
			if (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Validate() = %v, want %q", err, tc.wantErr)
			}
			if tc.wantErr == "" {
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if err := m.SendCode(ctx, "ann@example.com", relayserver.CodeMail{}); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("SendCode = %v, want the refusal %q", err, tc.wantErr)
			}
		})
	}
}
