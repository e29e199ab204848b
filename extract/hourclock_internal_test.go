package extract

import (
	"fmt"
	"testing"
)

// TestHClocks: the clocks written with a spaced h or the hour alone, as
// French, Canadian French, Portuguese and Spanish write them, and the
// durations written the same way, which are none (issue 46, xf9c).
// Every row with a clock gave none before, and "Duração: 1h20" one.
func TestHClocks(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // the clocks found, "15:04" each
	}{
		{"Départ : jeudi 22 octobre 2026 à 18 h 55", "[18:55]"},
		{"Le train part à 7 h 05 de la gare Centrale", "[07:05]"},
		{"Partida às 14h, chegada às 17h35", "[14:00 17:35]"},
		{"Arrivée : samedi 7 novembre 2026, à partir de 15 h", "[15:00]"},
		{"Salida a las 14.30 h desde Estación Sur", "[14:30]"},
		{"Le petit-déjeuner est servi de 7 h 30 à 10 h", "[07:30 10:00]"},
		{"14 h", "[14:00]"},
		// Durations, never clocks.
		{"Durée du trajet : 22 h 15", "[]"},
		{"Duração: 1h20", "[]"},
		{"escala de 1 h 30 en Lisboa", "[]"},
		{"Trajet en 2 h 30 min", "[]"},
		{"La Rochelle - Royan : durée 1 h 45", "[]"},
		// An hour alone after no word for "at" is no clock.
		{"Ligne 12 : 9 h de route", "[]"},
		{"Total 3 h", "[]"},
	} {
		var got []string
		for _, ck := range findClocks(c.in) {
			got = append(got, fmt.Sprintf("%02d:%02d", ck.h, ck.m))
		}
		if s := fmt.Sprint(got); s != c.want {
			t.Errorf("findClocks(%q) = %s, want %s", c.in, s, c.want)
		}
	}
}

// TestNetDays: a payment term's net day count, never a discount's.
func TestNetDays(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int // 0: none
	}{
		{"Zahlungsbedingungen: 2 % 10 Tage, 30 Tage netto", 30},
		{"Terms: 2/10 net 30", 30},
		{"Terms: 2% 10 days, net 30", 30},
		{"Conditions de paiement : 30 jours net", 30},
		{"Zahlbar innerhalb 14 Tagen ohne Abzug.", 14},
		{"Betalingsvoorwaarden: netto 30 dagen", 30},
		{"2 % Skonto innerhalb 10 Tagen", 0},
		{"Total net 30.00 EUR", 0},
		{"Net 30 €", 0},
		{"net 30\nnet 60", 0},
	} {
		got, _ := netDays(c.in)
		if got != c.want {
			t.Errorf("netDays(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}
