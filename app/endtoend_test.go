package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"golang.org/x/net/publicsuffix"

	"mailnode/extract"
	"mailnode/extract/eval"
	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
	"mailnode/mail/imaptest"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// endToEndSets are the evaluation's development mails with labels that
// the end-to-end test delivers (docs/extract.md "The evaluation's parts").
// Never the headline: its mails are not read here.
var endToEndSets = []string{"public-dev", "public/kitinerary", "public/mail-and-packages", "handwritten", "unseen"}

// endToEndLosses is, per kind, the most labelled fields the extractor
// reads right that the tools may still lose on the way (docs/extract.md
// "End to end: the tools after an IMAP round trip"), beside the losses
// the tools' rules make on purpose, counted apart. One lost field fails
// the test.
var endToEndLosses = map[string]int{}

// TestEndToEndDovecot delivers the evaluation's labelled development mails
// into a real Dovecot, syncs them into a node as the CLI does, and asks
// the read tools for each labelled fact as a person's agent would: a trip
// by a window around its dates, an order by the merchant's name, a bill by
// a date after it is due. It counts per kind the labelled fields the tools
// return, beside what the extractor alone reads from the same files, and
// fails when a field the extractor reads is lost between it and the tool.
func TestEndToEndDovecot(t *testing.T) {
	ctx := context.Background()
	sets, every := endToEndSets, endToEndEvery
	dirOf := func(set string) string {
		return filepath.Join("..", "extract", "eval", "testdata", filepath.FromSlash(set))
	}
	nameOf := func(set string) string { return set }
	if v := os.Getenv("MAILNODE_E2E_SETS"); v != "" {
		// Folders of labelled mail kept outside the repository (an
		// outside measurement's, docs/extract.md "The evaluation's
		// parts"), delivered whole instead: the tools' figure on mail
		// nobody here tuned on.
		sets, every = filepath.SplitList(v), 1
		dirOf = func(set string) string { return set }
		nameOf = filepath.Base
	}
	var all eval.Public
	for _, set := range sets {
		p, err := eval.LoadPublic(dirOf(set))
		if err != nil {
			t.Fatal(err)
		}
		set = nameOf(set)
		kept := map[string]bool{}
		for i, m := range p.Mails {
			if i%every != 0 {
				continue
			}
			kept[m.Name] = true
			m.Name = set + "/" + m.Name
			all.Mails = append(all.Mails, m)
		}
		for _, e := range p.Expected {
			if !kept[e.Mail] {
				continue
			}
			e.Mail = set + "/" + e.Mail
			all.Expected = append(all.Expected, e)
		}
	}
	srv := imaptest.NewDovecot(t)
	start := time.Now()
	byBytes := map[[32]byte][]string{}
	arrived := map[string]time.Time{}
	c := srv.Dial(t)
	for _, m := range all.Mails {
		at := mime.Parse(m.Raw).Date
		arrived[m.Name] = at
		if at.IsZero() {
			at = start
		}
		// The server's arrival time is the mail's Date, as a delivery
		// at the time it was written would have set it.
		cmd := c.Append("INBOX", int64(len(m.Raw)), &imap.AppendOptions{Time: at})
		if _, err := cmd.Write(m.Raw); err != nil {
			t.Fatalf("append %s: %v", m.Name, err)
		}
		if err := cmd.Close(); err != nil {
			t.Fatalf("append %s: %v", m.Name, err)
		}
		if _, err := cmd.Wait(); err != nil {
			t.Fatalf("append %s: %v", m.Name, err)
		}
		k := rawKey(m.Raw)
		byBytes[k] = append(byBytes[k], m.Name)
	}
	delivered := time.Since(start)

	n, err := New(Config{DataDir: t.TempDir(),
		Accounts: []imapsync.Config{{Account: "e2e", Address: srv.Addr, Security: imapsync.Plain,
			Username: srv.Username, Password: credential.Secret(srv.Password)}},
		Facts: FactsConfig{AuthServIDs: []string{eval.AuthServID}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	if _, err := n.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	synced := time.Since(start) - delivered

	comp, err := n.comp()
	if err != nil {
		t.Fatal(err)
	}
	// The person asks when the mail has arrived: the tools' clock (by
	// which domains age and bills go stale) is the mail's Date.
	var asked time.Time
	readTools, err := n.ReadTools(func() time.Time { return asked })
	if err != nil {
		t.Fatal(err)
	}
	tool := map[string]func(context.Context, json.RawMessage) (any, error){}
	for _, tl := range readTools {
		tool[tl.Name] = tl.Run
	}
	names := map[int64][]string{} // store message id -> mail names
	mailsOf := func(ids []int64) []string {
		var out []string
		for _, id := range ids {
			if _, ok := names[id]; !ok {
				raw, err := comp.store.Raw(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				names[id] = byBytes[rawKey(raw)]
			}
			out = append(out, names[id]...)
		}
		return out
	}
	merged := map[string]bool{} // mails whose answer merged several mails
	// byDomain are the mails whose shop or issuer the tools name by its
	// domain: the sender is not trusted (yet), docs/extract.md "Trust".
	byDomain := map[string]bool{}
	// A mail without a sender's domain (a bill's printout kept without
	// its From): the tools name an untrusted sender by its domain, so by
	// none, never by the name its text claims (extract/facts byDomain).
	noDomain := map[string]bool{}
	raws := map[string][]byte{}
	for _, m := range all.Mails {
		raws[m.Name] = m.Raw
	}

	labelsOf := map[string][]eval.Entity{}
	for _, e := range all.Expected {
		labelsOf[e.Mail] = append(labelsOf[e.Mail], e)
	}
	var found []eval.Entity
	seen := map[string]bool{} // item id + mail: each answer counted once
	var calls, apart int
	// ask calls a tool for a labelled fact of the mail asked about and
	// keeps the scored entities of the answers read from that mail. It
	// reports whether the answer was cut at the tools' 20 items.
	ask := func(asked string, name string, args map[string]any) (full bool) {
		b, _ := json.Marshal(args)
		out, err := tool[name](ctx, b)
		if err != nil {
			t.Fatalf("%s(%s) = %v", name, b, err)
		}
		calls++
		j, _ := json.Marshal(out)
		var loose map[string]json.RawMessage
		if err := json.Unmarshal(j, &loose); err != nil {
			t.Fatalf("%s(%s) answered %s", name, b, j)
		}
		n := 0
		for key, v := range loose {
			var items []json.RawMessage
			if json.Unmarshal(v, &items) != nil {
				continue // unverified_note
			}
			n += len(items)
			for _, it := range items {
				es, sources, id, trusted := toolEntities(t, it)
				mails := mailsOf(sources)
				if len(mails) == 0 {
					t.Fatalf("%s(%s) answered from messages %v, none of them delivered as sent", name, b, sources)
				}
				if !slices.Contains(mails, asked) {
					continue // another mail's answer
				}
				for _, e := range es {
					// A segment of a trip merged from several mails is
					// the mails' whose labels it agrees with most; an
					// order or a bill is each source mail's, once: its
					// name may change with the tools' clock (trust).
					k := id + " " + asked
					if e.Kind != extract.KindOrder && e.Kind != extract.KindBill {
						if !slices.Contains(bestMails(e, mails, labelsOf), asked) {
							continue
						}
						k += " " + fmt.Sprint(e.Fields)
					}
					if seen[k] {
						continue
					}
					seen[k] = true
					e.Mail = asked
					found = append(found, e)
					if !trusted && (strings.Contains(e.Fields["merchant"], ".") || strings.Contains(e.Fields["issuer"], ".")) {
						byDomain[asked] = true
					}
					if !trusted && e.Fields["domain"] == "" && (e.Kind == extract.KindOrder || e.Kind == extract.KindBill) {
						noDomain[asked] = true
					}
					if key == "unverified" {
						apart++
					}
					if len(mails) > 1 {
						merged[asked] = true
					}
				}
			}
		}
		return n >= 20
	}
	// What the extractor alone reads from the same files, as the
	// evaluation scores it.
	extScores, extMisses := eval.ScoreMailsShowing(all)
	extMissed := map[eval.Mismatch]bool{}
	for _, m := range extMisses {
		extMissed[eval.Mismatch{Kind: m.Kind, Key: m.Key, Field: m.Field, Want: m.Want}] = true
	}
	// extStart is, per mail, the earliest start of a segment the
	// extractor reads in it: a trip labelled without its day (a toy
	// "From: Prague to Brno", "Departure: 5 Apr 2026") is asked for from
	// there, not from the mail's arrival, which get_upcoming_travel
	// rightly leaves a past trip out of.
	extStart := map[string]time.Time{}
	for _, r := range eval.Extracted(all.Mails) {
		name := all.Mails[r.Message-1].Name
		if r.Segment == nil || r.Segment.Start() == nil {
			continue
		}
		if at, ok := extStart[name]; !ok || r.Segment.Start().Time.Before(at) {
			extStart[name] = r.Segment.Start().Time
		}
	}
	// Orders and bills whose number another mail's label gives too are
	// one thing to Merge (a tracking number is the parcel's).
	keyMails := map[string]map[string]bool{}
	keysOf := func(e eval.Entity) []string {
		var ks []string
		for _, v := range []string{e.Key, e.Fields["number"], e.Fields["tracking"]} {
			if v != "" {
				ks = append(ks, e.Kind+" "+strings.ToUpper(strings.ReplaceAll(v, " ", "")))
			}
		}
		return ks
	}
	for _, e := range all.Expected {
		for _, k := range keysOf(e) {
			if keyMails[k] == nil {
				keyMails[k] = map[string]bool{}
			}
			keyMails[k][e.Mail] = true
		}
	}
	// Why a labelled entity's fields may be missing from the tools'
	// answers by their own rules (docs/extract.md "Tool results").
	apartWhy := map[*eval.Entity]string{}
	for i := range all.Expected {
		e := &all.Expected[i]
		asked = arrived[e.Mail]
		if asked.IsZero() {
			asked = start
		}
		var full bool
		switch e.Kind {
		case extract.KindFlight, extract.KindTrain, extract.KindHotel:
			args := map[string]any{"from": asked.Format(time.RFC3339)}
			if first, last, ok := labelledSpan(*e); ok {
				args["from"] = first.Add(-time.Hour).Format(time.RFC3339)
				args["to"] = last.Add(time.Hour).Format(time.RFC3339)
			} else if at, ok := extStart[e.Mail]; ok {
				args["from"] = at.Add(-time.Hour).Format(time.RFC3339)
			}
			full = ask(e.Mail, "get_upcoming_travel", args)
			if cancels(raws[e.Mail], e.Fields["reservation"]) {
				apartWhy[e] = "cancelled trip: get_upcoming_travel leaves it out"
			}
			for _, f := range []string{"depart", "check_in"} {
				if e.Fields[f] != "" && extMissed[eval.Mismatch{Kind: e.Kind, Key: e.Mail, Field: f, Want: e.Fields[f]}] && apartWhy[e] == "" {
					// Asked by the labelled days, which the extractor read
					// otherwise: its miss, counted there.
					apartWhy[e] = "asked by the days the mail gives, which the extractor did not read"
				}
			}
		case extract.KindBus:
			apartWhy[e] = "bus: get_upcoming_travel gives flight, hotel and train fields only (docs/protocol.md)"
		case extract.KindOrder:
			for _, m := range merchantsSaid(*e, raws[e.Mail]) {
				full = ask(e.Mail, "order_status", map[string]any{"merchant": m}) || full
			}
			if onPlatform(raws[e.Mail]) {
				apartWhy[e] = "a shop on a commerce platform's domain: named, and found by its name, for an authenticated sender only (the mails here carry no authentication)"
			}
		case extract.KindBill:
			args := map[string]any{}
			due, err := time.Parse(time.DateOnly, e.Fields["due"])
			if err == nil {
				args["before"] = due.Add(48 * time.Hour).Format(time.RFC3339)
			}
			full = ask(e.Mail, "bills_due", args)
			switch {
			case e.Fields["status"] != "" && e.Fields["status"] != "due":
				apartWhy[e] = "bill not due (" + e.Fields["status"] + "): bills_due lists unpaid bills"
			case e.Fields["due"] == "":
				apartWhy[e] = "bill without a due date: bills_due lists bills due before a time"
			case asked.Sub(due) > extract.StaleAfter:
				apartWhy[e] = "bill over a year past due when it arrived: stale"
			case extMissed[eval.Mismatch{Kind: e.Kind, Key: e.Mail, Field: "due", Want: e.Fields["due"]}]:
				// Asked by the labelled due day, which the extractor read
				// otherwise or not at all: its miss, counted there.
				apartWhy[e] = "asked by the due date the mail gives, which the extractor did not read"
			}
		}
		for _, k := range keysOf(*e) {
			if len(keyMails[k]) > 1 && apartWhy[e] == "" {
				apartWhy[e] = "its number is another mail's too: merged with it (Merge: same key, newer state wins)"
			}
		}
		if e.Kind == extract.KindOrder && e.Fields["merchant"] != "" && apartWhy[e] == "" &&
			extMissed[eval.Mismatch{Kind: e.Kind, Key: e.Mail, Field: "merchant", Want: e.Fields["merchant"]}] {
			apartWhy[e] = "asked by the shop the mail names, which the extractor did not read"
		}
		if full && apartWhy[e] == "" {
			apartWhy[e] = "the answer held the tools' 20 items"
		}
	}
	asked = time.Time{}

	toolScores, toolMisses := eval.ComparePerMail(all.Expected, found)
	// Precision without the mails merged with another's by a number both
	// give (their answer is the other mail's too, by Merge's rule), and
	// without the names the tools give by a sender's domain by rule.
	var cleanExp, cleanFound []eval.Entity
	mergedMail := map[string]bool{}
	for e, why := range apartWhy {
		if strings.Contains(why, "merged") {
			mergedMail[e.Mail] = true
		}
	}
	for _, e := range all.Expected {
		if !mergedMail[e.Mail] {
			cleanExp = append(cleanExp, e)
		}
	}
	for _, e := range found {
		if mergedMail[e.Mail] {
			continue
		}
		if byDomain[e.Mail] {
			e.Fields = maps.Clone(e.Fields)
			delete(e.Fields, "merchant")
			delete(e.Fields, "issuer")
		}
		cleanFound = append(cleanFound, e)
	}
	cleanScores, _ := eval.ComparePerMail(cleanExp, cleanFound)
	whyOf := map[eval.Mismatch]string{}
	for e, why := range apartWhy {
		for f, v := range e.Fields {
			whyOf[eval.Mismatch{Kind: e.Kind, Key: e.Mail, Field: f, Want: v}] = why
		}
	}
	lost, byRule := map[string]int{}, map[string]int{}
	var lostLines, ruleLines []string
	for _, m := range toolMisses {
		k := eval.Mismatch{Kind: m.Kind, Key: m.Key, Field: m.Field, Want: m.Want}
		if m.Want == "(none)" || extMissed[k] {
			continue // a wrong extra field, or one the extractor missed too
		}
		line := fmt.Sprintf("%s %s %s: want %q, tool %q", m.Kind, m.Key, m.Field, m.Want, m.Got)
		why := whyOf[k]
		if why == "" && byDomain[m.Key] && (m.Field == "merchant" || m.Field == "issuer") && strings.Contains(m.Got, ".") {
			why = "sender not trusted when asked (a domain first seen days before): named by its domain"
		}
		if why == "" && noDomain[m.Key] && (m.Field == "merchant" || m.Field == "issuer") && m.Got == "" {
			why = "no sender's domain: an untrusted sender is named by its domain, never by the name its text claims"
		}
		if why == "" && merged[m.Key] {
			why = "merged with another mail's booking, order or bill (Merge: same key, newer state wins)"
		}
		if why != "" {
			byRule[m.Kind]++
			ruleLines = append(ruleLines, line+" ["+why+"]")
			continue
		}
		lost[m.Kind]++
		lostLines = append(lostLines, line)
	}
	slices.Sort(lostLines)
	slices.Sort(ruleLines)

	var table strings.Builder
	fmt.Fprintf(&table, "End to end: %d labelled mails delivered into Dovecot in %v, synced and read in %v; %d tool calls, %d answers under unverified\n\n",
		len(all.Mails), delivered.Round(time.Millisecond), synced.Round(time.Millisecond), calls, apart)
	fmt.Fprintln(&table, "| kind | labelled fields | extractor precision | extractor recall | tools precision (merged mails aside) | tools recall | left out by a tool's rule | lost between |")
	fmt.Fprintln(&table, "|---|---|---|---|---|---|---|---|")
	for _, kind := range eval.Kinds {
		x, tl := extScores[kind], toolScores[kind]
		fmt.Fprintf(&table, "| %s | %d | %s | %.3f | %.3f | %d | %d |\n", kind, x.Expected, eval.Cell(x),
			cleanScores[kind].Precision(), tl.Recall(), byRule[kind], lost[kind])
	}
	t.Log("\n" + table.String())
	if testing.Verbose() {
		for _, m := range toolMisses {
			if m.Want == "(none)" {
				t.Logf("extra: %s %s %s: %q", m.Kind, m.Key, m.Field, m.Got)
			}
		}
		for _, l := range ruleLines {
			t.Log("by rule: " + l)
		}
		for _, l := range lostLines {
			t.Log("lost: " + l)
		}
	}
	for _, kind := range eval.Kinds {
		if lost[kind] > endToEndLosses[kind] {
			t.Errorf("%s: %d labelled fields the extractor reads were lost before the tools answered, want at most %d:\n%s",
				kind, lost[kind], endToEndLosses[kind], strings.Join(lostLines, "\n"))
		}
		// The tools may give no wrong value the extractor did not.
		if x, tl := extScores[kind], cleanScores[kind]; tl.Predicted-tl.TP > x.Predicted-x.TP {
			t.Errorf("%s: the tools gave %d wrong values, the extractor %d", kind, tl.Predicted-tl.TP, x.Predicted-x.TP)
		}
	}
}

// rawKey identifies a message by its bytes, its line ends aside (an IMAP
// server may store LF and give back CRLF).
func rawKey(raw []byte) [32]byte {
	return sha256.Sum256(bytes.ReplaceAll(raw, []byte("\r"), nil))
}

// labelledSpan is the earliest and latest instant a trip segment's labels
// may mean. A label without a zone is the place's local time, somewhere
// between UTC-12 and UTC+14; a date alone is that day's, wherever.
func labelledSpan(e eval.Entity) (first, last time.Time, ok bool) {
	for _, f := range []string{"depart", "arrive", "check_in", "check_out"} {
		v := e.Fields[f]
		var lo, hi time.Time
		if at, err := time.Parse("2006-01-02T15:04 -07:00", v); err == nil {
			lo, hi = at, at
		} else if at, err := time.Parse("2006-01-02T15:04", v); err == nil {
			lo, hi = at.Add(-14*time.Hour), at.Add(12*time.Hour)
		} else if at, err := time.Parse(time.DateOnly, v); err == nil {
			lo, hi = at.Add(-14*time.Hour), at.Add(36*time.Hour)
		} else {
			continue
		}
		if !ok || lo.Before(first) {
			first = lo
		}
		if !ok || hi.After(last) {
			last = hi
		}
		ok = true
	}
	return first, last, ok
}

// onPlatform reports whether a mail's From is at a commerce platform's
// domain (extract.CommercePlatform: a Shopify shop's store+ID address).
func onPlatform(raw []byte) bool {
	for _, a := range mime.Parse(raw).From {
		_, domain, _ := strings.Cut(a.Address, "@")
		if d, err := publicsuffix.EffectiveTLDPlusOne(strings.ToLower(domain)); err == nil && extract.CommercePlatform(d) {
			return true
		}
	}
	return false
}

// merchantsSaid are the names a person may ask an order by: the labelled
// shop; else the labelled carrier ("my USPS parcel": a carrier's notice
// naming no shop) and the shop, as the labelled domain, the sender's
// display name and domain, and the domains of the addresses the mail
// shows (a forward's shop is the sender it quotes).
func merchantsSaid(e eval.Entity, raw []byte) []string {
	if m := e.Fields["merchant"]; m != "" {
		return []string{m}
	}
	var out []string
	add := func(v string) {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	add(e.Fields["carrier"])
	add(e.Fields["domain"])
	msg := mime.Parse(raw)
	for _, a := range msg.From {
		add(a.Name)
		_, domain, _ := strings.Cut(a.Address, "@")
		add(strings.ToLower(domain))
	}
	for _, m := range shownAddress.FindAllStringSubmatch(msg.Text+"\n"+msg.HTMLText, -1) {
		add(strings.ToLower(m[1]))
	}
	return out
}

// shownAddress is an address in a mail's text, its domain the group.
var shownAddress = regexp.MustCompile(`[\w.+-]+@([\w-]+(?:\.[\w-]+)+)`)

// cancels says whether the mail itself cancels the booking reservation:
// get_upcoming_travel leaves a cancelled trip out (a newer mail of the
// same booking may confirm it again).
func cancels(raw []byte, reservation string) bool {
	if reservation == "" {
		return false
	}
	msg := mime.Parse(raw)
	for _, f := range extract.Extract(msg, msgauth.Checker{}.Check(msg, raw)).Facts {
		if f.Segment != nil && f.Segment.Status == extract.StatusCancelled && strings.EqualFold(f.Segment.Reservation, reservation) {
			return true
		}
	}
	return false
}

// bestMails are the mails among mails whose labels agree most with e
// (all of them when several mails say the same).
func bestMails(e eval.Entity, mails []string, labelsOf map[string][]eval.Entity) []string {
	var best []string
	bestN := -1
	for _, m := range mails {
		n := -1
		for _, l := range labelsOf[m] {
			if l.Kind != e.Kind {
				continue
			}
			k := 0
			for f, v := range l.Fields {
				if eval.SameValue(f, v, e.Fields[f]) {
					k++
				}
			}
			n = max(n, k)
		}
		switch {
		case n > bestN:
			best, bestN = []string{m}, n
		case n == bestN:
			best = append(best, m)
		}
	}
	return best
}

// toolEntities turns one item of a tool's answer into scored entities,
// with the fields the evaluation scores, and gives its sources, its id
// and whether its senders are trusted.
func toolEntities(t *testing.T, raw json.RawMessage) (es []eval.Entity, sources []int64, id string, trusted bool) {
	t.Helper()
	var probe struct {
		ID      string  `json:"id"`
		Sources []int64 `json:"sources"`
		Trusted bool    `json:"trusted_sender"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		t.Fatalf("tool item %s: %v", raw, err)
	}
	switch {
	case strings.HasPrefix(probe.ID, "t_"):
		var trip extract.Trip
		if err := json.Unmarshal(raw, &trip); err != nil {
			t.Fatal(err)
		}
		var facts []extract.Fact
		for i := range trip.Segments {
			facts = append(facts, extract.Fact{Kind: trip.Segments[i].Type, Segment: &trip.Segments[i]})
		}
		es = eval.SegmentEntities("", facts)
	case strings.HasPrefix(probe.ID, "o_"):
		var o extract.OrderState
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatal(err)
		}
		es = eval.Entities(extract.Merged{Orders: []extract.OrderState{o}})
		delete(es[0].Fields, "verified")
		es[0].Fields["merchant"] = o.Merchant
	case strings.HasPrefix(probe.ID, "b_"):
		var b extract.BillState
		if err := json.Unmarshal(raw, &b); err != nil {
			t.Fatal(err)
		}
		es = eval.Entities(extract.Merged{Bills: []extract.BillState{b}})
		delete(es[0].Fields, "verified")
		es[0].Fields["issuer"] = b.Issuer
	default:
		t.Fatalf("tool item with id %q", probe.ID)
	}
	return es, probe.Sources, probe.ID, probe.Trusted
}
