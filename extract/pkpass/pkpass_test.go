package pkpass

import (
	"archive/zip"
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestRead reads the corpus passes: style, transit type and barcode.
func TestRead(t *testing.T) {
	for _, c := range []struct{ file, style, transit, barcode string }{
		{"lufthansa", "boardingPass", "PKTransitTypeAir", "M1DOE/JOHN            EXXX007 MUCTXLLH 2724"},
		{"eurowings", "boardingPass", "PKTransitTypeAir", "M1KRAUSE/VOLKER       EXXX007 LHRTXL4U 8465"},
		{"apple-semantic-event-ticket-scrubbed", "eventTicket", "", "3082665871"},
	} {
		b, err := os.ReadFile("testdata/" + c.file + ".pkpass")
		if err != nil {
			t.Fatal(err)
		}
		p, err := Read(b)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if p.Style != c.style || p.TransitType != c.transit || len(p.Barcodes) == 0 || !strings.HasPrefix(p.Barcodes[0].Message, c.barcode) {
			t.Errorf("%s: style %q transit %q barcodes %v", c.file, p.Style, p.TransitType, p.Barcodes)
		}
	}
	b, _ := os.ReadFile("testdata/apple-semantic-event-ticket-scrubbed.pkpass")
	p, _ := Read(b)
	if p.Semantic("eventName") != "Event Name" || p.Semantic("eventStartDateInfo") != "2026-06-12T20:00+02:00" {
		t.Errorf("semantics: %v", p.Semantics)
	}
}

// TestCaps: archives beyond the caps, or without pass.json, are refused
// before anything large is decompressed.
func TestCaps(t *testing.T) {
	zipOf := func(name string, body []byte) []byte {
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		f, _ := w.Create(name)
		f.Write(body)
		w.Close()
		return buf.Bytes()
	}
	for name, archive := range map[string][]byte{
		"not a zip":   []byte("hello"),
		"no pass":     zipOf("icon.png", []byte{1, 2, 3}),
		"huge pass":   zipOf("pass.json", bytes.Repeat([]byte(" "), maxPassJSON+10)),
		"bad json":    zipOf("pass.json", []byte("{")),
		"big archive": make([]byte, MaxArchive+1),
	} {
		if _, err := Read(archive); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}

// FuzzRead: no archive makes Read panic.
func FuzzRead(f *testing.F) {
	b, _ := os.ReadFile("testdata/lufthansa.pkpass")
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		Read(b)
		Parse(b)
	})
}
