package redact_test

import (
	"testing"

	"mailnode/gateway/redact"
)

func TestContacts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Reply to billing@paypa1-secure.example today.", "Reply to [address] today."},
		{"Call us at +49 30 1234 5678 within 24 hours.", "Call us at [phone] within 24 hours."},
		{"Hotline: (800) 555-0199", "Hotline: [phone]"},
		{"Verify at https://paypa1.example/verify now", "Verify at [link] now"},
		{"write to help [at] evil.example", "write to [address]"},
		{"Amount due: 1,250.00 EUR by 12.12.2026", "Amount due: 1,250.00 EUR by 12.12.2026"},
		{"Flight LH 400 at 10:05, seat 23A", "Flight LH 400 at 10:05, seat 23A"},
		{"Order 123-456", "Order 123-456"}, // under seven digits: not a phone number
	} {
		if got := redact.Contacts(tc.in); got != tc.want {
			t.Errorf("Contacts(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
