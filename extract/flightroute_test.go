package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestRouteByCityNames: a flight's route told by its cities' names in a
// sentence after its number ("from X to Y", "de X à Y", "da X a Y"), its
// day and clock on the line under it, is read when each city has one main
// airport; a city of several airports, or a day's words taken for a
// place ("a las"), gives none.
func TestRouteByCityNames(t *testing.T) {
	type leg struct{ num, from, to, dep string }
	for _, tt := range []struct {
		name, body string
		want       []leg
	}{
		{"en", "Booking reference: K8VPZ3\nFlight LS 871 from Leeds to Alicante\nThu 10 Jun 2027 at 07:05\n",
			[]leg{{"LS 871", "LBA", "ALC", "2027-06-10T07:05:00+01:00"}}},
		{"fr, a word for \"to\" of one letter", "Code de réservation : K8VPZ3\nVol V7 1402 de Nantes à Bastia\njeudi 10 juin 2027 à 11:20\n",
			[]leg{{"V7 1402", "NTE", "BIA", "2027-06-10T11:20:00+02:00"}}},
		{"es, \"a las\" is no place", "Código de reserva: K8VPZ3\nVuelo VY 3011 de Alicante a Ibiza\njueves, 10 de junio de 2027 a las 16:45\nPasajero: SR. PABLO RUIZ\n",
			[]leg{{"VY 3011", "ALC", "IBZ", "2027-06-10T16:45:00+02:00"}}},
		{"a city whose name two airports of one size share gives none", "Código de reserva: K8VPZ3\nVuelo VY 3011 de Valencia a Ibiza\njueves, 10 de junio de 2027 a las 16:45\n",
			nil},
		{"a city of several airports gives none", "Booking reference: K8VPZ3\nFlight BA 2490 from London to Paris\nThu 10 Jun 2027 at 07:05\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts("Airline <booking@airline.example>", "Your booking", tt.body, time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)) {
				if s := f.Segment; f.Kind == extract.KindFlight && s != nil && s.Depart != nil {
					from, to := "", ""
					if s.From != nil {
						from = s.From.Code
					}
					if s.To != nil {
						to = s.To.Code
					}
					got = append(got, leg{s.Number, from, to, s.Depart.Format(time.RFC3339)})
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("legs = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("leg %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}
