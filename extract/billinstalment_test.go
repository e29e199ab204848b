package extract_test

import (
	"testing"
	"time"
)

// TestInstalmentReminderIsBill: a payment plan's reminder of its next
// part names the order it pays for, and is a bill due, not that order
// (the seventh outside set's marketplace reminder gave eight wrong order
// fields and no bill). An advert's "4 instalments of …" and an order's
// own confirmation that it is paid in parts stay what they were.
func TestInstalmentReminderIsBill(t *testing.T) {
	for _, c := range []struct {
		from, subject, text, want string
	}{
		{"Splitwell Pay <reminders@splitwell.example>", "Reminder: your next instalment is due soon",
			"Hi Owen,\n\nYour next instalment of £45.00 for your Northgate Home order 114-5520318-7741209 is due on 2 November 2026.\n\nInstalment 3 of 4\nAmount: £45.00\nDue date: 2 November 2026\n\nOrder total: £180.00\n",
			"bill due 45.00 GBP 2026-11-02"},
		{"Ratenfux <service@ratenfux.example>", "Deine nächste Rate ist bald fällig",
			"Hallo Miriam,\n\ndeine nächste Rate von 37,50 € für deine Bestellung 028-4471902-5513 bei Möbelwerk ist am 05.11.2026 fällig.\n\nBetrag: 37,50 €\nFällig am: 05.11.2026\nBestellnummer: 028-4471902-5513\n",
			"bill due 37.50 EUR 2026-11-05"},
		{"Payplan <rappels@payplan.example>", "Votre prochaine mensualité",
			"Bonjour,\n\nVotre prochaine mensualité de 62,00 € pour la commande CM-77120 sera prélevée le 10/11/2026.\n\nMontant : 62,00 €\nDate d'échéance : 10/11/2026\nCommande : CM-77120\n",
			"bill due 62.00 EUR 2026-11-10"},
		// An advert's figures, an order placed.
		{"Northgate Home <news@northgatehome.example>", "Spread the cost: pay in 4 instalments",
			"Hi Owen,\n\nPay in 4 interest-free instalments. A £180.00 throw set? That's 4 instalments of £45.00, the first due at checkout.\n", ""},
		{"Northgate Home <orders@northgatehome.example>", "Thank you for your order",
			"Hi Owen,\n\nOrder number: NH-55120\nOrder total: £180.00\nYou chose to pay in 4 instalments with Splitwell Pay.\n",
			"order NH-55120 ordered"},
	} {
		var got []string
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 10, 26, 9, 0, 0, 0, time.UTC)) {
			switch {
			case f.Bill != nil:
				s := "bill " + f.Bill.Status
				if f.Bill.Amount != nil {
					s += " " + f.Bill.Amount.Amount + " " + f.Bill.Amount.Currency
				}
				if f.Bill.Due != nil {
					s += " " + f.Bill.Due.Format("2006-01-02")
				}
				got = append(got, s)
			case f.Order != nil:
				got = append(got, "order "+f.Order.Number+" "+f.Order.Status)
			}
		}
		want := []string{}
		if c.want != "" {
			want = []string{c.want}
		}
		if len(got) != len(want) || len(got) > 0 && got[0] != want[0] {
			t.Errorf("%s: got %q, want %q", c.subject, got, want)
		}
	}
}
