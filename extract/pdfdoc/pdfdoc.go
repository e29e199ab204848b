// Package pdfdoc reads what the extractors need from a PDF attachment:
// its text, row by row as the page lays it out, and the files embedded in
// it (a ZUGFeRD or Factur-X invoice's XML). It wraps
// github.com/ledongthuc/pdf (BSD-3-Clause, a fork of rsc.io/pdf), which
// panics on some malformed input: every call here recovers and reports an
// error instead, and every size is capped, as a PDF in mail is hostile
// input.
package pdfdoc

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/ledongthuc/pdf"
)

// Caps on what one PDF may make the reader do.
const (
	MaxSize     = 4 << 20   // bytes of the PDF
	MaxPages    = 2         // pages whose text is read: bills and tickets say what matters first
	maxText     = 64 << 10  // bytes of text kept
	maxEmbedded = 2 << 20   // bytes of one embedded file
	maxFiles    = 8         // embedded files looked at
	maxStream   = 512 << 10 // bytes of one page's content
)

// Doc is an opened PDF.
type Doc struct {
	r *pdf.Reader
}

// Open opens a PDF held in memory.
func Open(data []byte) (d *Doc, err error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("pdfdoc: %d bytes, more than %d", len(data), MaxSize)
	}
	if !bytes.HasPrefix(bytes.TrimLeft(data[:min(len(data), 1024)], "\x00\t\r\n "), []byte("%PDF-")) {
		return nil, errors.New("pdfdoc: not a PDF")
	}
	defer recoverTo(&err)
	r, err := pdf.NewReader(&budgetReader{r: bytes.NewReader(data), left: readBudget * int64(len(data))}, int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("pdfdoc: %w", err)
	}
	return &Doc{r: r}, nil
}

// readBudget is how many times over the reader may read the file: a
// cross-reference chain whose /Prev points back at itself would make the
// library read forever; a budget ends it with an error instead.
const readBudget = 64

// budgetReader fails every read once left bytes have been read.
type budgetReader struct {
	r    io.ReaderAt
	left int64
}

func (b *budgetReader) ReadAt(p []byte, off int64) (int, error) {
	if b.left <= 0 {
		return 0, errors.New("pdfdoc: read budget spent (a loop in the file's structure)")
	}
	n, err := b.r.ReadAt(p, off)
	b.left -= int64(max(n, 1))
	return n, err
}

// recoverTo turns a panic of the PDF library into an error.
func recoverTo(err *error) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("pdfdoc: unreadable PDF (%v)", v)
	}
}

// Text returns the text of the first MaxPages pages, one line per row of
// text on the page, the pieces of a row in order and set apart by a
// column gap ("Rechnungsnummer   R-1"), so that the text rules read a label
// and its value on one line.
func (d *Doc) Text() (text string, err error) {
	defer recoverTo(&err)
	var b strings.Builder
	pages := min(d.r.NumPage(), MaxPages)
	for i := 1; i <= pages && b.Len() < maxText; i++ {
		p := d.r.Page(i)
		if p.V.IsNull() || !contentFits(p.V.Key("Contents")) {
			continue
		}
		upright, turned := pageTexts(p)
		for _, texts := range append([][]pdf.Text{upright}, turned...) {
			for _, line := range rows(texts) {
				b.WriteString(line)
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		}
	}
	text = b.String()
	if len(text) > maxText {
		text = text[:maxText]
	}
	return text, nil
}

// rows lays a page's text pieces out as lines: pieces whose baselines lie
// within a third of their size of each other share a row; rows go top to
// bottom, pieces in the order the page draws them (producers draw a row's
// text in reading order, and the positions the library gives kerned
// pieces are not exact enough to sort by), a gap wider than a character
// becomes a space and a wider one a column gap.
func rows(texts []pdf.Text) []string {
	type row struct {
		y      float64
		pieces []pdf.Text
	}
	var rs []*row
	for _, t := range joinWrapped(texts) {
		if t.S == "" {
			continue
		}
		tol := max(t.FontSize, 4) / 3
		var r *row
		for _, c := range rs {
			if math.Abs(c.y-t.Y) <= tol {
				r = c
				break
			}
		}
		if r == nil {
			r = &row{y: t.Y}
			rs = append(rs, r)
		}
		r.pieces = append(r.pieces, t)
	}
	slices.SortStableFunc(rs, func(a, b *row) int { return cmp.Compare(b.y, a.y) })
	var out []string
	for _, r := range rs {
		r.pieces = inReadingOrder(r.pieces)
		var line strings.Builder
		lastEnd := math.Inf(-1)
		gapped := false // the last piece ends with a column gap (joinWrapped's)
		for _, t := range r.pieces {
			size := max(t.FontSize, 4)
			if line.Len() > 0 && !gapped {
				switch gap := t.X - lastEnd; {
				case gap < -size:
					line.WriteString("   ") // a piece set further left: a new column in stream order
				case gap > 1.5*size:
					line.WriteString("   ")
				case gap > size/5:
					line.WriteString(" ")
				}
			}
			line.WriteString(glyphText.Replace(t.S))
			gapped = strings.HasSuffix(t.S, "   ")
			w := t.W
			if w <= 0 {
				// A font without widths (a composite font the library
				// reads none for): about half an em a character.
				w = size / 2
			}
			lastEnd = t.X + w
		}
		if s := strings.TrimSpace(line.String()); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// glyphText rewrites what a glyph maps to as the text rules read it:
// a ligature as its letters (fonts map a ligature's glyph to its
// presentation form, "ﬁ" in "Conﬁrmation"), and U+FFFD (a glyph the font's encoding
// does not map, most often a line end drawn as a character) as nothing.
var glyphText = strings.NewReplacer("\ufffd", "", "ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st")

// inReadingOrder puts a row's runs in the order they stand on the page.
// A run is pieces drawn one after another left to right, each within a
// character of where the one before it ends; some producers draw a row's
// runs out of order (a value before its label, a table's columns right
// to left). The runs are sorted by where each starts, their pieces kept
// in the order drawn: a run's own positions are not exact enough to sort
// by (kerning, fonts without widths), where runs start is.
func inReadingOrder(pieces []pdf.Text) []pdf.Text {
	type run struct {
		x    float64
		from int
		to   int
	}
	var runs []run
	sorted := true
	for i, t := range pieces {
		if i > 0 {
			p := pieces[i-1]
			size := max(p.FontSize, 4)
			end := p.X + p.W
			if p.W <= 0 {
				end = p.X + size/2 // as rows reckons a font without widths
			}
			if t.X >= end-size && t.X <= end+size {
				runs[len(runs)-1].to = i + 1
				continue
			}
		}
		if len(runs) > 0 && t.X < runs[len(runs)-1].x {
			sorted = false
		}
		runs = append(runs, run{x: t.X, from: i, to: i + 1})
	}
	if sorted {
		return pieces
	}
	slices.SortStableFunc(runs, func(a, b run) int { return cmp.Compare(a.x, b.x) })
	out := make([]pdf.Text, 0, len(pieces))
	for _, r := range runs {
		out = append(out, pieces[r.from:r.to]...)
	}
	return out
}

// contentFits reports whether a page's content streams, decompressed,
// stay within maxStream: the library reads them whole into memory, and a
// few kilobytes of deflated zeros would expand to gigabytes.
func contentFits(v pdf.Value) bool {
	left := int64(maxStream)
	fits := func(s pdf.Value) bool {
		n, _ := io.Copy(io.Discard, io.LimitReader(s.Reader(), left+1))
		left -= n
		return left >= 0
	}
	switch v.Kind() {
	case pdf.Stream:
		return fits(v)
	case pdf.Array:
		for i := 0; i < v.Len(); i++ {
			if !fits(v.Index(i)) {
				return false
			}
		}
		return true
	}
	return false
}

// File is an embedded file.
type File struct {
	Name string
	Data []byte
}

// Files returns the files embedded in the document (the name tree of
// /EmbeddedFiles, and the /AF associated files PDF/A-3 invoices use), at
// most maxFiles of maxEmbedded bytes each; larger ones are left out.
func (d *Doc) Files() (files []File, err error) {
	defer recoverTo(&err)
	root := d.r.Trailer().Key("Root")
	seen := map[string]bool{}
	add := func(name string, spec pdf.Value) {
		if len(files) >= maxFiles || seen[name] {
			return
		}
		ef := spec.Key("EF")
		f := ef.Key("F")
		if f.Kind() != pdf.Stream {
			f = ef.Key("UF")
		}
		if f.Kind() != pdf.Stream || f.Key("Length").Int64() > maxEmbedded {
			return
		}
		// Filters expand: read one byte past the cap to know.
		b, err := io.ReadAll(io.LimitReader(f.Reader(), maxEmbedded+1))
		if err != nil || len(b) > maxEmbedded {
			return
		}
		seen[name] = true
		files = append(files, File{Name: name, Data: b})
	}
	var walk func(node pdf.Value, depth int)
	walk = func(node pdf.Value, depth int) {
		if depth > 8 {
			return
		}
		names := node.Key("Names")
		for i := 0; i+1 < names.Len() && i < 2*maxFiles; i += 2 {
			add(names.Index(i).Text(), names.Index(i+1))
		}
		kids := node.Key("Kids")
		for i := 0; i < kids.Len() && i < maxFiles; i++ {
			walk(kids.Index(i), depth+1)
		}
	}
	walk(root.Key("Names").Key("EmbeddedFiles"), 0)
	af := root.Key("AF")
	for i := 0; i < af.Len() && i < maxFiles; i++ {
		spec := af.Index(i)
		name := spec.Key("UF").Text()
		if name == "" {
			name = spec.Key("F").Text()
		}
		add(name, spec)
	}
	return files, nil
}

// maxImages bounds the images Images returns.
const maxImages = 8

// maxPixels bounds one image's size: a ticket's barcode is a few hundred
// pixels a side.
const maxPixels = 4 << 20

// Images returns the images drawn on the first MaxPages pages that are
// stored as plain pixels (uncompressed or deflated, gray or RGB, 1 or 8
// bits): how producers store barcodes, which JPEG would blur. They are
// read as stored, never by rendering a page, and no more of them than
// pixels in all: each costs its reader time, and a hostile PDF can name
// one image many times.
func (d *Doc) Images(pixels int) (imgs []image.Image, err error) {
	defer recoverTo(&err)
	pages := min(d.r.NumPage(), MaxPages)
	for i := 1; i <= pages && len(imgs) < maxImages; i++ {
		xo := d.r.Page(i).Resources().Key("XObject")
		for _, name := range xo.Keys() {
			if len(imgs) >= maxImages {
				break
			}
			v := xo.Key(name)
			if w, h := v.Key("Width").Int64(), v.Key("Height").Int64(); w <= 0 || h <= 0 || w*h > int64(pixels) {
				continue
			}
			if img := pixelImage(v); img != nil {
				r := img.Bounds()
				pixels -= r.Dx() * r.Dy()
				imgs = append(imgs, img)
			}
		}
	}
	return imgs, nil
}

// pixelImage decodes an image XObject stored as plain pixels, or returns
// nil.
func pixelImage(v pdf.Value) image.Image {
	if v.Key("Subtype").Name() != "Image" {
		return nil
	}
	switch f := v.Key("Filter"); f.Kind() {
	case pdf.Null:
	case pdf.Name:
		if f.Name() != "FlateDecode" {
			return nil
		}
	default:
		return nil
	}
	w, h := int(v.Key("Width").Int64()), int(v.Key("Height").Int64())
	bits := int(v.Key("BitsPerComponent").Int64())
	if v.Key("ImageMask").Bool() {
		bits = 1
	}
	comps := 1
	switch cs := v.Key("ColorSpace"); {
	case cs.Name() == "DeviceRGB":
		comps = 3
	case cs.Name() == "DeviceGray" || cs.Kind() == pdf.Null && bits == 1:
	default:
		return nil
	}
	if w <= 0 || h <= 0 || w*h > maxPixels || (bits != 1 && bits != 8) || bits == 1 && comps != 1 {
		return nil
	}
	stride := (w*comps*bits + 7) / 8
	data, err := io.ReadAll(io.LimitReader(v.Reader(), int64(stride*h)+1))
	if err != nil || len(data) < stride*h {
		return nil
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		row := data[y*stride : (y+1)*stride]
		for x := 0; x < w; x++ {
			var g byte
			switch {
			case bits == 1:
				if row[x/8]&(0x80>>(x%8)) != 0 {
					g = 255
				}
			case comps == 3:
				r, gg, b := int(row[3*x]), int(row[3*x+1]), int(row[3*x+2])
				g = byte((299*r + 587*gg + 114*b) / 1000)
			default:
				g = row[x]
			}
			img.Pix[y*img.Stride+x] = g
		}
	}
	return img
}
