package extract_test

import (
	"time"

	"mailnode/extract"
)

func review15Bill(from, subject, text string) string {
	got := ""
	for _, f := range mailFacts(from, subject, text, time.Date(2027, 3, 12, 9, 0, 0, 0, time.UTC)) {
		if b := f.Bill; f.Kind == extract.KindBill && b != nil {
			a := ""
			if b.Amount != nil {
				a = b.Amount.Amount + " " + b.Amount.Currency
			}
			d := ""
			if b.Due != nil {
				d = b.Due.Format("2006-01-02")
			}
			got += "[" + b.Issuer + " | " + b.Number + " | " + b.Status + " | " + a + " | " + d + "]"
		}
	}
	return got
}
