package extract

import (
	"strings"
	"unicode"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// A ride's receipt (Uber, Lyft, Bolt, FREE NOW): "Thanks for riding with
// Makarius!", the fare's lines, then how it was paid ("Apple Pay (Visa)
// $6.57", "Visa ••••5006" over "1/23/24 12:25 PM $19.97"). It names no
// bill in its first lines, often no total by a label, and shows its
// payment by a wallet rather than a masked card, so the bill reader's
// gates let it through as nothing (issue 46, foreign-18). Read as a paid
// bill when it thanks for the ride and shows the payment of its amount.

// rideWords are a ride's receipt's thanks and names (ride.receipt).
var rideWords = words.NewWholeSet(lang.Entries("ride.receipt"))

// payWallets are the wallets a payment's line may name instead of a
// card (payment.wallet: "Apple Pay", "PayPal", "Cash").
var payWallets = words.NewWholeSet(lang.Entries("payment.wallet"))

// rideReceipt reports whether a mail's subject or first lines thank for
// a ride or name a ride's receipt; l is their lower case, as readBill
// has it.
func rideReceipt(l string) bool { return rideWords.In(l) }

// ridePayment is the amount a ride's receipt shows as paid and the line
// that shows it: a payment's line that names a card (its masked number)
// or a wallet and ends with the amount, or is followed by the line that
// does ("Visa ••••5006" over "1/23/24 12:25 PM $19.97"). The words of a
// payment that did not go through (bill.receipt.unpaid: "Declined",
// "Pending") on those lines or the next make it none.
func (c *msgContext) ridePayment(text string) (*Money, string) {
	lines := strings.Split(firstLines(text, 80), "\n")
	for i, ln := range lines {
		l := strings.ToLower(ln)
		if !payWallets.In(l) && !(hasDigit(ln) && maskedCardRE.MatchString(ln)) {
			continue
		}
		// The wallet's own line, then the next that holds anything (an
		// HTML mail's blank line between the two cells).
		cands := []string{ln}
		for _, n := range lines[i+1 : min(len(lines), i+3)] {
			if strings.TrimSpace(n) != "" {
				cands = append(cands, n)
				break
			}
		}
		for k, cand := range cands {
			m := lastAmount(cand)
			if m == nil || !paymentRest(cand[:m[0]], k == 0) {
				continue
			}
			if receiptUnpaid.In(strings.ToLower(strings.Join(lines[i:min(len(lines), i+3)], "\n"))) {
				return nil, ""
			}
			if mo := c.moneyAt(cand, m, text); mo != nil {
				return mo, strings.TrimSpace(ln)
			}
		}
	}
	return nil, ""
}

// paymentRest reports whether what stands before a payment's amount
// leaves it a payment's line: on the wallet's or the card's own line a
// few words ("Apple Pay (Visa)", "Cash", "Visa ••••1234"), not a
// sentence ("Add Apple Pay and get 10% off"); on the line under it the
// payment's day and clock alone ("1/23/24 12:25 PM").
func paymentRest(rest string, own bool) bool {
	if own {
		return len(strings.Fields(rest)) <= 4
	}
	for _, w := range strings.Fields(rest) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 && !strings.EqualFold(w, "am") && !strings.EqualFold(w, "pm") {
			return false
		}
	}
	return true
}

// lastAmount is the index pair of an amount that ends line ln (its
// trailing spaces and a bold mark aside: "Apple Pay (Visa) * $24.99 *"),
// as moneyRE matches it; nil when none does.
func lastAmount(ln string) []int {
	t := strings.TrimRight(ln, " \t\r*")
	var last []int
	for _, m := range moneyRE.FindAllStringSubmatchIndex(t, -1) {
		last = m
	}
	if last == nil || last[1] != len(t) {
		return nil
	}
	return last
}
