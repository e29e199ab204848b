package eval

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"

	"mailnode/extract"
)

// Travel is scored per mail, segment by segment, on the fields a traveller
// and an agent acting for one need:
//
//	flight, train, bus: reservation, number, from, to, depart, arrive
//	hotel:              reservation, name, check_in, check_out
//
// Times are written "2006-01-02T15:04" with the offset after a space when
// it is known ("2017-06-15T12:55 +02:00"): two times with offsets compare
// as instants, otherwise by their wall clocks, because many of the public
// labels give only the local time printed on the ticket. Stays compare by
// day.

// SegmentEntities turns extracted travel facts into scored entities of the
// named mail.
func SegmentEntities(mail string, facts []extract.Fact) []Entity {
	var out []Entity
	for _, f := range facts {
		s := f.Segment
		if s == nil {
			continue
		}
		fields := map[string]string{"reservation": s.Reservation}
		switch f.Kind {
		case extract.KindHotel:
			fields["name"] = s.Hotel
			fields["check_in"] = dayOf(s.CheckIn)
			fields["check_out"] = dayOf(s.CheckOut)
		case extract.KindFlight, extract.KindTrain, extract.KindBus:
			fields["number"] = s.Number
			fields["from"], fields["to"] = placeOf(f.Kind, s.From), placeOf(f.Kind, s.To)
			fields["depart"], fields["arrive"] = clockOf(s.Depart), clockOf(s.Arrive)
		default:
			continue
		}
		out = append(out, Entity{Kind: f.Kind, Mail: mail, Fields: nonEmpty(fields)})
	}
	return out
}

func placeOf(kind string, p *extract.Place) string {
	switch {
	case p == nil:
		return ""
	case kind == extract.KindFlight && p.Code != "":
		return p.Code
	case p.Name != "":
		return p.Name
	}
	return p.Code
}

func dayOf(t *extract.Time) string {
	if t == nil {
		return ""
	}
	return t.Format("2006-01-02")
}

func clockOf(t *extract.Time) string {
	if t == nil {
		return ""
	}
	if t.DateOnly {
		return ""
	}
	return t.Format("2006-01-02T15:04 -07:00")
}

func nonEmpty(m map[string]string) map[string]string {
	for k, v := range m {
		if strings.TrimSpace(v) == "" {
			delete(m, k)
		}
	}
	return m
}

// SchemaEntities reads travel reservations from schema.org JSON as
// KItinerary writes it (its expected test outputs and its extractor's
// output): FlightReservation, TrainReservation, BusReservation and
// LodgingReservation. Other types (events, boats, restaurants) are not
// scored and are left out.
func SchemaEntities(mail string, data []byte) []Entity {
	items := schemaItems(data)
	var out []Entity
	for _, r := range items {
		kind := schemaKinds[str(r["@type"])]
		if kind == "" {
			continue
		}
		fors := reservationFor(r)
		for _, f := range fors {
			kind := kind // a train leg that names a bus is scored as one
			fields := map[string]string{"reservation": str(r["reservationNumber"])}
			switch kind {
			case extract.KindHotel:
				fields["name"] = str(f["name"])
				fields["check_in"] = schemaDay(r["checkinTime"], r["checkinDate"])
				fields["check_out"] = schemaDay(r["checkoutTime"], r["checkoutDate"])
			case extract.KindFlight:
				fields["number"] = str(obj(f["airline"])["iataCode"]) + str(f["flightNumber"])
				fields["from"], fields["to"] = airport(f["departureAirport"]), airport(f["arrivalAirport"])
				fields["depart"], fields["arrive"] = schemaClock(f["departureTime"]), schemaClock(f["arrivalTime"])
			case extract.KindTrain:
				fields["number"] = strings.TrimSpace(str(f["trainName"]) + " " + str(f["trainNumber"]))
				if name, num := str(f["trainName"]), str(f["trainNumber"]); strings.HasPrefix(num, name) {
					fields["number"] = num // "ICE 943" given whole as the number
				}
				fields["from"], fields["to"] = str(obj(f["departureStation"])["name"]), str(obj(f["arrivalStation"])["name"])
				fields["depart"], fields["arrive"] = schemaClock(f["departureTime"]), schemaClock(f["arrivalTime"])
				if busNamed(fields["number"]) {
					kind = extract.KindBus
				}
			case extract.KindBus:
				fields["number"] = strings.TrimSpace(str(f["busName"]) + " " + str(f["busNumber"]))
				if name, num := str(f["busName"]), str(f["busNumber"]); strings.HasPrefix(num, name) {
					fields["number"] = num
				}
				fields["from"], fields["to"] = str(obj(f["departureBusStop"])["name"]), str(obj(f["arrivalBusStop"])["name"])
				fields["depart"], fields["arrive"] = schemaClock(f["departureTime"]), schemaClock(f["arrivalTime"])
			}
			out = append(out, Entity{Kind: kind, Mail: mail, Fields: nonEmpty(fields)})
		}
	}
	return out
}

// busNamed says whether a train leg's printed name is a bus's ("Bus
// 501262": a rail replacement bus inside a rail booking). KItinerary types
// the whole booking's legs as trains; the mail states a bus, and the
// extractor reads it as one, so both sides score it as a bus
// (docs/extract.md, "Buses scored").
func busNamed(number string) bool {
	first, _, _ := strings.Cut(number, " ")
	first = strings.TrimRight(first, "0123456789")
	return strings.EqualFold(first, "bus") || strings.EqualFold(first, "autobus")
}

// schemaKinds are the reservation types scored, by the kind they are.
var schemaKinds = map[string]string{"FlightReservation": extract.KindFlight, "TrainReservation": extract.KindTrain,
	"BusReservation": extract.KindBus, "LodgingReservation": extract.KindHotel}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

func airport(v any) string {
	a := obj(v)
	if c := str(a["iataCode"]); c != "" {
		return c
	}
	return str(a["name"])
}

// schemaTime reads a schema.org time: a string, or KItinerary's
// {"@type": "QDateTime", "@value": …, "timezone": …}.
func schemaTime(v any) (t time.Time, hasOffset, hasClock bool) {
	s := str(v)
	if m := obj(v); m != nil {
		s = str(m["@value"])
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true, true
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, false, true
		}
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, false, false
	}
	return time.Time{}, false, false
}

func schemaClock(v any) string {
	t, off, clock := schemaTime(v)
	switch {
	case !clock:
		return ""
	case off:
		return t.Format("2006-01-02T15:04 -07:00")
	}
	return t.Format("2006-01-02T15:04")
}

func schemaDay(vs ...any) string {
	for _, v := range vs {
		if t, _, _ := schemaTime(v); !t.IsZero() {
			return t.Format("2006-01-02")
		}
	}
	return ""
}

// ComparePerMail scores what was found in each mail against the labels
// of that mail. Within a mail, each expected entity (a trip segment, an
// order) is paired with the predicted one of its kind that agrees with it
// on most fields, the pairs that agree most first (an expected entity
// does not take a predicted one that a later entity agrees with better:
// a return leg is not spent on an outward train the labels list before
// it); predicted entities left unpaired count against precision.
func ComparePerMail(expected, predicted []Entity) (map[string]Score, []Mismatch) {
	byMail := map[string][]int{}
	for i, p := range predicted {
		byMail[p.Mail] = append(byMail[p.Mail], i)
	}
	scores := map[string]Score{}
	var misses []Mismatch
	used := map[int]bool{}
	pair := pairing(expected, predicted, byMail)
	for j, e := range expected {
		var got map[string]string
		if best, ok := pair[j]; ok {
			used[best], got = true, predicted[best].Fields
		}
		var s Score
		for field, want := range e.Fields {
			s.Expected++
			if got[field] != "" {
				s.Predicted++
			}
			if SameValue(field, want, got[field]) {
				s.TP++
			} else {
				misses = append(misses, Mismatch{e.Kind, e.Mail, field, want, got[field]})
			}
		}
		// A field the labels do not give is not scored: KItinerary's
		// outputs leave out what it did not read, and so the labels do.
		sc := scores[e.Kind]
		sc.Add(s)
		scores[e.Kind] = sc
	}
	misses = chargeUnpaired(predicted, used, scores, misses, func(e Entity) string { return e.Mail })
	return scores, misses
}

// pairing pairs each expected entity (by index) with a predicted one of
// its mail and kind: the pair that agrees on most fields first, ties in
// the labels' order, then the predictions'.
func pairing(expected, predicted []Entity, byMail map[string][]int) map[int]int {
	type cand struct{ e, p, n int }
	var cands []cand
	for j, e := range expected {
		for _, i := range byMail[e.Mail] {
			if predicted[i].Kind == e.Kind {
				cands = append(cands, cand{j, i, agreeing(e, predicted[i])})
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].n > cands[b].n })
	pair, taken := map[int]int{}, map[int]bool{}
	for _, c := range cands {
		if _, done := pair[c.e]; !done && !taken[c.p] {
			pair[c.e], taken[c.p] = c.p, true
		}
	}
	return pair
}

func agreeing(e, p Entity) int {
	n := 0
	for f, v := range e.Fields {
		if SameValue(f, v, p.Fields[f]) {
			n++
		}
	}
	return n
}

// SameValue says whether a found value matches a labelled one.
func SameValue(field, want, got string) bool {
	if got == "" {
		return false
	}
	// Full-width letters and digits are the ASCII ones a reader types: a
	// Japanese mail's order "００３－１２３４" is 003-1234.
	want, got = width.Fold.String(want), width.Fold.String(got)
	switch field {
	case "amount", "total":
		return strings.EqualFold(amountForm(want), got)
	case "depart", "arrive":
		return sameClock(want, got)
	case "check_in", "check_out":
		return want == got
	case "reservation":
		return compact(want) == compact(got)
	case "number":
		w, g := compact(want), compact(got)
		// "6857" labelled, "TGV 6857" found (or the other way round):
		// the same train.
		return w == g || digitsOnly(w) && strings.HasSuffix(g, w) || digitsOnly(g) && strings.HasSuffix(w, g) ||
			withoutLeadingZeros(w) == withoutLeadingZeros(g) // "QR 004" is QR 4

	case "from", "to", "name":
		w, g := foldName(want), foldName(got)
		if w == g {
			return w != ""
		}
		// "Taipei" for "台北 (Taipei)", "Berlin Hbf" for "Berlin Hbf (tief)":
		// one name holds the other whole.
		short, long := w, g
		if len(short) > len(long) {
			short, long = long, short
		}
		return len(short) >= 4 && strings.Contains(long, short)
	case "merchant", "issuer":
		// A name written as a name has a capital; a sender's domain
		// shown for want of one ("target.com") is no name, and keeps its
		// suffix.
		named := strings.IndexFunc(want, unicode.IsUpper) >= 0 && strings.IndexFunc(got, unicode.IsUpper) >= 0
		w, g := foldOrg(want, named), foldOrg(got, named)
		return w == g && w != ""
	case "domain":
		// The labels of outside sets give a sender's registrable domain
		// ("apple.com") or its whole one ("email.apple.com"), as their
		// collectors chose; extraction keeps the whole. Either names the
		// one sender when one ends in the other after a dot.
		w, g := strings.ToLower(want), strings.ToLower(got)
		return w == g || strings.Contains(w, ".") && strings.HasSuffix(g, "."+w) || strings.Contains(g, ".") && strings.HasSuffix(w, "."+g)
	}
	return strings.EqualFold(want, got)
}

// legalForms are the words a company's name ends in that say its legal
// form, not who it is: "Apex Office Supplies" and "Apex Office Supplies
// LLC" are one company, as "Peterson" is not "Peterson Building".
var legalForms = map[string]bool{
	"llc": true, "inc": true, "incorporated": true, "ltd": true, "limited": true, "plc": true, "llp": true,
	"co": true, "company": true, "corp": true, "corporation": true, "pty": true,
	"gmbh": true, "kg": true, "ag": true, "ug": true, "ohg": true, "eg": true, "ev": true, "se": true,
	"sa": true, "sas": true, "sarl": true, "srl": true, "spa": true, "sl": true, "slu": true,
	"bv": true, "nv": true, "ab": true, "as": true, "asa": true, "aps": true, "oy": true, "oyj": true,
	"kk": true, "sp": true, "zoo": true, "oo": true, "sro": true, "kft": true, "doo": true,
	"sau": true, "ltda": true, "pte": true, "pvt": true, "bhd": true, "sdn": true, "tbk": true,
}

// domainSuffixRE is a web address's suffix on a name's word ("Amazon.it",
// "Amazon.co.jp", "Walmart.com"): the shop's site, not another shop.
var domainSuffixRE = regexp.MustCompile(`^([\p{L}\d-]{2,})\.(?:(?:co|com)\.)?[a-z]{2,3}$`)

// foldOrg is a merchant's or an issuer's name as compared: accents and
// case folded, "&" read as "and", punctuation dropped, the legal form at
// its end ("LLC", "GmbH & Co. KG", "Sp. z o.o.") and a web address's
// suffix on a word of a name ("Amazon.it" is Amazon), when both are
// named so, left out.
func foldOrg(s string, named bool) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	s, _, _ = transform.String(t, strings.ReplaceAll(s, "&", " and "))
	// A Japanese company's legal form before or after its name
	// ("株式会社スマイル", "スマイル株式会社"), written without a space.
	for _, f := range []string{"株式会社", "有限会社", "合同会社"} {
		if t, ok := strings.CutPrefix(s, f); ok && t != "" {
			s = t
		} else if t, ok := strings.CutSuffix(s, f); ok && t != "" {
			s = t
		}
	}
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.'
	})
	for i, w := range words {
		if m := domainSuffixRE.FindStringSubmatch(w); m != nil && named {
			w = m[1]
		}
		words[i] = strings.ReplaceAll(w, ".", "")
	}
	for len(words) > 1 && (legalForms[words[len(words)-1]] || words[len(words)-1] == "" ||
		words[len(words)-1] == "and" || words[len(words)-1] == "z") {
		words = words[:len(words)-1]
	}
	return strings.Join(words, "")
}

func sameClock(want, got string) bool {
	parse := func(s string) (time.Time, bool, bool) {
		if t, err := time.Parse("2006-01-02T15:04 -07:00", s); err == nil {
			return t, true, true
		}
		t, err := time.Parse("2006-01-02T15:04", s)
		return t, false, err == nil
	}
	w, wOff, ok1 := parse(want)
	g, gOff, ok2 := parse(got)
	if !ok1 || !ok2 {
		return false
	}
	if wOff && gOff {
		return w.Equal(g)
	}
	return w.Format("2006-01-02T15:04") == g.Format("2006-01-02T15:04")
}

func compact(s string) string {
	return strings.ToUpper(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '-' {
			return -1
		}
		return r
	}, s))
}

// withoutLeadingZeros drops the zeros that lead a number's digits after
// its letters: "QR004" is "QR4".
func withoutLeadingZeros(s string) string {
	i := strings.LastIndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) + 1
	digits := strings.TrimLeft(s[i:], "0")
	if digits == "" {
		return s
	}
	return s[:i] + digits
}

func digitsOnly(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// foldName lower-cases a place or hotel name, strips accents and keeps
// letters and digits only.
func foldName(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	s, _, _ = transform.String(t, s)
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// schemaItems is KItinerary's expected output as a list of objects: it
// writes a list, or one object alone; nil when it is neither.
func schemaItems(data []byte) []map[string]any {
	var items []map[string]any
	if err := json.Unmarshal(data, &items); err != nil {
		var one map[string]any
		if json.Unmarshal(data, &one) != nil {
			return nil
		}
		items = []map[string]any{one}
	}
	return items
}

// reservationFor is what a reservation is for: its reservationFor object,
// or each object of its list.
func reservationFor(r map[string]any) []map[string]any {
	switch v := r["reservationFor"].(type) {
	case map[string]any:
		return []map[string]any{v}
	case []any:
		var fors []map[string]any
		for _, x := range v {
			if m, ok := x.(map[string]any); ok {
				fors = append(fors, m)
			}
		}
		return fors
	}
	return nil
}
