package eval

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/aztec"

	"mailnode/extract"
)

// Rail tickets' barcodes (UIC 918.3) in the conformance check: each
// payload is carried as a railway's mail carries it, an Aztec image
// attached, encoded here with github.com/boombuler/barcode (MIT; the
// evaluation alone encodes, the product only decodes). KItinerary's
// rct2/ inputs are bare ticket layouts (U_TLAY records), each wrapped in
// a container as its ticket would hold it; their oracle is KItinerary's
// reading of the layout (Rct2Ticket), its journeys scored as trains;
// every other input's is its reservations, as for the other folders.

// rct2Date is the day KItinerary's RCT2 test reads its layouts against
// (rct2parsertest.cpp: 19 December 2018, 18:35). KItinerary reads a
// ticket's layout against the day its U_HEAD says the ticket was issued,
// so the test's day stands for the issue: the container states it in its
// U_HEAD as a railway's does (rct2Issued), and the mail is sent then.
const (
	rct2Date   = "Wed, 19 Dec 2018 18:35:00 +0000"
	rct2Issued = "191220181835"
)

// importRailTickets adds the rct2/ layouts, the uic918-3/ containers and
// the vendors' inputs that are UIC 918.3 containers.
func importRailTickets(glob func(string) []string, add func(path string, raw, want []byte), addWith func(path string, raw []byte, want []Entity)) error {
	for _, f := range glob("rct2/valid/*.rct2") {
		rec, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		want, err := os.ReadFile(strings.TrimSuffix(f, ".rct2") + ".json")
		if err != nil {
			continue
		}
		payload, err := uicContainer(rec)
		if err != nil {
			return err
		}
		img, err := aztecPNG(payload)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		var b bytes.Buffer
		raw := attachment(&b, "Tickets <tickets@example.com>", rct2Date, "Your ticket is attached. Show the code on board.", "ticket.png", "image/png", img)
		addWith(f, raw, rct2Entities(untunedName(f), want))
	}
	inputs := glob("uic918-3/valid/*.bin")
	for _, f := range glob("extractordata/*/*.bin") {
		if b, err := os.ReadFile(f); err == nil && bytes.HasPrefix(b, []byte("#UT")) {
			inputs = append(inputs, f)
		}
	}
	for _, f := range inputs {
		payload, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		want, err := os.ReadFile(f + ".json")
		if err != nil {
			want, err = os.ReadFile(strings.TrimSuffix(f, ".bin") + ".json")
		}
		if err != nil {
			continue // no oracle: not scored
		}
		img, err := aztecPNG(payload)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		from, date := "Tickets <tickets@example.com>", conformanceDate
		if ctx, err := os.ReadFile(filepath.Join(filepath.Dir(f), "context.eml")); err == nil {
			if h, err := readHeader(ctx); err == nil {
				from = firstNonEmpty(h.Get("From"), from)
				date = firstNonEmpty(h.Get("Date"), date)
			}
		}
		var b bytes.Buffer
		raw := attachment(&b, from, date, "Your ticket is attached. Show the code on board.", "ticket.png", "image/png", img)
		addWith(f, raw, boundTrains(ConformanceEntities(untunedName(f), want)))
	}
	return nil
}

// boundTrains labels the further trains of a ticket bound to several
// by what the ticket states. An open ticket's train links (UIC 918.9's
// TrainLinkType) give each train's number, day and departure clock, and
// no station when they name none (DB's); KItinerary gives each such
// train as a reservation of the ticket's whole route, a departure from
// its first station that the train does not make. A train of the same
// route and booking as one before it, under another number, keeps its
// number, departure, booking and status, and no stations.
func boundTrains(es []Entity) []Entity {
	for i, e := range es {
		if e.Kind != extract.KindTrain || e.Fields["from"] == "" || e.Fields["to"] == "" {
			continue
		}
		for _, o := range es[:i] {
			if o.Kind == e.Kind && o.Fields["from"] == e.Fields["from"] && o.Fields["to"] == e.Fields["to"] &&
				o.Fields["reservation"] == e.Fields["reservation"] && o.Fields["number"] != e.Fields["number"] {
				delete(e.Fields, "from")
				delete(e.Fields, "to")
				break
			}
		}
	}
	return es
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// uicContainer wraps a bare U_TLAY record (as far as its stated length)
// in a version 1 container with a blank signature, after a U_HEAD
// record (UIC 918.3's: the issuer's code, a blank key of 20 characters,
// the "ddmmyyyyhhmm", a flag and two languages) issued at
// rct2Issued.
func uicContainer(rec []byte) ([]byte, error) {
	if len(rec) < 12 {
		return nil, fmt.Errorf("record of %d bytes", len(rec))
	}
	var n int
	if _, err := fmt.Sscanf(string(rec[8:12]), "%04d", &n); err == nil && n >= 12 && n <= len(rec) {
		rec = rec[:n]
	}
	head := "0000" + strings.Repeat(" ", 20) + rct2Issued + "0" + "EN" + "EN"
	head = fmt.Sprintf("U_HEAD01%04d", 12+len(head)) + head
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte(head))
	w.Write(rec)
	w.Close()
	b := []byte("#UT01000000001")
	b = append(b, make([]byte, 50)...)
	b = append(b, fmt.Sprintf("%04d", z.Len())...)
	return append(b, z.Bytes()...), nil
}

// aztecPNG is an Aztec code of payload, four pixels a module, as a PNG.
func aztecPNG(payload []byte) ([]byte, error) {
	code, err := aztec.Encode(payload, 23, 0)
	if err != nil {
		return nil, err
	}
	side := code.Bounds().Dx() * 4
	scaled, err := barcode.Scale(code, side, side)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = png.Encode(&b, scaled)
	return b.Bytes(), err
}

// rct2Entities reads KItinerary's reading of a layout (Rct2Ticket): a
// journey with both its stations is a train, outward and return; a rail
// pass has none.
func rct2Entities(mail string, data []byte) []Entity {
	var items []map[string]any
	if json.Unmarshal(data, &items) != nil {
		return nil
	}
	var out []Entity
	for _, r := range items {
		if str(r["@type"]) != "Rct2Ticket" || strings.HasSuffix(str(r["type"]), "RailPass") {
			continue
		}
		for _, dir := range []string{"outbound", "return"} {
			from, to := str(r[dir+"DepartureStation"]), str(r[dir+"ArrivalStation"])
			if from == "" || to == "" {
				continue
			}
			fields := map[string]string{"from": from, "to": to, "status": "confirmed",
				"depart": schemaClock(r[dir+"DepartureTime"]), "arrive": schemaClock(r[dir+"ArrivalTime"])}
			if dir == "outbound" {
				fields["number"] = str(r["trainNumber"])
			}
			out = append(out, Entity{Kind: extract.KindTrain, Mail: mail, Fields: nonEmpty(fields)})
		}
	}
	return out
}
