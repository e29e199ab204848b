package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"

	"mailnode/extract"
	"mailnode/extract/answer"
	"mailnode/extract/places"
	"mailnode/gateway/redact"
)

// genericWords name a kind of fact, not one fact: a question's "order" or
// "flight" says what it asks about, and names no merchant or trip.
var genericWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`order orders ordered bill bills invoice invoices rechnung facture factura fattura
		flight flights flug vol vuelo train trains zug hotel hotels trip trips travel reise booking reservation
		number nummer numero amount total betrag price cost costs paid pay payment due date time status tracking parcel
		package shipment delivery arrive arrives leave leaves depart departs departure arrival check
		much many how what when where which`) {
		m[w] = true
	}
	return m
}()

// factTerms are the words of a question that could name a fact: content
// words of three letters or more that are not what every question of its
// kind says.
func factTerms(q string, parsed answer.Question) []string {
	var out []string
	for _, t := range parsed.Terms {
		if len(t.Word) >= 3 && !genericWords[t.Word] {
			out = append(out, t.Word)
		}
	}
	for _, w := range strings.Fields(places.Fold(q)) {
		// Function words name nothing, and a fact named "… approved by
		// the account holder" must not answer every question with "the".
		if len(w) >= 3 && !genericWords[w] && !answer.Stopword(w) && !slices.Contains(out, w) {
			out = append(out, w) // the word as written too: stemming may have cut a name
		}
	}
	return out
}

// aboutLimit bounds the facts a question's words name that fromFacts
// weighs: the store gives authenticated senders' facts first, then those
// named by more of the question's words, then those of older mail, so
// look-alikes cannot crowd the real one out (facts.Store.About).
const aboutLimit = 30

// fromFacts answers a question that names a trip, a merchant or an issuer
// from the merged facts, before any text span is tried: "What is my IKEA
// order number?" is the IKEA order's number, not the number of whichever
// mail ranks first. ok is false when the question names no fact.
//
// Who sent a fact weighs first, so that a look-alike's fact never wins
// over the real one's: a trusted sender's over an authenticated one's, an
// authenticated one's over any other. A fact from a sender the node does
// not trust answers only a question that names its domain ("telekom" for
// telekom-rechnung.example), never by the names its mail gives itself
// (a "Water Utility" bill must not answer "how much is the water bill?"
// before the mail of the real one is read), and no trip or plan of a
// sender whose domain was not authenticated answers at all. Then
// whether the fact is of the kind asked (an amount: a bill or an order),
// then whether the question names its domain exactly, then the newest.
func (r *reader) fromFacts(ctx context.Context, q string) (*askResult, bool, error) {
	parsed := answer.Parse(q)
	terms := factTerms(q, parsed)
	if len(terms) == 0 {
		return nil, false, nil
	}
	items, err := r.src.About(ctx, terms, aboutLimit)
	if err != nil {
		return nil, false, fmt.Errorf("read facts: %w", err)
	}
	want := parsed.Want
	travel := travelAsked(q)
	var best *askResult
	var bestAt time.Time
	var bestDomain string
	var bestFirst int64
	bestScore := -1
	for _, raw := range items {
		text, domain, verified, at, kind, ok := describe(raw, travel)
		trusted, tainted, first := standing(raw)
		if !ok || tainted {
			continue // a tainted message is never used for ask, nor its facts
		}
		named := namesDomain(terms, domain)
		if !trusted && named == 0 || !verified && kind == "trip" {
			continue
		}
		score := 0
		switch {
		case verified && trusted:
			score = 200
		case verified:
			score = 100
		}
		switch {
		case want == answer.Amount && (kind == "bill" || kind == "order"),
			want == answer.Reference && (kind == "order" || kind == "bill"),
			want == answer.When && (kind == "trip" || kind == "bill"):
			score += 20
		}
		score += 5 * named
		if score < bestScore || score == bestScore && !later(registrable(domain), at, first, bestDomain, bestAt, bestFirst) {
			continue
		}
		var who []string
		if domain != "" {
			who = append(who, domain)
		}
		switch {
		case !verified:
			who = append(who, "unverified sender")
		case !trusted:
			who = append(who, "sender not trusted")
		}
		if !at.IsZero() {
			who = append(who, at.UTC().Format("2 Jan 2006"))
		}
		span := redact.Text(text)
		if !verified || !trusted && kind == "trip" {
			// Anyone may have written it: no way to contact them goes out.
			// An order's or a bill's names are its domain when its sender
			// is not trusted (the facts store names it so), and its
			// numbers are no phone numbers; a trip's hotel, event and
			// address are the mail's words.
			span = redact.Contacts(text)
		}
		if len(who) > 0 {
			span += " (" + strings.Join(who, ", ") + ")"
		}
		best = &askResult{Answer: cut(span, maxAnswerRunes), Sources: 1, Type: answerFact,
			SenderDomain: domain, Verified: verified, Trusted: trusted}
		if !at.IsZero() {
			best.MailDate = at.UTC().Format(time.DateOnly)
		}
		bestScore, bestAt, bestDomain, bestFirst = score, at, registrable(domain), first
	}
	return best, best != nil, nil
}

// later reports whether a fact ranked equal to the best so far wins over
// it: of one sender, the newer (this month's bill, not last month's); of
// two, the one first read from older mail, since a mail's date is its
// sender's to write but no sender can put mail into the past of the
// mailbox.
func later(domain string, at time.Time, first int64, bestDomain string, bestAt time.Time, bestFirst int64) bool {
	if domain == bestDomain {
		return at.After(bestAt)
	}
	return first < bestFirst
}

// registrable is a domain's registrable part (Public Suffix List), lower
// case: the part its registrant had to register.
func registrable(domain string) string {
	d := strings.ToLower(strings.TrimSuffix(domain, "."))
	if r, err := publicsuffix.EffectiveTLDPlusOne(d); err == nil {
		return r
	}
	return d
}

// namesDomain says how a question's terms name a sender's registrable
// domain: 2 when one is a whole label of it ("telekom" in telekom.de), 1
// when one is a part of a label ("telekom" in telekom-kundenkonto.example),
// else 0. A subdomain's labels are the registrant's to choose
// ("telekom.de.rechnung-service.example" is rechnung-service.example's)
// and name nothing.
func namesDomain(terms []string, domain string) int {
	domain = registrable(domain)
	if domain == "" {
		return 0
	}
	labels := strings.Split(domain, ".")
	n := 0
	for _, t := range terms {
		for _, l := range labels[:max(1, len(labels)-1)] { // not the top-level domain
			switch {
			case l == t:
				return 2
			case slices.Contains(strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' }), t):
				n = 1
			}
		}
	}
	return n
}

// travelAsked says which kind of travel a question asks about: a segment
// type, "any" for a trip of any kind, or "" when it asks about no travel
// (then no trip answers it, whatever place it names: "the Frankfurt
// meetup" is not the flight from Frankfurt).
func travelAsked(q string) string {
	f := " " + places.Fold(q) + " "
	for _, k := range []struct {
		kind  string
		words []string
	}{
		{extract.KindFlight, []string{" flight", " fly ", " flying ", " flug", " fliege", " vol ", " vuelo", " volo", " plane", " airport"}},
		{extract.KindTrain, []string{" train", " zug ", " bahn", " treno", " tren ", " rail"}},
		{extract.KindHotel, []string{" hotel", " hostel", " check in", " check-in", " unterkunft", " stay "}},
		{"any", []string{" trip", " travel", " journey", " reise", " voyage", " viaje", " viaggio", " booking", " reservation", " buchung"}},
	} {
		for _, w := range k.words {
			if strings.Contains(f, w) {
				return k.kind
			}
		}
	}
	return ""
}

// describe puts one merged fact in a sentence, with its sender's domain,
// whether it was verified, when it was last updated and its kind. A trip
// is described only when travel (travelAsked) is asked about, by its
// segments of that kind.
func describe(raw json.RawMessage, travel string) (text, domain string, verified bool, at time.Time, kind string, ok bool) {
	var probe struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return
	}
	switch {
	case strings.HasPrefix(probe.ID, "o_"):
		var o extract.OrderState
		if json.Unmarshal(raw, &o) != nil {
			return
		}
		parts := []string{nonEmpty(o.Merchant, o.Domain) + " order"}
		if o.Number != "" {
			parts[0] += " " + o.Number
		}
		parts[0] += ": " + o.Status
		for _, sh := range o.Shipments {
			if sh.Tracking != "" {
				parts = append(parts, "shipped with "+nonEmpty(sh.Carrier, "a carrier")+", tracking "+sh.Tracking)
				break
			}
		}
		if o.Total != nil {
			parts = append(parts, "total "+o.Total.Amount+" "+o.Total.Currency)
		}
		return strings.Join(parts, ", "), o.Domain, o.Verified, o.Updated, "order", true
	case strings.HasPrefix(probe.ID, "b_"):
		var b extract.BillState
		if json.Unmarshal(raw, &b) != nil {
			return
		}
		s := nonEmpty(b.Issuer, b.Domain) + " bill"
		if b.Number != "" {
			s += " " + b.Number
		}
		if b.Amount != nil {
			s += ": " + b.Amount.Amount + " " + b.Amount.Currency
		}
		switch {
		case b.Status == extract.StatusPaid:
			s += ", paid"
		case b.Status == extract.StatusStale:
			// Not "due": more than a year past its date, it is no bill to
			// pay now (extract.StaleAfter).
			s += ", stale"
			if b.Due != nil {
				s += " (unpaid since " + b.Due.Time.Format("2 Jan 2006") + ", over a year ago)"
			}
		case b.Due != nil:
			s += ", due " + b.Due.Time.Format("2 Jan 2006")
		default:
			s += ", " + b.Status
		}
		return s, b.Domain, b.Verified, b.Updated, "bill", true
	case strings.HasPrefix(probe.ID, "p_"):
		// A plan (bus, ferry, car rental, event) is named by the question
		// itself, travel words or not: "when does the concert start?".
		var t extract.Trip
		if json.Unmarshal(raw, &t) != nil || len(t.Segments) == 0 {
			return
		}
		var legs []string
		for _, s := range t.Segments[:min(2, len(t.Segments))] {
			legs = append(legs, segmentText(s))
		}
		text := strings.Join(legs, "; ")
		if t.Reservation != "" {
			text += " (booking " + t.Reservation + ")"
		}
		return text, "", t.Verified, time.Time{}, "trip", true
	case strings.HasPrefix(probe.ID, "t_"):
		var t extract.Trip
		if travel == "" || json.Unmarshal(raw, &t) != nil {
			return
		}
		var legs []string
		for _, s := range t.Segments {
			if travel != "any" && s.Type != travel {
				continue
			}
			legs = append(legs, segmentText(s))
			if len(legs) == 2 {
				break
			}
		}
		if len(legs) == 0 {
			return
		}
		text := strings.Join(legs, "; ")
		if t.Reservation != "" {
			text += " (booking " + t.Reservation + ")"
		}
		return text, "", t.Verified, time.Time{}, "trip", true
	}
	return
}

// standing reads what a merged fact says of its senders beyond
// verified_sender: whether they are trusted (mail/trust) and whether a
// message it came from is tainted.
func standing(raw json.RawMessage) (trusted, tainted bool, first int64) {
	var v struct {
		Trusted bool    `json:"trusted_sender"`
		Tainted bool    `json:"tainted"`
		Sources []int64 `json:"sources"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return false, true, 0
	}
	if len(v.Sources) > 0 {
		first = slices.Min(v.Sources)
	}
	return v.Trusted, v.Tainted, first
}

func segmentText(s extract.Segment) string {
	when := func(t *extract.Time) string {
		if t == nil {
			return ""
		}
		if t.DateOnly {
			return t.Time.Format("2 Jan 2006")
		}
		return t.Time.Format("2 Jan 2006 15:04") + " local time"
	}
	place := func(p *extract.Place) string {
		if p == nil {
			return "?"
		}
		if p.Code != "" && p.Name != "" && p.Name != p.Code {
			return p.Name + " (" + p.Code + ")"
		}
		return nonEmpty(p.Name, p.Code)
	}
	if s.Type == extract.KindHotel {
		out := nonEmpty(s.Hotel, "hotel")
		if s.CheckIn != nil {
			out += ", check-in " + when(s.CheckIn)
		}
		if s.CheckOut != nil {
			out += ", check-out " + when(s.CheckOut)
		}
		return out
	}
	switch s.Type {
	case extract.KindEvent:
		out := nonEmpty(s.Name, "event")
		if s.Address != "" {
			out += " at " + s.Address
		}
		if s.Depart != nil {
			out += ", starts " + when(s.Depart)
		}
		if s.Seat != "" {
			out += ", seat " + s.Seat
		}
		return out
	case extract.KindRental:
		out := nonEmpty(s.Name, "car") + " rental"
		if s.Depart != nil {
			out += ", pick-up " + place(s.From) + " " + when(s.Depart)
		}
		if s.Arrive != nil {
			out += ", return " + place(s.To) + " " + when(s.Arrive)
		}
		return out
	}
	out := strings.TrimSpace(s.Number + " " + place(s.From) + " to " + place(s.To))
	if s.Type == extract.KindBus || s.Type == extract.KindFerry {
		out = s.Type + " " + out
	}
	if s.Depart != nil {
		out += ", departs " + when(s.Depart)
	}
	if s.Arrive != nil {
		out += ", arrives " + when(s.Arrive)
	}
	return out
}

func nonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
