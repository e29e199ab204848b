package extract

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// Bills from text (textBill): the invoice number, the amount (money.go),
// the due date by its label, after the amount ("£61.30 by 21 December")
// or in the sentence that says it is debited, and whether it is paid.
// The words are extract/lang/data's (bill.*, due, due.after, invoice).

// textBill reads a bill: an amount and a due date or invoice number next
// to their labels, in a mail about a bill or invoice.
//
// A slashed date of a sender whose country the domain does not tell is
// read day first ("09/02/2026" the 9th of February), unless another of
// the mail's slashed dates can only be month first ("10/14/2030"). When
// day first puts the day it is due months before the mail was written and
// month first puts it near, the bill is read again month first, as a US
// biller on a .org or .net domain writes ("Payment is due on or before
// 09/02/2026" in a mail of 3 August): unless another of its slashed dates
// can only be day first ("25/08/2026").
func (c *msgContext) textBill(subject, text string) (Fact, bool) {
	if c.senderCountry != "" || c.monthFirst || c.usSender() {
		return c.readBill(subject, text)
	}
	dayFirst, monthFirst := slashOrders(text)
	if monthFirst && !dayFirst {
		c.monthFirst = true
		f, ok := c.readBill(subject, text)
		c.monthFirst = false
		return f, ok
	}
	f, ok := c.readBill(subject, text)
	if !ok || f.Bill.Due == nil || dayFirst || !c.longPast(f.Bill.Due) {
		return f, ok
	}
	c.monthFirst = true
	g, gok := c.readBill(subject, text)
	c.monthFirst = false
	if gok && g.Bill.Due != nil && !c.longPast(g.Bill.Due) && g.Bill.Due.Before(c.date.AddDate(1, 0, 0)) {
		return g, true
	}
	return f, ok
}

// ticketDocument are the names of a travel ticket's documents
// (receipt.itinerary: "Itinerary Receipt", "E-ticket", "Boarding pass",
// "Fahrkarte"), billcharged.go's receiptTicket less a flight's own words.
var ticketDocument = words.NewWholeSet(lang.Entries("receipt.itinerary"))

// longPast reports whether a bill's due day is more than two months
// before the mail's Date.
func (c *msgContext) longPast(due *Time) bool {
	return !c.date.IsZero() && due.Before(c.date.AddDate(0, -2, 0))
}

// slashDateRE is a slashed date with its year.
var slashDateRE = lazyregexp.New(`\b(\d{1,2})/(\d{1,2})/(?:\d{4}|\d{2})\b`)

// slashOrders reports whether a slashed date in text can only be read
// day first (its first number is no month) and whether one can only be
// read month first (its second is none).
func slashOrders(text string) (dayFirst, monthFirst bool) {
	if strings.IndexByte(text, '/') < 0 {
		return false, false
	}
	for _, m := range slashDateRE.FindAllStringSubmatch(firstLines(text, 200), 64) {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		dayFirst = dayFirst || a > 12 && b >= 1 && b <= 12
		monthFirst = monthFirst || b > 12 && b <= 31 && a >= 1 && a <= 12
	}
	return dayFirst, monthFirst
}

// readBill is textBill's reading, in the order the sender's dates are
// read in.
func (c *msgContext) readBill(subject, text string) (Fact, bool) {
	l := strings.ReplaceAll(lower(subject+"\n"+firstLines(text, 30)), "’", "'")
	// A card or account statement names its new balance and a minimum
	// payment in any language ("Nuevo saldo", "Pago mínimo"), whatever
	// its subject calls it.
	statement := false
	// A ride's receipt thanks for the ride and may name no bill
	// (ridereceipt.go): asked here only of the mail that names none, and
	// found with the other lists below in the one that does.
	ride := false
	// A charge's notice without its amount ("la redevance … à régler au
	// plus tard le 08/01/2026", billdueby.go) names no bill by the topic's
	// words; worked out once, here or below.
	dueBy := sync.OnceValue(func() *Time { return c.amountlessDue(subject, text) })
	if !c.billTopicStands(l) && !billInstalment.Any(l) {
		if ride = rideReceipt(firstLines(l, 13)); !ride { // its thanks open it
			if statement = statementGate(l) && statementSet.Any(l) && minimumSet.Any(l); !statement && dueBy() == nil {
				return Fact{}, false
			}
		}
	}
	// The other lists the lines are asked of, found in one pass.
	has := billLists.In(l)
	ride = ride || has&hasRide != 0
	// "We couldn't process your payment": an account notice, not a bill;
	// "You received a payment of $5.00 USD from …": money the reader
	// was paid, as a payment service tells a seller.
	if has&(hasPaymentFailed|hasPaymentIn) != 0 {
		return Fact{}, false
	}
	b := &Bill{Domain: c.senderDomain, Issuer: c.billIssuer(subject, text), Status: StatusDue}
	b.Amount = c.labelledAmount(text)
	if b.Amount == nil {
		// A total's row printed bare ("ÖDENECEK TOPLAM TUTAR 73,50"), in
		// the currency of every amount the text writes with one, before
		// an amount in a sentence ("alt limiti vergiler dahil 20 TL'dir",
		// a threshold of the terms).
		b.Amount = c.billAmountBare(text)
	}
	if b.Amount == nil {
		var cond bool
		if b.Amount, cond = c.sentenceAmount(text); cond {
			// "Tip of the month: if your statement shows a past due
			// balance of $86.40, please pay by …": the bill's
			// sentence is a condition's (the ninth outside review, L2).
			return Fact{}, false
		}
		if b.Amount != nil && zeroMoney(b.Amount) {
			// A sentence's amount of nothing ("請求金額が0円となった方にも
			// …", a note to whom it may concern) is no bill's.
			b.Amount = nil
		}
	}
	// "… a past due balance of $86.40. Please pay by September 22"
	// (billsentence.go): the amount owed and its day, in running text.
	var owedDue *Time
	if b.Amount == nil {
		var cond bool
		b.Amount, owedDue, cond = c.owedAmount(text, c.countryZone(""))
		if cond {
			// "Tip of the month: if your statement shows a past due
			// balance of $86.40, please pay by …": the sentence
			// that owes is a condition's, and no label states a
			// bill (the ninth outside review, L2).
			return Fact{}, false
		}
	}
	named := b.Amount != nil // by its label or the bill's sentence
	// A receipt's total printed with the card it was charged to, under
	// no label (billcharged.go).
	// Not a receipt of goods delivered or shipped (a meal's, a parcel's):
	// an order's total, which the order reader keeps or, without its
	// number, nobody.
	if b.Amount == nil && c.receiptNamed(subject, text) {
		if m := c.chargedAmount(text); m != nil && !goodsWords.In(c.lowerOf(text)) {
			b.Amount = m
		}
	}
	if b.Amount == nil || zeroMoney(b.Amount) {
		// Or a labelled amount of nothing ("opłata za wezwanie do
		// zapłaty 0,00 zł") before the total printed bare ("Kwota
		// płatności: 212,48").
		if m := c.billAmountBare(text); m != nil {
			b.Amount = m
		}
	}
	// A bill laid out as a table, its header row over its one row of
	// values ("N° de facture | Montant TTC | Date limite de paiement" over
	// "FM-30031207 | 70,00 € | 27/03/2030"): each cell read as its
	// header's label, before the text's labels, which would read a
	// header's label as the label of the row's first value.
	// Two IndexByte calls, not ContainsAny: ContainsAny steps byte by byte
	// and was 3 % of a mail's extraction on mail with neither.
	cells := ""
	if head := firstLines(text, 60); strings.IndexByte(head, '\t') >= 0 || strings.IndexByte(head, '|') >= 0 {
		cells = oneRowTableLabels(barsAsTabs(head))
	}
	if cells != "" {
		if m := c.labelledAmount(cells); m != nil {
			b.Amount = m
		}
	}
	// A part payment's receipt and a card statement print another figure
	// under a label the amount reader takes first ("Amount paid: $30.00"
	// over "Balance due: $70.00"; "Minimum payment due: $35.00" beside
	// "New balance: $1,234.56"): the amount is what is due. Gated by the
	// words already lowered for the topic.
	partDue := false
	if has&(hasPaidLabel|hasMinimum) != 0 {
		for _, t := range []string{cells, text} {
			if t == "" {
				continue
			}
			if m := c.partBalance(t); m != nil {
				b.Amount, partDue = m, true
				break
			}
			if has&hasMinimum != 0 {
				if m := c.statementBalance(t); m != nil {
					b.Amount = m
					break
				}
			}
		}
	}
	// A payment told in a sentence, its remainder under a label: a part's
	// receipt (remainingBalance).
	if !partDue && has&hasBillPaid != 0 {
		for _, t := range []string{cells, text} {
			if t == "" {
				continue
			}
			if m := c.remainingBalance(t); m != nil {
				b.Amount, partDue = m, true
				break
			}
		}
	}
	// "Amount due: $0.00": nothing is left to pay. The bill is paid, and
	// its amount is the one it was for ("Total: $70.00"), when another
	// label gives one.
	// So when a balance's label gives zero under another amount ("Total:
	// $5.99" over "Paid: $6.32" and "Total Due: $0.00"): the amount is
	// then what the receipt says was paid, tax and all (billcharged.go).
	// Never with a due day: a statement's balance forward ("Remaining
	// balance: $0.00" of the last period, above "Total amount due: $64.10"
	// and "Due date: …") is a new bill due (the thirteenth outside
	// review, HIGH-3).
	zeroDue := b.Amount != nil && (b.Amount.Amount == "0.00" || !partDue && c.zeroBalance(text) && c.dueDate(text, c.countryZone("")) == nil)
	if zeroDue {
		if m := c.paidFigure(text); m != nil {
			b.Amount = m
		} else if b.Amount.Amount == "0.00" {
			if m := c.nonZeroAmount(text); m != nil {
				b.Amount = m
			}
		}
	}
	// A ride's receipt: the amount its payment's line shows is paid, and
	// is the bill's when no label gave another (ridereceipt.go).
	ridePaid := false
	if ride && !partDue {
		if m, _ := c.ridePayment(text); m != nil && (b.Amount == nil || *b.Amount == *m) {
			b.Amount, ridePaid = m, true
		}
	}
	b.Due = c.dueDate(text, c.countryZone(""))
	// A ride's receipt that shows no payment's line, only its fare's
	// lines and the total by its label ("Tarifa base  COP 9,000",
	// "Propina  COP 1,700", "Total  COP 10,700", "Gracias por viajar con
	// Uber"): the ride is over and its fare taken, unless the receipt
	// says it was not (bill.receipt.unpaid, an open balance) or asks for
	// it by a day. A total alone, without the fare's lines, is a notice
	// that a receipt will follow.
	if ride && !partDue && !ridePaid && named && b.Due == nil && paymentLine(text) == "" &&
		len(moneyRE.FindAllStringSubmatchIndex(firstLines(text, 40), 3)) == 3 && !receiptUnpaid.In(c.lowerOf(text)) && !c.openBalance(text) {
		ridePaid = true
	}
	b.Number = c.invoiceNumber(text)
	if b.Number == "" {
		b.Number = headingNumber(text)
	}
	// A notice that its invoice is ready, numbered by its label, that
	// prints one amount however often ("Your invoice is ready", "49,00 €"
	// alone under the period, "We will charge 49,00 € to your card"):
	// that amount is the bill's.
	if b.Amount == nil && b.Number != "" {
		b.Amount = c.onlyAmount(text)
	}
	if cells != "" {
		if d := c.dueDate(cells, c.countryZone("")); d != nil {
			b.Due = d
		}
		if n := c.invoiceNumber(cells); n != "" {
			b.Number = n
		}
	}
	paidOn, paidWord := c.paidStatus(subject, text)
	// A part payment leaves the bill due: its "payment received" is of
	// the part paid.
	if !partDue && has&hasBillPaid != 0 && c.paidPhraseStands(subject, text, b.Amount) || paidWord || zeroDue ||
		!partDue && has&hasPaidLabel != 0 && c.paidByLabel(text, b.Amount) ||
		!partDue && has&hasDebited != 0 && c.debitStands(subject, text, b.Amount) ||
		!partDue && b.Due == nil && c.chargeOnly(subject, text) && !c.openBalance(text) && !purchaseReceipt(text) && !c.askedBy(text) || ridePaid {
		b.Status = StatusPaid
	}
	// A printed invoice says it was paid at its foot, under its items
	// ("Należność ogółem: 316,83 PLN" … "Zapłacono: Aplikacja mobilna
	// ORLEN Pay"), when it asks for nothing by a day.
	if b.Status == StatusDue && b.Due == nil && !partDue && c.paidAtFoot(text, b.Amount) {
		b.Status = StatusPaid
	}
	// "Paid on January 30, 2030" after "Amount due:" is the day it was
	// paid, not a day it is due by.
	if b.Due != nil && paidOn != nil && b.Due.Format("2006-01-02") == paidOn.Format("2006-01-02") {
		b.Due = nil
	}
	// The day a sentence asks the labelled amount to be paid by ("…
	// utestående beløp på 512,00 kr. Betal innen 25.10.2026").
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue && owedDue == nil {
		if m, d, _ := c.owedAmount(text, c.countryZone("")); m != nil && *m == *b.Amount {
			owedDue = d
		}
	}
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue {
		b.Due = owedDue
	}
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue {
		b.Due = c.dueAfterAmount(text, c.countryZone(""))
	}
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue {
		b.Due = c.dueBeforeWord(text, c.countryZone(""))
	}
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue {
		b.Due = c.debitDate(text, c.countryZone(""))
	}
	// Terms as day counts ("30 Tage netto"): the invoice's date plus the
	// net days (billterms.go).
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue {
		b.Due = c.netTermDue(text, c.countryZone(""))
	}
	// A receipt for a booking is numbered by the booking ("Booking ID"
	// over "IBZY2087"), when it is a bill already: paid, or with a day
	// it is due by. A booking's number alone makes no bill.
	if b.Number == "" && b.Amount != nil && (b.Status == StatusPaid || b.Due != nil) {
		if cells != "" {
			b.Number = c.invoiceNumberAfter(bookingLabels, cells)
		}
		if b.Number == "" {
			b.Number = c.invoiceNumberAfter(bookingLabels, text)
		}
	}
	// So is a paid subscription's renewal or a charge's receipt by the
	// order it paid ("Votre abonnement a été renouvelé … Montant : 59,99 €
	// … Commande n° AV-2025-772104"), when it prints no invoice number.
	if b.Number == "" && b.Amount != nil && b.Status == StatusPaid {
		b.Number = c.invoiceNumberAfter(orderLabels, text)
	}
	// A bill that prints its number only in its subject, after "#"
	// ("Your receipt from Kestrel Labs #4471-0093", "Votre facture
	// #FA-2026-118 a bien été payée"; billsubject.go), when it is one
	// already.
	if b.Number == "" && b.Amount != nil && (b.Status == StatusPaid || b.Due != nil) {
		b.Number = subjectBillNumber(subject)
	}
	// A bill needs its amount and something to tell it apart: a due date
	// or a number. A payment notice needs only the amount it paid; an
	// issuer's notice that its bill is there needs its subject to name a
	// bill and the amount by its label or in the bill's sentence ("Ihre
	// Rechnung für September 2026 ist da. Betrag: 39,95 €.").
	dueNotice := false // a charge's notice by the day it asks for (billdueby.go)
	if b.Amount == nil && !partDue {
		if d := dueBy(); d != nil {
			b.Due, dueNotice = cmp.Or(b.Due, d), true
		}
	}
	// A charge's notice without its amount asks for it: one that says
	// it was paid says nothing an agent can use.
	if dueNotice && b.Status == StatusPaid {
		return Fact{}, false
	}
	if b.Amount == nil && !c.amountlessInvoice(subject, text, b.Number) && !amountlessNotice(subject, text) && !dueNotice || b.Amount != nil && b.Due == nil && b.Number == "" && b.Status != StatusPaid && !(named && !partDue && c.billNotice(subject, text)) {
		return Fact{}, false
	}
	// A statement without a due date asks for nothing, unless it says
	// its total will be charged ("Your account will be charged the
	// following: Total: $37.16", a cloud's billing statement).
	// A service's billing statement ("Amazon Web Services Billing
	// Statement Available", "Total in CAD: $102.73") bills its total,
	// as an account's statement of balances does not.
	if (statement || containsAny(l, "statement") && containsAny(cardDescriptorRE.ReplaceAllString(l, ""), "statement")) && b.Due == nil && !billDebit.In(l) &&
		!(named && billingStatement.In(l)) {
		return Fact{}, false
	}
	// A bill that no number tells apart is none in a mail that gives its
	// figures as an example (bill.example): a newsletter's "For example,
	// if your rent of 850,00 euro is due on 1 December", an instalment
	// advert's "Exemple : échéance 2 sur 4 de 49,99 euros". A receipt
	// says it was paid.
	if b.Number == "" && b.Status == StatusDue && billExample.In(l) {
		return Fact{}, false
	}
	// A purchase's receipt ("Purchase Summary", "Date of purchase:") that
	// names no bill, says nothing of a payment and asks for nothing by a
	// day is the purchase's, a ticket's or an order's (billpurchase.go).
	if b.Status == StatusDue && b.Due == nil && !billNouns.In(lower(subject)) && purchaseReceipt(text) {
		return Fact{}, false
	}
	// A travel ticket's receipt or itinerary ("Itinerary Receipt",
	// "E-Ticket", "Boarding pass" at its head) is a trip bought, for the
	// travel readers: its fare table is no bill, read or not (a printed
	// itinerary's columns of fees gave a paid bill of "PHP 0.00"). The
	// document's names only, not a flight's word: an in-flight Wi-Fi
	// receipt or an agency's invoice for flights is a bill. Asked last,
	// of a bill read: most mail is none.
	if ticketDocument.In(l) {
		return Fact{}, false
	}
	// An amount of nothing asks for nothing and says nothing was paid:
	// it is a table's balance or a fee's empty column ("Total Price
	// 257.00 0.00 SGD": a Jetstar itinerary's receipt, paid and owing
	// nothing), never a bill.
	if b.Amount != nil && zeroMoney(b.Amount) {
		return Fact{}, false
	}
	return Fact{Kind: KindBill, From: FromText, Bill: b}, true
}

// billTopicStands reports whether the lower-cased subject and first
// lines l name a bill (bill.topic) outside a question: a feature's "Your
// rent payment is due on the 1st? Set it once" asks, it names no bill.
func (c *msgContext) billTopicStands(l string) bool {
	stands := false
	billTopic.EachAt(l, func(_, end int) bool {
		stands = !inQuestion(l[end:])
		return !stands
	})
	return stands
}

// invoiceNumber is the number after the first invoice label that has
// one.
func (c *msgContext) invoiceNumber(text string) string {
	return c.invoiceNumberAfter(invoiceLabels, text)
}

// bookingLabels are a booking's labels that number its receipt
// (bill.booking).
var bookingLabels = numericLabels(lang.Entries("bill.booking")...)

// invoiceNumberAfter is the number after the first label of ls that has
// one.
func (c *msgContext) invoiceNumberAfter(ls labelSet, text string) string {
	for _, v := range c.after(ls, text) {
		// A row of cells each after its colon (": 220164890308 : 174978 :
		// RM161.53 : 1480953640") under a row of labels: which cell is
		// the label's the row does not say, and a wrong number is worse
		// than none.
		if t := strings.TrimSpace(v); strings.HasPrefix(t, ":") && strings.Count(t, " : ") >= 2 {
			continue
		}
		// "Invoice ID: EUINFR23-913708": the word's "ID" and its colon.
		if rest, ok := strings.CutPrefix(v, "ID:"); ok {
			v = strings.TrimLeft(rest, " \t")
		}
		// "a fost emisa factura Vodafone VDF087232507": the issuer's
		// name, its sender's domain's, between the word and the number.
		v = c.withoutSenderName(v)
		if id := uuidAfter(v); id != "" {
			return id
		}
		// The dotted form only where a dot comes early: the expressions
		// run on every invoice label's value.
		if i := strings.IndexByte(v, '.'); i >= 0 && i < 24 {
			if m := dottedNumRE.FindStringSubmatch(v); m != nil && !amountLikeRE.MatchString(m[1]) && !dottedDateRE.MatchString(m[1]) {
				return m[1]
			}
		}
		// A label that ends a row of a printed invoice may have the
		// account's IBAN on the row below: a number that passes the
		// IBAN check is no invoice number.
		// A year alone is the period's ("Ihre Jahresabrechnung 2029"),
		// a day the bill's date ("Facture 20221206" in a subject,
		// "Date de facture : 23/11/2022", over "N° de facture :
		// 11987795741122").
		// A number the rest of which is blanked out ("21210***") is none.
		if m := invoiceNumRE.FindStringSubmatchIndex(v); m != nil {
			n := v[m[2]:m[3]]
			if !validIBAN(n) && !notSeries[strings.Fields(n)[0]] && !yearRE.MatchString(n) && !compactDate(n) && !wholeSlashDateRE.MatchString(n) && !maskedTail(v[m[3]:]) {
				return n
			}
		}
		// A code of capitals and digits that ends in a letter
		// ("AB12CD34EF", "MKB9S9ZSMK": an app store's order ID), two
		// of each at least, or one digit in a code of eight or more
		// ("MT8WHDGNGH"): a word in capitals is none.
		if m := letterEndCodeRE.FindStringSubmatch(v); m != nil && (digitCount(m[1]) >= 2 || digitCount(m[1]) == 1 && len(m[1]) >= 8) && len(m[1])-digitCount(m[1]) >= 2 {
			return m[1]
		}
	}
	return ""
}

// withoutSenderName is v, a label's value, without the word that starts
// it when that word is the sender's domain's name ("Vodafone" from
// vodafone.ro), as a sentence names the bill "factura Vodafone …".
func (c *msgContext) withoutSenderName(v string) string {
	t := strings.TrimLeft(v, " \t")
	w, rest, ok := strings.Cut(t, " ")
	if !ok || w == "" || !startsUpper(w) {
		return v
	}
	label, _, _ := strings.Cut(orgDomain(c.senderDomain), ".")
	if len(label) < 3 || !strings.EqualFold(w, label) {
		return v
	}
	return rest
}

// letterEndCodeRE is a code of capitals and digits alone after its label.
var letterEndCodeRE = lazyregexp.New(`^[#:\s]*(?:(?:no|nr|n\.?[°º]?|č)\.?:?\s*)?([A-Z0-9]{6,20})(?:$|[\s;,.)])`)

// dottedNumRE is a number whose groups are apart by dots, as tax offices
// and insurers write theirs ("2030.44.10871", "01.234.567.8-2018-1"),
// unless it is an amount's digits (amountLikeRE: "1.234") or a date's
// (dottedDateRE).
var (
	dottedNumRE  = lazyregexp.New(`^[#:\s]*(?:(?:no|nr|n\.?[°º]?)\.?\s*)?([0-9]+(?:\.[0-9]+){2,}(?:-[0-9]+)*)(?:$|[\s;)])`)
	amountLikeRE = lazyregexp.New(`^\d{1,3}(?:\.\d{3})+$`)
	dottedDateRE = lazyregexp.New(`^\d{1,4}\.\d{1,2}\.\d{1,4}$`)
)

// oneRowTableLabels is tabLabels of the tables that are a header row over
// one row of values: a bill's fields laid out as a table. A table of
// several rows lists items ("Item | Qty | Amount" over each item), whose
// first row's amount is no bill's.
func oneRowTableLabels(text string) string {
	return headedLabels(text, true)
}

// barsAsTabs is text with the cells of each row whose cells are apart by
// bars ("Fakturanummer | Förfallodag | Att betala") apart by tabs, as the
// mime package keeps an HTML table's, for tabLabels.
func barsAsTabs(text string) string {
	if strings.IndexByte(text, '|') < 0 {
		return text
	}
	var b strings.Builder
	for ln := range strings.Lines(text) {
		if strings.Count(ln, "|") >= 1 && strings.IndexByte(ln, '\t') < 0 {
			cells := strings.Split(strings.TrimRight(ln, "\r\n"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			b.WriteString(strings.Join(cells, "\t"))
			b.WriteByte('\n')
			continue
		}
		b.WriteString(ln)
	}
	return b.String()
}

// The status of a bill is decided by the strongest evidence in it, since a
// receipt speaks of what was due as much as a bill does ("Amount due:
// $0.00 — Paid on …", "Payment received … was due on"). A bill is paid
// when its subject or first lines hold a phrase that says so (bill.paid:
// "payment received", "thank you for your payment"), when the word for
// paid stands as a status on its own (bill.paid.word: a line, or the
// last part of one after a dash, that is only "PAID", "Status: Paid" or
// "Paid on 30 January"; a subject that ends "– PAID"), or when the amount due is
// zero. A due date, "due" wording or a reminder's words never outweigh
// these: without any of them the bill is due. The word alone in a
// sentence ("must be paid by", "if you have already paid") is no
// evidence.

// paidPhraseStands reports whether a paid phrase of the subject or first
// lines is about this bill: a statement lists the last payment as a row
// of its own ("Payment received Feb 20 - thank you   -$64.12") above
// the new amount due, so a phrase on a line whose amounts are all other
// than the bill's says nothing of it.
func (c *msgContext) paidPhraseStands(subject, text string, amount *Money) bool {
	return c.paidLineStands(subject, text, amount, func(l string) bool { return billPaid.Any(l) && billPaidWord.In(l) && paidNotConditional(l) })
}

// debitStands is paidPhraseStands for a debit told as done (debitedDone):
// "The amount has been debited from your account", "Der Rechnungsbetrag
// wurde per Lastschrift abgebucht" (the seventh outside set's hosting
// invoices, read as due by their payment term's date).
func (c *msgContext) debitStands(subject, text string, amount *Money) bool {
	return c.paidLineStands(subject, text, amount, debitedDone)
}

// paidLineStands reports whether a line of the subject or first lines
// that says (by said, on the lower-cased line) the bill is paid is about
// this bill (paidPhraseStands).
func (c *msgContext) paidLineStands(subject, text string, amount *Money, said func(l string) bool) bool {
	for ln := range strings.Lines(subject + "\n" + firstLines(text, 30)) {
		l := lowerLine(strings.ReplaceAll(ln, "’", "'"))
		if !said(l) {
			continue
		}
		ms := moneyRE.FindAllStringSubmatchIndex(ln, 4)
		if amount == nil {
			return true
		}
		if len(ms) == 0 {
			// A statement's charges list prints its figures bare
			// ("Payment received 07/22/2030   -61.44"): a bare figure
			// other than the bill's is that payment's.
			if bare, same := c.bareFigures(ln, amount); !bare || same {
				return true
			}
			continue
		}
		for _, m := range ms {
			if mo := c.moneyAt(ln, m, text); mo != nil && mo.Amount == amount.Amount {
				return true
			}
		}
	}
	return false
}

// bareFigures reports whether ln holds an amount with its cents and no
// currency as a word of its own ("-61.44", "1,061.44"), and whether one
// of them is amount. A clock ("received at 14.30") and a date's parts
// ("on 02.12") are the shape of such a figure and no payment's.
func (c *msgContext) bareFigures(ln string, amount *Money) (bare, same bool) {
	var clocks []clockMatch
	var dates []dateMatch
	read := false
	space := func(p int) (bool, int) {
		r, n := utf8.DecodeRuneInString(ln[p:])
		return unicode.IsSpace(r), n
	}
	for i := 0; i < len(ln); {
		for sp, n := space(i); sp && i < len(ln); sp, n = space(i) {
			i += n
		}
		j := i
		for sp, n := space(j); !sp && j < len(ln); sp, n = space(j) {
			j += n
		}
		f := strings.TrimLeft(ln[i:j], "-+−")
		start, end := i, j
		i = j
		if !bareAmountRE.MatchString(f) {
			continue
		}
		if !read {
			clocks, dates, read = findClocks(ln), c.dates(ln), true
		}
		if slices.ContainsFunc(clocks, func(k clockMatch) bool { return k.start < end && start < k.end }) ||
			slices.ContainsFunc(dates, func(d dateMatch) bool { return d.start < end && start < d.end }) {
			continue
		}
		bare = true
		if m := money(f, ""); m != nil && m.Amount == amount.Amount {
			return true, true
		}
	}
	return bare, false
}

// cardDescriptorRE is a receipt's sentence on how its charge shows on the
// payer's statement ("The €9.00 payment will appear on your bank/card
// statement as: PADDLE.NET* PLAUSIBLE", "charges will appear as
// "Linode*Akamai" on your credit card's statement"): a statement it
// names, not one it is.
var cardDescriptorRE = lazyregexp.New(`(?:appear|appears|show|shows|shown|listed)\b[^.\n]{0,60}?\bon\s+your\s+[a-z/' -]{0,30}statements?`)

// amountlessInvoice reports whether a mail that prints no amount is an
// invoice's notice all the same: its subject names an invoice or a bill,
// a label gives its number, and no amount with its currency stands in
// its first lines (one there that no rule read is a bill misread, not one
// without an amount). "Amazon Web Services Invoice Available [Invoice ID:
// EUINFR23-913708]" over "your AWS Account has Electronic Invoice(s)
// available": the agent can name the bill and its number, and says it
// does not know the amount.
func (c *msgContext) amountlessInvoice(subject, text, number string) bool {
	// Nor one with a PDF: its printed invoice gives the amount, and the
	// attachment's reader the bill.
	if number == "" || c.senderDomain == "" || c.documents || !billNouns.In(lower(subject)) {
		return false
	}
	// Not a number a mail about invoices shows as an example or on a
	// template ("Invoice #1001" in a newsletter's sample).
	if l := lower(subject + "\n" + firstLines(text, 40)); billExample.In(l) || invoiceSample.In(l) {
		return false
	}
	for ln := range strings.Lines(firstLines(text, 60)) {
		if !hasDigit(ln) || !holdsCurrency(ln, lowerLine(ln)) {
			continue
		}
		// A price per unit ("$0.21 per kWh") is no amount the invoice
		// leaves out.
		for _, m := range moneyRE.FindAllStringSubmatchIndex(ln, 4) {
			if !unitRateRE.MatchString(ln[m[1]:]) {
				return false
			}
		}
	}
	return true
}

// amountlessNoticeRE finds the words of a subject that says a bill's
// amount is set or the bill is there, the amount left to the issuer's
// site (bill.amountless: "10月のご請求額が確定いたしました", "Your bill is
// ready").
var amountlessNoticeRE = lazyregexp.New(`(?i)(?:` + strings.Join(longestFirst(lang.Entries("bill.amountless")), "|") + `)`)

// amountlessAnchors are the words every match of amountlessNoticeRE
// holds, one of each phrase's (requiredText), lower case: a text with
// none of them is passed over before the expression runs.
var amountlessAnchors = func() *words.Set {
	var a []string
	for _, e := range lang.Entries("bill.amountless") {
		a = append(a, strings.ToLower(requiredText(e)))
	}
	return words.NewSet(a)
}()

// amountlessPhrase reports whether s holds a phrase of bill.amountless.
func amountlessPhrase(s string) bool {
	return amountlessAnchors.Any(lower(s)) && amountlessNoticeRE.MatchString(s)
}

// amountlessNotice reports whether a mail is a notice of a bill that
// prints no amount: a bill due all the same, from its sender, by the day
// its label gives if any. Its text's first lines say so, and its subject
// says so or names a bill (bill.noun: "Turkcell Aylık Faturanız" over
// "e-faturanız sisteme yüklenmiştir"): a forward's note under such a
// subject ("see attached") is no notice of its own.
func amountlessNotice(subject, text string) bool {
	body := strings.TrimPrefix(text, subject+"\n")
	return (billNouns.In(lower(subject)) || amountlessPhrase(subject)) && amountlessPhrase(firstLines(body, 12))
}

// invoiceSample are the words of a mail that shows invoices rather than
// sends one (bill.sample); billUndone a refund's, a credit's, a voided
// invoice's (bill.undone).
var (
	invoiceSample = words.NewWholeSet(lang.Entries("bill.sample"))
	billUndone    = words.NewWholeSet(lang.Entries("bill.undone"))
)

// onlyAmount is the one amount with its currency the first lines of text
// print, however many times, once at least alone on its line (the
// notice's headline figure); nil when they print none, two different
// ones, an offer's ("$20.00 off"), or none alone ("Pay $10 less a month
// with AutoPay" is no bill's amount).
func (c *msgContext) onlyAmount(text string) *Money {
	// Money given back or an invoice undone (a refund, a credit note, a
	// voided invoice) prints one amount too, and is no bill due; nor is
	// an invoice paid ("This invoice was paid by direct debit").
	head := firstLines(text, 60)
	if l := lower(head); billUndone.In(l) || strings.Contains(l, "was paid") || strings.Contains(l, "has been paid") {
		return nil
	}
	var only *Money
	alone := false
	n := 0
	for ln := range strings.Lines(head) {
		if !hasDigit(ln) {
			continue
		}
		l := lowerLine(ln)
		if !holdsCurrency(ln, l) {
			continue
		}
		if billOffers.In(l) {
			return nil
		}
		for _, m := range moneyRE.FindAllStringSubmatchIndex(ln, 8) {
			// A notice prints its amount a few times; a mail of many
			// is a list, and each amount's currency is dear to tell
			// (the fifteenth outside review, MEDIUM-8).
			if n++; n > 8 {
				return nil
			}
			mo := c.moneyAt(ln, m, text)
			if mo == nil || mo.Currency == "" {
				continue
			}
			if only != nil && *mo != *only {
				return nil
			}
			only = mo
			alone = alone || strings.TrimSpace(ln[:m[0]]) == "" && strings.TrimSpace(ln[m[1]:]) == ""
		}
	}
	if !alone {
		return nil
	}
	return only
}

// newCharges reports whether a bill asks for a payment after whatever it
// says was paid: a due date, or a new charge's or a balance's label. An
// invoice shows the last period's "Amount Paid" over its amount before
// this period's charge, often of the same amount (the fifteenth outside
// review, HIGH-2): the label alone over a figure says paid only in a
// receipt that asks for nothing.
func (c *msgContext) newCharges(text string) bool {
	if c.dueDate(text, c.countryZone("")) != nil {
		return true
	}
	l := lower(firstLines(text, 40))
	return balanceSet.Any(l) || newChargeSet.Any(l)
}

// nextNonBlank is the first line after lines[i], trimmed, that is not
// blank, within n lines; "" when there is none.
func nextNonBlank(lines []string, i, n int) string {
	for j := i + 1; j < len(lines) && j <= i+n; j++ {
		if v := strings.TrimSpace(lines[j]); v != "" {
			return v
		}
	}
	return ""
}

// paidByLabel reports whether a receipt's label says the bill is paid:
// "Amount paid" with the bill's amount or "Date paid" with a date
// (bill.paid.label), when no balance label (bill.balance: "Balance due",
// "Restbetrag", "Reste à payer") gives an amount other than zero: a
// part payment leaves the bill due.
//
// The label may stand alone over its value, as a receipt's cells print
// it ("Amount Paid", then "€9.00").
func (c *msgContext) paidByLabel(text string, amount *Money) bool {
	return c.paidByLabelIn(firstLines(text, 30), text, amount)
}

// paidAtFoot reports whether a paid label below the first 30 lines of
// text says amount was paid (paidByLabel), as a printed invoice says at
// its foot, under its items.
func (c *msgContext) paidAtFoot(text string, amount *Money) bool {
	if amount == nil || strings.Count(text, "\n") <= 30 {
		return false
	}
	rest := text[len(firstLines(text, 30)):]
	return paidLabelSet.Any(lower(rest)) && c.paidByLabelIn(rest, text, amount)
}

// paidByLabelIn is paidByLabel of the lines given, of text.
func (c *msgContext) paidByLabelIn(lines, text string, amount *Money) bool {
	all := strings.Split(lines, "\n")
	found := false
	for i, ln := range all {
		o := strings.TrimSpace(ln)
		t := strings.ToLower(o)
		if len(t) != len(o) || len(t) > 80 {
			continue
		}
		for _, p := range paidLabels {
			if !strings.HasPrefix(t, p) || words.In(t, len(p), false) {
				continue
			}
			rest := strings.TrimLeft(o[len(p):], " \t:")
			if rest == "" && !c.newCharges(text) {
				rest = nextNonBlank(all, i, 2)
			}
			if !hasDigit(rest) {
				// "Zapłacono: Aplikacja mobilna ORLEN Pay", "Paid:
				// PayPal": paid by the means it names.
				found = found || paidMeans(rest)
				break
			}
			if m := moneyRE.FindStringSubmatchIndex(rest); m != nil && m[0] == 0 && amount != nil && amount.Amount != "0.00" {
				if mo := c.moneyAt(rest, m, text); mo != nil && mo.Amount == amount.Amount {
					found = true
				}
			}
			if ds := c.dates(rest); len(ds) > 0 && ds[0].start == 0 {
				found = true
			}
			break
		}
	}
	if !found {
		return false
	}
	for ln := range strings.Lines(lines) {
		if !hasDigit(ln) || !balanceSet.Any(lowerLine(ln)) {
			continue
		}
		for _, m := range moneyRE.FindAllStringSubmatchIndex(ln, 4) {
			if mo := c.moneyAt(ln, m, text); mo != nil && mo.Amount != "0.00" {
				return false
			}
		}
	}
	return true
}

// paidMeans reports whether v, a paid label's value without a figure,
// names a means of payment: a wallet (payment.wallet: "PayPal", "Apple
// Pay") or an app named as its brand's "… Pay" ("ORLEN Pay").
func paidMeans(v string) bool {
	v = strings.TrimSpace(v)
	if len(v) > 60 {
		return false
	}
	return payWallets.In(lower(v)) || strings.HasSuffix(v, " Pay")
}

// The labels of a receipt's payment and of what is left to pay, every
// language's (bill.paid.label, bill.balance; paidLabels longest first),
// and the words of a new charge (bill.newcharge).
var (
	paidLabels   = longestFirst(lang.Entries("bill.paid.label"))
	paidLabelSet = words.NewSet(paidLabels)
	balanceSet   = words.NewSet(lang.Entries("bill.balance"))
	newChargeSet = words.NewSet(lang.Entries("bill.newcharge"))
)

// paidStatus reports whether the word for paid stands as a bill's status
// in its subject or first lines (a line, or the last part of one, that is
// the word alone, "Status:" and the word, or the word and a date), and
// the day it was paid on when a date follows the word.
func (c *msgContext) paidStatus(subject, text string) (on *Time, paid bool) {
	for ln := range strings.Lines(subject + "\n" + firstTextLines(text, 30)) {
		// The line, else its last part after a dash: a table's "Paid"
		// column ("Date | Description | Paid") is no status.
		for k, part := range [3]string{ln, afterStatusDash(ln), finalSentence(ln)} {
			if k > 0 && part == ln {
				continue // no dash: the line again
			}
			if !paidFirst(part) {
				continue // most lines: no lower-casing, no look for a date
			}
			l := afterStatusLabel(strings.ToLower(strings.TrimSpace(part)))
			if paidWords[strings.TrimRight(l, ".!")] {
				return nil, true
			}
			// "Paid on January 30, 2030", "Bezahlt am 30.01.2030".
			word, rest, ok := strings.Cut(l, " ")
			if !ok || !paidWords[word] {
				continue
			}
			if ds := c.dates(rest); len(ds) > 0 && ds[0].start < 8 {
				return resolve(at(ds[0].withYear(c.ref), nil), c.countryZone(""), c.dateLoc), true
			}
		}
	}
	return nil, false
}

// afterStatusDash is what follows ln's last dash set apart from words by
// white space, after which a status may end a line ("Amount due: $0.00 —
// Paid on …", "Invoice RL-4471 – PAID"), or ln when it has none. (A
// regular expression split here cost a seventh of a generated mail's
// extraction.)
func afterStatusDash(ln string) string {
	if strings.IndexByte(ln, '-') < 0 && strings.IndexByte(ln, "–"[0]) < 0 {
		return ln // most lines: no dash of any width ("–" and "—" share their first byte)
	}
	rest := ln
	for _, dash := range []string{"-", "–", "—"} {
		for i := 0; ; {
			j := strings.Index(ln[i:], dash)
			if j < 0 {
				break
			}
			at, end := i+j, i+j+len(dash)
			if at > 0 && isSpaceByte(ln[at-1]) && end < len(ln) && isSpaceByte(ln[end]) && len(ln)-end < len(rest) {
				rest = ln[end:]
			}
			i = end
		}
	}
	return rest
}

func isSpaceByte(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// paidWords are every language's words for paid (bill.paid.word).
var paidWords = wordSet("bill.paid.word")

// paidFirstWords are the first words of paidWords' phrases ("paid" of
// "paid in full").
var paidFirstWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range paidWords {
		first, _, _ := strings.Cut(w, " ")
		m[first] = true
	}
	return m
}()

// paidFirst reports whether part, after an optional "Status:" in any of
// statusLabels' words, begins with the first word of a word for paid:
// paidStatus's quick test, which lower-cases one word instead of the
// line.
func paidFirst(part string) bool {
	p := afterStatusLabel(strings.TrimSpace(part))
	word, _, _ := strings.Cut(p, " ")
	word = strings.TrimRight(word, ".!")
	if len(word) > 32 {
		return false
	}
	// Lower-cased on the stack: most lines' first word is capitalised,
	// and strings.ToLower would allocate for each.
	var buf [32]byte
	for i := 0; i < len(word); i++ {
		b := word[i]
		if b >= utf8.RuneSelf {
			return paidFirstWords[strings.ToLower(word)]
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		buf[i] = b
	}
	return paidFirstWords[string(buf[:len(word)])]
}

// statusLabels are the words for a bill's status before its colon
// ("Status: paid", "Stato: pagata", "Estado: pagada", "Statut : réglée").
var statusLabels = []string{"status", "stato", "estado", "statut", "stav", "stan", "payment status", "terms"}

// afterStatusLabel is p after a status label and its colon, or p.
func afterStatusLabel(p string) string {
	// Every label starts with s, e, p or t ("Terms: PAID", an invoice's
	// terms once it is settled).
	if len(p) < 5 {
		return p
	}
	if c := p[0] | 0x20; c != 's' && c != 'e' && c != 'p' && c != 't' {
		return p
	}
	for _, w := range statusLabels {
		if len(p) > len(w) && strings.EqualFold(p[:len(w)], w) {
			if rest := strings.TrimSpace(p[len(w):]); strings.HasPrefix(rest, ":") {
				return strings.TrimSpace(rest[1:])
			}
		}
	}
	return p
}

// finalSentence is what follows ln's last full stop and the space after
// it, where a short status ends a line of sentences ("Importo: 28,40
// euro. Scadenza 25 settembre 2026. Pagata."), or "" when ln has none.
func finalSentence(ln string) string {
	t := strings.TrimRight(ln, " \t\r\n.!")
	if i := strings.LastIndex(t, ". "); i >= 0 {
		return t[i+2:]
	}
	return ""
}

// nonZeroAmount is the first labelled amount that is not zero.
func (c *msgContext) nonZeroAmount(text string) *Money {
	for _, v := range c.afterNext(amountLabels, text) {
		line, _, _ := strings.Cut(v, "\n")
		if netAmount(line) {
			continue
		}
		m := moneyRE.FindStringSubmatchIndex(line)
		if m == nil || m[0] > 30 {
			continue
		}
		if mo := c.moneyAt(line, m, text); mo != nil && mo.Amount != "0.00" {
			return mo
		}
	}
	return nil
}

// billIssuer is who a bill is from: of the names the mail gives, the
// first that agrees with the sender's domain (namesDomain: the rule Merge
// shows a name by), in the order a reader trusts them: a labelled issuer
// ("Rechnungssteller:", "Émetteur :", "Invoice from", bill.issuer), the
// letterhead (a name alone on one of the text's first lines), a footer's
// company data (footerIssuer), then the display name less its
// department's words ("Acme Billing" is Acme), with the legal form the
// text prints after it (fullName).
// None agreeing, none: Merge shows the domain. A person's name ("Maria
// Lopez" from quillandpress.com) or a no-reply's agrees with no domain,
// so the letterhead's name comes first.
func (c *msgContext) billIssuer(subject, text string) string {
	org := orgDomain(c.senderDomain)
	// text is the subject's line and the body's (textFacts).
	body := strings.TrimPrefix(text, subject+"\n")
	if org == "" {
		// A bill printed from its PDF and kept, or pasted, without its
		// mail's From: the company its legal line names, as nothing else
		// does (no domain to agree with, none to be trusted by).
		if c.senderName == "" {
			return registeredCompany(body)
		}
		return c.senderName
	}
	for _, v := range c.after(issuerLabels, firstLines(text, 40)) {
		if name := issuerName(v); name != "" && namesDomain(name, org) {
			return name
		}
	}
	// A letterhead's line must hold the domain's whole name ("QUILL &
	// PRESS LTD" for quillandpress.com): a word of it is not enough
	// where a headline stands ("Votre facture d'eau" is no issuer of
	// eauxdevalmont.fr).
	n := 0
	for ln := range strings.Lines(body) {
		t := strings.TrimSpace(ln)
		if t == "" {
			continue
		}
		// A printed letterhead may share its row with the document's
		// title ("Northgate Web Studio   INVOICE"): its first column.
		if first, _, ok := strings.Cut(t, "   "); ok {
			t = strings.TrimSpace(first)
		}
		// A PDF flattened to Markdown sets it in bold or as a heading
		// ("**Holz & Baustoffe Müller KG**"); an HTML mail's logo is its
		// image's words ("AWS logo").
		t = strings.TrimSpace(strings.Trim(t, "*_#"))
		if n := len(t) - len(" logo"); n > 0 && strings.EqualFold(t[n:], " logo") {
			t = strings.TrimSpace(t[:n])
		}
		// A heading that names the bill is no letterhead ("Porkbun Auto
		// Renewal Summary", "Acme Payment Receipt"), nor a short mail's
		// sign-off by a department's word ("Ihr Funkwelle-Team").
		if name := issuerName(t); name == t && domainInName(name, org) && !billTopic.Any(lower(t)) && !departmentLast(t) {
			return name
		}
		if n++; n == 3 {
			break
		}
	}
	// A footer's company data ("NORDWIND ELEKTRO GMBH | Hafenstraße 3 |
	// 28217 Bremen"), where a salesman's mail names the company only
	// there.
	if name := footerIssuer(body, org); name != "" {
		return name
	}
	// The display name less its department's words, as the mail prints
	// it in full ("Apex Office Supplies Billing" signs "Apex Office
	// Supplies LLC").
	if name := issuerName(senderBrand(c.senderName)); name != "" && namesDomain(name, org) {
		if full := fullName(name, body); full != name {
			return full
		}
		// Its first words when they spell the domain's name whole and
		// the word after them names the city it serves ("İSKİ İstanbul"
		// from iski.istanbul): the issuer as people say it. Not a
		// product's or a trade's word ("Google Play", "Clearwave
		// Internet"), which is the name.
		if brand := domainWords(name, org); brand != "" {
			return brand
		}
		return name
	}
	// The name a subject sets in brackets, as Japanese and Chinese
	// senders sign their subject ("請求料金のご案内（NTTファイナンス）",
	// "【東京ガス】ご請求額のお知らせ"; billcharged.go), after the display
	// name: a subject's "(JohnPye)" is its handle.
	if name := bracketName(subject); name != "" && namesDomain(name, org) {
		return name
	}
	// The display name whole, when it agrees (a name of a script without
	// capitals: "アマゾン" from amazon.co.jp); else none. A name that
	// agrees with nothing is a person's ("Michael Johnson", a salesman's
	// mail) or a stranger's claim, and Merge shows the domain for it.
	if namesDomain(c.senderName, org) {
		return c.senderName
	}
	return ""
}

// departmentLast reports whether a name's last word, or the part of it
// after a hyphen, is a department's (sender.noise: "Team", "Billing").
func departmentLast(name string) bool {
	ws := strings.Fields(name)
	if len(ws) == 0 {
		return false
	}
	last := ws[len(ws)-1]
	if i := strings.LastIndexByte(last, '-'); i >= 0 {
		last = last[i+1:]
	}
	return senderNoise[strings.ToLower(last)]
}

// domainWords is name less its last word, a city's name, when the words
// before it spell the registrable domain org's name whole, folded; else
// "".
func domainWords(name, org string) string {
	label := foldedDomainName(org)
	ws := strings.Fields(name)
	k := len(ws) - 1
	if k < 1 {
		return ""
	}
	if _, city := places.AirportByName(ws[k]); !city {
		return ""
	}
	if strings.ReplaceAll(places.Fold(strings.Join(ws[:k], "")), " ", "") == label {
		return strings.Join(ws[:k], " ")
	}
	return ""
}

// foldedDomainName is a registrable domain's name (its first label)
// folded and written together: "holz-baustoffe-mueller.de" is
// "holzbaustoffemueller".
func foldedDomainName(org string) string {
	label, _, _ := strings.Cut(org, ".")
	return strings.ReplaceAll(places.Fold(label), " ", "")
}

// domainInName reports whether a registrable domain's name, without its
// hyphens, is in a name written together, "&" read as "and" or left out
// and its letters spelled as domains spell them (NameForms: "Holz &
// Baustoffe Müller KG" holds holz-baustoffe-mueller).
func domainInName(name, org string) bool {
	label := foldedDomainName(org)
	if len(label) < 3 {
		return false
	}
	if strings.Contains(strings.ReplaceAll(places.Fold(strings.ReplaceAll(name, "&", " and ")), " ", ""), label) {
		return true
	}
	for _, ws := range NameForms(name) {
		if strings.Contains(strings.Join(ws, ""), label) {
			return true
		}
	}
	return false
}

// issuerLabels are the labels before a bill's issuer (bill.issuer).
var issuerLabels = labels(lang.Entries("bill.issuer")...)

// issuerName is the name at the start of v, a label's value or a line:
// capitalised words without digits, up to a comma or colon, at most six
// words; "" when v starts with no such name.
func issuerName(v string) string {
	v, _, _ = strings.Cut(v, "\n")
	v = strings.TrimSpace(asOrg(v))
	v = strings.TrimRight(v, ".!")
	v = signedFor(v)
	if v == "" || hasDigit(v) || len(strings.Fields(v)) > 6 {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(v); !unicode.IsUpper(r) {
		return ""
	}
	return v
}

// The phrases of every language that say a mail is about a bill, that it
// was paid, that a payment failed, or that the amount will be taken from
// the payer's account (extract/lang).
var (
	// As sets, found in one pass: looked for in every mail's first lines
	// one phrase at a time, they were half of the extraction time of mail
	// that is no bill.
	billTopic = words.NewSet(lang.Entries("bill.topic"))
	// billExample marks an example (bill.example: "for example", "e.g.",
	// "par exemple", "zum Beispiel").
	billExample = words.NewWholeSet(lang.Entries("bill.example"))
	billPaid    = words.NewSet(lang.Entries("bill.paid"))
	// billPaidWord is bill.paid's phrases as whole words: German writes
	// a date's label as a compound of one ("Zahlungseingangsdatum", the
	// day the payment must arrive by), which says nothing was paid.
	billPaidWord = words.NewWholeSet(lang.Entries("bill.paid"))
	// billInstalment names a payment plan's part (bill.instalment: "next
	// instalment", "nächste Rate", "prochaine mensualité").
	billInstalment = words.NewSet(lang.Entries("bill.instalment"))
	billDebit      = words.NewWholeSet(lang.Entries("bill.debit"))
	// billingStatement names a service's statement of its charges
	// (bill.statement.charges: "billing statement").
	billingStatement = words.NewWholeSet(lang.Entries("bill.statement.charges"))
)

// billLists are the lists textBill asks a bill's first lines after its
// topic, found in one pass (four scans of the same lines were a tenth of
// a bill's extraction); the has* bits say which held a phrase.
var billLists = words.NewCategories(
	lang.Entries("notice.payment_failed"),
	paidLabels,
	lang.Entries("bill.minimum"),
	lang.Entries("bill.paid"),
	debitedPhrases,
	lang.Entries("ride.receipt"),
	lang.Entries("notice.payment_received"),
)

const (
	hasPaymentFailed uint32 = 1 << iota
	hasPaidLabel
	hasMinimum
	hasBillPaid
	hasDebited
	hasRide
	hasPaymentIn
)

// invoiceNumRE is an invoice number after its label: orderNumRE's form
// (a store's prefix: "GPA.3345-…", and a renewal's count after two dots:
// "…-00000..3"), or a series of capitals before the number ("FT 2027/118342", the
// Portuguese series-and-number form; "FAC 2027/220918").
var invoiceNumRE = lazyregexp.New(`^[#:\s]*(?:(?:no|nr|n\.?[°º]?|č)\.?:?\s*)?([A-Z]{1,4} [0-9][0-9A-Z\-/]{3,30}[0-9]|(?:[A-Z]{2,4}\.)?[A-Z0-9][A-Z0-9_\-/]{2,30}[0-9](?:\.\.[0-9]{1,4})?)\b`)

// headingNumber is the number printed under an invoice's heading: a
// line that is "#" and the number, right below a row one of whose cells
// is the word for invoice alone ("billing@…   INVOICE" over "# INV-0042",
// "Rechnung" over "# 2029-0117"), as invoice templates print it without
// a label. After "#" the number may be lower case ("inv_0042").
func headingNumber(text string) string {
	prev := ""
	for ln := range strings.Lines(firstLines(text, 40)) {
		t := strings.TrimSpace(ln)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "#") && invoiceHeading(prev) {
			if m := hashNumRE.FindStringSubmatch(t); m != nil {
				return m[1]
			}
		}
		// "N° 20037578368" under the bill's title ("Votre facture du 03
		// décembre 2022"): the number's sign is its label.
		if m := signNumRE.FindStringSubmatch(t); m != nil && hasDigit(m[1]) && (invoiceHeading(prev) || invoiceTitle(prev)) {
			return m[1]
		}
		prev = t
	}
	return ""
}

// invoiceHeading reports whether one of a row's cells (apart by column
// gaps) is the word for invoice alone.
func invoiceHeading(row string) bool {
	for cell := range strings.SplitSeq(row, "   ") {
		if c := strings.TrimSpace(cell); len(c) <= 24 && invoiceWords[strings.ToLower(c)] {
			return true
		}
	}
	return false
}

// signNumRE is a line that is a number's sign ("N°", "No.", "Nr.") and
// a number alone.
var signNumRE = lazyregexp.New(`^(?:[Nn][°º]\.?|No\.|NO\.|Nr\.?|NR\.?)\s?([A-Za-z0-9][A-Za-z0-9_\-/]{2,30}[0-9])$`)

// invoiceTitle reports whether a short line names the invoice by one of
// its words for invoice ("Votre facture du 03 décembre 2022", "Your
// invoice").
func invoiceTitle(ln string) bool {
	if len(ln) > 60 {
		return false
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(ln), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if invoiceWords[w] {
			return true
		}
	}
	return false
}

// hashNumRE is a line that is "#" and a number alone.
var hashNumRE = lazyregexp.New(`^#\s?([A-Za-z0-9][A-Za-z0-9_\-/]{2,30}[0-9])$`)

// invoiceWords are the words for invoice that are labels on their own
// (the invoice labels that are one word: "invoice", "rechnung",
// "facture", "faktura", …).
var invoiceWords = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range lang.Entries("invoice") {
		if strings.IndexFunc(e, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			m[e] = true
		}
	}
	return m
}()

// yearRE is a year alone.
var yearRE = lazyregexp.New(`^(?:19|20)\d\d$`)

// wholeSlashDateRE is a slashed date with its year and nothing else.
var wholeSlashDateRE = lazyregexp.New(`^\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})$`)

// compactDate reports whether s is a day written as eight digits, year
// first ("20221206"), as an issuer dates a bill's file or subject.
func compactDate(s string) bool {
	if len(s) != 8 || (s[:2] != "19" && s[:2] != "20") {
		return false
	}
	for i := range len(s) {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	m, _ := strconv.Atoi(s[4:6])
	d, _ := strconv.Atoi(s[6:])
	return m >= 1 && m <= 12 && d >= 1 && d <= 31
}

// notSeries are the capitals before a number that are no invoice series:
// a currency's code ("EUR 64,50" after an invoice label is an amount) and
// the abbreviations of "number".
var notSeries = map[string]bool{"EUR": true, "USD": true, "GBP": true, "CHF": true, "SEK": true, "NOK": true, "DKK": true,
	"PLN": true, "CZK": true, "HUF": true, "NR": true, "NO": true}

// dueAfterRE is a word that puts a date after an amount as the day it is
// due by ("£61.30 by 21 December", "89,99 zł do 20.12.2028", "450 kr
// senast 2028-12-28": due.after in extract/lang/data).
var dueAfterWords = words.NewWholeSet(lang.Entries("due.after"))

var dueAfterRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("due.after")), "|") + `)[ \t]+`)

// dueAfterAmount is the date that follows an amount on its line after a
// word of dueAfterRE.
func (c *msgContext) dueAfterAmount(text string, z zoneHint) *Time {
	for ln := range strings.Lines(firstLines(text, 60)) {
		// The expressions only on a line with a digit and one of the
		// words: an invoice's lines are many.
		if !hasDigit(ln) || !dueAfterWords.In(strings.ToLower(ln)) || discountTerm(firstSentence(ln)) {
			continue
		}
		m := moneyRE.FindStringIndex(ln)
		if m == nil {
			continue
		}
		rest := ln[m[1]:]
		w := dueAfterRE.FindStringIndex(rest)
		if w == nil || w[0] > 3 && !sameClause(rest[:w[0]]) {
			continue
		}
		if ds := c.dates(rest[w[1]:]); len(ds) > 0 && ds[0].start == 0 {
			return resolve(at(ds[0].withYear(c.ref), nil), z, c.dateLoc)
		}
	}
	return nil
}

// sameClause reports whether gap, the words between an amount and a word
// of dueAfterRE, keeps them in one request: "die offene Gesamtforderung in
// Höhe von 57,85 Euro durch Überweisung auf das unten genannte Konto bis
// zum 21.03.2015", where the way to pay stands between the amount and its
// day. A short gap without a figure or a sentence's end: a day in the
// next sentence, or after another figure, is another matter's.
func sameClause(gap string) bool {
	return len(gap) <= 80 && !hasDigit(gap) && !strings.ContainsAny(gap, ".!?;:()")
}

// dueDate is the day after a due label (due in extract/lang/data). Of a
// payment term's days ("Zahlbar bis 01.09.2025: 2,5 % Skonto", "Zahlbar
// bis 21.09.2025 ohne Abzug"; "Payable until 03.09.2025 3% discount"), a
// day that earns a discount is an option to pay early; the bill is due by
// the day without one. Only discounted days: none, as a wrong day is
// worse than none.
func (c *msgContext) dueDate(text string, z zoneHint) *Time {
	skip := func(line string) bool { return discountTerm(firstSentence(line)) }
	// "Bir Sonraki Son Ödeme Tarihi : 15/07/2014" (the next bill's due
	// day) above "SON ÖDEME TARİHİ : 16/06/2014": the lines of the next
	// bill's left out, when another due label gives a day.
	if l := c.lowerOf(text); nextDuePhrases.Any(l) {
		var kept []string
		for ln := range strings.Lines(text) {
			if !nextDuePhrases.Any(lower(ln)) {
				kept = append(kept, ln)
			}
		}
		if d := c.labelledDateBut(dueLabels, strings.Join(kept, ""), z, skip); d != nil {
			return d
		}
	}
	if d := c.labelledDateBut(dueLabels, text, z, skip); d != nil {
		return d
	}
	return c.labelledDateUnder(dueLabels, text, z)
}

// askedBy reports whether the text asks its amount to be paid by a day
// in a sentence ("den ausstehenden Betrag in Höhe von EUR 106.36 bis
// spätestens 26.06.2018 … zu überweisen": a failed debit's demand),
// which no charge's receipt does.
func (c *msgContext) askedBy(text string) bool {
	return c.dueAfterAmount(text, c.countryZone("")) != nil
}

// nextDuePhrases label the next bill's due day (due.next).
var nextDuePhrases = words.NewSet(lang.Entries("due.next"))

// billDiscount names an early payment's discount (bill.discount:
// "discount", "Skonto", "escompte", "sconto") and billNet a payment
// without one (bill.net: "without deduction", "ohne Abzug", "net").
var (
	billDiscount = words.NewWholeSet(lang.Entries("bill.discount"))
	billNet      = words.NewWholeSet(lang.Entries("bill.net"))
)

// discountTerm reports whether a line of a payment term offers a discount
// for paying early, and does not say its amount is the net one.
func discountTerm(line string) bool {
	// A discount's term gives its rate in the sentence that names the
	// discount ("2,5% Skonto", "3,00% discount = 101,66"); a due
	// line that mentions a discount in passing ("(paperless discount
	// applied)", "Discount: none") is a due line (the eleventh outside
	// review, HIGH-3).
	l := strings.ToLower(line)
	return strings.Contains(l, "%") && billDiscount.In(l) && !billNet.In(l)
}

// firstSentence is a line up to the end of its first sentence: a full
// stop after a word of five letters or more, or a year ("… December 9,
// 2026. Early payment discount: 2% if paid by …"), and a capital after
// it; a day's or an abbreviation's stop ("20. Dez. 2025") ends none.
func firstSentence(line string) string {
	for i := 0; ; {
		j := strings.Index(line[i:], ". ")
		if j < 0 {
			return line
		}
		end := i + j
		i = end + 2
		if i >= len(line) {
			return line
		}
		next, _ := utf8.DecodeRuneInString(line[i:])
		k := end
		for k > 0 && line[k-1] != ' ' && line[k-1] != '\t' {
			k--
		}
		if word := line[k:end]; unicode.IsUpper(next) && (len(word) >= 5 || len(word) == 4 && isDigitByte(word[0])) {
			return line[:end]
		}
	}
}

// dueBeforePhrases are the words that end a sentence after the day a bill
// is due by, where a language puts the verb last ("Ihre Rechnung … ist am
// 20.04.2030 fällig", "… bis 20.04.2030 zu bezahlen": due.before in
// extract/lang/data), longest first.
var (
	dueBeforePhrases = longestFirst(lang.Entries("due.before"))
	dueBeforeWords   = words.NewWholeSet(lang.Entries("due.before"))
)

// dueBeforeWord is the date right before a word of dueBeforePhrases on a
// line among the first that names the bill (a bill's word or an amount).
func (c *msgContext) dueBeforeWord(text string, z zoneHint) *Time {
	for ln := range strings.Lines(firstLines(text, 60)) {
		if !hasDigit(ln) {
			continue
		}
		l := lowerLine(ln)
		if !dueBeforeWords.In(l) || !billTopic.Any(l) && !holdsCurrency(ln, l) || discountTerm(firstSentence(ln)) {
			continue
		}
		for _, d := range c.dates(ln) {
			rest := strings.ToLower(strings.TrimLeft(ln[d.end:], " \t"))
			for _, p := range dueBeforePhrases {
				if strings.HasPrefix(rest, p) && !words.In(rest, len(p), false) {
					return resolve(at(d.withYear(c.ref), nil), z, c.dateLoc)
				}
			}
		}
	}
	return nil
}

// debitDate is the day a direct debit takes a bill's amount, read from
// the sentence that says so: such a bill has no due-date label, and the
// day may stand before the verb ("wird am 06.04.2027 abgebucht", "We
// schrijven het bedrag rond 28-03-2027 af") or after it ("We'll collect
// this by Direct Debit on or just after 21 June 2027"). The sentence's
// line must hold one date, or, when it holds none, the line after it
// (a sentence wrapped in plain text).
func (c *msgContext) debitDate(text string, z zoneHint) *Time {
	lines := strings.Split(firstLines(text, 60), "\n")
	for i, ln := range lines {
		if !billDebit.In(strings.ToLower(ln)) {
			continue
		}
		ds := c.dates(ln)
		if len(ds) == 0 && i+1 < len(lines) {
			ds = c.dates(lines[i+1])
		}
		if len(ds) != 1 {
			continue
		}
		d := ds[0].withYear(c.ref)
		return resolve(at(d, nil), z, c.dateLoc)
	}
	return nil
}

// billNouns are a bill's own nouns (bill.noun in extract/lang/data:
// "bill", "Rechnung", "facture"), whole words.
var billNouns = words.NewWholeSet(lang.Entries("bill.noun"))

// billNotice reports whether a mail with neither a bill's number nor its
// due day is an issuer's notice of its bill: its subject names a bill by
// its noun, and its text names no order's number (a shop's order and its
// invoice are an order's mail), no booking's, no number's label whose
// value is none, and its first lines make no offer (offer, bill.offer:
// "Sparen Sie bei Ihrer Stromrechnung", "special offer").
func (c *msgContext) billNotice(subject, text string) bool {
	if !billNouns.In(lower(subject)) {
		return false
	}
	// A number's label whose value is no number ("Rechnungsnummer:
	// 12.03.2014"), an order's or a booking's ("Booking ID: HD-88120" over
	// "An invoice will follow").
	// The value's first word holds a digit: "Ihre Rechnung für Oktober"
	// is the label's word in a sentence.
	for _, ls := range []labelSet{invoiceLabels, orderLabels, bookingLabels} {
		for _, v := range c.after(ls, text) {
			if f := strings.Fields(v); len(f) > 0 && hasDigit(f[0]) {
				return false
			}
		}
	}
	l := lower(subject + "\n" + firstLines(text, 30))
	return !offerWords.In(l) && !billOffers.In(l)
}

// billOffers are an offer's words about a bill to come (bill.offer: "Save
// £50 on your next bill when you switch").
var billOffers = words.NewWholeSet(lang.Entries("bill.offer"))

// paidNotConditional reports whether a paid phrase of lower-cased line l
// stands outside a clause of time or condition: "Sobald wir Ihre Zahlung
// erhalten haben, …", "Once we have received your payment, …" tell of a
// payment to come (status.when before it in its sentence).
func paidNotConditional(l string) bool {
	stands := false
	billPaid.EachAt(l, func(p, end int) bool {
		start := max(0, end-len(billPaidPhrases[p]))
		stands = !whenWords.In(sentenceTail(l[:start]))
		return !stands
	})
	return stands
}

// debitedDone reports whether lower-cased line l says a debit was done:
// a debit's past participle (bill.debited) as a whole word, after a past
// word (status.past: "has been", "wurde", "a été") in its sentence, with
// no word of a time to come (status.will: "wird … abgebucht" is a bill
// due), of time or condition (status.when) or a negation before it.
func debitedDone(l string) bool {
	if !debitedSet.Any(l) {
		return false
	}
	done := false
	debitedSet.EachAt(l, func(p, end int) bool {
		start := end - len(debitedPhrases[p])
		if words.In(l, start, true) || words.In(l, end, false) {
			return true
		}
		s := sentenceTail(l[:start])
		done = pastWords.In(s) && !willSet.Any(s) && !whenWords.In(s) && !negatedBefore(l[:start])
		return !done
	})
	return done
}

// debitedSet finds a debit's past participles (bill.debited).
var (
	debitedPhrases = lang.Entries("bill.debited")
	debitedSet     = words.NewSet(debitedPhrases)
)

// billPaidPhrases are billPaid's phrases, by index.
var billPaidPhrases = lang.Entries("bill.paid")
