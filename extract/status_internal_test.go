package extract

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAfterStatusDash: the part of a line after its last dash set apart
// by spaces, where a status may stand; a dash inside a word or number is
// none.
func TestAfterStatusDash(t *testing.T) {
	for ln, want := range map[string]string{
		"Amount due: $0.00 — Paid on 30 January": " Paid on 30 January",
		"Invoice RL-4471 – PAID":                 " PAID",
		"A - b - c":                              " c",
		"RL-4471":                                "RL-4471",
		"Total -":                                "Total -",
		"":                                       "",
		"x\t-\tPaid":                             "\tPaid",
	} {
		if got := afterStatusDash(ln); got != want {
			t.Errorf("afterStatusDash(%q) = %q, want %q", ln, got, want)
		}
	}
}

// TestOrgSep: where a name ends, as the regular expression it replaced
// found it (`[,;:(]|\s[-–—|]\s`, leftmost).
func TestOrgSep(t *testing.T) {
	re := regexp.MustCompile(`[,;:(]|\s[-–—|]\s`)
	for _, s := range []string{
		"Northwind Billing, auto-payments approved", "Acme – Invoices", "Acme-Tools GmbH", "Acme | Billing",
		"A (B)", "no separator", "", " - ", "x\t—\ty", "Foo:bar", "Jean-Luc — Facturation; x", "a -b", "a- b",
	} {
		want := -1
		if m := re.FindStringIndex(s); m != nil {
			want = m[0]
		}
		if got := orgSep(s); got != want {
			t.Errorf("orgSep(%q) = %d, want %d", s, got, want)
		}
	}
}

// FuzzOrgSep: orgSep finds what the regular expression finds, on any text.
func FuzzOrgSep(f *testing.F) {
	re := regexp.MustCompile(`[,;:(]|\s[-–—|]\s`)
	f.Add("Acme – Invoices, x")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "\v") || !utf8.ValidString(s) {
			return // \s has no \v; invalid UTF-8 decodes differently
		}
		want := -1
		if m := re.FindStringIndex(s); m != nil {
			want = m[0]
		}
		if got := orgSep(s); got != want {
			t.Errorf("orgSep(%q) = %d, want %d", s, got, want)
		}
	})
}
