package extract_test

import (
	"testing"
	"time"
)

// TestStayRangeUnderItsLabel: a stay's range label that ends its line
// ("Telefon: 05520-807-0 Reisezeitraum:", a document's two columns taken
// out as text) has its range on the next line with text. The German and
// the Spanish gave no stay before (the Dutch, its range's dashes inside
// its days, was read); the offer keeps giving none.
func TestStayRangeUnderItsLabel(t *testing.T) {
	type stay struct{ name, in, out, ref string }
	for _, c := range []struct {
		name, from, subject, body string
		want                      *stay
	}{
		{"de: Reisezeitraum after a phone's cell", "Landhaus Birkenhof <info@birkenhof.example.de>", "Buchungsbestätigung",
			"Hotel: Landhaus Birkenhof\nBuchungsnummer: 40921877\n\nTelefon: 05323-4410 Reisezeitraum:\n\nDonnerstag 11.11.2027 - Samstag 13.11.2027 2 Nächte\n",
			&stay{"Landhaus Birkenhof", "2027-11-11", "2027-11-13", "40921877"}},
		{"nl: Verblijfsperiode under an address", "Hotel De Linde <boeken@hoteldelinde.example.nl>", "Bevestiging van uw reservering",
			"Hotel: Hotel De Linde\nReserveringsnummer: LND-5520\n\nMarkt 4, 6211 CK Maastricht Verblijfsperiode:\n03-12-2027 - 05-12-2027\n",
			&stay{"Hotel De Linde", "2027-12-03", "2027-12-05", "LND-5520"}},
		{"es: Fechas de estancia at a line's end", "Hostal La Ribera <reservas@laribera.example.es>", "Confirmación de reserva",
			"Alojamiento: Hostal La Ribera\nLocalizador: RB-33812\n\nCalle del Río 5, Cuenca Fechas de estancia:\n\n14/01/2028 - 16/01/2028 (2 noches)\n",
			&stay{"Hostal La Ribera", "2028-01-14", "2028-01-16", "RB-33812"}},
		// Distractor: an offer's dates under the same label.
		{"de: an offer's Aufenthalt with a price and no booking", "Landhaus Birkenhof <angebote@birkenhof.example.de>", "Unser Novemberangebot",
			"Hotel: Landhaus Birkenhof\n\nTelefon: 05323-4410 Aufenthalt:\n\nDonnerstag 11.11.2027 - Samstag 13.11.2027 2 Nächte\n\nab 159 € pro Person. Jetzt buchen!\n",
			nil},
	} {
		facts := mailFacts(c.from, c.subject, c.body, time.Date(2027, 10, 1, 9, 0, 0, 0, time.UTC))
		if c.want == nil {
			if len(facts) != 0 {
				t.Errorf("%s: got %+v, want no fact", c.name, facts)
			}
			continue
		}
		if len(facts) != 1 || facts[0].Segment == nil || facts[0].Segment.CheckIn == nil || facts[0].Segment.CheckOut == nil {
			t.Errorf("%s: got %+v, want one stay", c.name, facts)
			continue
		}
		s := facts[0].Segment
		got := stay{s.Hotel, s.CheckIn.Format("2006-01-02"), s.CheckOut.Format("2006-01-02"), s.Reservation}
		if got != *c.want {
			t.Errorf("%s: stay = %+v, want %+v", c.name, got, *c.want)
		}
	}
}
