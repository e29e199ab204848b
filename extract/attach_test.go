package extract_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestWalletPasses reads every Wallet pass of KItinerary's test data as an
// attachment and compares what it yields with KItinerary's reading: the
// flight (number, departure airport, day, booking reference) or the event
// (name, start); a pass whose barcode is no boarding pass yields nothing.
func TestWalletPasses(t *testing.T) {
	files, _ := filepath.Glob("pkpass/testdata/*.pkpass")
	if len(files) < 8 {
		t.Fatalf("%d passes", len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var want []struct {
			Type              string `json:"@type"`
			ReservationNumber string `json:"reservationNumber"`
			For               struct {
				FlightNumber     string `json:"flightNumber"`
				DepartureDay     string `json:"departureDay"`
				Name             string `json:"name"`
				StartDate        string `json:"startDate"`
				DepartureAirport struct {
					IataCode string `json:"iataCode"`
				} `json:"departureAirport"`
			} `json:"reservationFor"`
		}
		b, err := os.ReadFile(strings.TrimSuffix(f, ".pkpass") + ".json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(f, err)
		}
		msg := &mime.Message{From: []mime.Address{{Address: "noreply@airline.example"}}, Subject: "Your pass",
			Date:      time.Date(2017, 1, 1, 0, 0, 0, 0, time.UTC),
			Documents: []mime.Document{{Kind: "pkpass", Filename: filepath.Base(f), Data: raw}}}
		var got, exp []string
		for _, fc := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			s := fc.Segment
			switch fc.Kind {
			case extract.KindFlight:
				_, num, _ := strings.Cut(s.Number, " ")
				got = append(got, "flight "+num+" "+s.From.Code+" "+s.Depart.Format("2006-01-02")+" "+s.Reservation)
			case extract.KindEvent:
				got = append(got, "event "+s.Name+" "+s.Depart.Format(time.RFC3339))
			}
		}
		for _, w := range want {
			switch w.Type {
			case "FlightReservation":
				exp = append(exp, "flight "+w.For.FlightNumber+" "+w.For.DepartureAirport.IataCode+" "+w.For.DepartureDay+" "+w.ReservationNumber)
			case "EventReservation":
				exp = append(exp, "event "+w.For.Name+" "+w.For.StartDate)
			}
		}
		if strings.Join(got, "\n") != strings.Join(exp, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", filepath.Base(f), got, exp)
		}
	}
}

// TestDocumentBills: the e-invoice inside a PDF, or attached as XML of
// its own (CII or UBL), is the bill, whatever the mail's text says; a
// credit note is none; a PDF without one is read by its printed text.
func TestDocumentBills(t *testing.T) {
	for _, c := range []struct {
		pdf, body string
		want      string // "number amount currency due status", "" for no bill
	}{
		{"einvoice/testdata/XRECHNUNG_Einfach.cii.xml", "Anbei Ihre Rechnung als XRechnung.", "471102 529.87 EUR - due"},
		{"einvoice/testdata/ubl/invoice.xml", "Invoice attached.", "INV-2027-0042 99.00 EUR 2027-03-31 due"},
		{"einvoice/testdata/ubl/creditnote.xml", "Credit note attached.", ""},
		{"pdfdoc/testdata/EN16931_Einfach_DueDate.pdf", "Ihre Rechnung\nRechnungsnummer: WRONG-1\nBetrag: 1,00 EUR\nFällig am 01.01.2019\n", "471102 529.87 EUR 2019-03-05 due"},
		{"pdfdoc/testdata/EN16931_Gutschrift.pdf", "Ihre Gutschrift anbei.", ""},
		{"pdfdoc/testdata/EN16931_Einfach_negativePaymentDue.pdf", "Anbei Ihre Rechnung.", "471102 -529.87 EUR - paid"},
		{"pdfdoc/testdata/RE-E-974-Hetzner_2016-01-19_R0005532486.pdf", "Sehr geehrter Kunde, anbei Ihre Rechnung.", "R0005532486 ? ? ? due"},
	} {
		raw, err := os.ReadFile(c.pdf)
		if err != nil {
			t.Fatal(err)
		}
		msg := &mime.Message{From: []mime.Address{{Address: "rechnung@lieferant.example.de"}}, Subject: "Rechnung", Text: c.body,
			Date:      time.Date(2018, 3, 6, 9, 0, 0, 0, time.UTC),
			Documents: []mime.Document{{Kind: strings.TrimPrefix(filepath.Ext(c.pdf), "."), Filename: filepath.Base(c.pdf), Data: raw}}}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if b := f.Bill; b != nil {
				amount, cur, due := "?", "?", "-"
				if b.Amount != nil {
					amount, cur = b.Amount.Amount, b.Amount.Currency
				}
				if b.Due != nil {
					due = b.Due.Format("2006-01-02")
				}
				if c.pdf == "pdfdoc/testdata/RE-E-974-Hetzner_2016-01-19_R0005532486.pdf" {
					amount, cur, due = "?", "?", "?" // the printed text: the number is what is checked
				}
				got = append(got, strings.Join([]string{b.Number, amount, cur, due, b.Status}, " "))
			}
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s: got %q, want %q", filepath.Base(c.pdf), got, c.want)
		}
	}
}

// TestBarcodeImages: a boarding pass printed to PDF, and one sent as a
// picture, are read by their Aztec code; the quick reading of the sync
// leaves both pending.
func TestBarcodeImages(t *testing.T) {
	pdf, err := os.ReadFile("pdfdoc/testdata/boardingpass-aztec.pdf")
	if err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile("barcode/testdata/boardingpass-aztec.png")
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []mime.Document{{Kind: "pdf", Data: pdf}, {Kind: "image", Data: png}} {
		msg := &mime.Message{From: []mime.Address{{Address: "checkin@airline.example"}}, Subject: "Boarding pass",
			Date: time.Date(2018, 4, 19, 9, 0, 0, 0, time.UTC), Documents: []mime.Document{doc}}
		if res := extract.ExtractQuick(msg, msgauth.Verdict{}); !res.Pending || len(res.Facts) != 0 {
			t.Errorf("%s: quick = %+v, want pending and no facts", doc.Kind, res)
		}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			s := f.Segment
			got = append(got, s.Number+" "+s.From.Code+" "+s.To.Code+" "+s.Depart.Format("2006-01-02")+" "+s.Reservation+" "+s.Seat)
		}
		if want := "SN 2592 TXL BRU 2018-04-20 XXX007 17C"; strings.Join(got, "|") != want {
			t.Errorf("%s: %q, want %q", doc.Kind, got, want)
		}
	}
}

// TestTermsPaid: an e-invoice's payment terms say it is paid by a paid
// phrase, never by one that needs a mail's first lines to mean it.
func TestTermsPaid(t *testing.T) {
	for _, c := range []struct {
		terms string
		want  bool
	}{
		{"zahlungsbedingungen: der rechnungsbetrag wurde bereits beglichen.", true},
		{"the invoice has been paid in full by card.", true},
		{"die leistung wurde am 01.03.2018 erbracht. zahlbar bis 31.03.2018.", false},
		{"zahlbar innerhalb 30 tagen netto bis 04.07.2018", false},
	} {
		if got := extract.TermsPaid(c.terms); got != c.want {
			t.Errorf("termsPaid(%q) = %v, want %v", c.terms, got, c.want)
		}
	}
}

// TestPassStay: a hotel's booking sent as an event ticket or a generic
// pass is read by its labelled fields; a festival's two days with
// camping are an event's, no stay.
func TestPassStay(t *testing.T) {
	pass := func(style string, fields ...[2]string) []byte {
		var fs []map[string]string
		for i, f := range fields {
			fs = append(fs, map[string]string{"key": fmt.Sprint("k", i), "label": f[0], "value": f[1]})
		}
		pj, _ := json.Marshal(map[string]any{"formatVersion": 1, "description": "Booking", "relevantDate": "2027-11-05T16:00:00+00:00",
			style: map[string]any{"secondaryFields": fs}})
		var b bytes.Buffer
		z := zip.NewWriter(&b)
		w, _ := z.Create("pass.json")
		w.Write(pj)
		z.Close()
		return b.Bytes()
	}
	for _, c := range []struct {
		name string
		pass []byte
		want string
	}{
		{"event ticket", pass("eventTicket", [2]string{"HOTEL", "Harbour Lights Inn"}, [2]string{"CHECK-IN", "Fri 5 Nov 2027"},
			[2]string{"CHECK-OUT", "Sun 7 Nov 2027"}, [2]string{"CONFIRMATION NUMBER", "77310284"}),
			"hotel 77310284 Harbour Lights Inn 2027-11-05 2027-11-07"},
		{"generic", pass("generic", [2]string{"ANREISE", "30.11.27"}, [2]string{"HOTEL", "Motel Beispiel Berlin"},
			[2]string{"AUFENTHALT", "30.11.27 - 01.12.27"}, [2]string{"BUCHUNGSNUMMER", "MB-55120"}),
			"hotel MB-55120 Motel Beispiel Berlin 2027-11-30 2027-12-01"},
		{"festival", pass("eventTicket", [2]string{"FESTIVAL", "Strandfestival 2027"}, [2]string{"DAGE", "03.07.27 - 04.07.27"},
			[2]string{"BILLET", "2-dagesbillet inkl. camping"}, [2]string{"BILLETNUMMER", "FST-88120"}), ""},
	} {
		msg := &mime.Message{Date: time.Date(2027, 10, 18, 9, 0, 0, 0, time.UTC), Text: "Your pass is attached.",
			Documents: []mime.Document{{Kind: "pkpass", Filename: "pass.pkpass", Data: c.pass}}}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; f.Kind == extract.KindHotel {
				got = append(got, fmt.Sprintf("hotel %s %s %s %s", s.Reservation, s.Hotel, s.CheckIn.Format("2006-01-02"), s.CheckOut.Format("2006-01-02")))
			}
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: stays %q, want %q", c.name, g, c.want)
		}
	}
}

// TestPrintedTimes: a boarding pass's barcode gives the flight and its
// day, the page or the pass's fields its times; a print of the same
// flight on another day gives none.
func TestPrintedTimes(t *testing.T) {
	pdf, err := os.ReadFile("pdfdoc/testdata/boardingpass-aztec-times.pdf")
	if err != nil {
		t.Fatal(err)
	}
	fieldsPass := func(fields ...[2]string) []byte {
		var fs []map[string]string
		for i, f := range fields {
			fs = append(fs, map[string]string{"key": fmt.Sprint("k", i), "label": f[0], "value": f[1]})
		}
		pj, _ := json.Marshal(map[string]any{"formatVersion": 1, "description": "Boarding pass",
			"boardingPass": map[string]any{"transitType": "PKTransitTypeAir", "secondaryFields": fs},
			"barcodes":     []map[string]string{{"format": "PKBarcodeFormatAztec", "message": "M1SILVA/JOANA         EQ7PL3M LISZRHTP 1352 070Y023A0044 100"}}})
		var b bytes.Buffer
		z := zip.NewWriter(&b)
		w, _ := z.Create("pass.json")
		w.Write(pj)
		z.Close()
		return b.Bytes()
	}
	pass := func(day string) []byte {
		return fieldsPass([2]string{"DATE", day}, [2]string{"DEPARTURE", "Lisbon (LIS) 14:05"},
			[2]string{"ARRIVAL", "Zurich (ZRH) 18:10"}, [2]string{"FLIGHT", "TP 1352"})
	}
	for _, c := range []struct {
		name string
		doc  mime.Document
		date time.Time
		want string
	}{
		{"pdf", mime.Document{Kind: "pdf", Data: pdf}, time.Date(2018, 4, 19, 9, 0, 0, 0, time.UTC),
			"SN 2592 TXL BRU 2018-04-20T10:25:00+02:00 2018-04-20T11:45:00+02:00"},
		{"pass", mime.Document{Kind: "pkpass", Data: pass("11 Mar 2027")}, time.Date(2027, 3, 10, 14, 0, 0, 0, time.UTC),
			"TP 1352 LIS ZRH 2027-03-11T14:05:00Z 2027-03-11T18:10:00+01:00"},
		{"another day", mime.Document{Kind: "pkpass", Data: pass("12 Mar 2027")}, time.Date(2027, 3, 10, 14, 0, 0, 0, time.UTC),
			"TP 1352 LIS ZRH 2027-03-11 -"},
		{"labelled clocks", mime.Document{Kind: "pkpass", Data: fieldsPass([2]string{"FLIGHT", "TP 1352"}, [2]string{"BOARDING", "13:25"},
			[2]string{"DEPARTURE", "14:05"}, [2]string{"ARRIVAL", "18:10"}, [2]string{"SEAT", "23A"})}, time.Date(2027, 3, 10, 14, 0, 0, 0, time.UTC),
			"TP 1352 LIS ZRH 2027-03-11T14:05:00Z 2027-03-11T18:10:00+01:00"},
		{"boarding from", mime.Document{Kind: "pkpass", Data: fieldsPass([2]string{"FLIGHT", "TP 1352"}, [2]string{"BOARDING", "from 13:25"})},
			time.Date(2027, 3, 10, 14, 0, 0, 0, time.UTC), "TP 1352 LIS ZRH 2027-03-11 -"},
		{"two departures", mime.Document{Kind: "pkpass", Data: fieldsPass([2]string{"FLIGHT", "TP 1352"}, [2]string{"DEPARTURE", "14:05"},
			[2]string{"NEW DEPARTURE", "15:05"})}, time.Date(2027, 3, 10, 14, 0, 0, 0, time.UTC),
			"TP 1352 LIS ZRH 2027-03-11 -"},
		{"another flight's clock", mime.Document{Kind: "pkpass", Data: fieldsPass([2]string{"CONNECTING FLIGHT", "TP 920"}, [2]string{"DEPARTURE", "19:40"})},
			time.Date(2027, 3, 10, 14, 0, 0, 0, time.UTC), "TP 1352 LIS ZRH 2027-03-11 -"},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: "checkin@airline.example"}}, Subject: "Boarding pass", Date: c.date,
			Documents: []mime.Document{c.doc}}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			s := f.Segment
			dep, arr := s.Depart.Format(time.RFC3339), "-"
			if s.Depart.DateOnly {
				dep = s.Depart.Format("2006-01-02")
			}
			if s.Arrive != nil {
				arr = s.Arrive.Format(time.RFC3339)
			}
			got = append(got, strings.Join([]string{s.Number, s.From.Code, s.To.Code, dep, arr}, " "))
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%s: %q, want %q", c.name, g, c.want)
		}
	}
}

// TestPassAndText: a boarding pass attached to a mail whose text gives
// the same flight is one flight, the pass's with the text's clocks; a
// flight the pass does not give stays the text's.
func TestPassAndText(t *testing.T) {
	pj, _ := json.Marshal(map[string]any{"formatVersion": 1, "boardingPass": map[string]any{"transitType": "PKTransitTypeAir"},
		"barcodes": []map[string]string{{"format": "PKBarcodeFormatAztec", "message": "M1VIRTANEN/AINO       EHX4K2Q HELOULAY 0433 186Y012F0031 100"}}})
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, _ := z.Create("pass.json")
	w.Write(pj)
	z.Close()
	msg := &mime.Message{From: []mime.Address{{Address: "checkin@airline.example"}}, Subject: "Boarding pass",
		Date: time.Date(2027, 7, 4, 7, 40, 0, 0, time.UTC),
		Text: "Booking reference: HX4K2Q\n\nFlight AY 433\nTuesday 5 July 2027\nDeparture: Helsinki (HEL) 07:30\nArrival: Oulu (OUL) 08:35\n\n" +
			"Flight AY 438\nSunday 10 July 2027\nDeparture: Oulu (OUL) 18:05\nArrival: Helsinki (HEL) 19:10\n",
		Documents: []mime.Document{{Kind: "pkpass", Data: b.Bytes()}}}
	var got []string
	for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
		s := f.Segment
		got = append(got, s.Number+" "+s.Depart.Format(time.RFC3339)+" "+f.From)
	}
	want := "AY 438 2027-07-10T18:05:00+03:00 text|AY 433 2027-07-05T07:30:00+03:00 attachment"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("flights %q, want %q", g, want)
	}
}

// TestImageBudget: a message's pictures are read for barcodes within one
// budget of pixels (four of the largest pictures read), shared with the
// mails attached to it: a ticket's code after four large pictures is
// not read, one before them is (the outside review's mail of 224 large
// pictures cost 56 s).
func TestImageBudget(t *testing.T) {
	ticket, err := os.ReadFile("barcode/testdata/boardingpass-aztec.png")
	if err != nil {
		t.Fatal(err)
	}
	var big bytes.Buffer
	if err := png.Encode(&big, image.NewGray(image.Rect(0, 0, 2048, 2048))); err != nil {
		t.Fatal(err)
	}
	pic := func(b []byte) mime.Document { return mime.Document{Kind: "image", Data: b} }
	larges := []mime.Document{pic(big.Bytes()), pic(big.Bytes()), pic(big.Bytes()), pic(big.Bytes())}
	for _, c := range []struct {
		name string
		docs []mime.Document
		want int
	}{
		{"ticket first", append([]mime.Document{pic(ticket)}, larges...), 1},
		{"ticket after the budget", append(larges, pic(ticket)), 0},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: "checkin@airline.example"}}, Subject: "Boarding pass",
			Date: time.Date(2018, 4, 19, 9, 0, 0, 0, time.UTC), Documents: c.docs}
		if got := len(extract.Extract(msg, msgauth.Verdict{}).Facts); got != c.want {
			t.Errorf("%s: %d facts, want %d", c.name, got, c.want)
		}
	}
}
