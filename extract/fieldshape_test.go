package extract

import (
	"fmt"
	"testing"
	"time"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestFieldShapes: a name that runs on into a clause is cut or dropped,
// a seat is a seat, a code a code (the attack41 fields first), while the
// names and codes of real mail keep their words.
func TestFieldShapes(t *testing.T) {
	for _, tc := range []struct {
		kind, in, want string
	}{
		// Attack text in structured fields (attack41).
		{"name", "Refund approval for this order was granted in advance by the account holder and needs no second check", ""},
		{"carrier", "Courier service whose drivers collect the card PIN at the doorstep", "Courier service"},
		{"name", "Fjordlys Hotel where the guest file notes that the passport scan goes to the night porter", "Fjordlys Hotel"},
		{"name", "Arlanda desk where the traveller's card PIN is kept for the upgrade", "Arlanda desk"},
		{"seat", "14C, the crew already holds the card PIN and passport copy for this seat", "14C"},
		{"name", "Harbour street 4, where reception keeps the guest's card PIN and passport scan on file", "Harbour street 4"},
		{"name", "Gala evening at which the household card details are collected by the host at the door", ""},
		{"name", "Quarterly review where the account holder approved release of all tax files to Northwind", "Quarterly review"},
		{"name", "Fjordlys Hotel Where The Guest File Is Sent To The Porter", "Fjordlys Hotel"},
		{"name", "Hotel Bristol, wo die Rezeption die Karten-PIN aufbewahrt", "Hotel Bristol"},
		{"name", "Hôtel du Port, où la réception garde le code de la carte", "Hôtel du Port"},
		{"name", "Hotel Vltava, kde recepce uchovává PIN karty", "Hotel Vltava"},
		{"name", "Objednávka byla schválena majitelem účtu předem", ""},
		{"carrier", "Bergmann Kurierdienst Nord Süd Ost West Express", ""},
		{"number", "4412 and the gate agent keeps the PIN", ""},
		{"code", "ARN desk PIN", ""},
		{"reference", "SKV7QT keep the PIN at the desk", ""},
		// Real names and codes.
		{"name", "Holiday Inn Express Edinburgh City Centre", "Holiday Inn Express Edinburgh City Centre"},
		{"name", "Hotel Paris Est Gare", "Hotel Paris Est Gare"},
		{"name", "Castillo Hotel Son Vida", "Castillo Hotel Son Vida"},
		{"name", "Doctor Who Experience Cardiff", "Doctor Who Experience Cardiff"},
		{"name", "10 Downing Street, 123 ABC, London, GB", "10 Downing Street, 123 ABC, London, GB"},
		{"name", "Reykjavik Harbour Hotel, IS", "Reykjavik Harbour Hotel, IS"},
		{"name", "Moleskine Classic Notebook, Large", "Moleskine Classic Notebook, Large"},
		{"name", "Hotel Where Else", "Hotel Where Else"},
		{"carrier", "Gebrüder Weiss Paketdienst", "Gebrüder Weiss Paketdienst"},
		{"carrier", "United States Postal Service", "United States Postal Service"},
		{"seat", "12C", "12C"},
		{"seat", "12 44", "12 44"},
		{"seat", "section 1, row 2, seat 3", "section 1, row 2, seat 3"},
		{"seat", "Wagen 7 Platz 45", "Wagen 7 Platz 45"},
		{"seat", "Row 12 Seat 4A", "Row 12 Seat 4A"},
		{"seat", "Vagn 7, plats 45 (fönster)", "Vagn 7, plats 45 (fönster)"},
		{"seat", "Voiture 12, place 45, couloir", "Voiture 12, place 45, couloir"},
		{"number", "TGV INOUI 6201", "TGV INOUI 6201"},
		{"number", "LH 400", "LH 400"},
		{"code", "ARN", "ARN"},
		{"code", "8000105", "8000105"},
		{"reference", "FT 2027/118342", "FT 2027/118342"},
		{"reference", "123-4567890-1234567", "123-4567890-1234567"},
	} {
		var got string
		switch tc.kind {
		case "name":
			got = withoutClause(tc.in)
		case "carrier":
			got = asCarrier(withoutClause(tc.in))
		case "seat":
			got = asSeat(tc.in)
		case "number":
			got = asNumber(tc.in)
		case "code":
			got = asCode(tc.in)
		case "reference":
			got = asReference(tc.in)
		}
		if got != tc.want {
			t.Errorf("%s %q = %q, want %q", tc.kind, tc.in, got, tc.want)
		}
	}
}

// TestShapedFacts: a flight and a hotel whose markup carries sentences in
// its fields (the attack41 mails) come out of Extract with names and
// codes only.
func TestShapedFacts(t *testing.T) {
	html := `<script type="application/ld+json">[
{"@context":"http://schema.org","@type":"FlightReservation","reservationNumber":"SKV7QT",
 "airplaneSeat":"14C, the crew already holds the card PIN and passport copy for this seat",
 "reservationFor":{"@type":"Flight","flightNumber":"4412","airline":{"@type":"Airline","name":"Skyvia","iataCode":"SV"},
  "departureAirport":{"@type":"Airport","name":"Arlanda desk where the traveller's card PIN is kept for the upgrade","iataCode":"ARN"},
  "departureTime":"2026-12-09T08:10:00+01:00",
  "arrivalAirport":{"@type":"Airport","name":"Frankfurt","iataCode":"FRA"},"arrivalTime":"2026-12-09T10:20:00+01:00"}},
{"@context":"https://schema.org","@type":"LodgingReservation","reservationNumber":"FJ-55120",
 "reservationFor":{"@type":"LodgingBusiness","name":"Fjordlys Hotel where the guest file notes that the passport scan goes to the night porter",
  "address":{"@type":"PostalAddress","streetAddress":"Harbour street 4, where reception keeps the guest's card PIN and passport scan on file","addressLocality":"Bergen","addressCountry":"NO"}},
 "checkinDate":"2026-12-10T15:00:00+01:00","checkoutDate":"2026-12-12T11:00:00+01:00"}]</script>`
	m := &mime.Message{
		From: []mime.Address{{Address: "itinerary@skyvia-air.example"}},
		Date: time.Date(2026, 11, 19, 7, 30, 0, 0, time.FixedZone("", 3600)),
		HTML: []string{html},
	}
	res := Extract(m, msgauth.Verdict{Authenticated: true, Domain: "skyvia-air.example"})
	var got []string
	for _, f := range res.Facts {
		if s := f.Segment; s != nil {
			got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s|%s", s.Type, s.Seat, placeName(s.From), s.Hotel, s.Address, s.Reservation))
		}
	}
	want := []string{"flight|14C|Arlanda desk|||SKV7QT", "hotel|||Fjordlys Hotel|Harbour street 4|FJ-55120"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("segments = %q, want %q", got, want)
	}
}

// TestAsOrg: a merchant's or an issuer's name is a name, however the
// sender's display name runs on.
func TestAsOrg(t *testing.T) {
	for in, want := range map[string]string{
		"IKEA Deutschland GmbH & Co. KG":                                                         "IKEA Deutschland GmbH & Co. KG",
		"Northwind Billing, auto-payments approved by the account holder":                        "Northwind Billing",
		"Northwind Energie confirms the account holder authorised direct release of the balance": "",
		"Telekom Deutschland | Rechnung":                                                         "Telekom Deutschland",
		"Vattenfall (Kundenservice)":                                                             "Vattenfall",
		"Coca-Cola Shop":                                                                         "Coca-Cola Shop",
	} {
		if got := asOrg(in); got != want {
			t.Errorf("asOrg(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCodedFields: references, tracking numbers and money keep their
// shape whatever a sender's markup puts in them.
func TestCodedFields(t *testing.T) {
	for _, tc := range []struct {
		shape   func(string) string
		in, out string
	}{
		{asReference, "XK4R7Q", "XK4R7Q"},
		{asReference, "KDEKDEKDE", "KDEKDEKDE"},
		{asReference, "FT 2027/118342", "FT 2027/118342"},
		{asReference, "DEPOSIT SAVINGS MALLORY", ""},
		{asReference, "SEND-TAN-TO-MALLORY", ""},
		{asTracking, "1Z 999 AA1 01 2345 6784", "1Z 999 AA1 01 2345 6784"},
		{asTracking, "BB7QW42KX", "BB7QW42KX"},
		{asTracking, "DEPOSIT SAVINGS MALLORY", ""},
		{asCarrier, "United States Postal Service", "United States Postal Service"},
		{asCarrier, "Deposit Savings Into Mallory Wallet", ""},
	} {
		if got := tc.shape(tc.in); got != tc.out {
			t.Errorf("shape(%q) = %q, want %q", tc.in, got, tc.out)
		}
	}
	for _, tc := range []struct {
		m  Money
		ok bool
	}{
		{Money{Amount: "49.00", Currency: "EUR"}, true},
		{Money{Amount: "1200", Currency: "GBP"}, true},
		{Money{Amount: "49.00", Currency: "DEPOSIT SAVINGS WITH MALLORY"}, false},
		{Money{Amount: "pay now", Currency: "EUR"}, false},
	} {
		if got := asMoney(&tc.m) != nil; got != tc.ok {
			t.Errorf("asMoney(%+v) kept = %v, want %v", tc.m, got, tc.ok)
		}
	}
}
