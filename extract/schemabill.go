package extract

import (
	"strings"
)

// Bills from schema.org markup (Invoice).

func (c *msgContext) invoice(it node, from string) (Fact, bool) {
	b := &Bill{Number: cleanCode(getStr(it, "confirmationNumber", "identifier", "accountId"))}
	c.merchant(&b.Issuer, &b.Domain, getNode(it, "provider", "broker", "seller"))
	if ps := getNode(it, "totalPaymentDue", "minimumPaymentDue"); ps != nil {
		b.Amount = c.markupMoney(getStr(ps, "price", "value"), getStr(ps, "priceCurrency", "currency"))
	}
	if b.Amount == nil {
		b.Amount = c.markupMoney(getStr(it, "totalPaymentDue", "price"), getStr(it, "priceCurrency"))
	}
	b.Due = c.timeAt(getStr(it, "paymentDueDate", "paymentDue"), c.countryZone(""))
	b.Status = StatusDue
	// PaymentAutomaticallyApplied is a direct debit still to come ("an
	// automatic payment system is in place and will be used"): due, as a
	// text's direct debit on a day ahead is.
	switch s := strings.ToLower(getStr(it, "paymentStatus")); {
	case strings.Contains(s, "complete"), strings.Contains(s, "paid"):
		b.Status = StatusPaid
	case strings.Contains(s, "cancel"):
		b.Status = StatusCancelled
	}
	if b.Amount == nil && b.Due == nil {
		return Fact{}, false
	}
	return Fact{Kind: KindBill, From: from, Bill: b}, true
}
