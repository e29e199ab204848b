package extract_test

import (
	"testing"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestBusOperatorMail: a coach operator's ticket that says only
// "Origen", "Destino", "Asiento" is a coach's (busoperators.txt), and
// Mexico's cities take their own zones (the airport table's "Ciudad de
// Cancún"), not Venezuela's Mérida's. A train operator's mail stays a
// train's.
func TestBusOperatorMail(t *testing.T) {
	body := "Gracias por tu compra.\n\nFolio de compra: 884120\n\nOrigen: Cancún Centro\nDestino: Mérida Centro Histórico\n" +
		"Fecha de salida: 12/12/2026\nHora de salida: 08:30\nHora de llegada: 12:45\nAsiento: 23\nTotal: $ 1,120.00 MXN\n"
	for _, c := range []struct {
		from, kind, dz, az string
	}{
		{"ADO <boletos@ado.com.mx>", extract.KindBus, "America/Cancun", "America/Merida"},
		{"Tren Maya <boletos@trenmaya.gob.mx>", extract.KindTrain, "America/Cancun", "America/Merida"},
	} {
		raw := "From: " + c.from + "\r\nTo: ana@example.com\r\nSubject: Confirmación de compra\r\n" +
			"Date: Tue, 10 Nov 2026 09:00:00 -0600\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
		r := extract.Extract(mime.Parse([]byte(raw)), msgauth.Verdict{})
		if len(r.Facts) != 1 || r.Facts[0].Segment == nil {
			t.Fatalf("%s: %d facts, want one leg", c.from, len(r.Facts))
		}
		s := r.Facts[0].Segment
		if s.Type != c.kind || s.Depart == nil || s.Arrive == nil || s.Depart.Zone != c.dz || s.Arrive.Zone != c.az {
			t.Errorf("%s: a %s leg departing %+v arriving %+v, want a %s leg in %s and %s", c.from, s.Type, s.Depart, s.Arrive, c.kind, c.dz, c.az)
		}
	}
}
