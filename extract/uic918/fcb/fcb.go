package fcb

import (
	"errors"
	"slices"
	"strconv"
	"time"
)

// ErrVersion is a record of a schema version not read here.
var ErrVersion = errors.New("fcb: a version not read")

// Ticket is what a record states of the journey.
type Ticket struct {
	Issued time.Time // the issuing day and minute, UTC
	PNR    string    // the issuer's booking reference (issuerPNR)
	Legs   []Leg
}

// Leg is a journey: stations as named, its local day, the clock of its
// train when one is bound (-1 else) and that train ("ICE573", "803"); a
// reservation's arrival when it states one (ArriveClock -1 else). A
// further train of a direction bound to several whose links name no
// station (Further) has the direction's stations as From and To: it
// runs on that route, from and to stations the ticket does not state.
type Leg struct {
	From, To    string
	Day         time.Time // the local day, at 00:00 UTC
	Clock       int       // minutes after midnight, local; -1 for none
	Train       string
	ArriveDay   time.Time
	ArriveClock int
	Further     bool
	open        bool      // an open ticket's journey, not a reservation's
	until       time.Time // an open ticket's last day of validity, when bound to no train
}

// Decode reads a U_FLEX record's content of the version its header
// states ("13", "02" or "03").
func Decode(version string, data []byte) (*Ticket, error) {
	var schema *typ
	switch version {
	case "13":
		schema = v13
	case "02":
		schema = v20
	case "03":
		schema = v30
	default:
		return nil, ErrVersion
	}
	r := &reader{b: data}
	v, err := r.sequence(schema, 0)
	if err != nil {
		return nil, err
	}
	if r.left() >= 8 {
		return nil, errors.New("fcb: data after the value")
	}
	return journey(v)
}

// journey reads the issuing day, then each transport document's legs.
func journey(v seq) (*Ticket, error) {
	iss, _ := v["issuingDetail"].(seq)
	y, ok1 := iss["issuingYear"].(int64)
	d, ok2 := iss["issuingDay"].(int64)
	if !ok1 || !ok2 {
		return nil, errors.New("fcb: no issuing day")
	}
	t := &Ticket{PNR: str(iss, "issuerPNR")}
	// The issuing day is UTC; the days of a journey are local days
	// counted from its date alone (the module's "Encoding of date").
	day0 := time.Date(int(y), 1, int(d), 0, 0, 0, 0, time.UTC)
	t.Issued = day0
	if m, ok := iss["issuingTime"].(int64); ok {
		t.Issued = day0.Add(time.Duration(m) * time.Minute)
	}
	docs, _ := v["transportDocument"].([]any)
	for _, doc := range docs {
		a, _ := doc.(seq)["ticket"].(alt)
		body, _ := a.v.(seq)
		switch a.name {
		case "openTicket", "counterMark":
			// A group ticket's countermark, each traveller's own
			// document, states the group's journey as an open ticket does.
			t.Legs = append(t.Legs, openTicket(body, day0)...)
		case "reservation":
			if l, ok := reservation(body, day0); ok {
				t.Legs = append(t.Legs, l)
			}
		}
	}
	t.Legs = withoutReservedDays(t.Legs)
	t.Legs = withoutRepeats(t.Legs)
	return t, nil
}

// withoutRepeats keeps the first of legs that state the same journey: a
// group ticket and the countermark it is issued with, in one record.
func withoutRepeats(legs []Leg) []Leg {
	out := legs[:0:0]
	for _, l := range legs {
		if !slices.ContainsFunc(out, func(o Leg) bool {
			return o.From == l.From && o.To == l.To && o.Day.Equal(l.Day) && o.Clock == l.Clock && o.Train == l.Train
		}) {
			out = append(out, l)
		}
	}
	return out
}

// withoutReservedDays drops an open ticket's journey when a reservation
// of the same record gives its train: a ticket sold with its seat (ÖBB's,
// SBB's "ticket and reservation", DB's Sparpreis with a seat) is two
// documents of one journey, and both would be two trips. A reservation
// is that journey's train when it departs from or arrives at one of the
// ticket's stations within the ticket's validity (a ticket bound to no
// train), or is the train the ticket is bound to, on its day.
func withoutReservedDays(legs []Leg) []Leg {
	out := legs[:0:0]
	for _, l := range legs {
		if l.open && slices.ContainsFunc(legs, func(m Leg) bool {
			if m.open {
				return false
			}
			if l.Clock < 0 {
				return (m.From == l.From || m.To == l.To) && !m.Day.Before(l.Day) && !m.Day.After(l.until)
			}
			return m.Train == l.Train && m.Day.Equal(l.Day)
		}) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// maxJourneyDays is the longest validity (days after the first) of an
// open ticket bound to no train that is read as a journey on its first
// day: a single or return ticket is valid a day or a few (DB's two);
// a season ticket between two stations is no trip on its first day.
const maxJourneyDays = 4

// openTicket reads an open ticket's outward journey: its stations on
// the day and clock of the first train it is bound to (DB's
// "Zugbindung"), else on its first day of validity without a clock when
// it is valid a few days only; and its return, when included, on the
// day of the first train the return is bound to (a return not bound to
// a train has no day). A direction whose train links name every train's
// stations, from the ticket's first to its last, is each train's leg.
func openTicket(o seq, day0 time.Time) []Leg {
	from, to := str(o, "fromStationNameUTF8"), str(o, "toStationNameUTF8")
	if from == "" || to == "" {
		return nil
	}
	out := Leg{From: from, To: to, Clock: -1, ArriveClock: -1, open: true}
	var legs []Leg
	if trains, ok := namedTrains(o["validRegion"], from, to, day0); ok {
		legs = trains
	} else if l, ok := firstTrain(o["validRegion"], o, day0); ok {
		out.Day, out.Clock, out.Train = l.Day, l.Clock, l.Train
		legs = append([]Leg{out}, furtherTrains(o["validRegion"], out, day0)...)
	} else if until := num(o, "validUntilDay", 0); until >= 0 && until <= maxJourneyDays && o["activatedDay"] == nil {
		out.Day = day0.AddDate(0, 0, int(num(o, "validFromDay", 0)))
		out.until = out.Day.AddDate(0, 0, int(until))
		legs = []Leg{out}
	} else {
		return nil
	}
	ret, _ := o["returnDescription"].(seq)
	if b, _ := o["returnIncluded"].(bool); !b || ret == nil {
		return legs
	}
	back := Leg{From: str(ret, "fromStationNameUTF8"), To: str(ret, "toStationNameUTF8"), ArriveClock: -1, open: true}
	if back.From == "" && back.To == "" {
		back.From, back.To = to, from
	}
	if back.From == "" || back.To == "" {
		return legs
	}
	if trains, ok := namedTrains(ret["validReturnRegion"], back.From, back.To, day0); ok {
		return append(legs, trains...)
	}
	if l, ok := firstTrain(ret["validReturnRegion"], ret, day0); ok {
		back.Day, back.Clock, back.Train = l.Day, l.Clock, l.Train
		legs = append(legs, back)
		legs = append(legs, furtherTrains(ret["validReturnRegion"], back, day0)...)
	}
	return legs
}

// furtherTrains is each train after the first of a direction bound to
// several (DB's "Zugbindung" of a journey with changes): the train links
// that follow the first at the head of the valid regions, each naming
// no station (a link that names one ends them: namedTrains reads links
// that name all), with its train, day and departure clock, on or after
// the first's. The ticket states no station where each boards or
// alights: each is a Further leg of the direction's route.
func furtherTrains(regions any, first Leg, day0 time.Time) []Leg {
	rs, _ := regions.([]any)
	if len(rs) < 2 {
		return nil
	}
	var legs []Leg
	prev := first
	for _, r := range rs[1:] {
		a, _ := r.(alt)
		if a.name != "trainLink" {
			break
		}
		link, _ := a.v.(seq)
		if link["fromStationNum"] != nil || link["toStationNum"] != nil || str(link, "fromStationNameUTF8") != "" || str(link, "toStationNameUTF8") != "" ||
			link["fromStationIA5"] != nil || link["toStationIA5"] != nil {
			break
		}
		train := trainName(link)
		clock, ok := link["departureTime"].(int64)
		if train == "" || !ok || clock >= 1440 {
			break
		}
		l := Leg{From: first.From, To: first.To, Day: day0.AddDate(0, 0, int(num(link, "travelDate", 0))), Clock: int(clock),
			Train: train, ArriveClock: -1, open: true, Further: true}
		if l.Train == prev.Train || l.Day.Before(prev.Day) || l.Day.Equal(prev.Day) && l.Clock <= prev.Clock {
			break // not a later train: a link misread, or the same train again
		}
		legs = append(legs, l)
		prev = l
	}
	return legs
}

// namedTrains is each train of a direction bound to several, when its
// train links name every train's stations: the links that lead the
// valid regions, the first from the direction's first station, the
// last to its last, each with its train, day and departure clock.
// DB's links name no station; a link of one that does is that train's
// own leg, not the whole route's.
func namedTrains(regions any, from, to string, day0 time.Time) ([]Leg, bool) {
	rs, _ := regions.([]any)
	var legs []Leg
	for _, r := range rs {
		a, _ := r.(alt)
		if a.name != "trainLink" {
			break
		}
		link, _ := a.v.(seq)
		f, t := str(link, "fromStationNameUTF8"), str(link, "toStationNameUTF8")
		train := trainName(link)
		clock, ok := link["departureTime"].(int64)
		if f == "" || t == "" || f == t || train == "" || !ok || clock >= 1440 {
			return nil, false
		}
		legs = append(legs, Leg{From: f, To: t, Day: day0.AddDate(0, 0, int(num(link, "travelDate", 0))), Clock: int(clock),
			Train: train, ArriveClock: -1, open: true})
	}
	if len(legs) < 2 || legs[0].From != from || legs[len(legs)-1].To != to {
		return nil, false
	}
	return legs, true
}

// firstTrain is the first train link of a sequence of valid regions,
// when it is the first region (a journey whose first part is a zone or
// a route is not the train's) and names no other departure station
// than the ticket's.
func firstTrain(regions any, ticket seq, day0 time.Time) (Leg, bool) {
	rs, _ := regions.([]any)
	if len(rs) == 0 {
		return Leg{}, false
	}
	a, _ := rs[0].(alt)
	link, _ := a.v.(seq)
	if a.name != "trainLink" {
		return Leg{}, false
	}
	if n := str(link, "fromStationNameUTF8"); n != "" && n != str(ticket, "fromStationNameUTF8") {
		return Leg{}, false
	}
	if n, ok := link["fromStationNum"].(int64); ok && n != num(ticket, "fromStationNum", n) {
		return Leg{}, false
	}
	train := trainName(link)
	clock, ok := link["departureTime"].(int64)
	if train == "" || !ok || clock >= 1440 {
		return Leg{}, false
	}
	return Leg{Day: day0.AddDate(0, 0, int(num(link, "travelDate", 0))), Clock: int(clock), Train: train}, true
}

// reservation reads a reservation's train: its stations, day and
// departure clock, and its arrival (a day counted from the departure's).
func reservation(o seq, day0 time.Time) (Leg, bool) {
	from, to := str(o, "fromStationNameUTF8"), str(o, "toStationNameUTF8")
	clock, _ := o["departureTime"].(int64)
	if from == "" || to == "" || clock >= 1440 {
		return Leg{}, false
	}
	l := Leg{From: from, To: to, Day: day0.AddDate(0, 0, int(num(o, "departureDate", 0))), Clock: int(clock), Train: trainName(o), ArriveClock: -1}
	if a, ok := o["arrivalTime"].(int64); ok && a < 1440 {
		l.ArriveDay, l.ArriveClock = l.Day.AddDate(0, 0, int(num(o, "arrivalDate", 0))), int(a)
	}
	return l, true
}

// trainName is a train's alphanumeric id, else its number.
func trainName(o seq) string {
	if s := str(o, "trainIA5"); s != "" {
		return s
	}
	if n, ok := o["trainNum"].(int64); ok && n > 0 {
		return strconv.FormatInt(n, 10)
	}
	return ""
}

func str(o seq, name string) string {
	s, _ := o[name].(string)
	return s
}

// num is an INTEGER component, or its DEFAULT when absent.
func num(o seq, name string, def int64) int64 {
	if n, ok := o[name].(int64); ok {
		return n
	}
	return def
}
