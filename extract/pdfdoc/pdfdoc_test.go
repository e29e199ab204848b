package pdfdoc

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"mailnode/extract/einvoice"
	"mailnode/extract/pdfdoc/pdftest"
)

// TestEmbeddedInvoices: the XML each e-invoice PDF carries is found and is
// the invoice the corpus extracted from it; a PDF without one has none.
func TestEmbeddedInvoices(t *testing.T) {
	for _, c := range []struct{ pdf, xml string }{
		{"EN16931_Einfach.pdf", "EN16931_Einfach.cii.xml"},
		{"EN16931_Einfach_DueDate.pdf", "EN16931_Einfach_DueDate.cii.xml"},
		{"EN16931_Gutschrift.pdf", "EN16931_Gutschrift.cii.xml"},
		{"EN16931_Einfach_negativePaymentDue.pdf", "EN16931_Einfach_negativePaymentDue.cii.xml"},
		{"EN16931_Miete.pdf", "EN16931_Miete.cii.xml"},
		{"MustangGnuaccountingBeispielRE-20140519_499.pdf", ""},
		{"MustangGnuaccountingBeispielRE-20201121_508.pdf", ""},
		{"RE-E-974-Hetzner_2016-01-19_R0005532486.pdf", "-"},
	} {
		d := open(t, c.pdf)
		files, err := d.Files()
		if err != nil {
			t.Fatal(c.pdf, err)
		}
		if c.xml == "-" {
			if len(files) != 0 {
				t.Errorf("%s: files %v", c.pdf, files)
			}
			continue
		}
		var got *einvoice.Invoice
		for _, f := range files {
			if inv, err := einvoice.Parse(f.Data); err == nil {
				got = inv
			}
		}
		if got == nil {
			t.Errorf("%s: no e-invoice among %d files", c.pdf, len(files))
			continue
		}
		if c.xml == "" {
			continue // ZUGFeRD 1 and 2 samples without the XML beside them
		}
		b, _ := os.ReadFile("../einvoice/testdata/" + c.xml)
		want, err := einvoice.Parse(b)
		if err != nil || *want != *got {
			t.Errorf("%s: %+v, want %+v (%v)", c.pdf, got, want, err)
		}
	}
}

// TestText: a PDF's rows come out as lines, label and value together.
func TestText(t *testing.T) {
	text, err := open(t, "EN16931_Einfach_DueDate.pdf").Text()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Nr. 471102", "Name:   Lieferant GmbH"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

func open(t *testing.T, name string) *Doc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(b)
	if err != nil {
		t.Fatal(name, err)
	}
	return d
}

// TestLoops: a cross-reference chain that points back at itself, and a
// page whose content inflates beyond the cap, end with an error or no
// text, quickly.
func TestLoops(t *testing.T) {
	body := "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 0/Kids[]>>endobj\n"
	x := len(body)
	body += fmt.Sprintf("xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000054 00000 n \ntrailer<</Size 3/Root 1 0 R/Prev %d>>\nstartxref\n%d\n%%%%EOF\n", x, x)
	start := time.Now()
	if _, err := Open([]byte(body)); err == nil {
		t.Error("a /Prev loop opened")
	}
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(bytes.Repeat([]byte("BT (a) Tj ET "), 200000)) // 2.6 MB of content from a few KB
	w.Close()
	bomb := fmt.Sprintf("%%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 1/Kids[3 0 R]>>endobj\n"+
		"3 0 obj<</Type/Page/Parent 2 0 R/Contents 4 0 R>>endobj\n4 0 obj<</Length %d/Filter/FlateDecode>>stream\n", z.Len())
	pdfBytes := append([]byte(bomb), z.Bytes()...)
	pdfBytes = append(pdfBytes, "\nendstream\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"...)
	if d, err := Open(pdfBytes); err == nil {
		if text, _ := d.Text(); strings.Contains(text, "a") {
			t.Errorf("read %d bytes of text from an inflating page", len(text))
		}
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v", el)
	}
}

func TestBad(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("hello"), []byte("%PDF-1.4\n%%EOF"), append([]byte("%PDF-1.4\n"), make([]byte, MaxSize)...)} {
		if d, err := Open(b); err == nil {
			if _, err := d.Text(); err == nil {
				if _, err := d.Files(); err == nil && len(b) > 20 {
					t.Errorf("Open(%d bytes) read", len(b))
				}
			}
		}
	}
}

// FuzzOpen: no input makes the reader panic, and none takes long.
func FuzzOpen(f *testing.F) {
	b, _ := os.ReadFile("testdata/EN16931_Einfach_DueDate.pdf")
	f.Add(b)
	f.Add([]byte("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF"))
	f.Add(pdftest.OnePage("BT /F1 9 Tf 0 1 -1 0 560 700 Tm (Code 7712) Tj 0.7 0.7 -0.7 0.7 9 9 Tm (x) Tj ET"))
	f.Fuzz(func(t *testing.T, b []byte) {
		start := time.Now()
		if d, err := Open(b); err == nil {
			d.Text()
			d.Files()
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Fatalf("%d bytes took %v", len(b), el)
		}
		_ = bytes.MinRead
	})
}

// TestRowsReadingOrder: a row's runs come out in the order they stand on
// the page, however the producer drew them (a value drawn before its
// label, a font without widths); a run's own pieces keep their order.
func TestRowsReadingOrder(t *testing.T) {
	piece := func(x, w float64, s string) pdf.Text {
		return pdf.Text{X: x, Y: 500, W: w, FontSize: 9, S: s}
	}
	word := func(x float64, s string, widths bool) []pdf.Text {
		var out []pdf.Text
		for _, r := range s {
			w := 0.0
			if widths {
				w = 5
			}
			out = append(out, piece(x, w, string(r)))
			if widths {
				x += 5
			}
		}
		return out
	}
	for _, c := range []struct {
		name   string
		pieces [][]pdf.Text
		want   string
	}{
		{"in order", [][]pdf.Text{word(50, "Nr.", true), word(150, "30064443", true)}, "Nr.   30064443"},
		{"value drawn first", [][]pdf.Text{word(150, "30064443", true), word(50, "Nr.", true)}, "Nr.   30064443"},
		{"columns out of order", [][]pdf.Text{word(370, "Kunde", true), word(150, "300", true), word(460, "477", true), word(50, "Nr.", true)}, "Nr.   300   Kunde   477"},
		{"no widths", [][]pdf.Text{word(60, "WS Retail", false), word(5, "Sold By :", false)}, "Sold By :   WS Retail"},
	} {
		var pieces []pdf.Text
		for _, p := range c.pieces {
			pieces = append(pieces, p...)
		}
		if got := rows(pieces); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: rows = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestTurnedText: text drawn sideways (a ticket's stub) comes out as a
// line of its own after the upright text, not a letter glued to the end
// of each upright row it passes.
func TestTurnedText(t *testing.T) {
	content := "BT /F1 12 Tf 50 780 Td (Abfahrt 07:30) Tj 0 -16 Td (Ankunft 11:55) Tj 0 -16 Td (Linie 888) Tj ET\n" +
		"BT /F1 9 Tf 0 1 -1 0 560 700 Tm (Code 7712 0093) Tj ET\n" +
		"BT /F1 9 Tf 0 -1 1 0 30 700 Tm (Stub) Tj ET"
	d, err := Open(pdftest.OnePage(content))
	if err != nil {
		t.Fatal(err)
	}
	text, err := d.Text()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	want := []string{"Abfahrt 07:30", "Ankunft 11:55", "Linie 888", "Code 7712 0093", "Stub"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", lines, want)
	}
}

// TestLigatures: a ligature's glyph mapped to its presentation form comes
// out as its letters, which the labels are written in.
func TestLigatures(t *testing.T) {
	var pieces []pdf.Text
	x := 0.0
	for _, s := range []string{"C", "o", "n", "ﬁ", "r", "m", " ", "ﬂ", "i", "g", "h", "t"} {
		pieces = append(pieces, pdf.Text{FontSize: 10, X: x, Y: 700, W: 5, S: s})
		x += 5
	}
	if got := rows(pieces); len(got) != 1 || got[0] != "Confirm flight" {
		t.Errorf("rows = %q", got)
	}
}
