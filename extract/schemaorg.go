package extract

import (
	"strconv"
	"strings"
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
		case "FlightReservation", "TrainReservation", "LodgingReservation", "BusReservation", "BoatReservation",
			"RentalCarReservation", "EventReservation", "Order", "ParcelDelivery", "Invoice":
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

func getNodeOrEmpty(n node, names ...string) node {
	if v := getNode(n, names...); v != nil {
		return v
	}
	return node{}
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

// cleanCode trims a reference number and drops what cannot be one.
func cleanCode(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 64 {
		return ""
	}
	return s
}
