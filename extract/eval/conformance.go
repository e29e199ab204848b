package eval

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// The structured-source conformance check (issue 46): KItinerary's inputs
// that are machine-made (IATA boarding-pass payloads, Apple Wallet passes,
// iCalendar files, JSON-LD and microdata), each carried as a mail carries
// it, read by mailnode and compared field by field with KItinerary's
// expected output beside the input. KItinerary is the oracle: a field it
// gives that mailnode leaves out is a recall miss, one that differs a
// precision miss. Inputs the headline holds are never taken (the list of
// paths in public-headline/README.md, read by HeadlineList).
//
// Beside the travel scoring's fields a flight is scored on its day
// ("day", the departure's date, which a boarding pass gives without a
// clock) and every reservation on its status ("status": cancelled or
// confirmed): a cancelled reservation must not come out as a trip.

// ConformanceFolders are the corpus folders (under kitinerary/) whose
// every input is structured, in the order they are reported.
var ConformanceFolders = []string{"bcbpdata", "pkpassdata", "calendarhandlerdata", "jsonlddata", "structureddata", "mergedata", "extractordata", "extractordata (UIC 918.3)", "rct2", "uic918-3"}

// conformanceDate is the Date of the mails made of inputs that come
// without one: KItinerary's tests read them against one fixed day too.
const conformanceDate = "Mon, 01 Jan 2018 09:00:00 +0000"

// bcbpDate is the Date of the mails that carry bcbpdata's payloads: the
// day KItinerary's own test reads them against (2 April 2018,
// bcbpparsertest.cpp). A payload without an issue date gives only the
// day of the year, so its expected year follows from that day; against
// any other Date the check would score the receipt day the harness
// chose, not the reader (day 339 mailed on 1 January is last December's
// flight, mailed on 2 April this December's).
const bcbpDate = "Mon, 02 Apr 2018 09:00:00 +0000"

// HeadlineList reads the headline's inputs from the table of its
// README.md: the first column's path in backquotes.
func HeadlineList(readme []byte) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(string(readme), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		rest := line[len("| `"):]
		if i := strings.IndexByte(rest, '`'); i > 0 {
			out[rest[:i]] = true
		}
	}
	return out
}

// ImportConformance makes a labelled mail of every structured input of
// the corpus at dir (../shared/corpus) whose path skip does not hold.
func ImportConformance(dir string, skip map[string]bool) ([]Untuned, error) {
	kit := filepath.Join(dir, "kitinerary")
	var out []Untuned
	add := func(path string, raw, want []byte) {
		rel, _ := filepath.Rel(dir, path)
		if skip[rel] {
			return
		}
		name := untunedName(rel)
		out = append(out, Untuned{Path: rel, Mail: Mail{Name: name, Raw: raw}, Expected: ConformanceEntities(name, want)})
	}
	addWith := func(path string, raw []byte, want []Entity) {
		rel, _ := filepath.Rel(dir, path)
		if skip[rel] {
			return
		}
		name := untunedName(rel)
		for i := range want {
			want[i].Mail = name
		}
		out = append(out, Untuned{Path: rel, Mail: Mail{Name: name, Raw: raw}, Expected: want})
	}
	glob := func(pattern string) []string {
		m, _ := filepath.Glob(filepath.Join(kit, pattern))
		sort.Strings(m)
		return m
	}
	// Boarding-pass payloads: the ticket token of the expected output,
	// in a Wallet pass as airlines send it.
	for _, f := range glob("bcbpdata/*.json") {
		want, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		payload := bcbpToken(want)
		if payload == "" {
			continue
		}
		pass, err := walletPass(payload)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		add(strings.TrimSuffix(f, ".json")+".txt", attachment(&b, "Check-in <checkin@example.com>", bcbpDate,
			"Your boarding pass is attached.", "boardingpass.pkpass", "application/vnd.apple.pkpass", pass), want)
	}
	for _, f := range glob("pkpassdata/*.pkpass") {
		if err := addFile(f, strings.TrimSuffix(f, ".pkpass")+".json", nil, add); err != nil {
			return nil, err
		}
	}
	for _, f := range glob("calendarhandlerdata/*.ics") {
		if err := addFile(f, strings.TrimSuffix(f, ".ics")+".json", nil, add); err != nil {
			return nil, err
		}
	}
	for _, f := range glob("jsonlddata/*.in.json") {
		if err := addFile(f, strings.TrimSuffix(f, ".in.json")+".out.json", nil, add); err != nil {
			return nil, err
		}
	}
	for _, f := range glob("structureddata/*.html") {
		if err := addFile(f, strings.TrimSuffix(f, ".html")+".json", nil, add); err != nil {
			return nil, err
		}
	}
	// Merge cases: each side is a reservation as a sender's markup gives
	// it, its own oracle.
	for _, f := range append(glob("mergedata/*.lhs.json"), glob("mergedata/*.rhs.json")...) {
		if err := addFile(f, f, nil, add); err != nil {
			return nil, err
		}
	}
	// Vendors' structured inputs: calendars, passes, PDF tickets and pages
	// with markup, with the headers they came with.
	for _, f := range glob("extractordata/*/*") {
		ext := strings.ToLower(filepath.Ext(f))
		if ext != ".ics" && ext != ".pkpass" && ext != ".html" && ext != ".pdf" {
			continue
		}
		if ext == ".html" {
			body, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			if !bytes.Contains(body, []byte("application/ld+json")) && !bytes.Contains(body, []byte("itemscope")) {
				continue
			}
		}
		ctx, _ := os.ReadFile(filepath.Join(filepath.Dir(f), "context.eml"))
		if err := addFile(f, f+".json", ctx, add); err != nil {
			return nil, err
		}
	}
	// Rail tickets' barcodes, as Aztec images.
	if err := importRailTickets(glob, add, addWith); err != nil {
		return nil, err
	}
	return out, nil
}

// addFile makes a mail of the input f whose expected output is in want,
// when there is one.
func addFile(f, want string, context []byte, add func(path string, raw, want []byte)) error {
	w, err := os.ReadFile(want)
	if err != nil {
		return nil // no oracle: not scored
	}
	body, err := os.ReadFile(f)
	if err != nil {
		return err
	}
	from, date := "Reservations <reservations@example.com>", conformanceDate
	if h, err := readHeader(context); err == nil {
		if v := h.Get("From"); v != "" {
			from = v
		}
		if v := h.Get("Date"); v != "" {
			date = v
		}
	}
	var b bytes.Buffer
	switch {
	case strings.HasSuffix(f, ".pkpass"):
		add(f, attachment(&b, from, date, "Your pass is attached.", filepath.Base(f), "application/vnd.apple.pkpass", body), w)
	case strings.HasSuffix(f, ".ics"):
		add(f, attachment(&b, from, date, "Your booking is attached as a calendar file.", filepath.Base(f), "text/calendar", body), w)
	case strings.HasSuffix(f, ".pdf"):
		add(f, attachment(&b, from, date, "Your ticket is attached.", filepath.Base(f), "application/pdf", body), w)
	case strings.HasSuffix(f, ".json"):
		html := "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<script type=\"application/ld+json\">\n" +
			string(body) + "\n</script>\n</head><body><p>Thank you. The details are below.</p></body></html>\n"
		add(f, htmlMail(&b, from, date, []byte(html)), w)
	default:
		add(f, htmlMail(&b, from, date, body), w)
	}
	return nil
}

func htmlMail(b *bytes.Buffer, from, date string, html []byte) []byte {
	fmt.Fprintf(b, "Date: %s\r\nFrom: %s\r\nTo: me@example.org\r\nMIME-Version: 1.0\r\n", date, from)
	b.WriteString("Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	writeBase64(b, html)
	return b.Bytes()
}

// bcbpToken is the boarding-pass text of the first reservation's ticket.
var bcbpTokenRE = regexp.MustCompile(`"ticketToken":\s*"(?:aztecCode|pdf417|qrCode):(M[^"]+)"`)

func bcbpToken(want []byte) string {
	m := bcbpTokenRE.FindSubmatch(want)
	if m == nil {
		return ""
	}
	var s string
	if json.Unmarshal([]byte(`"`+string(m[1])+`"`), &s) != nil {
		return ""
	}
	return s
}

// walletPass is a minimal boarding pass whose barcode holds payload: a
// pass.json alone, which is all a reader needs.
func walletPass(payload string) ([]byte, error) {
	pass, err := json.Marshal(map[string]any{
		"formatVersion": 1, "description": "Boarding pass",
		"boardingPass": map[string]any{"transitType": "PKTransitTypeAir"},
		"barcodes":     []map[string]string{{"format": "PKBarcodeFormatAztec", "message": payload, "messageEncoding": "iso-8859-1"}},
	})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, err := z.Create("pass.json")
	if err == nil {
		_, err = w.Write(pass)
	}
	if err == nil {
		err = z.Close()
	}
	return b.Bytes(), err
}

// ConformanceEntities reads KItinerary's expected output as
// SchemaEntities does, and more leniently about its shapes: a type given
// as a list, and the day and status fields of the check.
func ConformanceEntities(mail string, data []byte) []Entity {
	return corrected(conformanceEntities(mail, data))
}

// conformanceEntities is ConformanceEntities before labelCorrections.
func conformanceEntities(mail string, data []byte) []Entity {
	items := schemaItems(data)
	var out []Entity
	for _, r := range items {
		if types, ok := r["@type"].([]any); ok && len(types) > 0 {
			r["@type"] = types[0]
		}
		one, _ := json.Marshal([]map[string]any{r})
		es := SchemaEntities(mail, one)
		status := "confirmed"
		if strings.HasSuffix(str(r["reservationStatus"]), "Cancelled") {
			status = "cancelled"
		}
		fors := reservationFor(r)
		if len(fors) == 0 && status == "cancelled" && str(r["reservationNumber"]) != "" {
			// A cancellation that names only its booking: what it cancels
			// is the booking's trips.
			if kind := schemaKinds[str(r["@type"])]; kind != "" {
				es = append(es, Entity{Kind: kind, Mail: mail, Fields: map[string]string{"reservation": str(r["reservationNumber"])}})
			}
		}
		for i := range es {
			es[i].Fields["status"] = status
			if es[i].Kind == extract.KindFlight && i < len(fors) {
				if d := schemaDay(fors[i]["departureDay"], fors[i]["departureTime"]); d != "" {
					es[i].Fields["day"] = d
				}
			}
		}
		out = append(out, es...)
	}
	return out
}

// ConformanceSegments is what mailnode read, in the check's fields.
func ConformanceSegments(mail string, facts []extract.Fact) []Entity {
	var out []Entity
	for _, f := range facts {
		es := SegmentEntities(mail, []extract.Fact{f})
		if len(es) == 0 {
			continue
		}
		e := es[0]
		e.Fields["status"] = "confirmed"
		if f.Segment.Status == extract.StatusCancelled {
			e.Fields["status"] = "cancelled"
		}
		if f.Kind == extract.KindFlight && f.Segment.Depart != nil {
			e.Fields["day"] = f.Segment.Depart.Format("2006-01-02")
		}
		out = append(out, e)
	}
	return out
}

func writeBase64(b *bytes.Buffer, data []byte) {
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n")
}

// ConformanceFolder is the folder an input is reported under: its
// first folder below kitinerary/; the vendors' rail tickets' barcodes
// (extractordata's .bin inputs) apart from their calendars, passes and
// pages.
func ConformanceFolder(path string) string {
	parts := strings.Split(path, "/")
	if len(parts) < 3 {
		return path
	}
	if parts[1] == "extractordata" && strings.HasSuffix(path, ".bin") {
		return "extractordata (UIC 918.3)"
	}
	return parts[1]
}

// ScoreConformance reads every input's mail and scores it against
// KItinerary's output, by folder and kind; the misses name the mail.
func ScoreConformance(us []Untuned) (map[string]map[string]Score, []Mismatch) {
	opt := msgauth.Checker{}
	byFolder := map[string]map[string]Score{}
	var misses []Mismatch
	for _, u := range us {
		msg := mime.Parse(u.Mail.Raw)
		res := extract.Extract(msg, opt.Check(msg, u.Mail.Raw))
		scores, ms := ComparePerMail(u.Expected, ConformanceSegments(u.Mail.Name, res.Facts))
		folder := ConformanceFolder(u.Path)
		if byFolder[folder] == nil {
			byFolder[folder] = map[string]Score{}
		}
		for kind, s := range scores {
			sc := byFolder[folder][kind]
			sc.Add(s)
			byFolder[folder][kind] = sc
		}
		misses = append(misses, ms...)
	}
	return byFolder, misses
}
