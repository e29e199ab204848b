package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestOrderTable: an order's number and total in a table under its
// header row, read as labelled; a date under a header that names the
// order ("Data ordine") is no number; a returns policy put as a question
// is no state.
func TestOrderTable(t *testing.T) {
	for _, c := range []struct {
		subject, text string
		want          string // number status total
	}{
		{"Conferma del tuo ordine", "Abbiamo ricevuto il tuo ordine.\n\nNumero ordine\tData ordine\tTotale\n\nCF-2026-08812\t04/12/2026\t74,50 €\n",
			"CF-2026-08812 ordered 74.50 EUR"},
		{"Conferma del tuo ordine", "Abbiamo ricevuto il tuo ordine.\n\nData ordine\tNumero ordine\tTotale\n\n04/12/2026\tCF-2026-08812\t74,50 €\n",
			"CF-2026-08812 ordered 74.50 EUR"},
		{"Potwierdzenie zamówienia", "Dziękujemy.\n\nNumer zamówienia\tData\tDo zapłaty\nSO/2026/55120\t06.12.2026\t219,99 zł\n",
			"SO/2026/55120 ordered 219.99 PLN"},
		{"Bedankt voor je bestelling!", "Bedankt voor je bestelling.\nBestelnummer\tFN-771204\nRetourneren? Dat kan binnen 30 dagen.\n",
			"FN-771204 ordered "},
		// No order's label over the table: nothing.
		{"Order by Friday", "Your exclusive offer.\n\nProduct\tItem no.\tPrice\nFleece Jacket\t88120394\t$89.00\n", ""},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Shop", Address: "orders@shop.example.it"}}, Subject: c.subject, Text: c.text,
			Date: time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC)}
		got := ""
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if o := f.Order; o != nil {
				total := ""
				if o.Total != nil {
					total = o.Total.Amount + " " + o.Total.Currency
				}
				got = strings.Join([]string{o.Number, o.Status, total}, " ")
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
