package eval

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mailnode/extract"
	"mailnode/extract/uic918"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
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

// TestBoundTrains: a ticket's further trains of its route, as KItinerary
// gives them, keep what the ticket states of them and not the route's
// stations; a return, a leg of another route and the first train keep
// theirs.
func TestBoundTrains(t *testing.T) {
	tr := func(number, from, to string) Entity {
		return Entity{Kind: extract.KindTrain, Mail: "m", Fields: map[string]string{"number": number, "from": from, "to": to,
			"reservation": "R4YNMU9E", "depart": "2022-10-30T17:35", "status": "confirmed"}}
	}
	es := boundTrains([]Entity{tr("ICE803", "Flensburg", "Rosenheim"), tr("ICE1109", "Flensburg", "Rosenheim"),
		tr("ICE786", "Rosenheim", "Flensburg"), tr("RE 4100", "Koblenz Hbf", "Trier Hbf"), tr("ICE803", "Flensburg", "Rosenheim")})
	var got []string
	for _, e := range es {
		got = append(got, e.Fields["number"]+":"+e.Fields["from"]+">"+e.Fields["to"]+":"+e.Fields["reservation"])
	}
	want := []string{"ICE803:Flensburg>Rosenheim:R4YNMU9E", "ICE1109:>:R4YNMU9E", "ICE786:Rosenheim>Flensburg:R4YNMU9E",
		"RE 4100:Koblenz Hbf>Trier Hbf:R4YNMU9E", "ICE803:Flensburg>Rosenheim:R4YNMU9E"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %s, want %s", i, got[i], want[i])
		}
	}
}

// TestSchemaBusNamed: a train leg whose printed name is a bus's (a rail
// replacement bus KItinerary types a train) is scored as a bus; a train
// whose name only holds the letters is not.
func TestSchemaBusNamed(t *testing.T) {
	es := SchemaEntities("m", []byte(`[
	 {"@type":"TrainReservation","reservationFor":{"@type":"TrainTrip","trainNumber":"Bus 501262","departureStation":{"name":"Hradec Králové hl.n."},"arrivalStation":{"name":"Jaroměř"}}},
	 {"@type":"TrainReservation","reservationFor":{"@type":"TrainTrip","trainName":"Autobus","trainNumber":"7"}},
	 {"@type":"TrainReservation","reservationFor":{"@type":"TrainTrip","trainNumber":"R 1262"}},
	 {"@type":"TrainReservation","reservationFor":{"@type":"TrainTrip","trainNumber":"Busan Express 12"}}]`))
	var got []string
	for _, e := range es {
		got = append(got, e.Kind+":"+e.Fields["number"])
	}
	want := []string{"bus:Bus 501262", "bus:Autobus 7", "train:R 1262", "train:Busan Express 12"}
	if !slices.Equal(got, want) {
		t.Errorf("SchemaEntities kinds = %v, want %v", got, want)
	}
}

// TestLabelCorrections: every correction of KItinerary's expected output
// finds its wrong value in the corpus's output and the labels carry the
// right one (or none), so that a newer corpus whose output was mended is
// noticed (the correction then does nothing and can go); the travel
// part's imported labels carry it too, for an input it imports.
func TestLabelCorrections(t *testing.T) {
	p, err := LoadPublic("testdata/public/kitinerary")
	if err != nil {
		t.Fatal(err)
	}
	has := func(es []Entity, c labelCorrection, value string) bool {
		return slices.ContainsFunc(es, func(e Entity) bool {
			v, ok := e.Fields[c.field]
			return strings.HasSuffix(e.Mail, c.mail) && e.Kind == c.kind && e.Fields["number"] == c.number && (v == value && (ok || value == ""))
		})
	}
	for _, c := range labelCorrections {
		imported := slices.ContainsFunc(p.Mails, func(m Mail) bool { return strings.HasSuffix(m.Name, c.mail) })
		if imported && !has(p.Expected, c, c.is) {
			t.Errorf("%+v: not in the imported labels", c)
		}
		raw, err := os.ReadFile(filepath.Join("../../../shared/corpus/kitinerary", c.expected))
		if err != nil {
			continue // the corpus is beside the checkout only on a developer's machine
		}
		before := conformanceEntities("kitinerary_"+c.mail, raw)
		if !has(before, c, c.was) {
			t.Errorf("%+v: KItinerary's output no longer holds %q", c, c.was)
		}
		if after := ConformanceEntities("kitinerary_"+c.mail, raw); !has(after, c, c.is) || has(after, c, c.was) {
			t.Errorf("%+v: the labels do not carry %q", c, c.is)
		}
	}
}

// TestRCT2Container: a bare layout is wrapped as a railway's ticket holds
// it, with a U_HEAD that states the day KItinerary reads its layouts
// against as the issue, and the layout's yearless reservation day (DSB's
// "08.12", read on 19 December 2018) falls on or after it: 2019.
func TestRCT2Container(t *testing.T) {
	rec, err := os.ReadFile(filepath.Join("..", "uic918", "testdata", "res-dsb-invalid-unicode-encoding.rct2"))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := uicContainer(rec)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := uic918.Parse(payload)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := tk.Issued(); !ok || d != (uic918.Date{Year: 2018, Month: 12, Day: 19}) {
		t.Errorf("issued %v %v, want 19 December 2018", d, ok)
	}
	if _, ok := tk.Record("U_TLAY"); !ok {
		t.Error("no U_TLAY record")
	}
	var b bytes.Buffer
	img, err := aztecPNG(payload)
	if err != nil {
		t.Fatal(err)
	}
	raw := attachment(&b, "Tickets <tickets@example.com>", rct2Date, "Your ticket is attached.", "ticket.png", "image/png", img)
	msg := mime.Parse(raw)
	var departs []string
	for _, e := range ConformanceSegments("m", extract.Extract(msg, msgauth.Verdict{}).Facts) {
		departs = append(departs, e.Fields["depart"])
	}
	if len(departs) != 1 || !strings.HasPrefix(departs[0], "2019-12-08T17:22") {
		t.Errorf("departures %q, want 8 December 2019 17:22", departs)
	}
}
