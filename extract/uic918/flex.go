package uic918

import (
	"mailnode/extract/uic918/fcb"
)

// flexJourney reads a U_FLEX record (UIC 918.9's FCB, package fcb): its
// journeys with their full days (the record counts them from its
// issuing day), the clock and train a ticket is bound to, and the
// issuer's booking reference. A version or value fcb cannot read whole
// gives nothing.
func flexJourney(r Record) (*RCT2, error) {
	t, err := fcb.Decode(r.Version, r.Data)
	if err != nil {
		return nil, ErrNoJourney
	}
	return flexLegs(t)
}

// IsBarcodeHeader says whether b starts as UIC's barcode header
// (DOSIPAS, formats "U1" and "U2") does: a cheap gate before
// HeaderJourney.
func IsBarcodeHeader(b []byte) bool { return fcb.IsBarcodeHeader(b) }

// HeaderJourney reads a barcode in UIC's barcode header rather than a
// UIC 918.3 container (SNCF's and other railways' tickets since 2021):
// its FCB record's journeys, as a U_FLEX record's.
func HeaderJourney(b []byte) (*RCT2, error) {
	t, err := fcb.DecodeBarcode(b)
	if err != nil {
		return nil, ErrNoJourney
	}
	return flexLegs(t)
}

func flexLegs(t *fcb.Ticket) (*RCT2, error) {
	if len(t.Legs) == 0 {
		return nil, ErrNoJourney
	}
	j := &RCT2{Booking: t.PNR}
	y, m, d := t.Issued.Date()
	j.Issued = Date{Year: y, Month: int(m), Day: d}
	for _, l := range t.Legs {
		if !station(l.From) || !station(l.To) || l.From == l.To {
			continue
		}
		y, m, d := l.Day.Date()
		leg := Leg{From: l.From, To: l.To, Depart: Date{Year: y, Month: int(m), Day: d}, Train: l.Train, Further: l.Further}
		if l.Clock >= 0 {
			leg.DepartClock = Clock{Hour: l.Clock / 60, Minute: l.Clock % 60, OK: true}
		}
		if l.Clock >= 0 && l.ArriveClock >= 0 {
			y, m, d := l.ArriveDay.Date()
			leg.Arrive = Date{Year: y, Month: int(m), Day: d}
			leg.ArriveClock = Clock{Hour: l.ArriveClock / 60, Minute: l.ArriveClock % 60, OK: true}
		}
		j.Legs = append(j.Legs, leg)
	}
	if len(j.Legs) == 0 {
		return nil, ErrNoJourney
	}
	return j, nil
}
