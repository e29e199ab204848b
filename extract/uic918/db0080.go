package uic918

import (
	"errors"
	"strings"
)

// Deutsche Bahn's record (0080BL, versions 2 and 3) after the standard
// ones: two characters, the number of order blocks (one digit), the
// order blocks (46 bytes each in version 2, 26 in version 3), the number
// of data fields (two digits), then the fields, each "S", a three-digit
// id, a four-digit length and the value. Fields 015 and 016 name the
// route's departure and arrival stations, 031 the first day of validity
// ("dd.mm.yyyy", version 3).

// Route is the route and validity a 0080BL record states.
type Route struct {
	From, To  string
	ValidFrom Date
}

// ParseDB reads the route of a 0080BL record: nothing unless it names
// both stations and the first day the ticket is valid on.
func ParseDB(r Record) (*Route, error) {
	d := r.Data
	if r.ID != "0080BL" || (r.Version != "02" && r.Version != "03") || len(d) < 3 || d[2] < '0' || d[2] > '9' {
		return nil, errors.New("uic918: not a 0080BL record")
	}
	size := 46
	if r.Version == "03" {
		size = 26
	}
	off := 3 + int(d[2]-'0')*size + 2
	if off > len(d) {
		return nil, errors.New("uic918: 0080BL shorter than its order blocks")
	}
	fields := map[string]string{}
	for d = d[off:]; len(d) >= 8 && d[0] == 'S'; {
		n, ok := number(d[4:8])
		if !ok || 8+n > len(d) {
			return nil, errors.New("uic918: 0080BL field length")
		}
		if _, seen := fields[string(d[1:4])]; !seen {
			fields[string(d[1:4])] = strings.TrimSpace(text(d[8 : 8+n]))
		}
		d = d[8+n:]
	}
	rt := &Route{From: fields["015"], To: fields["016"], ValidFrom: fullDate(fields["031"])}
	if !station(rt.From) || !station(rt.To) || strings.EqualFold(rt.From, rt.To) || rt.ValidFrom.Month == 0 {
		return nil, ErrNoJourney
	}
	return rt, nil
}

// fullDate reads "dd.mm.yyyy".
func fullDate(s string) Date {
	if len(s) != 10 || s[2] != '.' || s[5] != '.' {
		return Date{}
	}
	d, ok1 := number([]byte(s[:2]))
	m, ok2 := number([]byte(s[3:5]))
	y, ok3 := number([]byte(s[6:]))
	if !ok1 || !ok2 || !ok3 || d < 1 || d > 31 || m < 1 || m > 12 || y < 1990 || y >= 2100 {
		return Date{}
	}
	return Date{Year: y, Month: m, Day: d}
}

// Journey is what a ticket states of its journey: its RCT2 layout's, else
// its 0080BL record's route on its first day of validity, else its
// U_FLEX record's (UIC 918.9); with the day U_HEAD says it was issued.
func (t *Ticket) Journey() (*RCT2, error) {
	if r, ok := t.Record("U_TLAY"); ok {
		if l, err := ParseLayout(r); err == nil {
			if j, err := l.RCT2(); err == nil {
				j.Issued, _ = t.Issued()
				return j, nil
			}
		}
	}
	if r, ok := t.Record("0080BL"); ok {
		if rt, err := ParseDB(r); err == nil {
			return &RCT2{ValidFrom: rt.ValidFrom, Legs: []Leg{{From: rt.From, To: rt.To, Depart: rt.ValidFrom}}}, nil
		}
	}
	if r, ok := t.Record("U_FLEX"); ok {
		return flexJourney(r)
	}
	return nil, ErrNoJourney
}
