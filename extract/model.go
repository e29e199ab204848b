package extract

import (
	"encoding/json"
	"time"

	"mailnode/extract/places"
)

// Kinds of fact.
const (
	KindFlight = "flight"
	KindTrain  = "train"
	KindHotel  = "hotel"
	KindOrder  = "order"
	KindBill   = "bill"
	// Plans: bookings that are not the spec's travel (get_upcoming_travel
	// returns flights, trains and hotels only) but that ask can answer
	// about: bus and ferry legs, car rentals (pick-up as Depart and From,
	// return as Arrive and To, the company as Name) and event tickets
	// (Name, venue as Address, start as Depart).
	KindBus    = "bus"
	KindFerry  = "ferry"
	KindRental = "rental"
	KindEvent  = "event"
)

// IsTravel reports whether a segment kind is the spec's travel.
func IsTravel(kind string) bool {
	return kind == KindFlight || kind == KindTrain || kind == KindHotel
}

// Where a fact was read from, in order of trust.
const (
	FromJSONLD    = "json-ld"
	FromMicrodata = "microdata"
	FromCalendar  = "ical"
	FromText      = "text"
	// FromForwarded: text of a forwarded original, whose sender is only
	// claimed by the forwarding text; never authenticated.
	FromForwarded = "forwarded"
	// FromAttachment: a machine-made attachment (a Wallet pass, a PDF's
	// embedded invoice or text).
	FromAttachment = "attachment"
)

// Statuses. A segment is confirmed or cancelled; an order moves through
// ordered → shipped → out_for_delivery → delivered unless it is cancelled,
// returned or has a delivery problem; a bill is due, paid or cancelled,
// and stale when read more than StaleAfter past its due date (StatusAt).
const (
	StatusConfirmed      = "confirmed"
	StatusCancelled      = "cancelled"
	StatusOrdered        = "ordered"
	StatusShipped        = "shipped"
	StatusOutForDelivery = "out_for_delivery"
	StatusDelivered      = "delivered"
	StatusReturned       = "returned"
	StatusProblem        = "problem"
	StatusDue            = "due"
	StatusPaid           = "paid"
	// StatusStale: a bill left due more than StaleAfter past its due
	// date. Whatever happened to it (paid by other means, void, with a
	// debt collector) the node does not know; it is no bill to pay now,
	// and a mail cannot make an agent think so by dating one years back.
	StatusStale = "stale"
)

// StaleAfter is how long past its due date a due bill stays due.
const StaleAfter = 365 * 24 * time.Hour

// Time is a moment with the IANA zone it happens in. Zone is empty when
// no zone is known; the offset is then the one the mail gave, or the
// offset of the mail's Date header.
type Time struct {
	time.Time
	Zone string
	// DateOnly: only the day is known (a due date, a check-in day). Time
	// is then midnight of that day in Zone.
	DateOnly bool
}

type timeJSON struct {
	At       string `json:"at"`
	Zone     string `json:"zone,omitempty"`
	DateOnly bool   `json:"date_only,omitempty"`
}

// MarshalJSON writes {"at": RFC 3339 with offset, "zone": IANA name}.
func (t Time) MarshalJSON() ([]byte, error) {
	return json.Marshal(timeJSON{At: t.Format(time.RFC3339), Zone: t.Zone, DateOnly: t.DateOnly})
}

// UnmarshalJSON reads what MarshalJSON wrote, restoring the zone's
// location when the zone database knows it.
func (t *Time) UnmarshalJSON(b []byte) error {
	var j timeJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	v, err := time.Parse(time.RFC3339, j.At)
	if err != nil {
		return err
	}
	if j.Zone != "" {
		if loc := places.Location(j.Zone); loc != nil {
			v = v.In(loc)
		}
	}
	*t = Time{Time: v, Zone: j.Zone, DateOnly: j.DateOnly}
	return nil
}

// Place is an airport, station or city.
type Place struct {
	Name string `json:"name,omitempty"`
	// Code is the IATA airport code, or a station code when the mail gives one.
	Code string `json:"code,omitempty"`
}

// Money is an amount in a currency. Amount is a decimal string with a dot
// ("1234.50") so that no float rounding touches it.
type Money struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency,omitempty"` // ISO 4217
}

// Segment is one flight, train ride or hotel stay, or one plan: a bus or
// ferry leg, a car rental, an event.
type Segment struct {
	Type        string `json:"type"` // flight, train or hotel
	Status      string `json:"status"`
	Reservation string `json:"reservation,omitempty"`
	// Carrier is the airline or rail operator; Number the flight or train
	// ("LH 400", "ICE 943").
	Carrier string `json:"carrier,omitempty"`
	Number  string `json:"number,omitempty"`
	From    *Place `json:"from,omitempty"`
	To      *Place `json:"to,omitempty"`
	Depart  *Time  `json:"depart,omitempty"`
	Arrive  *Time  `json:"arrive,omitempty"`
	Seat    string `json:"seat,omitempty"`

	// Name is an event's name or a rental's company.
	Name string `json:"name,omitempty"`

	Hotel    string `json:"hotel,omitempty"`
	Address  string `json:"address,omitempty"`
	CheckIn  *Time  `json:"check_in,omitempty"`
	CheckOut *Time  `json:"check_out,omitempty"`
}

// Start is when the segment begins: departure or check-in.
func (s *Segment) Start() *Time {
	if s.Depart != nil {
		return s.Depart
	}
	return s.CheckIn
}

// End is when the segment ends: arrival or check-out, else its start.
func (s *Segment) End() *Time {
	switch {
	case s.Arrive != nil:
		return s.Arrive
	case s.CheckOut != nil:
		return s.CheckOut
	}
	return s.Start()
}

// Shipment is one parcel of an order.
type Shipment struct {
	Carrier  string `json:"carrier,omitempty"`
	Tracking string `json:"tracking,omitempty"`
	Status   string `json:"status,omitempty"`
	Expected *Time  `json:"expected,omitempty"`
}

// Order is a purchase from a merchant.
type Order struct {
	Merchant  string     `json:"merchant,omitempty"`
	Domain    string     `json:"domain,omitempty"` // the merchant's sender domain
	Number    string     `json:"number,omitempty"`
	Status    string     `json:"status"`
	Ordered   *Time      `json:"ordered,omitempty"`
	Total     *Money     `json:"total,omitempty"`
	Items     []string   `json:"items,omitempty"`
	Shipments []Shipment `json:"shipments,omitempty"`
}

// Bill is an invoice or a payment request.
type Bill struct {
	Issuer string `json:"issuer,omitempty"`
	Domain string `json:"domain,omitempty"` // the issuer's sender domain
	Number string `json:"number,omitempty"` // invoice or reference number
	Status string `json:"status"`
	Amount *Money `json:"amount,omitempty"`
	Due    *Time  `json:"due,omitempty"`
	Issued *Time  `json:"issued,omitempty"`
}

// StatusAt is the bill's status as of now: due becomes stale once its
// due date is more than StaleAfter past. Merging keeps the status the
// mail stated; the tools read bills through this.
func (b *Bill) StatusAt(now time.Time) string {
	if b.Status == StatusDue && b.Due != nil && now.Sub(b.Due.Time) > StaleAfter {
		return StatusStale
	}
	return b.Status
}

// Fact is one thing a message says: exactly one of Segment, Order and Bill
// is set, matching Kind.
type Fact struct {
	Kind    string   `json:"kind"`
	From    string   `json:"from"` // FromJSONLD, FromMicrodata, FromCalendar or FromText
	Segment *Segment `json:"segment,omitempty"`
	Order   *Order   `json:"order,omitempty"`
	Bill    *Bill    `json:"bill,omitempty"`
	// Quoted: for a FromForwarded fact, the address the forward's text
	// names as the original's sender ("" when it names none). The facts
	// store keys a forwarded original by its forwarder and this sender,
	// so that a stranger's mail forwarded by the same person (a rule
	// that forwards a work mailbox) is no word on the forwarded
	// booking of an airline (the ninth outside review, H1). A forward
	// whose outermost original quotes a deeper one of another domain is
	// the chain, the outer address first, parted by QuotedChain (the
	// twelfth outside review, HIGH-4).
	Quoted string `json:"quoted,omitempty"`

	// exactBill: the bill comes from an embedded e-invoice, which no
	// text reading overrides within the same mail.
	exactBill bool
	// railTicket: a journey a rail ticket's barcode states, whose booking
	// the mail's text may name (ticketBookings).
	railTicket bool
	// boardingPass: a leg a boarding pass's barcode states, by its IATA
	// codes (withoutRailPasses).
	boardingPass bool
}
