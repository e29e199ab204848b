package eval

import (
	"os"
	"testing"

	"mailnode/extract"
)

// TestHeadlineList: the headline's inputs are read from its README's
// table, and none of them is taken by the conformance check.
func TestHeadlineList(t *testing.T) {
	readme, err := os.ReadFile("testdata/public-headline/README.md")
	if err != nil {
		t.Fatal(err)
	}
	list := HeadlineList(readme)
	if len(list) == 0 {
		t.Fatal("HeadlineList: no input")
	}
	for p := range list {
		if !HeadlinePath(p) {
			t.Errorf("%s listed in the headline, but HeadlinePath says no", p)
		}
	}
	const corpus = "../../../shared/corpus"
	if _, err := os.Stat(corpus + "/kitinerary"); err != nil {
		t.Skip("no corpus beside the checkout")
	}
	us, err := ImportConformance(corpus, list)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range us {
		if list[u.Path] {
			t.Errorf("%s is the headline's", u.Path)
		}
	}
}

// TestConformanceEntities: KItinerary's shapes the check reads beyond
// SchemaEntities: a type as a list, a flight's day, a status, a
// cancellation that names only its booking.
func TestConformanceEntities(t *testing.T) {
	es := ConformanceEntities("m", []byte(`[
	 {"@type":["FlightReservation","Reservation"],"reservationNumber":"AB12","reservationFor":[
	   {"@type":"Flight","flightNumber":"8724","airline":{"iataCode":"EZY"},"departureAirport":{"iataCode":"MRS"},"arrivalAirport":{"iataCode":"LGW"},"departureDay":"2018-04-09"}]},
	 {"@type":"FlightReservation","reservationNumber":"RXJ34P","reservationStatus":"http://schema.org/Cancelled"}]`))
	if len(es) != 2 {
		t.Fatalf("ConformanceEntities = %d entities, want 2: %+v", len(es), es)
	}
	if f := es[0].Fields; f["day"] != "2018-04-09" || f["number"] != "EZY8724" || f["status"] != "confirmed" {
		t.Errorf("flight = %v", f)
	}
	if e := es[1]; e.Kind != extract.KindFlight || e.Fields["reservation"] != "RXJ34P" || e.Fields["status"] != "cancelled" {
		t.Errorf("cancellation = %+v", e)
	}
}
