package extract_test

import (
	"testing"
	"time"
)

// TestDollarSignPesos: "$" is the sign of several pesos as well as of
// dollars. A sender's country, by its domain's last label or, under a
// generic one, by a country's label first in its host name
// ("co.rides.example.com"), or a code against the sign ("COP$", "RD$"),
// says which; the figure's dot is then a thousands' separator, as those
// countries write it.
func TestDollarSignPesos(t *testing.T) {
	sent := time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text, want string
	}{
		{"a Colombian host under .com", "Rueda <recibos@co.rueda.example.com>",
			"Gracias por viajar con Rueda\n12/02/2027\nTarifa base $10.300\nRecargo $2.500\nTotal $12.800\n", " | 12800 COP | paid | "},
		{"a Chilean sender", "Rueda <recibos@rueda.example.cl>",
			"Gracias por viajar con Rueda\n12/02/2027\nTarifa base $4.300\nPeaje $1.100\nTotal $5.400\n", " | 5400 CLP | paid | "},
		{"the code against the sign", "Rueda <recibos@rueda.example>",
			"Gracias por viajar con Rueda\n12/02/2027\nTarifa base COP$ 10.300\nRecargo COP$ 2.500\nTotal COP$ 12.800\n", " | 12800 COP | paid | "},
		{"a US host's dollars stay dollars", "Rueda <receipts@us.rueda.example.com>",
			"Thanks for riding with Rueda\n02/12/2027\nBase fare $10.30\nBooking fee $2.50\nTotal $12.80\n", " | 12.80 USD | paid | "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := oneBill(t, mailFacts(tt.from, "Tu viaje / your ride", tt.text, sent))
			if got := billLine(b); got != tt.want {
				t.Errorf("bill %q, want %q", got, tt.want)
			}
		})
	}
}
