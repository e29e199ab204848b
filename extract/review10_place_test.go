package extract_test

import (
	"testing"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// ATTACK (the tenth outside review, LOW-11): a Madrid shuttle to
// "Santiago", as Spanish mail names Santiago de Compostela, was placed in
// Chile (SCL): a wrong country, a wrong zone and an arrival twelve hours
// off. SAFE: a city's name that is also the short form of another
// country's large airport's city names neither alone; the other end of the
// route chooses where a reader can ask it, else no airport is given.
func TestReview10ShortCityNameNotAnotherCountry(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"arrow", "Código de reserva: J7K2LM\n\nVuelo IB 532 - jueves 3 de diciembre de 2026\nMadrid 07:10 → Santiago 08:25\n", ""},
		{"labelled", "Booking reference: J7K2LM\n\nFlight IB532, Thursday 3 December 2026\nDeparture: Madrid 07:10\nArrival: Santiago 08:25\n", "SCQ"},
		{"whole name", "Booking reference: J7K2LM\n\nFlight IB532, Thursday 3 December 2026\nDeparture: Madrid 07:10\nArrival: Santiago de Compostela 08:25\n", "SCQ"},
	} {
		raw := "From: Iberia <confirmacion@iberia.com>\r\nTo: alex@example.com\r\nSubject: Reserva J7K2LM\r\n" +
			"Date: Tue, 10 Nov 2026 09:00:00 +0100\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + c.body
		r := extract.Extract(mime.Parse([]byte(raw)), msgauth.Verdict{})
		for _, f := range r.Facts {
			if s := f.Segment; s != nil && s.To != nil {
				if s.To.Code == "SCL" || (c.want != "" && s.To.Code != c.want) {
					t.Errorf("%s: a Madrid shuttle lands at %q, want %q", c.name, s.To.Code, c.want)
				}
				c.want = ""
			}
		}
		if c.want != "" {
			t.Errorf("%s: no leg read, want one to %s", c.name, c.want)
		}
	}
}
