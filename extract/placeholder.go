package extract

import (
	"strings"
	"unicode/utf8"
)

// placeholderSender reports whether a sender's domain is a placeholder's
// (RFC 2606's example.com, example.net and example.org themselves, and
// the .invalid and .localhost names): an input carried without its mail's
// header ("Reservations <reservations@example.com>") names no company by
// its address. A subdomain stands for a company ("shop.example.com").
func placeholderSender(domain string) bool {
	switch domain {
	case "example.com", "example.net", "example.org":
		return true
	}
	return strings.HasSuffix(domain, ".invalid") || strings.HasSuffix(domain, ".localhost")
}

// roleWords name a mailbox's role, not a company (sender.noise: "Info",
// "Notifications", "No-Reply"; lodging.chain: "Reservations", "Bookings";
// sender.role: "Customer Service", "Support").
var roleWords = func() map[string]bool {
	m := wordSet("sender.noise")
	for _, c := range []string{"lodging.chain", "sender.role"} {
		for w := range wordSet(c) {
			m[w] = true
		}
	}
	return m
}()

// roleName reports whether a display name is a role's words alone
// ("Reservations", "Customer Service", "No Reply", "Info"), one of them of
// three letters or more: a brand of two letters ("AO") is no role's "no".
func roleName(name string) bool {
	f := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == ' ' || r == '-' || r == '_' || r == '.' || r == ',' })
	long := false
	for _, w := range f {
		if !roleWords[w] {
			return false
		}
		long = long || utf8.RuneCountInString(w) >= 3
	}
	return long
}
