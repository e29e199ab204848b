package extract

import (
	"strings"

	"mailnode/extract/places"
)

// Travel from schema.org markup (schemaorg.go reads the items): flight,
// train, bus, boat, rental car and event reservations, lodging
// reservations, their airports, stations and places and the zones of
// their times.

func (c *msgContext) reservation(it node, kind, from string) []Fact {
	status := StatusConfirmed
	if s := strings.ToLower(getStr(it, "reservationStatus")); strings.Contains(s, "cancel") {
		status = StatusCancelled
	}
	number := cleanCode(getStr(it, "reservationNumber", "reservationId", "confirmationNumber"))
	var out []Fact
	fors := all(it, "reservationFor")
	if len(fors) == 0 {
		fors = []any{node{}}
	}
	for _, f := range fors {
		trip, _ := f.(node)
		if trip == nil {
			continue
		}
		seg := &Segment{Type: kind, Status: status, Reservation: number}
		switch kind {
		case KindFlight:
			c.flight(seg, trip, it)
		case KindTrain:
			c.train(seg, trip, it)
		case KindHotel:
			c.hotel(seg, trip, it)
		case KindBus, KindFerry:
			c.leg(seg, trip)
		case KindRental:
			c.rental(seg, trip, it)
		case KindEvent:
			c.event(seg, trip)
		}
		// An arrival before its departure is the markup's slip (Google's
		// own example arrives at 03:10 from a 10:30 departure that day):
		// no arrival rather than a wrong one.
		if kind != KindHotel && seg.Depart != nil && seg.Arrive != nil && seg.Arrive.Before(seg.Depart.Time) {
			seg.Arrive = nil
		}
		if seg.Start() == nil && status != StatusCancelled {
			continue // a segment with no time is no plan
		}
		if seg.Start() == nil && seg.Reservation == "" {
			continue
		}
		out = append(out, Fact{Kind: kind, From: from, Segment: seg})
	}
	return out
}

func (c *msgContext) flight(seg *Segment, fl, res node) {
	airline := getNode(fl, "airline", "provider")
	iata := ""
	if airline != nil {
		seg.Carrier = getStr(airline, "name")
		iata = strings.ToUpper(getStr(airline, "iataCode"))
	}
	seg.Number = flightNumber(iata, getStr(fl, "flightNumber"))
	seg.From = airport(getNode(fl, "departureAirport"))
	seg.To = airport(getNode(fl, "arrivalAirport"))
	seg.Depart = c.timeAt(getStr(fl, "departureTime"), c.airportZone(seg.From))
	if seg.Depart == nil {
		seg.Depart = c.timeAt(getStr(fl, "departureDay"), c.airportZone(seg.From))
	}
	seg.Arrive = c.timeAt(getStr(fl, "arrivalTime"), c.airportZone(seg.To))
	seg.Seat = getStr(res, "airplaneSeat")
	if seg.Seat == "" {
		if t := getNode(res, "reservedTicket"); t != nil {
			seg.Seat = getStr(getNodeOrEmpty(t, "ticketedSeat"), "seatNumber")
		}
	}
}

// flightNumber joins an airline code and a number as "LH 400"; numbers
// that already carry the code ("LH400") are normalised the same way.
func flightNumber(iata, num string) string {
	num = strings.ToUpper(strings.Join(strings.Fields(num), ""))
	if num == "" {
		return ""
	}
	if m := flightNumRE.FindStringSubmatch(num); m != nil && m[0] == num {
		return m[1] + " " + strings.TrimLeft(m[2], "0")
	}
	if iata != "" {
		return iata + " " + strings.TrimLeft(num, "0")
	}
	return num
}

func airport(n node) *Place {
	if n == nil {
		return nil
	}
	p := &Place{Name: getStr(n, "name"), Code: strings.ToUpper(getStr(n, "iataCode"))}
	if p.Code == "" && len(p.Name) == 3 && strings.ToUpper(p.Name) == p.Name && places.Known(p.Name) {
		p.Code, p.Name = p.Name, ""
	}
	if p.Code == "" && p.Name != "" {
		if code, ok := places.AirportByName(p.Name); ok {
			p.Code = code
		}
	}
	if p.Name == "" && p.Code == "" {
		return nil
	}
	return p
}

func (c *msgContext) airportZone(p *Place) zoneHint {
	if p == nil {
		return zoneHint{}
	}
	if p.Code != "" {
		name, loc := places.Zone(p.Code)
		return zoneHint{name, loc}
	}
	// An airport the tables do not list ("Berlin-Tegel") keeps its
	// city's zone; never the sender's: flights cross borders.
	name, loc := places.CityZone(p.Name)
	return zoneHint{name, loc}
}

func (c *msgContext) train(seg *Segment, trip, res node) {
	if op := getNode(trip, "trainCompany", "provider"); op != nil {
		seg.Carrier = getStr(op, "name")
	}
	seg.Number = strings.Join(strings.Fields(strings.TrimSpace(getStr(trip, "trainName")+" "+getStr(trip, "trainNumber"))), " ")
	if n := getStr(trip, "trainName"); n != "" && strings.Contains(getStr(trip, "trainNumber"), n) {
		seg.Number = getStr(trip, "trainNumber")
	}
	seg.From = station(getNode(trip, "departureStation", "departurePlatform"))
	seg.To = station(getNode(trip, "arrivalStation"))
	z := c.placeZoneHint(placeName(seg.From), stationCountry(getNode(trip, "departureStation")))
	seg.Depart = c.timeAt(getStr(trip, "departureTime"), z)
	if seg.Depart == nil {
		seg.Depart = c.timeAt(getStr(trip, "departureDay"), z) // a ticket for any train of the day
	}
	za := c.placeZoneHint(placeName(seg.To), stationCountry(getNode(trip, "arrivalStation")))
	seg.Arrive = c.timeAt(getStr(trip, "arrivalTime"), za)
	if t := getNode(res, "reservedTicket"); t != nil {
		if s := getNode(t, "ticketedSeat"); s != nil {
			seg.Seat = strings.TrimSpace(getStr(s, "seatSection") + " " + getStr(s, "seatNumber"))
		}
	}
}

// leg reads a BusTrip or BoatTrip: its stops (bus stops, terminals,
// ports), times and number.
func (c *msgContext) leg(seg *Segment, trip node) {
	if op := getNode(trip, "busCompany", "provider"); op != nil {
		seg.Carrier = getStr(op, "name")
	}
	seg.Number = strings.TrimSpace(getStr(trip, "busNumber", "busName", "name"))
	seg.From = station(getNode(trip, "departureBusStop", "departureBoatTerminal", "departureStation"))
	seg.To = station(getNode(trip, "arrivalBusStop", "arrivalBoatTerminal", "arrivalStation"))
	seg.Depart = c.timeAt(getStr(trip, "departureTime"), c.placeZoneHint(placeName(seg.From), ""))
	if seg.Depart == nil {
		seg.Depart = c.timeAt(getStr(trip, "departureDay"), c.placeZoneHint(placeName(seg.From), ""))
	}
	seg.Arrive = c.timeAt(getStr(trip, "arrivalTime"), c.placeZoneHint(placeName(seg.To), ""))
}

// rental reads a RentalCarReservation: pick-up and return places and
// times, the company as the name.
func (c *msgContext) rental(seg *Segment, car, res node) {
	if rc := getNode(car, "rentalCompany", "brand"); rc != nil {
		seg.Name = getStr(rc, "name")
	}
	if seg.Name == "" {
		seg.Name = c.senderName
	}
	seg.From = station(getNode(res, "pickupLocation"))
	seg.To = station(getNode(res, "dropoffLocation"))
	seg.Depart = c.timeAt(getStr(res, "pickupTime"), c.placeZoneHint(placeName(seg.From), ""))
	seg.Arrive = c.timeAt(getStr(res, "dropoffTime"), c.placeZoneHint(placeName(seg.To), ""))
}

// event reads an Event: its name, venue and times.
func (c *msgContext) event(seg *Segment, ev node) {
	seg.Name = getStr(ev, "name")
	city := ""
	if loc := getNode(ev, "location"); loc != nil {
		seg.Address = getStr(loc, "name")
		if a := getNode(loc, "address"); a != nil {
			city = getStr(a, "addressLocality")
		}
	}
	z := c.placeZoneHint(city, "")
	seg.Depart = c.timeAt(getStr(ev, "startDate", "doorTime"), z)
	seg.Arrive = c.timeAt(getStr(ev, "endDate"), z)
}

func station(n node) *Place {
	if n == nil {
		return nil
	}
	p := &Place{Name: getStr(n, "name")}
	for _, k := range []string{"identifier", "iataCode", "uicCode"} {
		if s := getStr(n, k); s != "" {
			p.Code = s
			break
		}
	}
	if p.Name == "" && p.Code == "" {
		return nil
	}
	return p
}

func stationCountry(n node) string {
	if n == nil {
		return ""
	}
	if a := getNode(n, "address"); a != nil {
		return countryCode(getStr(a, "addressCountry"))
	}
	return ""
}

func (c *msgContext) hotel(seg *Segment, h, res node) {
	seg.Hotel = getStr(h, "name")
	country, city := "", ""
	switch a := get(h, "address").(type) {
	case string:
		seg.Address = a
	case node:
		var parts []string
		for _, k := range []string{"streetAddress", "postalCode", "addressLocality", "addressCountry"} {
			if s := getStr(a, k); s != "" {
				parts = append(parts, s)
			}
		}
		seg.Address = strings.Join(parts, ", ")
		country = countryCode(getStr(a, "addressCountry"))
		city = getStr(a, "addressLocality")
	}
	z := c.placeZoneHint(city, country)
	seg.CheckIn = c.timeAt(getStr(res, "checkinDate", "checkinTime", "checkInDate", "checkInTime"), z)
	seg.CheckOut = c.timeAt(getStr(res, "checkoutDate", "checkoutTime", "checkOutDate", "checkOutTime"), z)
}

func placeName(p *Place) string {
	if p == nil {
		return ""
	}
	return p.Name
}
