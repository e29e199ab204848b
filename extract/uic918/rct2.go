package uic918

import (
	"errors"
	"strings"
	"unicode"
)

// The RCT2 standard (UIC leaflet 918.2) fixes where a ticket prints what:
// line 3 the validity; line 6 the outward journey, line 7 the return:
// departure day (columns 1-5, "dd.mm"), clock (7-11), departure station
// (13-29), arrival station (34-50), arrival day (52-56) and clock
// (58-62); line 8 the train of a reservation. Issuers shift a field a
// column or two, or print a line as one text: the grid is read by
// column, and a value whose place a word crosses is not read at all.

// RCT2 is what a layout in the RCT2 standard says of the journey.
type RCT2 struct {
	ValidFrom Date   // the first day of validity; Month 0 when only its year is printed
	Issued    Date   // the day the ticket was issued (U_HEAD), Month 0 if unknown
	Legs      []Leg  // the outward journey, then the return when the ticket has one
	Booking   string // the issuer's booking reference, where the ticket states one (U_FLEX)
}

// Date is a printed day. Year is 0 when the ticket gives the day and
// month alone.
type Date struct{ Year, Month, Day int }

// Clock is a printed time of day.
type Clock struct {
	Hour, Minute int
	OK           bool
}

// Leg is one journey of a ticket: stations as printed, its day (or the
// first day of validity when the line has none), clocks when printed.
type Leg struct {
	From, To                 string
	Depart, Arrive           Date // Arrive.Month 0: no arrival day
	DepartClock, ArriveClock Clock
	Train                    string // "RJX 42", "267"; the outward leg's, on reservations
	// Further: a train after the first of a ticket bound to several
	// (U_FLEX) that states no station of its own: it runs on the route
	// From-To, boarding and alighting where the ticket does not say.
	Further bool
}

// ErrNoJourney is a layout that states no journey: another standard, a
// rail pass, a regional day ticket, a railcard.
var ErrNoJourney = errors.New("uic918: the layout states no journey")

// RCT2 reads the journeys of a layout in the RCT2 standard.
func (l *Layout) RCT2() (*RCT2, error) {
	if l.Standard != "RCT2" {
		return nil, ErrNoJourney
	}
	r := &RCT2{ValidFrom: l.validFrom()}
	for line := 6; line <= 7; line++ {
		leg, ok := l.leg(line, r.ValidFrom)
		if !ok {
			continue
		}
		if line == 6 {
			leg.Train = l.train()
		}
		r.Legs = append(r.Legs, leg)
	}
	if len(r.Legs) == 0 {
		return nil, ErrNoJourney
	}
	return r, nil
}

func (l *Layout) leg(line int, valid Date) (Leg, bool) {
	from, to, ok := l.stations(line)
	if !ok || !station(from) || !station(to) || strings.EqualFold(from, to) {
		return Leg{}, false
	}
	leg := Leg{From: from, To: to}
	d, dok := l.date(line, 1)
	switch {
	case dok:
		leg.Depart = d
		leg.DepartClock = l.clock(line, 7)
		if a, ok := l.date(line, 52); ok {
			leg.Arrive = a
			leg.ArriveClock = l.clock(line, 58)
		}
	case line == 6 && valid.Month > 0:
		// An open ticket: its day is the first it is valid on.
		leg.Depart = valid
	default:
		return Leg{}, false
	}
	// "00:00" to "24:00" is a day's validity, not a train at midnight.
	if leg.DepartClock.OK && leg.DepartClock.Hour == 0 && leg.DepartClock.Minute == 0 && (!leg.ArriveClock.OK || leg.ArriveClock.Hour == 24) {
		leg.DepartClock, leg.ArriveClock = Clock{}, Clock{}
	}
	if leg.ArriveClock.Hour > 23 {
		leg.ArriveClock = Clock{}
	}
	if !leg.DepartClock.OK {
		leg.ArriveClock = Clock{} // an arrival clock alone places nothing
	}
	return leg, true
}

// stations reads a line's departure station (columns 12-33) and arrival
// station (34-51), the arrow some issuers print between them ("->", at
// column 31 or 32) read as blank.
func (l *Layout) stations(line int) (from, to string, ok bool) {
	row := make([]rune, 0, 42)
	for c := 11; c <= 52; c++ {
		row = append(row, l.cell(line, c))
	}
	for i := 0; i+1 < len(row); i++ {
		if row[i] == '-' && row[i+1] == '>' && (i == 0 || row[i-1] == ' ') && (i+2 == len(row) || row[i+2] == ' ' || i+2 == 34-11) {
			row[i], row[i+1] = ' ', ' '
		}
	}
	// The cells before and after each station's place, and between them,
	// are blank, or a word crosses a place's edge.
	edge := func(i int) bool { return row[i] == ' ' || row[i+1] == ' ' }
	if !edge(0) || !edge(34-11-1) || !edge(52-11-1) {
		return "", "", false
	}
	return strings.TrimSpace(string(row[1 : 34-11])), strings.TrimSpace(string(row[34-11 : 52-11])), true
}

// station is a printed station: letters, not the asterisks of an empty
// field.
func station(s string) bool {
	n := 0
	for _, c := range s {
		if unicode.IsLetter(c) {
			n++
		}
	}
	return n >= 2
}

// date reads "dd.mm" or "dd/mm" at a line's column.
func (l *Layout) date(line, col int) (Date, bool) {
	s, ok := l.Text(line, col, 5)
	if !ok || len(s) != 5 || (s[2] != '.' && s[2] != '/') {
		return Date{}, false
	}
	d, ok1 := number([]byte(s[:2]))
	m, ok2 := number([]byte(s[3:]))
	if !ok1 || !ok2 || m < 1 || m > 12 || d < 1 || d > 31 {
		return Date{}, false
	}
	return Date{Month: m, Day: d}, true
}

// clock reads "hh:mm" or "hh.mm"; "24:00" is read (an end of day) for
// the caller to judge.
func (l *Layout) clock(line, col int) Clock {
	s, ok := l.Text(line, col, 5)
	if !ok || len(s) != 5 || (s[2] != ':' && s[2] != '.') {
		return Clock{}
	}
	h, ok1 := number([]byte(s[:2]))
	m, ok2 := number([]byte(s[3:]))
	if !ok1 || !ok2 || h > 24 || m > 59 || h == 24 && m != 0 {
		return Clock{}
	}
	return Clock{Hour: h, Minute: m, OK: true}
}

// validFrom reads the first date of line 3 (columns 1-48): "dd.mm.yyyy",
// "dd.mm.yy", or a year alone.
func (l *Layout) validFrom() Date {
	var b strings.Builder
	for c := 1; c < 49; c++ {
		b.WriteRune(l.cell(3, c))
	}
	s := b.String()
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return Date{}
	}
	s = s[i:]
	num := func(a, b int) int {
		if len(s) < b {
			return -1
		}
		n, ok := number([]byte(s[a:b]))
		if !ok {
			return -1
		}
		return n
	}
	d, m := num(0, 2), num(3, 5)
	if len(s) >= 6 && s[2] == '.' && s[5] == '.' && d >= 1 && d <= 31 && m >= 1 && m <= 12 {
		if y := num(6, 10); y >= 1990 && y < 2100 {
			return Date{Year: y, Month: m, Day: d}
		}
		if y := num(6, 8); y >= 0 && (len(s) == 8 || s[8] < '0' || s[8] > '9') {
			return Date{Year: 2000 + y, Month: m, Day: d}
		}
		return Date{}
	}
	if y := num(0, 4); y >= 1990 && y < 2100 && (len(s) == 4 || s[4] < '0' || s[4] > '9') {
		return Date{Year: y}
	}
	return Date{}
}

// train reads line 8's train: its number at columns 7-11 after a label
// and its category at 13-15 ("TOG   267"), or a label, number,
// category, label and number in a row ("ZUG 42 RJX WAGEN 23"), as
// issuers that print the line as one text write it.
func (l *Layout) train() string {
	label, ok1 := l.Text(8, 1, 5)
	num, ok2 := l.Text(8, 7, 5)
	if ok1 && ok2 && word(label) && allDigits(num) {
		if cat, ok := l.Text(8, 13, 3); ok && category(cat) {
			return cat + " " + num
		}
		if blank, ok := l.Text(8, 12, 5); ok && blank == "" {
			return num
		}
	}
	var b strings.Builder
	for c := 0; c < 72; c++ {
		b.WriteRune(l.cell(8, c))
	}
	t := strings.Fields(b.String())
	if len(t) >= 5 && word(t[0]) && allDigits(t[1]) && category(t[2]) && word(t[3]) && allDigits(t[4]) {
		return t[2] + " " + t[1]
	}
	return ""
}

func word(s string) bool {
	if len(s) < 2 || len(s) > 12 {
		return false
	}
	for _, c := range s {
		if !unicode.IsLetter(c) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	return len(s) >= 1 && len(s) <= 5 && digits([]byte(s))
}

// category is a train category: capitals and digits, a capital first
// ("EC", "RJX", "IC2").
func category(s string) bool {
	if len(s) < 1 || len(s) > 4 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if (s[i] < 'A' || s[i] > 'Z') && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}
