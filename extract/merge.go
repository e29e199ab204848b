package extract

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"

	"mailnode/extract/carriers"
	"mailnode/extract/places"
)

// Record is a fact with the message it came from.
type Record struct {
	Fact
	Message       int64     `json:"message"`       // the store's message id
	Date          time.Time `json:"date"`          // the message's Date
	Tiebreak      string    `json:"tiebreak"`      // orders messages with the same Date: their Message-ID or a hash of their bytes
	Authenticated bool      `json:"authenticated"` // the sender's domain was authenticated
	// AuthFailed: the user's provider said the message failed a check
	// (msgauth.Verdict.Failed): a From that is likely forged, which the
	// facts store keeps apart from every other sender's mail.
	AuthFailed bool `json:"auth_failed,omitempty"`
	// Tainted: the message addresses an AI reader somewhere
	// (Result.Tainted); what it says counts as unverified.
	Tainted bool `json:"tainted,omitempty"`
	// Trusted: the sender is trusted beyond its authentication (package
	// mail/trust: no free-mail address the user never wrote to, no domain
	// first seen days ago), as the facts store knows it when it merges.
	// Not stored: it changes with time.
	Trusted bool `json:"-"`
	// Sender is who stated the fact, as the merge tells senders apart
	// (the facts store's senderKey, set when it merges: a registrable
	// domain, an address at a free-mail provider, one message at a
	// shared one, the forwarding address of a forwarded original); ""
	// where unknown. A thing is changed only by mail of its own sender
	// (splitBySender).
	Sender string `json:"-"`
}

// Trip is one booking: its segments, in time order.
type Trip struct {
	ID          string    `json:"id"`
	Reservation string    `json:"reservation,omitempty"`
	Status      string    `json:"status"`
	Start       *Time     `json:"start,omitempty"`
	End         *Time     `json:"end,omitempty"`
	Segments    []Segment `json:"segments"`
	Sources     []int64   `json:"sources"`
	Verified    bool      `json:"verified_sender"`
	// Trusted: Verified, and every source's sender trusted beyond that
	// (package mail/trust: no free-mail provider, no domain first seen
	// days ago, unless the user wrote to it). It changes with time, so
	// Merge leaves it false and the facts store sets it when it is read.
	Trusted bool `json:"trusted_sender"`
	// Tainted: a message it was read from addresses an AI reader.
	Tainted bool `json:"tainted,omitempty"`
}

// OrderState is an order after every mail about it.
type OrderState struct {
	ID string `json:"id"`
	Order
	Updated  time.Time `json:"updated"`
	Sources  []int64   `json:"sources"`
	Verified bool      `json:"verified_sender"`
	// Trusted: Verified, and every source's sender trusted beyond that
	// (package mail/trust: no free-mail provider, no domain first seen
	// days ago, unless the user wrote to it). It changes with time, so
	// Merge leaves it false and the facts store sets it when it is read.
	Trusted bool `json:"trusted_sender"`
	// Tainted: a message it was read from addresses an AI reader.
	Tainted bool `json:"tainted,omitempty"`
}

// BillState is a bill after every mail about it.
type BillState struct {
	ID string `json:"id"`
	Bill
	Updated  time.Time `json:"updated"`
	Sources  []int64   `json:"sources"`
	Verified bool      `json:"verified_sender"`
	// Trusted: Verified, and every source's sender trusted beyond that
	// (package mail/trust: no free-mail provider, no domain first seen
	// days ago, unless the user wrote to it). It changes with time, so
	// Merge leaves it false and the facts store sets it when it is read.
	Trusted bool `json:"trusted_sender"`
	// Tainted: a message it was read from addresses an AI reader.
	Tainted bool `json:"tainted,omitempty"`
}

// Merged is everything the mail knows, merged.
type Merged struct {
	Trips []Trip
	// Plans are bookings of the other kinds (bus, ferry, rental, event),
	// merged as trips are but kept apart from them.
	Plans  []Trip
	Orders []OrderState
	Bills  []BillState
}

// rank orders the forward states of an order; a later mail cannot move an
// order back.
func rank(status string) int {
	switch status {
	case StatusOrdered:
		return 1
	case StatusShipped:
		return 2
	case StatusProblem:
		return 3
	case StatusOutForDelivery:
		return 4
	case StatusDelivered:
		return 5
	}
	return 0
}

// Merge combines records into trips, orders and bills. The result depends
// only on the set of records, never on their order: records are sorted by
// message date (ties broken by Tiebreak) and folded oldest first, so a
// newer mail's state wins and an older one, arriving late, changes
// nothing it should not. Each sender's records of a thing are a thing of
// their own (splitBySender), and within them its authenticated mail wins
// over a forged From of it (onlyTrusted): no other sender's mail cancels
// a real booking or pays a real bill.
func Merge(records []Record) Merged {
	recs := slices.Clone(records)
	slices.SortFunc(recs, func(a, b Record) int {
		return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(a.Tiebreak, b.Tiebreak), cmp.Compare(a.Kind, b.Kind), cmp.Compare(factKey(a.Fact), factKey(b.Fact)))
	})
	var segs, plans, orders, bills []Record
	for _, r := range recs {
		switch {
		case r.Segment != nil && IsTravel(r.Segment.Type):
			segs = append(segs, r)
		case r.Segment != nil:
			plans = append(plans, r)
		case r.Order != nil:
			orders = append(orders, r)
		case r.Bill != nil:
			bills = append(bills, r)
		}
	}
	return Merged{Trips: mergeTrips(segs, "t_"), Plans: mergeTrips(plans, "p_"), Orders: mergeOrders(orders), Bills: mergeBills(bills)}
}

func factKey(f Fact) string {
	switch {
	case f.Segment != nil:
		s := f.Segment
		return s.Type + "|" + s.Reservation + "|" + s.Number + "|" + dayOf(s.Start()) + "|" + places.Fold(s.Hotel)
	case f.Order != nil:
		return f.Order.Domain + "|" + f.Order.Number
	case f.Bill != nil:
		return f.Bill.Domain + "|" + f.Bill.Number
	}
	return ""
}

func dayOf(t *Time) string {
	if t == nil {
		return ""
	}
	return t.Format("2006-01-02")
}

// orgDomain is the registrable domain: mail from "news.zalando.de" and
// "zalando.de" is from the same merchant.
func orgDomain(d string) string {
	if r, err := publicsuffix.EffectiveTLDPlusOne(d); err == nil {
		return r
	}
	return d
}

// senderName is the name a merchant or an issuer is shown by. A name comes
// from the mail (a display name, markup), which anyone can write: it is
// kept only when the sender's domain was authenticated and the name agrees
// with that domain ("Deutsche Telekom" from telekom.de). Otherwise the
// domain itself names the sender, so that "PayPal" from
// paypa1-billing.example is shown as paypa1-billing.example.
func senderName(name, domain string, verified bool) string {
	if domain == "" {
		return name
	}
	org := orgDomain(strings.ToLower(domain))
	// "Amazon.com via mallory-shop", "Mallory via Wise": a relay's form,
	// whose sender is the part after "via"; the part before is anyone's
	// words, and would name the domain's stranger as a brand (the ninth
	// outside review's FORGED-9).
	if i := strings.LastIndex(strings.ToLower(name), " via "); i >= 0 {
		name = strings.TrimSpace(name[i+len(" via "):])
	}
	if verified && name != "" && commercePlatforms[org] && platformShopName(name, org) {
		return name
	}
	if !verified || name == "" || !namesDomain(name, org) {
		return org
	}
	return name
}

// commercePlatforms are the registrable domains that shop platforms send
// their shops' order and shipping mail from, in the shop's name
// ("Divora" <store+…@t.shopifyemail.com>). The domain is the platform's,
// never the shop's: it authenticates that one of the platform's shops
// sent the mail, not which, so the name is shown as the shop's only when
// it claims no brand strangers imitate (platformShopName), and the order
// keeps the platform's domain. A platform that runs on the shop's own
// domain (WooCommerce) needs no entry. Each entry is one mail/trust lists
// as free mail too (freemail.txt: anyone can open a shop, and each shop is
// one exact address): there a shop is its address for the merge and
// never trusted, so that one stranger's shop cannot change another's
// order of the same number (every Shopify shop numbers from #1001).
// Only a sending domain seen in real mail is listed: shopify.com is
// Shopify's own mail, not its shops'. (TestCommercePlatformsAreFreeMail
// in extract/facts holds the two lists together.)
var commercePlatforms = map[string]bool{
	"shopifyemail.com": true,
}

// CommercePlatforms are commercePlatforms' domains, for the test that
// holds them to mail/trust's free-mail list.
func CommercePlatforms() []string { return slices.Sorted(maps.Keys(commercePlatforms)) }

// CommercePlatform reports whether org, a registrable domain, is a commerce
// platform's that sends its shops' mail (commercePlatforms): a name Merge
// shows for it is the shop's, and finds the shop's orders though it
// agrees with no word of the platform's domain.
func CommercePlatform(org string) bool { return commercePlatforms[strings.ToLower(org)] }

// platformShopName reports whether name, a shop's on a commerce
// platform's domain org, may be shown: a name of a brand strangers
// imitate (brands.tsv: "Amazon", "PayPal") or of a look-alike is
// anyone's to claim on a platform any shop can join.
//
// Nor a name of more than three words besides legal forms, "and" and
// "of" (a sentence: "Indigo Loom Order Cancelled Refund Sent"), nor one
// that holds a brand's word anywhere once written together and its
// look-alike letters read as the letters they imitate ("Amaz0n",
// "PayPaI", "Amazonshop", "Best Buy"; the twelfth outside review). The
// tools name a platform's shop by the platform's domain anyway while it
// is free mail (mail/trust); the name finds its orders.
func platformShopName(name, org string) bool {
	for _, ws := range NameForms(name) {
		if brandWordOutside(ws, org) || roleWordsOnly(ws) {
			return false
		}
		n := 0
		for _, w := range ws {
			if !nameAndWords[w] && !acronymSkip[w] && legalForms[w] == "" {
				n++
			}
		}
		if n > 3 {
			return false
		}
	}
	skeleton := lookAlikeLetters.Replace(strings.Join(strings.Fields(places.FoldWords(name)), ""))
	for word := range brandDomains {
		if strings.Contains(skeleton, lookAlikeLetters.Replace(word)) {
			return false
		}
	}
	return true
}

// lookAlikeLetters read a name's digits and letters that imitate others
// as the letters they imitate, on both sides of a comparison ("amaz0n",
// "paypai" for PayPaI's capital I are amazon, paypal).
var lookAlikeLetters = strings.NewReplacer("0", "o", "1", "l", "i", "l", "3", "e", "5", "s", "rn", "m", "vv", "w")

// namesDomain reports whether a name agrees with a registrable domain:
// the domain's name is in the name written together ("Deutsche Telekom"
// has telekom.de's, "Quill & Press Ltd" quillandpress.com's, "&" read as
// "and"; "Müller & Söhne" muellerundsoehne.de's, as NameForms spells
// it), or a word of the name of three letters or more is in the
// domain's name ("Stadtwerke Talheim GmbH" for stadtwerke-talheim.de,
// "Müller Technik" for mueller-technik.de). A role's word (domainRoleWords:
// "Orders", "Delivery", "Support", "Shop") never makes agreement, nor does
// a run of them, unless the name is nothing else ("Booking.com" for
// booking.com): "Amazon Orders" does not agree with online-orders.top
// (the ninth outside review, M1), whose stranger would otherwise be
// shown, trusted, as the brand.
func namesDomain(name, org string) bool {
	if lookAlike(org) {
		return false
	}
	label, _, _ := strings.Cut(org, ".")
	label = places.FoldWords(label)
	compact := strings.ReplaceAll(label, " ", "")
	for _, ws := range NameForms(name) {
		// A domain's name of two letters only as the whole name ("H&M"
		// for hm.com).
		if c := strings.Join(ws, ""); len(compact) == 2 && c == compact {
			return true
		}
		if run := wordsRun(ws, compact); len(label) >= 3 && run != nil && (!roleWordsOnly(run) || roleWordsOnly(ws)) {
			if fewWordsBeside(ws, label) {
				return true
			}
		}
		matched := 0
		for _, w := range ws {
			if len(w) >= 3 && !nameAndWords[w] && !domainRoleWords[w] && strings.Contains(label, w) {
				matched++
			}
		}
		if matched > 0 && fewWordsBeside(ws, label) {
			return true
		}
		// The initials of three words or more, as the domain's whole
		// name ("Pacific Gas and Electric Company" for pge.com): a
		// stranger's domain must be those letters alone, which shows no
		// more than the initials themselves would agree with, and never
		// for a name holding a brand's word under a domain not the
		// brand's ("Amazon Web Services" for aws.example). Only under
		// .com, .net, .org, .edu, .gov or a country's suffix, where
		// every label of three or four letters has long been held: under
		// a new suffix anyone buys initials this week (ssa.help,
		// rbc.support) and would be shown as "Social Security
		// Administration" (the eleventh outside review, LOW-8).
		if a := acronym(ws); a != "" && a == label && establishedSuffix(org) && !brandWordOutside(ws, org) {
			return true
		}
		// A brand that mails from its owner's domain, as brands.tsv
		// lists it ("Xfinity" from comcast.net), named by its word
		// and at most one other.
		if len(ws) <= 2 {
			for _, w := range ws {
				if ds, ok := brandDomains[w]; ok && brandOwns(ds, org) {
					return true
				}
			}
		}
	}
	// Latin letters run into another script's ("NTTファイナンス") are
	// a word of their own to agree by.
	if !isASCII(name) {
		if spaced := scriptSpaced(name); spaced != name {
			return namesDomain(spaced, org)
		}
	}
	return false
}

// fewWordsBeside reports whether a name that agrees with a domain's label
// by some of its words holds few words besides: no more than it
// matched, or one ("Deutsche Telekom" for telekom.de). Legal forms,
// words for "and", "of", "the" and role words do not count, nor a word
// the label holds by its stem (five letters or more less an ending of
// up to three: "Arkadami" in ksiegarnia-arkady, "Pekařské" in
// pekarna-vltava), nor up to two words whose initials are what the label
// holds besides ("Fernhill Property Management" for fernhillpm.com). A
// name is what the sender writes, and a name agreeing by one word
// carried any six words along: "Acme Already Paid No Action Needed"
// reached the agent as acme-tools.example's issuer, an instruction in a
// name's place (the eleventh outside review, MEDIUM-7).
func fewWordsBeside(ws []string, label string) bool {
	// Each of the label's letters credits one word once: "Acme Tools
	// Toolkit Tooling" or "Harrowgate Harrowgates" credit no word twice
	// by the same letters (the twelfth outside review), so every word
	// beyond them counts.
	rest, matched := label, 0
	var others []string
	for _, w := range ws {
		if nameAndWords[w] || acronymSkip[w] || legalForms[w] != "" || domainRoleWords[w] {
			continue
		}
		if len(w) >= 3 && strings.Contains(rest, w) {
			matched++
			rest = strings.Replace(rest, w, "", 1)
			continue
		}
		if n := StemLen(w); n < len(w) {
			if stem := w[:n]; strings.Contains(rest, stem) {
				matched++
				rest = strings.Replace(rest, stem, "", 1)
				continue
			}
		}
		others = append(others, w)
	}
	if len(others) <= max(1, matched) {
		return true
	}
	if len(others) > 2 {
		return false
	}
	initials := ""
	for _, w := range others {
		initials += w[:1]
	}
	return rest == initials
}

// StemLen is the length of the shortest stem a domain cuts a name's
// word to and still names it ("detailingowa" to "detailing", an
// inflected ending of up to three letters left off, four letters kept at
// least), the word's own length for a word under five letters: the one
// rule Merge's agreement and the tools' finding of a shop by its name
// share.
func StemLen(w string) int {
	if len(w) < 5 {
		return len(w)
	}
	return max(4, len(w)-3)
}

// domainRoleWords are words of a mailbox's or a shop's role, not of a
// brand (roleWords, shop.noun, domain.role: "orders", "delivery",
// "support", "online", "payments", "account"), and the generic top-level
// domains' names a display name writes ("Amazon.com"): anyone may
// register a domain of them (online-orders.top), so they never make a name
// agree with a domain.
var domainRoleWords = func() map[string]bool {
	m := map[string]bool{"com": true, "net": true, "org": true}
	for w := range roleWords {
		m[w] = true
	}
	for _, c := range []string{"shop.noun", "domain.role"} {
		for w := range wordSet(c) {
			if !strings.Contains(w, " ") {
				m[places.FoldWords(w)] = true
			}
		}
	}
	return m
}()

// roleWordsOnly reports whether every word of ws is a role's
// (domainRoleWords), a word for "and" or shorter than three letters.
func roleWordsOnly(ws []string) bool {
	for _, w := range ws {
		if len(w) >= 3 && !domainRoleWords[w] && !nameAndWords[w] {
			return false
		}
	}
	return true
}

// wordsRun is a run of whole words of ws that, written together, is s:
// telekom of "Deutsche Telekom", quillandpress of "Quill and Press Ltd";
// not pal of "PayPal" nor maz of "Amazon" (the eighth outside review: a
// three-letter domain took a brand's name). nil: none.
func wordsRun(ws []string, s string) []string {
	for i := range ws {
		rest := s
		for j, w := range ws[i:] {
			if !strings.HasPrefix(rest, w) {
				break
			}
			if rest = rest[len(w):]; rest == "" {
				return ws[i : i+j+1]
			}
		}
	}
	return nil
}

// onlyTrusted picks the records a thing is merged from: those of trusted
// senders (Record.Trusted) from untainted messages when there are any,
// else those of authenticated senders from untainted messages, else
// those of authenticated senders, else the forwarded originals an
// authenticated forwarder sent, when others are there too, else all.
// verified says the records
// kept are authenticated senders'; tainted that one of them is from a
// tainted message. A tainted mail, authenticated or not, then cannot
// cancel a booking or pay a bill that clean mail states; nor can a
// stranger whose mail authenticates for a free-mail address or a domain
// registered last week change what a trusted sender's mail says (the
// outside review of 2026-11-28: a Gmail sender naming a booking's code
// cancelled it, and one naming a tracking number took the order over).
func onlyTrusted(rs []Record) (kept []Record, verified, tainted bool) {
	var auth, clean, trusted []Record
	for _, r := range rs {
		if r.Authenticated && r.Fact.From != FromForwarded {
			auth = append(auth, r)
			if !r.Tainted {
				clean = append(clean, r)
				if r.Trusted {
					trusted = append(trusted, r)
				}
			}
		}
	}
	switch {
	case len(trusted) > 0:
		return trusted, true, false
	case len(clean) > 0:
		return clean, true, false
	case len(auth) > 0:
		return auth, true, true
	}
	// Forwarded originals are nobody's authenticated word, but those an
	// authenticated forwarder sent are the forwarder's: a forged From of
	// the forwarder's address, dressed as a forward, loses to them.
	var forwarded []Record
	for _, r := range rs {
		if r.Authenticated && !r.Tainted {
			forwarded = append(forwarded, r)
		}
	}
	if len(forwarded) > 0 && len(forwarded) < len(rs) {
		return forwarded, false, false
	}
	for _, r := range rs {
		tainted = tainted || r.Tainted
	}
	return rs, false, tainted
}

// splitBySender splits the records of one thing (a segment, an order, a
// bill) into the things they state, one for each sender: a sender's mail
// changes only what its own mail states, however trusted it is (the
// outside reviews of 2026-11-28: a Gmail stranger naming a booking's code
// cancelled a real booking the person had forwarded; a Microsoft 365
// tenant, established and authenticated under onmicrosoft.com, cancelled
// a trusted one; an unauthenticated one cancelled a booking whose DKIM a
// list broke). A sender is Record.Sender, as the facts store gives it
// (mail/trust.SenderKey: a registrable domain, an address at a free-mail
// provider, a message of its own at a shared one, the forwarding address
// of a forwarded original); within a sender's part, onlyTrusted prefers
// its authenticated mail to a forged From of it. Records with no Sender
// (a merge without a store) are one thing, as before senders were told
// apart. who names each part's sender for its ID and for the booking its
// segments join ("" when senders are unknown).
func splitBySender(rs []Record) (parts [][]Record, who []string) {
	if !slices.ContainsFunc(rs, func(r Record) bool { return r.Sender != "" }) {
		return [][]Record{rs}, []string{""}
	}
	idx := map[string]int{}
	for _, r := range rs {
		k := r.Sender
		if k == "" {
			k = "?"
		}
		i, ok := idx[k]
		if !ok {
			i = len(parts)
			idx[k] = i
			parts = append(parts, nil)
			who = append(who, k)
		}
		parts[i] = append(parts[i], r)
	}
	return parts, who
}

// tier is how far the records onlyTrusted kept for a part are vouched
// for: 3 a trusted sender's clean mail, 2 an authenticated sender's clean
// mail, 1 an authenticated sender's, 0 none.
func tier(rs []Record, verified, tainted bool) int {
	switch {
	case !verified:
		return 0
	case tainted:
		return 1
	case rs[0].Trusted:
		return 3
	}
	return 2
}

func sources(rs []Record) []int64 {
	var out []int64
	for _, r := range rs {
		if !slices.Contains(out, r.Message) {
			out = append(out, r.Message)
		}
	}
	slices.Sort(out)
	return out
}

// partID is the ID of a thing keyed key, stated by sender who
// (splitBySender; "" when senders are unknown).
func partID(prefix, key, who string) string {
	if who == "" {
		return stableID(prefix, key)
	}
	return stableID(prefix, key, who)
}

func stableID(prefix string, parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return prefix + hex.EncodeToString(h[:6])
}

// segmentKey identifies a segment across mails.
func segmentKey(s *Segment) string {
	switch s.Type {
	case KindHotel:
		if s.Reservation != "" {
			return "hotel|" + s.Reservation
		}
		return "hotel|" + places.Fold(s.Hotel) + "|" + dayOf(s.CheckIn)
	case KindEvent, KindRental:
		if s.Reservation != "" {
			return s.Type + "|" + s.Reservation
		}
		return s.Type + "|" + places.Fold(s.Name) + "|" + dayOf(s.Start())
	default:
		id := s.Number
		if id == "" && s.From != nil && s.To != nil {
			id = places.Fold(s.From.Name+s.From.Code) + ">" + places.Fold(s.To.Name+s.To.Code)
		}
		return s.Type + "|" + s.Reservation + "|" + strings.ReplaceAll(id, " ", "") + "|" + dayOf(s.Start())
	}
}

// stayKey is the key of the stay a hotel record with a reservation joins:
// the reservation's, unless the stay found under it is another hotel on
// other days (two hotels' numbers may be the same: "66120447" at a hotel
// in Gdańsk and another in Lindau). A booking's changed dates keep its
// hotel's name, and a name missing on either side joins, unless both come
// from one mail (sameStay).
// It compares with each stay's first record, and a reservation holds at
// most maxStays stays (the last takes the rest), so that many mails
// reusing one number cost no more than a few comparisons each.
func stayKey(groups map[string][]Record, k string, r Record) string {
	const maxStays = 8
	kk := k
	for i := 1; i <= maxStays; i++ {
		g, ok := groups[kk]
		if !ok || sameStay(g[0], r) {
			return kk
		}
		if i < maxStays {
			kk = k + "|" + strconv.Itoa(i)
		}
	}
	return kk
}

// sameStay says whether two hotel records with one reservation can be one
// stay: the same check-in day, or names that one holds the other of. A
// name missing on one side joins a later mail's stay (a change that names
// only the booking), not one of the same mail on another day: an agency's
// mail that books two hotels under its one number, the second's block
// without a name, states two stays.
func sameStay(ra, rb Record) bool {
	a, b := ra.Segment, rb.Segment
	if a.CheckIn == nil || b.CheckIn == nil || dayOf(a.CheckIn) == dayOf(b.CheckIn) {
		return true
	}
	fa, fb := places.FoldWords(a.Hotel), places.FoldWords(b.Hotel)
	if fa == "" || fb == "" {
		return ra.Message == 0 || ra.Message != rb.Message
	}
	return strings.Contains(fa, fb) || strings.Contains(fb, fa)
}

// mergeTrips merges segment records into trips, by booking; prefix starts
// their IDs.
func mergeTrips(recs []Record, prefix string) []Trip {
	// Segments by key; cancellations that name only a booking apply to
	// every segment of it.
	groups := map[string][]Record{}
	var order []string
	var bookingOnly []Record
	for _, r := range recs {
		if r.Segment.Start() == nil {
			bookingOnly = append(bookingOnly, r)
			continue
		}
		k := segmentKey(r.Segment)
		if r.Segment.Type == KindHotel && r.Segment.Reservation != "" {
			k = stayKey(groups, k, r)
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	for _, r := range bookingOnly {
		for _, k := range order {
			g := groups[k]
			if g[0].Segment.Reservation == r.Segment.Reservation && g[0].Segment.Type == r.Segment.Type {
				groups[k] = insertSorted(g, r)
			}
		}
	}
	type merged struct {
		seg               Segment
		src               []int64
		verified, tainted bool
	}
	byBooking := map[string][]merged{}
	var bookings []string
	for _, k := range order {
		parts, who := splitBySender(groups[k])
		for i, part := range parts {
			rs, verified, tainted := onlyTrusted(part)
			var s Segment
			for _, r := range rs {
				mergeSegment(&s, r.Segment)
			}
			if s.Start() == nil {
				continue
			}
			b := s.Reservation
			if b == "" {
				b = "single|" + k
			}
			if who[i] != "" {
				b += "\x00" + who[i]
			}
			if _, ok := byBooking[b]; !ok {
				bookings = append(bookings, b)
			}
			byBooking[b] = append(byBooking[b], merged{s, sources(rs), verified, tainted})
		}
	}
	var trips []Trip
	for _, b := range bookings {
		ms := byBooking[b]
		// A sender's legs that its authenticated mail states stand for its
		// booking: a leg only a forged From of it states is dropped, as a
		// forged record of one leg is (onlyTrusted).
		if slices.ContainsFunc(ms, func(m merged) bool { return m.verified }) {
			ms = slices.DeleteFunc(ms, func(m merged) bool { return !m.verified })
		}
		slices.SortFunc(ms, func(x, y merged) int { return x.seg.Start().Compare(y.seg.Start().Time) })
		t := Trip{ID: stableID(prefix, b), Status: StatusCancelled, Verified: true}
		for _, m := range ms {
			t.Segments = append(t.Segments, m.seg)
			for _, id := range m.src {
				if !slices.Contains(t.Sources, id) {
					t.Sources = append(t.Sources, id)
				}
			}
			t.Verified = t.Verified && m.verified
			t.Tainted = t.Tainted || m.tainted
			if m.seg.Status != StatusCancelled {
				t.Status = StatusConfirmed
			}
			if t.Start == nil || m.seg.Start().Before(t.Start.Time) {
				t.Start = m.seg.Start()
			}
			if t.End == nil || m.seg.End().After(t.End.Time) {
				t.End = m.seg.End()
			}
		}
		t.Reservation = ms[0].seg.Reservation
		slices.Sort(t.Sources)
		trips = append(trips, t)
	}
	slices.SortFunc(trips, func(a, b Trip) int { return cmp.Or(a.Start.Compare(b.Start.Time), cmp.Compare(a.ID, b.ID)) })
	return trips
}

func insertSorted(g []Record, r Record) []Record {
	i, _ := slices.BinarySearchFunc(g, r, func(a, b Record) int {
		return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(a.Tiebreak, b.Tiebreak))
	})
	return slices.Insert(slices.Clone(g), i, r)
}

// mergeSegment folds a newer segment record into s: its non-empty fields
// win, and its status is the segment's status.
func mergeSegment(s *Segment, n *Segment) {
	if s.Type == "" {
		s.Type = n.Type
	}
	s.Status = n.Status
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&s.Reservation, n.Reservation)
	set(&s.Carrier, n.Carrier)
	set(&s.Number, n.Number)
	set(&s.Seat, n.Seat)
	set(&s.Hotel, n.Hotel)
	set(&s.Name, n.Name)
	set(&s.Address, n.Address)
	if n.From != nil {
		s.From = n.From
	}
	if n.To != nil {
		s.To = n.To
	}
	for _, p := range []struct{ dst, v **Time }{{&s.Depart, &n.Depart}, {&s.Arrive, &n.Arrive}, {&s.CheckIn, &n.CheckIn}, {&s.CheckOut, &n.CheckOut}} {
		if *p.v != nil {
			*p.dst = *p.v
		}
	}
}

// unionFind joins order keys that share a tracking number.
type unionFind map[string]string

func (u unionFind) find(k string) string {
	for u[k] != "" && u[k] != k {
		k = u[k]
	}
	return k
}

func (u unionFind) union(a, b string) {
	ra, rb := u.find(a), u.find(b)
	if ra != rb {
		if ra > rb {
			ra, rb = rb, ra
		}
		u[rb] = ra
	}
	u[ra] = ra
}

func orderKeys(o *Order) []string {
	var keys []string
	if o.Number != "" {
		keys = append(keys, "order|"+orgDomain(o.Domain)+"|"+strings.ToUpper(o.Number))
	}
	for _, s := range o.Shipments {
		if s.Tracking != "" {
			keys = append(keys, "ship|"+strings.ToUpper(s.Tracking))
		}
	}
	return keys
}

func mergeOrders(recs []Record) []OrderState {
	u := unionFind{}
	for _, r := range recs {
		keys := orderKeys(r.Order)
		for _, k := range keys {
			u.union(keys[0], k)
		}
	}
	groups := map[string][]Record{}
	var roots []string
	for _, r := range recs {
		keys := orderKeys(r.Order)
		if len(keys) == 0 {
			continue
		}
		root := u.find(keys[0])
		if _, ok := groups[root]; !ok {
			roots = append(roots, root)
		}
		groups[root] = append(groups[root], r)
	}
	var out []OrderState
	for _, root := range roots {
		out = append(out, mergeOrderParts(root, groups[root])...)
	}
	// Orders with neither number, one shop's notices days apart
	// (numberless.go).
	nroots, ngroups := numberlessOrders(recs)
	for i, root := range nroots {
		out = append(out, mergeOrderParts(root, ngroups[i])...)
	}
	// No two orders share an ID: it keys the facts store's merged table,
	// where one repeat stops every merge (two copies of one numberless
	// notice made two orders of one ID, the review of 2026-12-03). A
	// repeat takes one made of its sources too.
	seen := make(map[string]bool, len(out))
	for i := range out {
		for seen[out[i].ID] {
			out[i].ID = stableID("o_", out[i].ID, fmt.Sprint(out[i].Sources))
		}
		seen[out[i].ID] = true
	}
	slices.SortFunc(out, func(a, b OrderState) int { return cmp.Or(b.Updated.Compare(a.Updated), cmp.Compare(a.ID, b.ID)) })
	return out
}

// orderPart is one sender's records of an order (splitBySender), as
// onlyTrusted kept them.
type orderPart struct {
	rs                []Record
	who               string
	verified, tainted bool
	tier              int
	numbered          bool            // a record names the order's number: the shop's mail
	tracking          map[string]bool // the tracking numbers its records name
	carried           []Record        // other senders' carrier notices applied to it
}

// mergeOrderParts merges the records of one order (those joined by its
// number and tracking numbers) into an order for each sender
// (splitBySender). A carrier's notices (records that name no order
// number, from a carrier's domain) also move the shipments of the other
// senders' orders that list their tracking number forward, never back and never to cancelled or
// returned, when the carrier is vouched for at least as far as the order
// (tier): the shop's order is then delivered when the carrier says so,
// and the carrier's notices are not an order of their own. Nothing else
// of another sender's mail changes an order.
func mergeOrderParts(root string, recs []Record) []OrderState {
	split, who := splitBySender(recs)
	parts := make([]*orderPart, len(split))
	for i, part := range split {
		rs, verified, tainted := onlyTrusted(part)
		p := &orderPart{rs: rs, who: who[i], verified: verified, tainted: tainted, tier: tier(rs, verified, tainted), tracking: map[string]bool{}}
		for _, r := range rs {
			p.numbered = p.numbered || r.Order.Number != ""
			for _, sh := range r.Order.Shipments {
				if sh.Tracking != "" {
					p.tracking[strings.ToUpper(sh.Tracking)] = true
				}
			}
		}
		parts[i] = p
	}
	absorbed := make([]bool, len(parts))
	for ci, c := range parts {
		// Only a carrier's own notices move another sender's order: a
		// stranger's mail that names a tracking number and no order
		// number is no carrier's (the seventh outside review: a Gmail
		// address delivered a new shop's order).
		if c.numbered || !carrierNotices(c.rs) {
			continue
		}
		for _, p := range parts {
			if p == c || !p.numbered || c.tier < p.tier || !sharesKey(c.tracking, p.tracking) {
				continue
			}
			p.carried = append(p.carried, c.rs...)
			absorbed[ci] = true
		}
	}
	var out []OrderState
	for i, p := range parts {
		if absorbed[i] {
			continue
		}
		rs := p.rs
		if len(p.carried) > 0 {
			rs = slices.Concat(p.rs, p.carried)
			slices.SortStableFunc(rs, func(a, b Record) int {
				return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(a.Tiebreak, b.Tiebreak))
			})
		}
		var o Order
		for _, r := range rs {
			if r.Sender == p.rs[0].Sender {
				mergeOrder(&o, r.Order)
			} else {
				carryShipments(&o, r.Order)
			}
		}
		o.Merchant = senderName(o.Merchant, o.Domain, p.verified && !p.tainted)
		tainted := p.tainted || slices.ContainsFunc(p.carried, func(r Record) bool { return r.Tainted })
		out = append(out, OrderState{ID: partID("o_", ownRoot(p.rs, root), p.who), Order: o, Updated: rs[len(rs)-1].Date.UTC(), Sources: sources(rs), Verified: p.verified, Tainted: tainted})
	}
	return out
}

// ownRoot is the key an order's ID is made of: the least of the keys its
// own sender's records give, so that another sender's mail joined to it
// by a tracking number does not change it; root when they give none.
func ownRoot(rs []Record, root string) string {
	own := ""
	for _, r := range rs {
		for _, k := range orderKeys(r.Order) {
			if own == "" || k < own {
				own = k
			}
		}
	}
	if own == "" {
		return root
	}
	return own
}

// carrierNotices reports whether every record is of mail from a
// carrier's domain, not forwarded: by its sender (the facts store's
// registrable domain; extraction leaves a carrier's notice no domain of
// its own, the shop it names being the merchant), else its order's
// domain. Only the domains carriers send from count (carriers.CarrierOf),
// never a domain that merely starts with a carrier's name: dhl.help and
// ups.express are anyone's (the eighth outside review).
func carrierNotices(rs []Record) bool {
	for _, r := range rs {
		if r.From == FromForwarded || carriers.CarrierOf(cmp.Or(r.Sender, r.Order.Domain)) == "" {
			return false
		}
	}
	return len(rs) > 0
}

func sharesKey(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// carryShipments moves the shipments of o that a carrier's notice n names
// forward: their status, never to cancelled or returned, and the carrier
// and expected day it gives. Shipments o does not list are not added.
func carryShipments(o *Order, n *Order) {
	for _, s := range n.Shipments {
		i := slices.IndexFunc(o.Shipments, func(x Shipment) bool {
			return s.Tracking != "" && strings.EqualFold(x.Tracking, s.Tracking)
		})
		if i < 0 {
			continue
		}
		x := &o.Shipments[i]
		if s.Status != StatusCancelled && s.Status != StatusReturned && rank(s.Status) > rank(x.Status) {
			x.Status = s.Status
		}
		if s.Carrier != "" && x.Carrier == "" {
			x.Carrier = s.Carrier
		}
		if s.Expected != nil {
			x.Expected = s.Expected
		}
	}
	for _, s := range o.Shipments {
		if rank(s.Status) > rank(o.Status) && o.Status != StatusCancelled && o.Status != StatusReturned {
			o.Status = s.Status
		}
	}
}

// nextStatus moves a status forward: cancellations and returns always
// apply, other states only when they are further along.
func nextStatus(cur, n string) string {
	switch {
	case n == "":
		return cur
	case cur == "":
		return n
	case n == StatusCancelled || n == StatusReturned:
		return n
	case cur == StatusCancelled || cur == StatusReturned:
		if n == StatusOrdered {
			return cur
		}
		return n // shipped after a cancellation: a new shipment happened
	case rank(n) > rank(cur):
		return n
	}
	return cur
}

func mergeOrder(o *Order, n *Order) {
	if n.Merchant != "" && (o.Merchant == "" || n.Number != "") {
		o.Merchant = n.Merchant
	}
	if n.Domain != "" {
		o.Domain = n.Domain
	}
	if n.Number != "" {
		o.Number = n.Number
	}
	o.Status = nextStatus(o.Status, n.Status)
	if n.Ordered != nil {
		o.Ordered = n.Ordered
	}
	if n.Total != nil {
		o.Total = n.Total
	}
	for _, it := range n.Items {
		if !slices.Contains(o.Items, it) && len(o.Items) < 10 {
			o.Items = append(o.Items, it)
		}
	}
	var touched []int
	for _, s := range n.Shipments {
		i := slices.IndexFunc(o.Shipments, func(x Shipment) bool {
			return s.Tracking != "" && strings.EqualFold(x.Tracking, s.Tracking)
		})
		if i < 0 {
			o.Shipments = append(o.Shipments, s)
			touched = append(touched, len(o.Shipments)-1)
			continue
		}
		touched = append(touched, i)
		x := &o.Shipments[i]
		x.Status = nextStatus(x.Status, s.Status)
		if s.Carrier != "" {
			x.Carrier = s.Carrier
		}
		if s.Expected != nil {
			x.Expected = s.Expected
		}
	}
	// The order is as far along as its furthest shipment this mail
	// names. Not the shipments of older mail: their "shipped" after the
	// shop's own cancellation or return read as a new shipment and undid
	// it (the tenth outside review's MEDIUM-8); each was folded in when
	// its own mail was.
	for _, i := range touched {
		o.Status = nextStatus(o.Status, o.Shipments[i].Status)
	}
}

func billKey(b *Bill) string {
	d := orgDomain(b.Domain)
	if b.Number != "" {
		return "bill|" + d + "|" + strings.ToUpper(b.Number)
	}
	amount := ""
	if b.Amount != nil {
		amount = b.Amount.Amount
	}
	return "bill|" + d + "|" + amount + "|" + dayOf(b.Due)
}

func mergeBills(recs []Record) []BillState {
	groups := map[string][]Record{}
	var keys []string
	var paidNotices []Record // "payment received" with neither number nor due date
	for _, r := range recs {
		b := r.Bill
		if b.Number == "" && b.Due == nil && b.Status == StatusPaid {
			paidNotices = append(paidNotices, r)
			continue
		}
		k := billKey(b)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	// A payment notice pays the bill of the same sender and amount that
	// was due before it.
	for _, p := range paidNotices {
		matched := false
		for _, k := range keys {
			g := groups[k]
			first := g[0].Bill
			if orgDomain(first.Domain) == orgDomain(p.Bill.Domain) && first.Amount != nil && p.Bill.Amount != nil &&
				first.Amount.Amount == p.Bill.Amount.Amount && !g[0].Date.After(p.Date) {
				groups[k] = insertSorted(g, p)
				matched = true
				break
			}
		}
		if !matched { // a bill paid before the node saw it due
			k := billKey(p.Bill) + "|" + p.Tiebreak
			keys = append(keys, k)
			groups[k] = []Record{p}
		}
	}
	var out []BillState
	for _, k := range keys {
		parts, who := splitBySender(groups[k])
		for i, part := range parts {
			rs, verified, tainted := onlyTrusted(part)
			var b Bill
			for _, r := range rs {
				mergeBill(&b, r.Bill)
			}
			b.Issuer = senderName(b.Issuer, b.Domain, verified && !tainted)
			out = append(out, BillState{ID: partID("b_", k, who[i]), Bill: b, Updated: rs[len(rs)-1].Date.UTC(), Sources: sources(rs), Verified: verified, Tainted: tainted})
		}
	}
	slices.SortFunc(out, func(a, b BillState) int { return cmp.Or(cmpDue(a.Due, b.Due), cmp.Compare(a.ID, b.ID)) })
	return out
}

func cmpDue(a, b *Time) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return a.Compare(b.Time)
}

func mergeBill(b *Bill, n *Bill) {
	if n.Issuer != "" {
		b.Issuer = n.Issuer
	}
	if n.Domain != "" {
		b.Domain = n.Domain
	}
	if n.Number != "" {
		b.Number = n.Number
	}
	if n.Amount != nil && (n.Status != StatusPaid || b.Amount == nil) {
		b.Amount = n.Amount
	}
	if n.Due != nil {
		b.Due = n.Due
	}
	if n.Issued != nil {
		b.Issued = n.Issued
	}
	// A payment of less than the amount due, in its currency, is a part
	// payment: the bill stays due for what it was (a stranger may pay $1
	// of the person's invoice by its number, and the biller's own receipt
	// says "Amount: $1.00"; the thirteenth outside review, HIGH-1).
	if n.Status == StatusPaid && b.Status == StatusDue && partPayment(n.Amount, b.Amount) {
		return
	}
	// Paid is final: a reminder that crossed the payment does not reopen it.
	if b.Status != StatusPaid || n.Status == StatusCancelled {
		b.Status = n.Status
	}
}

// partPayment reports whether paid is less than due, in one currency.
func partPayment(paid, due *Money) bool {
	if paid == nil || due == nil || paid.Currency != due.Currency {
		return false
	}
	p, err1 := strconv.ParseFloat(paid.Amount, 64)
	d, err2 := strconv.ParseFloat(due.Amount, 64)
	return err1 == nil && err2 == nil && p > 0 && p < d
}

// Tiebreak orders two messages with the same Date: by Message-ID, else by
// a hash of their bytes, so that it does not depend on arrival order.
func Tiebreak(messageID string, raw []byte) string {
	if messageID != "" {
		return messageID
	}
	h := sha256.Sum256(raw)
	return "~" + hex.EncodeToString(h[:8])
}
