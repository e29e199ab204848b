package eval

import (
	"fmt"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// Kinds are the kinds the read tools answer with, in the tables' order:
// orders stand for parcels too (a parcel is an order's shipment).
var Kinds = []string{extract.KindFlight, extract.KindTrain, extract.KindHotel, extract.KindOrder, extract.KindBill}

// TableKinds are the kinds the evaluation reports, in its tables' order:
// Kinds and buses, which are Plans (no tool lists them; ask reads them)
// but scored as trains are (issue 46: a bus must not become a train, nor
// a bay or a seat its stop).
var TableKinds = []string{extract.KindFlight, extract.KindTrain, extract.KindBus, extract.KindHotel, extract.KindOrder, extract.KindBill}

// ScoreMails scores labelled mails of every kind mail by mail: trip
// segments, orders and their parcels, bills. Each mail is read on its own,
// its sender taken as authenticated when its Authentication-Results pass
// (AuthServID). It returns no misses: it scores the headline part
// (testdata/public-headline), whose failures nobody tuning the rules may
// read.
func ScoreMails(p Public) map[string]Score {
	scores, _ := scoreMails(p)
	return scores
}

// ScoreMailsShowing is ScoreMails with the misses, for the development
// part's mails.
func ScoreMailsShowing(p Public) (map[string]Score, []Mismatch) { return scoreMails(p) }

func scoreMails(p Public) (map[string]Score, []Mismatch) {
	opt := msgauth.Checker{AuthServIDs: []string{AuthServID}}
	var found []Entity
	for _, m := range p.Mails {
		found = append(found, mailEntities(opt, m)...)
	}
	return ComparePerMail(p.Expected, found)
}

// mailEntities is what one mail alone says: its trip segments, and its
// orders and bills merged as the store would merge them.
func mailEntities(opt msgauth.Checker, m Mail) []Entity {
	msg := mime.Parse(m.Raw)
	res := extract.Extract(msg, opt.Check(msg, m.Raw))
	found := SegmentEntities(m.Name, res.Facts)
	merged := extract.Merge(asAuthenticated(res, msg))
	for _, o := range merged.Orders {
		e := orderEntity(o)
		delete(e.Fields, "verified")
		e.Fields["merchant"], e.Mail = o.Merchant, m.Name
		found = append(found, e)
	}
	for _, b := range merged.Bills {
		// The issuer as the tools show it to an authenticated sender
		// (asAuthenticated): the mail's name when it agrees with the
		// domain, else the domain. Scored where the labels give it.
		f := map[string]string{"domain": b.Domain, "number": b.Number, "status": b.Status, "issuer": b.Issuer}
		if b.Amount != nil {
			f["amount"] = b.Amount.Amount + " " + b.Amount.Currency
		}
		if b.Due != nil {
			f["due"] = b.Due.Time.Format("2006-01-02")
		}
		found = append(found, Entity{Kind: extract.KindBill, Key: b.Number, Mail: m.Name, Fields: f})
	}
	return found
}

// Cell is a precision / recall pair as the tables print it.
func Cell(s Score) string {
	if s.Expected == 0 && s.Predicted == 0 {
		return "– | –"
	}
	return fmt.Sprintf("%.3f | %.3f", s.Precision(), s.Recall())
}
