package fcb

import (
	"bytes"
	"fmt"
	"math/bits"
	"strings"
	"testing"
)

// writer is the encoder's side of reader, for tests: it writes what the
// reader reads, with no extension additions, so that a value built here
// (a reservation, which no corpus ticket holds) reads back through
// Decode, and a corpus record read and written again gives its bytes.
type writer struct {
	b []byte
	n int // bits written
}

func (w *writer) bits(v uint64, n int) {
	for i := n - 1; i >= 0; i-- {
		if w.n%8 == 0 {
			w.b = append(w.b, 0)
		}
		if v>>uint(i)&1 == 1 {
			w.b[w.n/8] |= 0x80 >> uint(w.n%8)
		}
		w.n++
	}
}

func (w *writer) length(n int) {
	if n < 128 {
		w.bits(uint64(n), 8)
		return
	}
	w.bits(0x8000|uint64(n), 16)
}

func (w *writer) value(t *typ, v any) error {
	switch t.kind {
	case kSeq:
		s := v.(seq)
		if t.ext {
			w.bits(0, 1)
		}
		for _, f := range t.fields {
			if f.opt {
				_, ok := s[f.name]
				w.bits(b2u(ok), 1)
			}
		}
		for _, f := range t.fields {
			fv, ok := s[f.name]
			if !ok {
				if !f.opt {
					return fmt.Errorf("%s missing", f.name)
				}
				continue
			}
			if err := w.value(f.t, fv); err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
		}
	case kChoice:
		a := v.(alt)
		if t.ext {
			w.bits(0, 1)
		}
		for i, f := range t.fields {
			if f.name == a.name {
				w.bits(uint64(i), width(uint64(len(t.fields))))
				return w.value(f.t, a.v)
			}
		}
		return fmt.Errorf("no alternative %q", a.name)
	case kInt:
		n := v.(int64)
		if t.bounded {
			w.bits(uint64(n-t.lo), width(uint64(t.hi-t.lo+1)))
			return nil
		}
		k := 1
		for k < 8 && (n < -(1<<(8*k-1)) || n >= 1<<(8*k-1)) {
			k++
		}
		w.length(k)
		w.bits(uint64(n)&(1<<(8*uint(k))-1), 8*k)
	case kBool:
		w.bits(b2u(v.(bool)), 1)
	case kEnum:
		if t.ext {
			w.bits(0, 1)
		}
		w.bits(uint64(v.(int)), width(uint64(t.n)))
	case kIA5:
		s := v.(string)
		if t.bounded {
			w.bits(uint64(int64(len(s))-t.lo), width(uint64(t.hi-t.lo+1)))
		} else {
			w.length(len(s))
		}
		for i := 0; i < len(s); i++ {
			w.bits(uint64(s[i]), 7)
		}
	case kUTF8:
		s := v.(string)
		w.length(len(s))
		for i := 0; i < len(s); i++ {
			w.bits(uint64(s[i]), 8)
		}
	case kOctets:
		b := v.([]byte)
		w.length(len(b))
		for _, c := range b {
			w.bits(uint64(c), 8)
		}
	case kSeqOf:
		items := v.([]any)
		w.length(len(items))
		for _, it := range items {
			if err := w.value(t.elem, it); err != nil {
				return err
			}
		}
	}
	return nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// encode writes a version 1.3 UicRailTicketData.
func encode(t testing.TB, v seq) []byte { return encodeAs(t, v13, v) }

func encodeAs(t testing.TB, schema *typ, v seq) []byte {
	w := &writer{}
	if err := w.value(schema, v); err != nil {
		t.Fatal(err)
	}
	return w.b
}

// TestWidth: X.691's bit-field widths of a few ranges the schema uses.
func TestWidth(t *testing.T) {
	for n, want := range map[uint64]int{1: 0, 2: 1, 3: 2, 8: 3, 12: 4, 372: 9, 1441: 11, 9999999: 24} {
		if got := width(n); got != want || n > 1 && want != bits.Len64(n-1) {
			t.Errorf("width(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestRoundTrip: each corpus record, read and written again, is its own
// bytes: every component was read at its place and with its width.
func TestRoundTrip(t *testing.T) {
	for name, schema := range map[string]*typ{
		"20220421-Muster-918-9-CityTicket.bin":                             v13,
		"20221030-Muster-918-9-FV_SuperSparpreisSenior_InklRueckfahrt.bin": v13,
		"20221104-Muster-918-9-FV_SuperSparpreis_3Erw_InklRueckfahrt.bin":  v13,
		"20240118-Muster-918-9-BahnCard-25.bin":                            v13,
		"20230501-Deutschlandticket-FCB-TLB-RCT2-v1.01.bin":                v13,
		"uic-sparpreis-ticket.bin":                                         v13,
		"20250227-Muster-918-9-Deutschland-Ticket.bin":                     v30,
		"20250227-Muster-918-9-Deutschland-Jobticket.bin":                  v30,
	} {
		data := flexData(t, name)
		r := &reader{b: data}
		v, err := r.sequence(schema, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := encodeAs(t, schema, v); !bytes.Equal(got, data) {
			t.Errorf("%s: written again differs\n got %x\nwant %x", name, got, data)
		}
	}
}

// reservationTicket is a reservation as an issuer's sale writes it: a
// train, its day counted from the issuing day, stations, clocks.
func reservationTicket() seq {
	return seq{
		"issuingDetail": seq{"securityProviderNum": int64(1181), "issuingYear": int64(2027), "issuingDay": int64(60),
			"issuingTime": int64(600), "specimen": false, "securePaperTicket": false, "activated": true, "issuerPNR": "K7PLM2"},
		"transportDocument": []any{seq{"ticket": alt{name: "reservation", v: seq{
			"trainIA5": "RJX 662", "departureDate": int64(30), "referenceIA5": "4711 0815",
			"fromStationNum": int64(8101003), "toStationNum": int64(8100002),
			"fromStationNameUTF8": "Wien Hbf", "toStationNameUTF8": "Salzburg Hbf",
			"departureTime": int64(8*60 + 30), "departureUTCOffset": int64(-4), "arrivalTime": int64(10*60 + 52),
			"classCode": 1, "places": seq{"coach": "23", "placeString": "45"},
			"tariff": []any{seq{"numberOfPassengers": int64(1), "restrictedToCountryOfResidence": false, "tariffDesc": "Sitzplatzreservierung"}},
			"price":  int64(300)}}}},
	}
}

// TestReservation: a reservation reads as its train on its day, in
// every version (2.0's and 3.0's travel class is four bits, 3.0's
// issuing time mandatory).
func TestReservation(t *testing.T) {
	for version, schema := range map[string]*typ{"13": v13, "02": v20, "03": v30} {
		tk, err := Decode(version, encodeAs(t, schema, reservationTicket()))
		if err != nil {
			t.Fatal(version, err)
		}
		checkReservation(t, tk)
	}
	// A 3.0 record read as 1.3 (or the reverse) is not taken for it.
	if tk, err := Decode("13", encodeAs(t, v30, reservationTicket())); err == nil && len(tk.Legs) > 0 && tk.Legs[0].Train == "RJX 662" {
		t.Errorf("3.0 read as 1.3: %+v", tk.Legs)
	}
}

func checkReservation(t *testing.T, tk *Ticket) {
	got := fmt.Sprintf("%s %s", tk.PNR, tk.Issued.Format("2006-01-02 15:04"))
	for _, l := range tk.Legs {
		got += fmt.Sprintf("; %s>%s %s %02d:%02d-%s %02d:%02d %s", l.From, l.To, l.Day.Format("2006-01-02"), l.Clock/60, l.Clock%60,
			l.ArriveDay.Format("2006-01-02"), l.ArriveClock/60, l.ArriveClock%60, l.Train)
	}
	if want := "K7PLM2 2027-03-01 10:00; Wien Hbf>Salzburg Hbf 2027-03-31 08:30-2027-03-31 10:52 RJX 662"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestOpenTicketRules: which train link, if any, places an open ticket.
func TestOpenTicketRules(t *testing.T) {
	link := func(train string, day, clock int64, from string) alt {
		l := seq{"trainIA5": train, "travelDate": day, "departureTime": clock}
		if from != "" {
			l["fromStationNameUTF8"] = from
		}
		return alt{name: "trainLink", v: l}
	}
	zone := alt{name: "zones", v: seq{"zoneId": []any{int64(100)}}}
	for _, tc := range []struct {
		name    string
		regions []any
		ret     seq
		want    string
	}{
		{"no train: the first valid day", nil, nil, "Lyon Part-Dieu>Marseille St-Charles 2027-05-12"},
		{"one train", []any{link("TGV 6111", 3, 7*60+4, "")}, nil, "Lyon Part-Dieu>Marseille St-Charles 2027-05-13 07:04 TGV 6111"},
		{"two trains", []any{link("TER 1", 3, 400, ""), link("TGV 2", 3, 500, "")}, nil,
			"Lyon Part-Dieu>Marseille St-Charles 2027-05-13 06:40 TER 1; (Lyon Part-Dieu>Marseille St-Charles) 2027-05-13 08:20 TGV 2"},
		{"a further train the next day", []any{link("ICN 1", 3, 23*60, ""), link("IR 2", 4, 30, "")}, nil,
			"Lyon Part-Dieu>Marseille St-Charles 2027-05-13 23:00 ICN 1; (Lyon Part-Dieu>Marseille St-Charles) 2027-05-14 00:30 IR 2"},
		{"a further link before the first: not a later train", []any{link("TER 1", 3, 400, ""), link("TGV 2", 3, 300, "")}, nil,
			"Lyon Part-Dieu>Marseille St-Charles 2027-05-13 06:40 TER 1"},
		{"a further link naming a station ends them", []any{link("TER 1", 3, 400, ""), link("TGV 2", 3, 500, "Valence TGV"), link("TGV 3", 3, 600, "")}, nil,
			"Lyon Part-Dieu>Marseille St-Charles 2027-05-13 06:40 TER 1"},
		{"a zone after the first ends them", []any{link("TER 1", 3, 400, ""), zone, link("TGV 3", 3, 600, "")}, nil,
			"Lyon Part-Dieu>Marseille St-Charles 2027-05-13 06:40 TER 1"},
		{"a zone first: no train", []any{zone, link("TGV 2", 3, 500, "")}, nil, "Lyon Part-Dieu>Marseille St-Charles 2027-05-12"},
		{"a link from another station", []any{link("TGV 2", 3, 500, "Valence TGV")}, nil, "Lyon Part-Dieu>Marseille St-Charles 2027-05-12"},
		{"a return bound to a train", nil, seq{"validReturnRegion": []any{link("TGV 6180", 6, 18*60, "")}},
			"Lyon Part-Dieu>Marseille St-Charles 2027-05-12; Marseille St-Charles>Lyon Part-Dieu 2027-05-16 18:00 TGV 6180"},
		{"a return bound to two trains", nil, seq{"validReturnRegion": []any{link("TGV 6180", 6, 18*60, ""), link("TER 9", 6, 20*60, "")}},
			"Lyon Part-Dieu>Marseille St-Charles 2027-05-12; Marseille St-Charles>Lyon Part-Dieu 2027-05-16 18:00 TGV 6180; " +
				"(Marseille St-Charles>Lyon Part-Dieu) 2027-05-16 20:00 TER 9"},
		{"a return bound to none: no day, no leg", nil, seq{"fromStationNameUTF8": "Marseille St-Charles"}, "Lyon Part-Dieu>Marseille St-Charles 2027-05-12"},
		{"a season ticket: no trip on its first day", nil, nil, ""},
		{"a season ticket bound to a train", []any{link("TGV 6111", 3, 7*60+4, "")}, nil, "Lyon Part-Dieu>Marseille St-Charles 2027-05-13 07:04 TGV 6111"},
	} {
		o := seq{"referenceIA5": "ABC", "returnIncluded": tc.ret != nil, "fromStationNameUTF8": "Lyon Part-Dieu",
			"toStationNameUTF8": "Marseille St-Charles", "validFromDay": int64(2), "validUntilDay": int64(1)}
		if tc.regions != nil {
			o["validRegion"] = tc.regions
		}
		if strings.HasPrefix(tc.name, "a season ticket") {
			o["validUntilDay"] = int64(30)
		}
		if tc.ret != nil {
			o["returnDescription"] = tc.ret
		}
		v := seq{"issuingDetail": seq{"issuingYear": int64(2027), "issuingDay": int64(130), "specimen": false,
			"securePaperTicket": false, "activated": true},
			"transportDocument": []any{seq{"ticket": alt{name: "openTicket", v: o}}}}
		tk, err := Decode("13", encode(t, v))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var legs []string
		for _, l := range tk.Legs {
			s := fmt.Sprintf("%s>%s %s", l.From, l.To, l.Day.Format("2006-01-02"))
			if l.Further {
				s = fmt.Sprintf("(%s>%s) %s", l.From, l.To, l.Day.Format("2006-01-02"))
			}
			if l.Clock >= 0 {
				s += fmt.Sprintf(" %02d:%02d %s", l.Clock/60, l.Clock%60, l.Train)
			}
			legs = append(legs, s)
		}
		if got := strings.Join(legs, "; "); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// openTicket20 is an open ticket as an issuer of version 2.0 writes it,
// with the components 2.0 changed: a product id above 1.3's 32000, a
// travel class of 2.0's twelve (standardFirst), transport types, a
// tariff's traveler counted from 1 and a traveler's birth month and day.
func openTicket20() seq {
	return seq{
		"issuingDetail": seq{"securityProviderNum": int64(1084), "issuingYear": int64(2027), "issuingDay": int64(200),
			"issuingTime": int64(14*60 + 5), "specimen": false, "securePaperTicket": false, "activated": true, "issuerPNR": "NX4Q7T"},
		"travelerDetail": seq{"traveler": []any{seq{"firstName": "Sanne", "lastName": "Visser", "yearOfBirth": int64(1991),
			"monthOfBirth": int64(4), "dayOfBirthInMonth": int64(17), "ticketHolder": true}}},
		"transportDocument": []any{seq{"ticket": alt{name: "openTicket", v: seq{
			"referenceIA5": "2207-5531", "productOwnerNum": int64(1084), "productIdNum": int64(40123),
			"returnIncluded": false, "fromStationNum": int64(8400058), "toStationNum": int64(8800105),
			"fromStationNameUTF8": "Amsterdam Centraal", "toStationNameUTF8": "Bruxelles-Midi",
			"validRegion":  []any{alt{name: "trainLink", v: seq{"trainIA5": "EST 9316", "travelDate": int64(3), "departureTime": int64(7*60 + 16)}}},
			"validFromDay": int64(3), "validUntilDay": int64(0), "classCode": 9,
			"tariffs": []any{seq{"numberOfPassengers": int64(1), "travelerid": []any{int64(1)}, "restrictedToCountryOfResidence": false,
				"tariffDesc": "Standard"}},
			"includedTransportType": []any{int64(1)}}}}},
	}
}

// TestVersion20: a 2.0 record reads as its journey in its own version,
// and read as 1.3 or 3.0 gives nothing that is taken for it.
func TestVersion20(t *testing.T) {
	data := encodeAs(t, v20, openTicket20())
	tk, err := Decode("02", data)
	if err != nil {
		t.Fatal(err)
	}
	got := tk.PNR
	for _, l := range tk.Legs {
		got += fmt.Sprintf("; %s>%s %s %02d:%02d %s", l.From, l.To, l.Day.Format("2006-01-02"), l.Clock/60, l.Clock%60, l.Train)
	}
	if want := "NX4Q7T; Amsterdam Centraal>Bruxelles-Midi 2027-07-22 07:16 EST 9316"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, v := range []string{"13", "03"} {
		if tk, err := Decode(v, data); err == nil && len(tk.Legs) > 0 && tk.Legs[0].Train == "EST 9316" {
			t.Errorf("2.0 read as %s: %+v", v, tk.Legs)
		}
	}
}

// TestTicketWithSeat: an open ticket and a seat reservation in one
// record are one journey when the reservation gives the ticket's train:
// it departs from or arrives at one of the ticket's stations within the
// ticket's validity, or is the train the ticket is bound to; another
// route's reservation, or one outside the validity, is a trip of its own.
func TestTicketWithSeat(t *testing.T) {
	res := func(train string, day int64, from, to string) seq {
		return seq{"ticket": alt{name: "reservation", v: seq{"trainIA5": train, "departureDate": day,
			"fromStationNameUTF8": from, "toStationNameUTF8": to, "departureTime": int64(8*60 + 30), "arrivalTime": int64(10*60 + 52)}}}
	}
	open := func(from, to string, train string) seq {
		o := seq{"referenceIA5": "ABC", "returnIncluded": false, "fromStationNameUTF8": from, "toStationNameUTF8": to,
			"validFromDay": int64(30), "validUntilDay": int64(1)}
		if train != "" {
			o["validRegion"] = []any{alt{name: "trainLink", v: seq{"trainIA5": train, "travelDate": int64(30), "departureTime": int64(8*60 + 30)}}}
		}
		return seq{"ticket": alt{name: "openTicket", v: o}}
	}
	for _, tc := range []struct {
		name string
		docs []any
		want string
	}{
		{"the seat of the ticket's journey", []any{open("Wien Hbf", "Salzburg Hbf", ""), res("RJX 662", 30, "Wien Hbf", "Salzburg Hbf")},
			"Wien Hbf>Salzburg Hbf 2027-03-31 08:30 RJX 662"},
		{"on the ticket's second day", []any{open("Wien Hbf", "Salzburg Hbf", ""), res("RJX 662", 31, "Wien Hbf", "Salzburg Hbf")},
			"Wien Hbf>Salzburg Hbf 2027-04-01 08:30 RJX 662"},
		{"on a part of its route", []any{open("Wien Hbf", "Innsbruck Hbf", ""), res("RJX 662", 30, "Wien Hbf", "Salzburg Hbf")},
			"Wien Hbf>Salzburg Hbf 2027-03-31 08:30 RJX 662"},
		{"the train the ticket is bound to", []any{open("Wien Hbf", "Salzburg Hbf", "RJX 662"), res("RJX 662", 30, "Wien Hbf", "Salzburg Hbf")},
			"Wien Hbf>Salzburg Hbf 2027-03-31 08:30 RJX 662"},
		{"another route", []any{open("Wien Hbf", "Salzburg Hbf", ""), res("RJ 531", 30, "Graz Hbf", "Klagenfurt Hbf")},
			"Wien Hbf>Salzburg Hbf 2027-03-31 --:--; Graz Hbf>Klagenfurt Hbf 2027-03-31 08:30 RJ 531"},
		{"after its validity", []any{open("Wien Hbf", "Salzburg Hbf", ""), res("RJX 662", 36, "Wien Hbf", "Salzburg Hbf")},
			"Wien Hbf>Salzburg Hbf 2027-03-31 --:--; Wien Hbf>Salzburg Hbf 2027-04-06 08:30 RJX 662"},
		{"another train than the one it is bound to", []any{open("Wien Hbf", "Innsbruck Hbf", "RJX 662"), res("RJ 160", 30, "Salzburg Hbf", "Innsbruck Hbf")},
			"Wien Hbf>Innsbruck Hbf 2027-03-31 08:30 RJX 662; Salzburg Hbf>Innsbruck Hbf 2027-03-31 08:30 RJ 160"},
	} {
		v := seq{"issuingDetail": seq{"issuingYear": int64(2027), "issuingDay": int64(60), "specimen": false,
			"securePaperTicket": false, "activated": true}, "transportDocument": tc.docs}
		tk, err := Decode("13", encode(t, v))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var legs []string
		for _, l := range tk.Legs {
			clock := "--:--"
			if l.Clock >= 0 {
				clock = fmt.Sprintf("%02d:%02d", l.Clock/60, l.Clock%60)
			}
			legs = append(legs, strings.TrimSpace(fmt.Sprintf("%s>%s %s %s %s", l.From, l.To, l.Day.Format("2006-01-02"), clock, l.Train)))
		}
		if got := strings.Join(legs, "; "); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestNamedTrains: a direction whose train links name every train's
// stations, from the ticket's first to its last, gives each train's
// leg; links that name none (DB's), or do not reach the ticket's last
// station, give the first train's journey of the whole route, as before.
func TestNamedTrains(t *testing.T) {
	link := func(train string, day, clock int64, from, to string) alt {
		l := seq{"trainIA5": train, "travelDate": day, "departureTime": clock}
		if from != "" {
			l["fromStationNameUTF8"], l["toStationNameUTF8"] = from, to
		}
		return alt{name: "trainLink", v: l}
	}
	for _, tc := range []struct {
		name    string
		regions []any
		ret     []any
		want    string
	}{
		{"a change named", []any{link("IC 2013", 3, 7*60+12, "Kiel Hbf", "Hamburg Hbf"), link("ICE 885", 3, 8*60+46, "Hamburg Hbf", "Würzburg Hbf")}, nil,
			"Kiel Hbf>Hamburg Hbf 2027-05-13 07:12 IC 2013; Hamburg Hbf>Würzburg Hbf 2027-05-13 08:46 ICE 885"},
		{"links naming no station", []any{link("IC 2013", 3, 7*60+12, "", ""), link("ICE 885", 3, 8*60+46, "", "")}, nil,
			"Kiel Hbf>Würzburg Hbf 2027-05-13 07:12 IC 2013; (Kiel Hbf>Würzburg Hbf) 2027-05-13 08:46 ICE 885"},
		{"links short of the last station", []any{link("IC 2013", 3, 7*60+12, "Kiel Hbf", "Hamburg Hbf"), link("ICE 885", 3, 8*60+46, "Hamburg Hbf", "Fulda")}, nil,
			"Kiel Hbf>Würzburg Hbf 2027-05-13 07:12 IC 2013"},
		{"the return's change named", []any{link("ICE 884", 3, 7*60+12, "", "")},
			[]any{link("ICE 880", 6, 15*60, "Würzburg Hbf", "Hamburg Hbf"), link("RE 7", 6, 19*60+5, "Hamburg Hbf", "Kiel Hbf")},
			"Kiel Hbf>Würzburg Hbf 2027-05-13 07:12 ICE 884; Würzburg Hbf>Hamburg Hbf 2027-05-16 15:00 ICE 880; Hamburg Hbf>Kiel Hbf 2027-05-16 19:05 RE 7"},
	} {
		o := seq{"referenceIA5": "ABC", "returnIncluded": tc.ret != nil, "fromStationNameUTF8": "Kiel Hbf",
			"toStationNameUTF8": "Würzburg Hbf", "validFromDay": int64(3), "validUntilDay": int64(1), "validRegion": tc.regions}
		if tc.ret != nil {
			o["returnDescription"] = seq{"validReturnRegion": tc.ret}
		}
		v := seq{"issuingDetail": seq{"issuingYear": int64(2027), "issuingDay": int64(130), "specimen": false,
			"securePaperTicket": false, "activated": true},
			"transportDocument": []any{seq{"ticket": alt{name: "openTicket", v: o}}}}
		tk, err := Decode("13", encode(t, v))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var legs []string
		for _, l := range tk.Legs {
			s := fmt.Sprintf("%s>%s %s %02d:%02d %s", l.From, l.To, l.Day.Format("2006-01-02"), l.Clock/60, l.Clock%60, l.Train)
			if l.Further {
				s = "(" + s[:len(l.From)+1+len(l.To)] + ")" + s[len(l.From)+1+len(l.To):]
			}
			legs = append(legs, s)
		}
		if got := strings.Join(legs, "; "); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestCountermark: a group ticket's countermark states the group's
// journey as an open ticket does; beside the group ticket in one record
// it is the same journey, once.
func TestCountermark(t *testing.T) {
	mark := seq{"referenceIA5": "GRP-7", "numberOfCountermark": int64(3), "totalOfCountermarks": int64(12), "groupName": "Klasse 8b",
		"fromStationNameUTF8": "Zürich HB", "toStationNameUTF8": "Bern", "returnIncluded": true,
		"validRegion":       []any{alt{name: "trainLink", v: seq{"trainIA5": "IC 8", "travelDate": int64(4), "departureTime": int64(9*60 + 2)}}},
		"returnDescription": seq{"validReturnRegion": []any{alt{name: "trainLink", v: seq{"trainIA5": "IC 1", "travelDate": int64(4), "departureTime": int64(16*60 + 34)}}}},
		"validFromDay":      int64(4), "validUntilDay": int64(0)}
	group := seq{}
	for k, v := range mark {
		switch k {
		case "numberOfCountermark", "totalOfCountermarks", "groupName":
		default:
			group[k] = v
		}
	}
	for _, tc := range []struct {
		name string
		docs []any
	}{
		{"a countermark alone", []any{seq{"ticket": alt{name: "counterMark", v: mark}}}},
		{"the group ticket and its countermark", []any{seq{"ticket": alt{name: "openTicket", v: group}}, seq{"ticket": alt{name: "counterMark", v: mark}}}},
	} {
		v := seq{"issuingDetail": seq{"issuingYear": int64(2027), "issuingDay": int64(100), "specimen": false,
			"securePaperTicket": false, "activated": true}, "transportDocument": tc.docs}
		tk, err := Decode("13", encode(t, v))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var legs []string
		for _, l := range tk.Legs {
			s := fmt.Sprintf("%s>%s %s %02d:%02d %s", l.From, l.To, l.Day.Format("2006-01-02"), l.Clock/60, l.Clock%60, l.Train)
			if l.Further {
				s = "(" + s[:len(l.From)+1+len(l.To)] + ")" + s[len(l.From)+1+len(l.To):]
			}
			legs = append(legs, s)
		}
		if got, want := strings.Join(legs, "; "), "Zürich HB>Bern 2027-04-14 09:02 IC 8; Bern>Zürich HB 2027-04-14 16:34 IC 1"; got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, want)
		}
	}
}
