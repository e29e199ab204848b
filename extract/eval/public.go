package eval

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// The public part of the evaluation set is KDE KItinerary's test data
// (CC0): vendor inputs with the output KItinerary's developers expect,
// and schema.org samples. Inputs that are mail text (plain text, HTML, an
// iCalendar attachment or a whole message) and whose expected output holds
// a flight, train or hotel reservation become one .eml each, with the
// From and Date the vendor's inputs were received with (context.eml);
// barcodes (binary or decoded to a line of text), PDFs, passes and web
// archives are not mail and stay out.

// Public is a set of public mails with their labels: the imported travel
// set, or the hand-labelled order mails (testdata/public/mail-and-packages).
type Public struct {
	Mails    []Mail
	Expected []Entity
}

// publicLabels is the file beside the imported mails.
type publicLabels struct {
	Note     string   `json:"note"`
	Expected []Entity `json:"expected"`
}

// ImportKItinerary builds the travel set from a checkout of KItinerary's
// autotests directory (the corpus's kitinerary/).
func ImportKItinerary(dir string) (Public, error) {
	var p Public
	type input struct{ name, path, expected, context string }
	var inputs []input
	vendors, _ := filepath.Glob(filepath.Join(dir, "extractordata", "*"))
	for _, v := range vendors {
		files, _ := filepath.Glob(filepath.Join(v, "*"))
		for _, f := range files {
			if !mailInput(f) || filepath.Base(f) == "context.eml" {
				continue
			}
			inputs = append(inputs, input{filepath.Base(v) + "_" + filepath.Base(f), f, f + ".json", filepath.Join(v, "context.eml")})
		}
	}
	samples, _ := filepath.Glob(filepath.Join(dir, "structureddata", "*.html"))
	for _, f := range samples {
		inputs = append(inputs, input{"structureddata_" + filepath.Base(f), f, strings.TrimSuffix(f, ".html") + ".json", ""})
	}
	if len(inputs) == 0 {
		return p, fmt.Errorf("no KItinerary inputs under %s", dir)
	}
	sort.Slice(inputs, func(i, j int) bool { return inputs[i].name < inputs[j].name })
	for _, in := range inputs {
		want, err := os.ReadFile(in.expected)
		if err != nil {
			continue
		}
		name := strings.NewReplacer(" ", "-", "+", "-").Replace(in.name)
		exp := corrected(onePerSegment(SchemaEntities(name, want)))
		if len(exp) == 0 {
			continue
		}
		body, err := os.ReadFile(in.path)
		if err != nil {
			return p, err
		}
		if barcodePayload(body) {
			continue
		}
		ctx, _ := os.ReadFile(in.context)
		raw, err := asMail(in.path, body, ctx)
		if err != nil {
			return p, fmt.Errorf("%s: %w", in.path, err)
		}
		p.Mails = append(p.Mails, Mail{Name: name, Raw: raw})
		p.Expected = append(p.Expected, exp...)
	}
	return p, nil
}

// labelCorrection is a field KItinerary's expected output gets wrong
// against what its own input states, set right on import: the label says
// what the mail says. An empty is drops the field: the input states no
// one value of it. expected is the output's file under kitinerary/.
type labelCorrection struct {
	mail, kind, number, field, was, is, expected string
}

// labelCorrections, each an error of the expected output, not a modelling
// choice (those are comparison rules, as busNamed):
//   - DB's calendar from Warsaw to Luxembourg gives "Data: 26.07.22" and
//     then clocks that pass midnight after "prz. 22:56 Nürnberg Hbf"; its
//     DTEND is 2022-07-27 08:31. KItinerary dates every leg after midnight
//     on the 26th but for the last arrival (from DTEND): the night train
//     leaves Nürnberg at 01:41 on the 27th, and so on to Luxembourg.
//   - United's scrubbed Wallet pass flies ORD to CDG by its primary fields
//     ("Paris-De Gaulle", "CDG"), its semantics (destinationAirportCode CDG)
//     and its barcode ("ORDCDGUA 0987"); KItinerary's arrival airport is
//     ORD (under the name "Charles de Gaulle Airport"), and its departure
//     is the pass's arrival (10 December, 08:01 in Paris). The pass states
//     no one departure: its barcode flies on day 190 (9 July), its back
//     field "DEPARTS" 9 December 6:00 PM, its semantics 23:00 UTC that day
//     (5 PM in Chicago); the departure is not scored.
//   - Motel One's synthetic Wallet pass gives its booking as "$serialNumber",
//     a template's variable left unfilled (its serial number is
//     "MO-${10 alnum}"): the pass states no booking code, and none is
//     scored.
const warsawLuxembourg = "extractordata/deutschebahn/20220726-warsaw-luxembourg-PL.ics.json"
const unitedPass = "pkpassdata/apple-store-UA-sample-unsigned-scrubbed.json"
const motelOnePass = "extractordata/motel-one/20231130-motel-one-synthetic.pkpass.json"

var labelCorrections = []labelCorrection{
	{"deutschebahn_20220726-warsaw-luxembourg-PL.ics", "train", "NJ 40490", "depart", "2022-07-26T01:41", "2022-07-27T01:41", warsawLuxembourg},
	{"deutschebahn_20220726-warsaw-luxembourg-PL.ics", "train", "NJ 40490", "arrive", "2022-07-26T05:11", "2022-07-27T05:11", warsawLuxembourg},
	{"deutschebahn_20220726-warsaw-luxembourg-PL.ics", "train", "RE 4100", "depart", "2022-07-26T06:03", "2022-07-27T06:03", warsawLuxembourg},
	{"deutschebahn_20220726-warsaw-luxembourg-PL.ics", "train", "RE 4100", "arrive", "2022-07-26T07:31", "2022-07-27T07:31", warsawLuxembourg},
	{"deutschebahn_20220726-warsaw-luxembourg-PL.ics", "bus", "Bus51016", "depart", "2022-07-26T07:41", "2022-07-27T07:41", warsawLuxembourg},
	{"pkpassdata_apple-store-UA-sample-unsigned-scrubbed.pkpass", "flight", "UA987", "to", "ORD", "CDG", unitedPass},
	{"pkpassdata_apple-store-UA-sample-unsigned-scrubbed.pkpass", "flight", "UA987", "depart", "2025-12-10T08:01 +01:00", "", unitedPass},
	{"motel-one_20231130-motel-one-synthetic.pkpass", "hotel", "", "reservation", "$serialNumber", "", motelOnePass},
}

// corrected applies labelCorrections to an input's entities (the travel
// import's and the conformance check's, whose names prefix the input's);
// a correction
// whose wrong value is not there (a newer expected output) does nothing.
func corrected(es []Entity) []Entity {
	for _, c := range labelCorrections {
		for _, e := range es {
			if strings.HasSuffix(e.Mail, c.mail) && e.Kind == c.kind && e.Fields["number"] == c.number && e.Fields[c.field] == c.was {
				if c.is == "" {
					delete(e.Fields, c.field)
				} else {
					e.Fields[c.field] = c.is
				}
			}
		}
	}
	return es
}

// onePerSegment drops the entities that repeat one before them field for
// field: KItinerary writes a reservation per traveller, and a leg two
// people take is one segment, the scored fields naming no traveller.
func onePerSegment(es []Entity) []Entity {
	var out []Entity
	for _, e := range es {
		if !slices.ContainsFunc(out, func(o Entity) bool { return o.Kind == e.Kind && maps.Equal(o.Fields, e.Fields) }) {
			out = append(out, e)
		}
	}
	return out
}

// barcodePayload tells a ticket barcode's decoded content, which some
// vendors' inputs are (SNCF, Taiwan High Speed Rail): one line of machine
// fields that no mail carries as its text.
func barcodePayload(b []byte) bool {
	t := bytes.TrimSpace(b)
	head := t[:min(len(t), 32)]
	return !bytes.ContainsAny(t, "\n") && !bytes.ContainsAny(head, " \t,:")
}

func mailInput(f string) bool {
	switch strings.ToLower(filepath.Ext(f)) {
	case ".txt", ".html", ".ics", ".eml":
		return true
	}
	return false
}

// asMail wraps one input as the message it came in: the vendor's headers,
// then the text, the HTML, or a short text with the calendar attached.
func asMail(path string, body, context []byte) ([]byte, error) {
	if strings.HasSuffix(path, ".eml") {
		return body, nil
	}
	var b bytes.Buffer
	from := "Reservations <reservations@example.com>"
	if m, err := mail.ReadMessage(bytes.NewReader(append(bytes.TrimSpace(context), "\n\n"...))); err == nil {
		if v := m.Header.Get("From"); v != "" {
			from = v
		}
		if v := m.Header.Get("Date"); v != "" {
			fmt.Fprintf(&b, "Date: %s\r\n", v)
		}
	}
	fmt.Fprintf(&b, "From: %s\r\nTo: traveller@example.org\r\nMIME-Version: 1.0\r\n", from)
	charset := "utf-8"
	if !utf8.Valid(body) {
		charset = "iso-8859-1"
	}
	part := func(ctype string) {
		fmt.Fprintf(&b, "Content-Type: %s; charset=%s\r\nContent-Transfer-Encoding: base64\r\n\r\n", ctype, charset)
		enc := base64.StdEncoding.EncodeToString(body)
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\r\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\r\n")
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".txt":
		part("text/plain")
	case ".html":
		part("text/html")
	case ".ics":
		const boundary = "=_mailnode_eval"
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=%q\r\n\r\n--%s\r\n", boundary, boundary)
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\nYour booking is attached as a calendar file.\r\n")
		fmt.Fprintf(&b, "--%s\r\nContent-Disposition: attachment; filename=%q\r\n", boundary, filepath.Base(path))
		part("text/calendar")
		fmt.Fprintf(&b, "--%s--\r\n", boundary)
	default:
		return nil, fmt.Errorf("not a mail input")
	}
	return b.Bytes(), nil
}

// Write stores the set in dir: one .eml per mail and labels.json.
func (p Public) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	for _, f := range old {
		os.Remove(f)
	}
	for _, m := range p.Mails {
		if err := os.WriteFile(filepath.Join(dir, m.Name+".eml"), m.Raw, 0o644); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(publicLabels{
		Note: "Imported by `go run ./cmd/mailnode-eval -import ../shared/corpus/kitinerary` from KDE KItinerary's " +
			"autotests (CC0-1.0, see LICENSE.md); labels are KItinerary's expected outputs reduced to the scored fields.",
		Expected: p.Expected}, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "labels.json"), append(b, '\n'), 0o644)
}

// LoadPublic reads a public set: its .eml files and labels.json (what
// Write stores, or labels written by hand).
func LoadPublic(dir string) (Public, error) {
	var p Public
	b, err := os.ReadFile(filepath.Join(dir, "labels.json"))
	if err != nil {
		return p, fmt.Errorf("read labels: %w", err)
	}
	var l publicLabels
	if err := json.Unmarshal(b, &l); err != nil {
		return p, fmt.Errorf("read labels: %w", err)
	}
	p.Expected = l.Expected
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	sort.Strings(files)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return p, err
		}
		p.Mails = append(p.Mails, Mail{Name: strings.TrimSuffix(filepath.Base(f), ".eml"), Raw: raw})
	}
	return p, nil
}
