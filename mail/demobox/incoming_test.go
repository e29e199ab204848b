package demobox

import (
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"
)

func TestIncoming(t *testing.T) {
	var mu sync.Mutex
	var got [][]byte
	in, err := StartIncoming(nil, "127.0.0.1:0", func(raw []byte) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, raw)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()

	msg := "From: relay@relay.test\r\nTo: " + Address + "\r\nSubject: code\r\n\r\nhello\r\n"
	tests := []struct {
		name    string
		to      string
		wantErr string
	}{
		{"the demo address, without a login", Address, ""},
		{"the demo address in other case", strings.ToUpper(Address), ""},
		{"anyone else: no relaying", "victim@elsewhere.example", "550"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := send(in.Addr, tt.to, msg)
			if tt.wantErr == "" && err != nil {
				t.Fatalf("SendMail: %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("SendMail: %v, want %s", err, tt.wantErr)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || !strings.Contains(string(got[0]), "hello") {
		t.Fatalf("delivered %d messages, want 2: %q", len(got), got)
	}
}

func TestIncomingLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:25", "example.com:25"} {
		if in, err := StartIncoming(nil, addr, func([]byte) error { return nil }); err == nil {
			in.Close()
			t.Errorf("StartIncoming(%q) listened; want refused", addr)
		}
	}
}

// send mails msg to one recipient in plain SMTP, as a relay's mailer
// with --smtp-security plain does.
func send(addr, to, msg string) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SendMail("relay@relay.test", []string{to}, strings.NewReader(msg)); err != nil {
		return err
	}
	return c.Quit()
}

// TestIncomingBounded: what any process on this computer may send in
// is bounded, in size and in count.
func TestIncomingBounded(t *testing.T) {
	in, err := StartIncoming(nil, "127.0.0.1:0", func([]byte) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	big := "Subject: big\r\n\r\n" + strings.Repeat("x", maxIncoming+1) + "\r\n"
	if err := send(in.Addr, Address, big); err == nil {
		t.Error("a message over the size cap was taken")
	}
	small := "Subject: s\r\n\r\nhello\r\n"
	for i := range maxIncomingMessages {
		if err := send(in.Addr, Address, small); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	if err := send(in.Addr, Address, small); err == nil || !strings.Contains(err.Error(), "452") {
		t.Errorf("message past the cap: %v, want 452", err)
	}
}
