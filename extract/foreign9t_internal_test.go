package extract

import "testing"

// TestUnglueClocks: a clock run into the year before it or the name after
// it is parted; a clock's half of the day, a longer number and other
// text are not.
func TestUnglueClocks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"jueves, 01 oct 202614:35 Alicante", "jueves, 01 oct 2026 14:35 Alicante"},
		{"17:08Madrid Chamartín", "17:08 Madrid Chamartín"},
		{"sabato, 14/11/202609:20Roma Termini", "sabato, 14/11/2026 09:20 Roma Termini"},
		{"10:30Île-Rousse", "10:30 Île-Rousse"},
		{"08:15AM departure", "08:15AM departure"},
		{"Ref 2026314:35", "Ref 2026314:35"}, // seven digits: no year and hour
		{"Code 202645:10", "Code 202645:10"}, // 45 is no hour
		{"x202614:35", "x202614:35"},         // a word's digits
		{"12:30 Uhr, 1:1000", "12:30 Uhr, 1:1000"},
		{"no clock here", "no clock here"},
	} {
		if got := unglueClocks(c.in); got != c.want {
			t.Errorf("unglueClocks(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDirectionHeading: a direction's heading in several languages, with
// or without its day, is one; a leg's line and a sentence are not.
func TestDirectionHeading(t *testing.T) {
	for _, c := range []struct {
		ln   string
		want bool
	}{
		{"ANDATA", true},
		{"VIAGGIO DI RITORNO", true},
		{"Viaje de vuelta", true},
		{"Hinfahrt am Sa, 20.12.2026", true},
		{"Outbound:", true},
		{"Terugreis", true},
		{"Aller Paris Gare de Lyon 07h04 - Lyon Part-Dieu 09h01", false},
		{"Please return the completed form to our office by Friday", false},
		{"Milano Centrale → Roma Termini", false},
		{"", false},
	} {
		if got := directionHeading(c.ln); got != c.want {
			t.Errorf("directionHeading(%q) = %v, want %v", c.ln, got, c.want)
		}
	}
}

// TestRailService: a service's name and number as operators and
// resellers print them; a plug, an avenue and a number run into the
// name are none.
func TestRailService(t *testing.T) {
	for _, c := range []struct{ ln, want string }{
		{"AVE - 05143 en clase Estándar", "AVE 05143"},
		{"Iryo 06221 en clase Inicial", "Iryo 06221"},
		{"TGV INOUI 6111", "TGV INOUI 6111"},
		{"Frecciarossa – 9531 in Standard", "Frecciarossa 9531"},
		{"NJ 425", "NJ 425"},
		{"RJ45 cable", ""},
		{"350 Park Ave 10022", ""},
		{"ICE1045", ""},
		{"Frecciarossa 1000 9521", ""}, // the model, then the number
	} {
		if got := railService(c.ln); got != c.want {
			t.Errorf("railService(%q) = %q, want %q", c.ln, got, c.want)
		}
	}
}
