package extract

import (
	"fmt"
	"strconv"
	"strings"

	"mailnode/extract/places"
)

// schemaFacts maps schema.org items (Google's email markup: reservations,
// orders, parcel deliveries and invoices) to facts. It accepts what Google
// accepts: types with or without the schema.org prefix, legacy property
// names (checkinTime for checkinDate, paymentDue for paymentDueDate, ...),
// a text where an object belongs, and a list where one value belongs.
func (c *msgContext) schemaFacts(items []node, from string) []Fact {
	var out []Fact
	for _, it := range items {
		switch typeOf(it) {
		case "FlightReservation":
			out = append(out, c.reservation(it, KindFlight, from)...)
		case "TrainReservation":
			out = append(out, c.reservation(it, KindTrain, from)...)
		case "LodgingReservation":
			out = append(out, c.reservation(it, KindHotel, from)...)
		case "BusReservation":
			out = append(out, c.reservation(it, KindBus, from)...)
		case "BoatReservation":
			out = append(out, c.reservation(it, KindFerry, from)...)
		case "RentalCarReservation":
			out = append(out, c.reservation(it, KindRental, from)...)
		case "EventReservation":
			out = append(out, c.reservation(it, KindEvent, from)...)
		case "Flight":
			out = append(out, c.reservation(node{"reservationFor": it}, KindFlight, from)...)
		case "TrainTrip":
			out = append(out, c.reservation(node{"reservationFor": it}, KindTrain, from)...)
		case "Order":
			if f, ok := c.order(it, from); ok {
				out = append(out, f)
			}
		case "ParcelDelivery":
			order, _ := get(it, "partOfOrder").(node)
			if order == nil {
				order = node{}
			}
			order = copyNode(order)
			order["orderDelivery"] = it
			if f, ok := c.order(order, from); ok {
				out = append(out, f)
			}
		case "Invoice":
			if f, ok := c.invoice(it, from); ok {
				out = append(out, f)
			}
		}
	}
	return out
}

func copyNode(n node) node {
	m := make(node, len(n)+1)
	for k, v := range n {
		m[k] = v
	}
	return m
}

// typeOf returns an item's schema.org type without its prefix. An item
// with several types gets the first one this package reads.
func typeOf(n node) string {
	var types []string
	switch t := n["@type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				types = append(types, s)
			}
		}
	}
	for i, t := range types {
		t = t[strings.LastIndexAny(t, "/:")+1:]
		types[i] = t
		switch t {
		case "FlightReservation", "TrainReservation", "LodgingReservation", "Order", "ParcelDelivery", "Invoice":
			return t
		}
	}
	if len(types) > 0 {
		return types[0]
	}
	return ""
}

// get returns the first property present among names. A list stands for
// its first element.
func get(n node, names ...string) any {
	for _, name := range names {
		v, ok := n[name]
		if !ok || v == nil {
			continue
		}
		if l, ok := v.([]any); ok {
			if len(l) == 0 {
				continue
			}
			v = l[0]
		}
		return v
	}
	return nil
}

// all returns every value of the first property present among names.
func all(n node, names ...string) []any {
	for _, name := range names {
		switch v := n[name].(type) {
		case nil:
			continue
		case []any:
			return v
		default:
			return []any{v}
		}
	}
	return nil
}

// str returns a value as text: a string, a number, or an object's name or
// @value.
func str(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	case node:
		for _, k := range []string{"@value", "name", "value"} {
			if s := str(get(t, k)); s != "" {
				return s
			}
		}
	}
	return ""
}

func getStr(n node, names ...string) string { return str(get(n, names...)) }

func getNode(n node, names ...string) node {
	switch v := get(n, names...).(type) {
	case node:
		return v
	case string:
		if v != "" {
			return node{"name": v}
		}
	}
	return nil
}

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

func getNodeOrEmpty(n node, names ...string) node {
	if v := getNode(n, names...); v != nil {
		return v
	}
	return node{}
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
	seg.CheckIn = c.timeAt(getStr(res, "checkinDate", "checkinTime", "checkInDate"), z)
	seg.CheckOut = c.timeAt(getStr(res, "checkoutDate", "checkoutTime", "checkOutDate"), z)
}

func placeName(p *Place) string {
	if p == nil {
		return ""
	}
	return p.Name
}

// placeZoneHint is the zone of a place: by an IATA code in its name, by
// the city its name starts with, by its country, else by the sender's
// country.
func (c *msgContext) placeZoneHint(name, country string) zoneHint {
	// The city first: a station's code in parentheses may be an airport's
	// elsewhere ("London Kings Cross (KGX)" is not Grayling, Alaska).
	if name != "" {
		if z, loc := places.CityZone(name); loc != nil {
			return zoneHint{z, loc}
		}
	}
	if m := parenCode.FindStringSubmatch(name); m != nil {
		if z, loc := places.Zone(m[1]); loc != nil {
			return zoneHint{z, loc}
		}
	}
	return c.countryZone(country)
}

// countryZone is the zone of a country, else of the sender's country.
func (c *msgContext) countryZone(country string) zoneHint {
	if country == "" {
		country = c.senderCountry
	}
	name, loc := places.CountryZone(country)
	return zoneHint{name, loc}
}

// countryCode accepts an ISO code or a few common country names.
func countryCode(s string) string {
	s = strings.TrimSpace(s)
	if len(s) == 2 {
		return strings.ToUpper(s)
	}
	return countryNames[places.Fold(s)]
}

var countryNames = map[string]string{
	"germany": "DE", "deutschland": "DE", "france": "FR", "united kingdom": "GB", "uk": "GB",
	"great britain": "GB", "spain": "ES", "espana": "ES", "italy": "IT", "italia": "IT",
	"netherlands": "NL", "belgium": "BE", "austria": "AT", "osterreich": "AT", "switzerland": "CH",
	"schweiz": "CH", "czech republic": "CZ", "czechia": "CZ", "poland": "PL", "denmark": "DK",
	"sweden": "SE", "norway": "NO", "portugal": "PT", "ireland": "IE", "japan": "JP",
	"taiwan": "TW", "india": "IN",
}

func (c *msgContext) timeAt(s string, z zoneHint) *Time {
	if s == "" {
		return nil
	}
	w, ok := parseDateTime(s)
	if !ok {
		return nil
	}
	return resolve(w, z, c.dateLoc)
}

func (c *msgContext) order(it node, from string) (Fact, bool) {
	o := &Order{
		Number: cleanCode(getStr(it, "orderNumber", "confirmationNumber")),
		Status: orderStatus(getStr(it, "orderStatus")),
	}
	c.merchant(&o.Merchant, &o.Domain, getNode(it, "merchant", "seller", "broker"))
	o.Ordered = c.timeAt(getStr(it, "orderDate"), zoneHint{})
	o.Total = money(getStr(it, "price", "totalPrice"), getStr(it, "priceCurrency"))
	if o.Total == nil {
		if ps := getNode(it, "totalPaymentDue", "priceSpecification"); ps != nil {
			o.Total = money(getStr(ps, "price", "value"), getStr(ps, "priceCurrency", "currency"))
		}
	}
	for _, a := range all(it, "acceptedOffer", "orderedItem") {
		if offer, ok := a.(node); ok && len(o.Items) < 10 {
			name := getStr(getNodeOrEmpty(offer, "itemOffered", "orderedItem"), "name")
			if name == "" {
				name = getStr(offer, "name")
			}
			if name != "" {
				o.Items = append(o.Items, truncateRunes(name, 120))
			}
		}
	}
	for _, d := range all(it, "orderDelivery") {
		del, ok := d.(node)
		if !ok {
			continue
		}
		s := Shipment{Tracking: cleanCode(getStr(del, "trackingNumber"))}
		if cn := getNode(del, "carrier", "provider"); cn != nil {
			s.Carrier = getStr(cn, "name")
		}
		s.Status = deliveryStatus(getStr(del, "deliveryStatus"))
		s.Expected = c.timeAt(getStr(del, "expectedArrivalUntil", "expectedArrivalFrom"), zoneHint{})
		if s.Status == "" {
			s.Status = o.Status
		}
		if rank(s.Status) > rank(o.Status) {
			o.Status = s.Status
		}
		if s.Tracking != "" || s.Carrier != "" {
			o.Shipments = append(o.Shipments, s)
		}
		if len(o.Items) == 0 {
			if item := getStr(getNodeOrEmpty(del, "itemShipped"), "name"); item != "" {
				o.Items = append(o.Items, truncateRunes(item, 120))
			}
		}
	}
	if o.Status == "" {
		o.Status = StatusOrdered
		if len(o.Shipments) > 0 {
			o.Status = StatusShipped
		}
	}
	if o.Number == "" && len(o.Shipments) == 0 {
		return Fact{}, false
	}
	return Fact{Kind: KindOrder, From: from, Order: o}, true
}

// merchant fills a merchant's name and domain. The domain is always the
// sender's: markup cannot claim to come from someone else. The name from
// markup is used only when the sender is authenticated.
func (c *msgContext) merchant(name, domain *string, n node) {
	*domain = c.senderDomain
	if n != nil && c.authenticated {
		*name = getStr(n, "name")
	}
	if *name == "" {
		*name = c.senderName
	}
}

func orderStatus(s string) string {
	s = strings.ToLower(s[strings.LastIndexAny(s, "/:")+1:])
	switch {
	case s == "":
		return ""
	case strings.Contains(s, "delivered"):
		return StatusDelivered
	case strings.Contains(s, "transit"):
		return StatusShipped
	case strings.Contains(s, "pickup"), strings.Contains(s, "outfordelivery"):
		return StatusOutForDelivery
	case strings.Contains(s, "cancel"):
		return StatusCancelled
	case strings.Contains(s, "return"):
		return StatusReturned
	case strings.Contains(s, "problem"):
		return StatusProblem
	}
	return StatusOrdered
}

func deliveryStatus(s string) string {
	s = strings.ToLower(s[strings.LastIndexAny(s, "/:")+1:])
	switch {
	case s == "":
		return ""
	case strings.Contains(s, "delivered"):
		return StatusDelivered
	case strings.Contains(s, "outfordelivery"), strings.Contains(s, "availableforpickup"):
		return StatusOutForDelivery
	case strings.Contains(s, "intransit"), strings.Contains(s, "shipped"):
		return StatusShipped
	case strings.Contains(s, "problem"), strings.Contains(s, "failed"):
		return StatusProblem
	}
	return ""
}

func (c *msgContext) invoice(it node, from string) (Fact, bool) {
	b := &Bill{Number: cleanCode(getStr(it, "confirmationNumber", "identifier", "accountId"))}
	c.merchant(&b.Issuer, &b.Domain, getNode(it, "provider", "broker", "seller"))
	if ps := getNode(it, "totalPaymentDue", "minimumPaymentDue"); ps != nil {
		b.Amount = money(getStr(ps, "price", "value"), getStr(ps, "priceCurrency", "currency"))
	}
	if b.Amount == nil {
		b.Amount = money(getStr(it, "totalPaymentDue", "price"), getStr(it, "priceCurrency"))
	}
	b.Due = c.timeAt(getStr(it, "paymentDueDate", "paymentDue"), c.countryZone(""))
	b.Status = StatusDue
	switch s := strings.ToLower(getStr(it, "paymentStatus")); {
	case strings.Contains(s, "complete"), strings.Contains(s, "automaticallyapplied"), strings.Contains(s, "paid"):
		b.Status = StatusPaid
	case strings.Contains(s, "cancel"):
		b.Status = StatusCancelled
	}
	if b.Amount == nil && b.Due == nil {
		return Fact{}, false
	}
	return Fact{Kind: KindBill, From: from, Bill: b}, true
}

// money normalises an amount ("1,234.50", "12.5", 12.5) to a dot decimal
// with two places.
func money(amount, currency string) *Money {
	a, ok := normaliseAmount(amount)
	if !ok {
		return nil
	}
	return &Money{Amount: a, Currency: strings.ToUpper(strings.TrimSpace(currency))}
}

func normaliseAmount(s string) (string, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "$€£ ")
	if s == "" {
		return "", false
	}
	lastDot, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	dec := -1
	switch {
	case lastDot > lastComma && len(s)-lastDot-1 <= 2:
		dec = lastDot
	case lastComma > lastDot && len(s)-lastComma-1 <= 2:
		dec = lastComma
	}
	var intPart, frac strings.Builder
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			if dec >= 0 && i > dec {
				frac.WriteRune(r)
			} else {
				intPart.WriteRune(r)
			}
		case r == '.' || r == ',' || r == ' ' || r == '\'' || r == '\u00a0' || r == '\u202f':
		default:
			return "", false
		}
	}
	if intPart.Len() == 0 && frac.Len() == 0 {
		return "", false
	}
	var n int64
	if intPart.Len() > 0 {
		var err error
		if n, err = strconv.ParseInt(intPart.String(), 10, 64); err != nil || n > 1e13 {
			return "", false
		}
	}
	f := frac.String()
	for len(f) < 2 {
		f += "0"
	}
	return fmt.Sprintf("%d.%s", n, f), true
}

// cleanCode trims a reference number and drops what cannot be one.
func cleanCode(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 64 {
		return ""
	}
	return s
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
