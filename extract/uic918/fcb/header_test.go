package fcb

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// barcode is a barcode header of format as an issuer writes it: a key,
// the algorithms' ids, a railway's own record before the FCB record, a
// level 1 signature; with dynamic content at level 2 in version 2.
func barcode(t testing.TB, format, fcbFormat string, fcbData []byte) []byte {
	ecdsa := []byte{0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02} // 1.2.840.10045.4.3.2
	l1 := seq{"securityProviderNum": int64(1187), "keyId": int64(3),
		"dataSequence": []any{
			seq{"dataFormat": "_3703II", "data": []byte{0x01, 0x02, 0x03}},
			seq{"dataFormat": fcbFormat, "data": fcbData},
		},
		"level1SigningAlg": ecdsa}
	l2 := seq{"level1Data": l1, "level1Signature": make([]byte, 64)}
	schema := header1
	if format == "U2" {
		schema = header2
		l1["endOfValidityYear"], l1["endOfValidityDay"], l1["endOfValidityTime"] = int64(2027), int64(220), int64(600)
		l2["level2Data"] = seq{"dataFormat": "FDC1", "data": []byte{0x10, 0x20}}
	}
	return encodeAs(t, schema, seq{"format": format, "level2SignedData": l2})
}

// TestBarcodeHeader: the FCB record of a barcode header in either
// format, of any version read here, gives its journey; the railway's
// record before it and the dynamic content are skipped.
func TestBarcodeHeader(t *testing.T) {
	for _, tc := range []struct {
		format, fcbFormat string
		data              []byte
		want              string
	}{
		{"U1", "FCB2", encodeAs(t, v20, openTicket20()), "NX4Q7T; Amsterdam Centraal>Bruxelles-Midi 2027-07-22 07:16 EST 9316"},
		{"U2", "FCB2", encodeAs(t, v20, openTicket20()), "NX4Q7T; Amsterdam Centraal>Bruxelles-Midi 2027-07-22 07:16 EST 9316"},
		{"U1", "FCB1", encodeAs(t, v13, reservationTicket()), "K7PLM2; Wien Hbf>Salzburg Hbf 2027-03-31 08:30 RJX 662"},
		{"U2", "FCB3", encodeAs(t, v30, reservationTicket()), "K7PLM2; Wien Hbf>Salzburg Hbf 2027-03-31 08:30 RJX 662"},
	} {
		b := barcode(t, tc.format, tc.fcbFormat, tc.data)
		if !IsBarcodeHeader(b) {
			t.Errorf("%s %s: not a header: % x", tc.format, tc.fcbFormat, b[:3])
			continue
		}
		tk, err := DecodeBarcode(b)
		if err != nil {
			t.Errorf("%s %s: %v", tc.format, tc.fcbFormat, err)
			continue
		}
		got := tk.PNR
		for _, l := range tk.Legs {
			got += fmt.Sprintf("; %s>%s %s %02d:%02d %s", l.From, l.To, l.Day.Format("2006-01-02"), l.Clock/60, l.Clock%60, l.Train)
		}
		if got != tc.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.format, tc.fcbFormat, got, tc.want)
		}
	}
}

// TestBarcodeHeaderRefused: a header cut anywhere or with an octet
// more, an FCB record under another version's name, a header with no
// FCB record, and a UIC 918.3 container read nothing.
func TestBarcodeHeaderRefused(t *testing.T) {
	b := barcode(t, "U1", "FCB2", encodeAs(t, v20, openTicket20()))
	for n := 0; n < len(b); n++ {
		if tk, err := DecodeBarcode(b[:n]); err == nil {
			t.Fatalf("cut at %d of %d: read %+v", n, len(b), tk.Legs)
		}
	}
	if _, err := DecodeBarcode(append(b[:len(b):len(b)], 0)); err == nil {
		t.Error("an octet more: read")
	}
	if tk, err := DecodeBarcode(barcode(t, "U1", "FCB1", encodeAs(t, v20, openTicket20()))); err == nil && len(tk.Legs) > 0 {
		t.Errorf("2.0 read as FCB1: %+v", tk.Legs)
	}
	if _, err := DecodeBarcode(barcode(t, "U1", "_1080XX", []byte{1})); err == nil {
		t.Error("no FCB record: read")
	}
	if IsBarcodeHeader([]byte("#UT01")) {
		t.Error("a UIC 918.3 container taken for a header")
	}
}

func FuzzBarcodeHeader(f *testing.F) {
	f.Add(barcode(f, "U1", "FCB2", encodeAs(f, v20, openTicket20())))
	f.Add(barcode(f, "U2", "FCB3", encodeAs(f, v30, reservationTicket())))
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "sncf-*.bin"))
	for _, name := range files {
		b, _ := os.ReadFile(name)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tk, err := DecodeBarcode(b)
		if err != nil {
			return
		}
		for _, l := range tk.Legs {
			if l.From == "" || l.To == "" || l.Clock >= 1440 {
				t.Errorf("leg %+v", l)
			}
		}
	})
}

// TestBarcodeHeaderCorpus: SNCF's barcodes (format "U2", an FCB 3.0
// record) read whole, and the header and the record, each written again,
// are their own bytes: every component at its place and width. Their
// stations are UIC codes alone (a plain single, an airport ticket, a
// pass): no name to give, no journey.
func TestBarcodeHeaderCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "sncf-*.bin"))
	if len(files) != 3 {
		t.Fatalf("%d SNCF barcodes", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !IsBarcodeHeader(b) || b[2]>>1 != '2' {
			t.Fatalf("%s: no U2 header", f)
		}
		r := &reader{b: b}
		v, err := r.sequence(header2, 0)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := encodeAs(t, header2, v); !bytes.Equal(got, b) {
			t.Errorf("%s: header written again differs", f)
		}
		l1 := v["level2SignedData"].(seq)["level1Data"].(seq)
		d := l1["dataSequence"].([]any)[0].(seq)
		if d["dataFormat"] != "FCB3" {
			t.Fatalf("%s: %v", f, d["dataFormat"])
		}
		data := d["data"].([]byte)
		rr := &reader{b: data}
		x, err := rr.sequence(v30, 0)
		if err != nil {
			t.Fatalf("%s: FCB: %v", f, err)
		}
		if got := encodeAs(t, v30, x); !bytes.Equal(got, data) {
			t.Errorf("%s: FCB record written again differs", f)
		}
		tk, err := DecodeBarcode(b)
		if err != nil || len(tk.Legs) != 0 {
			t.Errorf("%s: %v %+v, want no journey", f, err, tk)
		}
	}
}
