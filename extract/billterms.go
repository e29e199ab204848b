package extract

import (
	"strconv"
	"strings"
	"time"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
)

// An invoice's payment terms given as day counts only ("30 Tage netto",
// "2/10 net 30", "Zahlbar innerhalb 14 Tagen ohne Abzug", "netto 30
// dagen"): the bill is due the net days after its invoice date. A count
// in a clause that names a discount ("2 % 10 Tage", "2% 10 days") is the
// days to pay early in, never the due day.

// invoiceDateLabels are an invoice's date's labels (invoice.date:
// "Invoice date", "Rechnungsdatum", "Factuurdatum").
var invoiceDateLabels = numericLabels(lang.Entries("invoice.date")...)

// netDaysRE is a net term's day count (bill.netdays, its "#" the count's
// digits) as a whole phrase; each phrase's group holds its count.
var netDaysRE = func() *lazyregexp.Regexp {
	var alts []string
	for _, e := range longestFirst(lang.Entries("bill.netdays")) {
		alts = append(alts, strings.ReplaceAll(e, "#", `(\d{1,3})`))
	}
	return lazyregexp.New(`(?i)(?:^|[^\p{L}\d])(?:` + strings.Join(alts, "|") + `)(?:[^\p{L}\d.,]|[.,](?:\D|$)|$)`)
}()

// netDays is the one day count of text's net terms, among its first
// lines: every net term must give the same count (none when they differ).
func netDays(text string) (int, bool) {
	n, _, ok := netDaysRaw(text)
	return n, ok
}

// netDaysRaw is netDays and the first net term's text.
func netDaysRaw(text string) (int, string, bool) {
	n, raw := 0, ""
	for ln := range strings.Lines(firstLines(text, 60)) {
		if !hasDigit(ln) {
			continue
		}
		for _, m := range netDaysRE.FindAllStringSubmatchIndex(ln, -1) {
			days := 0
			for g := 2; g+1 < len(m); g += 2 {
				if m[g] >= 0 {
					days, _ = strconv.Atoi(ln[m[g]:m[g+1]])
					break
				}
			}
			// The clause the count stands in, from the last comma,
			// semicolon or sentence's stop before it: a discount's
			// ("2 % Skonto innerhalb 10 Tagen") is no net term.
			start := max(strings.LastIndexAny(ln[:m[0]+1], ",;"), strings.LastIndex(ln[:m[0]+1], ". ")) + 1
			end := len(ln)
			if k := strings.IndexAny(ln[m[1]-1:], ",;"); k >= 0 {
				end = m[1] - 1 + k
			}
			// Nor is an amount's ("Net 30 €", "net 30.00").
			clause := ln[start:end]
			if l := strings.ToLower(clause); strings.Contains(l, "%") || billDiscount.In(l) || moneyRE.FindStringIndex(clause) != nil {
				continue
			}
			if days == 0 || n != 0 && n != days {
				return 0, "", false
			}
			if n == 0 {
				raw = strings.TrimSpace(ln[m[0]:m[1]])
			}
			n = days
		}
	}
	return n, raw, n > 0
}

// netTermDue is the day a bill whose terms are day counts is due by: its
// invoice date (labelled) plus the net days. None without both.
func (c *msgContext) netTermDue(text string, z zoneHint) *Time {
	_, d := c.netTermDueRaw(text, z)
	return d
}

// netTermDueRaw is netTermDue and its net term's text, for provenance.
func (c *msgContext) netTermDueRaw(text string, z zoneHint) (string, *Time) {
	days, raw, ok := netDaysRaw(text)
	if !ok {
		return "", nil
	}
	for _, v := range c.after(invoiceDateLabels, text) {
		ds := c.dates(v)
		if len(ds) == 0 || ds[0].start > 40 {
			continue
		}
		// An invoice prints its date's year; a day without one may be
		// any other day's.
		if !ds[0].hasYear {
			return "", nil
		}
		d := ds[0]
		due := time.Date(d.y, time.Month(d.m), d.d+days, 0, 0, 0, 0, time.UTC)
		d.y, d.m, d.d = due.Year(), int(due.Month()), due.Day()
		return raw, resolve(at(d, nil), z, c.dateLoc)
	}
	return "", nil
}
