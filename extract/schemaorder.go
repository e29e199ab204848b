package extract

import (
	"strings"
)

// Orders and parcel deliveries from schema.org markup (Order,
// ParcelDelivery): the order's number, merchant, date, total, items,
// state and parcels.

func (c *msgContext) order(it node, from string) (Fact, bool) {
	o := &Order{
		Number: cleanCode(getStr(it, "orderNumber", "confirmationNumber")),
		Status: orderStatus(getStr(it, "orderStatus")),
	}
	c.merchant(&o.Merchant, &o.Domain, getNode(it, "merchant", "seller", "broker"))
	o.Ordered = c.timeAt(getStr(it, "orderDate"), zoneHint{})
	o.Total = c.markupMoney(getStr(it, "price", "totalPrice"), getStr(it, "priceCurrency"))
	if o.Total == nil {
		if ps := getNode(it, "totalPaymentDue", "priceSpecification"); ps != nil {
			o.Total = c.markupMoney(getStr(ps, "price", "value"), getStr(ps, "priceCurrency", "currency"))
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
