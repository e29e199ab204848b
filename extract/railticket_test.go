package extract_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestRailTicketPass: a Wallet pass whose barcode is a UIC 918.3 ticket
// (its bytes as ISO 8859-1 text, as passes carry binary codes) gives the
// journey its layout, DB's record or its FCB record states when nothing
// else in the mail gives a train; a broken or journeyless ticket gives nothing.
func TestRailTicketPass(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("uic918/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return string(r)
	}
	pass := func(message string) []byte {
		pj, _ := json.Marshal(map[string]any{"formatVersion": 1, "description": "Ticket",
			"boardingPass": map[string]any{"transitType": "PKTransitTypeTrain"},
			"barcodes":     []map[string]string{{"format": "PKBarcodeFormatAztec", "message": message, "messageEncoding": "iso-8859-1"}}})
		var b bytes.Buffer
		z := zip.NewWriter(&b)
		w, _ := z.Create("pass.json")
		w.Write(pj)
		z.Close()
		return b.Bytes()
	}
	mav := read("uic-mav.bin")
	for _, c := range []struct {
		name, message, want string
		text                string
	}{
		// The text's train stands: two spellings of one journey would be
		// two trips.
		{"text gives the train", mav, "Praha hl.n>Budapest-Keleti 2016-09-02 06:39 EC 281", "Dear traveller,\n\nyour journey on 2 September 2016:\nEC 281  Praha hl.n. 06:39 - Budapest-Keleti 13:35\n\nYour ticket is attached.\n"},
		{"RCT2 layout", mav, "PRAHA>BUDAPEST 2016-09-02 day", ""},
		{"DB record", read("20210113-Muster-918-3-City-Ticket.bin"), "Kassel+City>Frankfurt(Main)+City 2021-01-13 day", ""},
		{"day ticket", read("20230501-Deutschlandticket-FCB-TLB-RCT2-v1.01.bin"), "", ""},
		// U_FLEX (UIC 918.9): the trains the ticket is bound to, the
		// issuer's booking, a further train without the stations the
		// ticket does not state; a version not read gives nothing.
		{"FCB", read("20221030-Muster-918-9-FV_SuperSparpreisSenior_InklRueckfahrt.bin"),
			"Flensburg>Rosenheim 2022-10-30 17:35 ICE803 booking R4YNMU9E; (no station) 2022-10-30 20:05 ICE1109 booking R4YNMU9E; " +
				"Rosenheim>Flensburg 2022-11-01 13:35 ICE786 booking R4YNMU9E", ""},
		{"FCB version 3", read("20250227-Muster-918-9-Deutschland-Ticket.bin"), "", ""},
		// UIC's barcode header (DOSIPAS) holds the FCB record without a
		// UIC 918.3 container.
		{"barcode header", read("dosipas-u1-fcb2.bin"), "Amsterdam Centraal>Bruxelles-Midi 2027-07-22 07:16 EST 9316 booking NX4Q7T", ""},
		{"barcode header cut short", string([]rune(read("dosipas-u1-fcb2.bin"))[:60]), "", ""},
		{"cut short", mav[:len(mav)/2], "", ""},
		{"not Latin-1", mav[:80] + "€" + mav[81:], "", ""},
	} {
		text := c.text
		if text == "" {
			text = "Your ticket is attached."
		}
		msg := &mime.Message{Date: time.Date(2016, 8, 15, 9, 0, 0, 0, time.UTC), Text: text,
			Documents: []mime.Document{{Kind: "pkpass", Filename: "ticket.pkpass", Data: pass(c.message)}}}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; f.Kind == extract.KindTrain {
				day := "day"
				if !s.Depart.DateOnly {
					day = s.Depart.Format("15:04")
				}
				route := "(no station)"
				if s.From != nil && s.To != nil {
					route = s.From.Name + ">" + s.To.Name
				}
				g := fmt.Sprintf("%s %s %s", route, s.Depart.Format("2006-01-02"), day)
				if s.Number != "" {
					g += " " + s.Number
				}
				if s.Reservation != "" {
					g += " booking " + s.Reservation
				}
				got = append(got, g)
			}
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: trains %q, want %q", c.name, g, c.want)
		}
	}
}
