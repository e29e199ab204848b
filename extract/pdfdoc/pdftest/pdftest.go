// Package pdftest builds small PDFs for tests of the readers of PDF text
// (extract/pdfdoc and the extractor that reads attachments through it),
// as net/http/httptest serves tests of handlers: one place that writes a
// valid file, so that each test says only what its page draws.
package pdftest

import (
	"bytes"
	"fmt"
)

// OnePage is a one-page A4 PDF in Helvetica (font /F1) whose page draws
// content, a content stream ("BT /F1 10 Tf 40 800 Td (Invoice) Tj ET").
func OnePage(content string) []byte {
	objs := []string{
		"<</Type/Catalog/Pages 2 0 R>>",
		"<</Type/Pages/Count 1/Kids[3 0 R]>>",
		"<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<</Font<</F1 4 0 R>>>>/Contents 5 0 R>>",
		"<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>",
		fmt.Sprintf("<</Length %d>>stream\n%s\nendstream", len(content), content),
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	var offs []int
	for i, o := range objs {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}
