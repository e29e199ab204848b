package extract_test

import (
	"testing"
	"time"
)

// TestForwardedMarkedOrder: a shop's confirmation forwarded from Gmail,
// its labels in bold with spaces inside the marks and a bidi mark before
// its number, is read as the order it is (foreign-5's Amazon.pl and
// Google Play forwards gave nothing).
func TestForwardedMarkedOrder(t *testing.T) {
	text := "---------- Forwarded message ---------\nOd: Sklep Przykład <sklep@sklep-przyklad.example>\n" +
		"Date: pt., 3 wrz 2027 o 10:00\nSubject: Potwierdzenie\nTo: <ala@example.pl>\n\n" +
		"Dziękujemy za złożenie zamówienia!\n\n* Numer zamówienia: * \u202bSP-55120\nNr zamówienia \u202bSP-55120\nRazem: \u200f64,50 zł\n"
	got := ""
	for _, f := range mailFacts("Ala <ala@example.pl>", "Fwd: Potwierdzenie", text, time.Date(2027, 9, 3, 12, 0, 0, 0, time.UTC)) {
		if o := f.Order; o != nil && o.Total != nil {
			got = o.Number + " " + o.Status + " " + o.Total.Amount + " " + o.Total.Currency
		}
	}
	if want := "SP-55120 ordered 64.50 PLN"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
