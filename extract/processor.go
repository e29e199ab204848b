package extract

import (
	"strings"

	"mailnode/extract/lang"
)

// A payment processor's notice (PayPal's: "You submitted an order
// amounting to 32.00 GBP to Boots.com", "You authorised a payment of 6.00
// PLN to emTransit BV", "Le vendeur a fourni les informations de suivi
// d'expédition") tells of a payment to someone else: the payee is named
// under a label ("Merchant", "Seller", "Nom du vendeur"), the payment by
// its transaction's id and, when the payee sent one, its invoice's. The
// shop's and the biller's readers find none of it (issue 46: foreign-11,
// -19, -23 and -25 held such notices; each gave nothing): no order's
// number by an order's label, an invoice id that makes an order a bill,
// no bill's words. Read here as the payee's order when the notice speaks
// of an order or of its shipping, else as a paid bill. The fact keeps the
// processor's domain: the payee's name is the payee's own claim, and the
// merge shows such a sender by its domain.

// processorDomains are the registrable domains' first labels of payment
// processors that send their users notices of payments to others
// (paypal.com, paypal.co.uk, paypal.fr …).
var processorDomains = map[string]bool{"paypal": true}

// The labels a processor's notice writes (processor.*: the transaction's
// id, the payee, the order's state), every language's.
var (
	processorTxLabels      = numericLabels(lang.Entries("processor.transaction")...)
	processorInvoiceLabels = numericLabels(lang.Entries("processor.invoice")...)
	processorAmountLabels  = numericLabels(lang.Entries("processor.amount")...)
	processorStateLabels   = labels(lang.Entries("processor.state")...)
)

// processorMail reports whether the mail is from a payment processor's
// own domain.
func (c *msgContext) processorMail() bool {
	if c.senderDomain == "" {
		return false
	}
	label, _, _ := strings.Cut(orgDomain(strings.ToLower(c.senderDomain)), ".")
	return processorDomains[label]
}

// processorFact reads a processor's notice of a payment the reader made:
// an order (its words, a delivery address, shipping details or an
// order's state) or a paid bill, numbered by the payee's invoice id, else
// by the transaction's. A notice of money the reader received, or of a
// payment that failed, is none (readBill's vetoes, asked here too).
func (c *msgContext) processorFact(subject, text string) (Fact, bool) {
	l := lower(subject + "\n" + firstLines(text, 30))
	if has := billLists.In(l); has&(hasPaymentFailed|hasPaymentIn) != 0 || receiptUnpaid.In(l) {
		// Money received, a payment failed, refunded or pending: no
		// payment the reader made.
		return Fact{}, false
	}
	// The amount the notice's first sentence or its label gives ("an
	// order amounting to 32.00 GBP", "a payment of 6.00 PLN", "Montant
	// de la transaction : £581.27 GBP"), else the amount's labels'.
	amount := c.labelledWith(processorAmountLabels, subject+"\n"+text)
	if amount == nil {
		amount = c.labelledAmount(text)
	}
	// The payee's invoice id ("Invoice ID: 151096274", "iv_ewlTn4…"), as
	// the payee knows the payment, else the transaction's id.
	number := processorID(c.afterNext(processorInvoiceLabels, text))
	if number == "" {
		number = processorID(c.afterNext(processorTxLabels, text))
	}
	if amount == nil || number == "" {
		return Fact{}, false
	}
	status := ""
	for _, v := range c.after(processorStateLabels, text) {
		if st := statusIn(lower(v)); st != "" {
			status = st
			break
		}
	}
	tracking, carrier := c.trackingNumber(text)
	if status == "" && tracking != "" {
		status = StatusShipped
	}
	if status == "" && (orderedWords.Any(l) || goodsWords.In(c.lowerOf(text))) {
		status = StatusOrdered
	}
	if status == "" {
		return Fact{Kind: KindBill, From: FromText, Bill: &Bill{Domain: c.senderDomain, Number: number, Amount: amount, Status: StatusPaid}}, true
	}
	o := &Order{Status: status, Domain: c.senderDomain, Number: number, Total: amount}
	if tracking != "" {
		o.Shipments = []Shipment{{Tracking: tracking, Carrier: carrier, Status: status}}
	}
	return Fact{Kind: KindOrder, From: FromText, Order: o}, true
}

// processorID is the first of a label's values that is an id: a word of
// eight characters or more, letters, digits, '-' and '_', a digit among
// them, on the label's line or alone on the next.
func processorID(values []string) string {
	for _, v := range values {
		for _, ln := range strings.SplitN(v, "\n", 2) {
			f := strings.Fields(ln)
			if len(f) == 0 {
				continue
			}
			id := strings.TrimRight(f[0], ".,;")
			if len(id) >= 8 && hasDigit(id) && strings.IndexFunc(id, func(r rune) bool {
				return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_')
			}) < 0 {
				return id
			}
			break
		}
	}
	return ""
}
