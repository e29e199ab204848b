// Package eval is the extractors' evaluation set and its scoring: labelled
// mails (the public corpus and generated orders and bills), field-level
// precision and recall per kind, and the check that merging does not
// depend on the order mails arrive in. cmd/mailnode-eval prints the
// table; docs/benchmarks.md has the latest figures.
package eval

import (
	"mailnode/mail/msgauth"

	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/store"
	"mailnode/mail/trust"
)

// Score counts labelled fields: TP found right, Predicted found in all,
// Expected in the labels.
type Score struct {
	TP, Predicted, Expected int
}

func (s Score) Precision() float64 {
	if s.Predicted == 0 {
		return 1
	}
	return float64(s.TP) / float64(s.Predicted)
}

func (s Score) Recall() float64 {
	if s.Expected == 0 {
		return 1
	}
	return float64(s.TP) / float64(s.Expected)
}

// Add counts o's fields in s.
func (s *Score) Add(o Score) { s.TP += o.TP; s.Predicted += o.Predicted; s.Expected += o.Expected }

// Extracted reads every mail, in the order given, into records.
func Extracted(mails []Mail) []extract.Record {
	opt := msgauth.Checker{AuthServIDs: []string{AuthServID}}
	var recs []extract.Record
	for i, m := range mails {
		msg := mime.Parse(m.Raw)
		res := extract.Extract(msg, opt.Check(msg, m.Raw))
		for _, f := range res.Facts {
			recs = append(recs, extract.Record{Fact: f, Message: int64(i + 1), Date: msg.Date,
				Tiebreak: extract.Tiebreak(msg.MessageID, m.Raw), Authenticated: res.Auth.Authenticated, Sender: senderKey(msg, f, int64(i+1))})
		}
	}
	return recs
}

// senderKey is who stated fact f of message id msg as the facts store
// tells senders apart when it merges (extract.Record.Sender), so that the
// stories of several mails are merged here as the tools see them.
func senderKey(msg *mime.Message, f extract.Fact, id int64) string {
	if len(msg.From) == 0 {
		return ""
	}
	addr := strings.ToLower(msg.From[0].Address)
	if f.From == extract.FromForwarded {
		return "fwd|" + addr
	}
	return trust.SenderKey(store.Sender{Address: addr, Domain: store.OrgDomain(addr)}, id)
}

// Entities turns merged orders and bills into labelled fields.
func Entities(m extract.Merged) []Entity {
	var out []Entity
	for _, o := range m.Orders {
		out = append(out, orderEntity(o))
	}
	for _, b := range m.Bills {
		f := map[string]string{"domain": b.Domain, "number": b.Number, "status": b.Status, "verified": fmt.Sprint(b.Verified)}
		if b.Amount != nil {
			f["amount"] = b.Amount.Amount + " " + b.Amount.Currency
		}
		if b.Due != nil {
			f["due"] = b.Due.Time.Format("2006-01-02")
		}
		out = append(out, Entity{Kind: extract.KindBill, Key: b.Number, Fields: f})
	}
	return out
}

func orderEntity(o extract.OrderState) Entity {
	f := map[string]string{"domain": o.Domain, "number": o.Number, "status": o.Status, "verified": fmt.Sprint(o.Verified)}
	if o.Total != nil {
		f["total"] = o.Total.Amount + " " + o.Total.Currency
	}
	for _, s := range o.Shipments {
		if s.Tracking != "" {
			f["tracking"], f["carrier"] = s.Tracking, s.Carrier
			break
		}
	}
	return Entity{Kind: extract.KindOrder, Key: o.Number, Fields: f}
}

// MailOrders is what one mail alone says about orders, as scored
// entities of that mail: its facts merged as the store would merge them,
// and the merchant's name beside its domain (carrier mails name the
// shipper, not a domain).
func MailOrders(mail string, msg *mime.Message, raw []byte, opt msgauth.Checker) []Entity {
	res := extract.Extract(msg, opt.Check(msg, raw))
	var out []Entity
	for _, o := range extract.Merge(asAuthenticated(res, msg)).Orders {
		e := orderEntity(o)
		delete(e.Fields, "verified") // the public mails carry no trusted Authentication-Results
		e.Fields["merchant"], e.Mail = o.Merchant, mail
		out = append(out, e)
	}
	return out
}

// asAuthenticated is one mail's facts as records of an authenticated
// sender, so that a merchant or an issuer is scored by the name the tools
// show such a sender (the mail's name where it agrees with the domain,
// extract.Merge's rule), not by the domain they show any other sender.
// Whether a sender was authenticated is no label's to say: public mail
// comes without its provider's Authentication-Results, or with a
// stranger's, and the labels score what the mail says, as its reader
// would write it. What an unauthenticated sender is shown is the trust
// rule's, tested where it is kept (extract's merge tests, the facts
// package's review tests), not here. A mail the extractor marked as
// injected (Result.Tainted) stays tainted, and named by its domain.
func asAuthenticated(res extract.Result, msg *mime.Message) []extract.Record {
	var recs []extract.Record
	for _, f := range res.Facts {
		recs = append(recs, extract.Record{Fact: f, Message: 1, Date: msg.Date, Authenticated: true, Tainted: res.Tainted, Sender: senderKey(msg, f, 1)})
	}
	return recs
}

// Mismatch is one labelled field that was missed or wrong.
type Mismatch struct {
	Kind, Key, Field, Want, Got string
}

// Compare scores predicted entities against expected ones, per kind. An
// entity is matched by its key; the fields of a predicted entity with no
// expected one all count against precision.
func Compare(expected, predicted []Entity) (map[string]Score, []Mismatch) {
	scores := map[string]Score{}
	var misses []Mismatch
	used := map[int]bool{}
	for _, e := range expected {
		var p *Entity
		for i := range predicted {
			if !used[i] && predicted[i].Kind == e.Kind && sameKey(predicted[i].Key, e.Key) {
				p, used[i] = &predicted[i], true
				break
			}
		}
		var s Score
		for field, want := range e.Fields {
			if field == "amount" || field == "total" {
				want = amountForm(want)
			}
			s.Expected++
			got := ""
			if p != nil {
				got = p.Fields[field]
			}
			if got != "" {
				s.Predicted++
			}
			if strings.EqualFold(got, want) {
				s.TP++
			} else {
				misses = append(misses, Mismatch{e.Kind, e.Key, field, want, got})
			}
		}
		sc := scores[e.Kind]
		sc.Add(s)
		scores[e.Kind] = sc
	}
	misses = chargeUnpaired(predicted, used, scores, misses, func(e Entity) string { return e.Key })
	return scores, misses
}

// chargeUnpaired counts every field of the predicted entities no expected
// one was paired with against precision, and lists them as misses named
// by name(e).
func chargeUnpaired(predicted []Entity, used map[int]bool, scores map[string]Score, misses []Mismatch, name func(Entity) string) []Mismatch {
	for i, p := range predicted {
		if used[i] {
			continue
		}
		sc := scores[p.Kind]
		for field, v := range p.Fields {
			if v != "" && v != "false" {
				sc.Predicted++
				misses = append(misses, Mismatch{p.Kind, name(p), field, "(none)", v})
			}
		}
		scores[p.Kind] = sc
	}
	return misses
}

// amountForm is a labelled amount ("2420.00 JPY") in the one form
// extraction gives it (extract.InMinorUnits: "2420 JPY"), so that a label
// written with the places its currency has not is scored as the same
// figure, and no other.
func amountForm(v string) string {
	a, cur, ok := strings.Cut(v, " ")
	if !ok {
		return v
	}
	if strings.IndexByte(a, '.') < 0 {
		// "399 SEK" as a person writes a whole amount is 399.00 SEK, as
		// extraction keeps a currency's minor units ("399 kr" in the mail).
		a = extract.WithMinorUnits(a, cur)
	}
	return extract.InMinorUnits(a, cur) + " " + cur
}

func sameKey(a, b string) bool {
	norm := func(s string) string {
		return strings.ToUpper(strings.NewReplacer(" ", "", "-", "", "#", "").Replace(s))
	}
	return a != "" && norm(a) == norm(b)
}

// ShuffleCheck merges the records of each sequence in shuffles random
// orders and reports how many sequences came out identical to the
// in-order merge every time.
func ShuffleCheck(mails []Mail, shuffles int, seed uint64) (same, total int) {
	bySeq := map[string][]Mail{}
	var names []string
	for _, m := range mails {
		if m.Sequence == "" {
			continue
		}
		if bySeq[m.Sequence] == nil {
			names = append(names, m.Sequence)
		}
		bySeq[m.Sequence] = append(bySeq[m.Sequence], m)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	for _, name := range names {
		seq := bySeq[name]
		slices.SortFunc(seq, func(a, b Mail) int { return a.Step - b.Step })
		want := mergedJSON(Extracted(seq))
		ok := true
		for range shuffles {
			perm := slices.Clone(seq)
			r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			// Message ids follow arrival, as in the store.
			if mergedJSON(renumber(Extracted(perm), perm, seq)) != want {
				ok = false
				break
			}
		}
		total++
		if ok {
			same++
		}
	}
	return same, total
}

// renumber gives each record the id its mail had in the in-order run, so
// that sources compare equal.
func renumber(recs []extract.Record, perm, inOrder []Mail) []extract.Record {
	id := map[string]int64{}
	for i, m := range inOrder {
		id[m.Name] = int64(i + 1)
	}
	for i := range recs {
		recs[i].Message = id[perm[recs[i].Message-1].Name]
	}
	return recs
}

func mergedJSON(recs []extract.Record) string {
	b, _ := json.Marshal(extract.Merge(recs))
	return string(b)
}
