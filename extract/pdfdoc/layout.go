package pdfdoc

import (
	"math"
	"slices"

	"github.com/ledongthuc/pdf"
)

// pageTexts lays out a page's text as the library's Page.Content does,
// one piece per character with its position, size and width, but through
// the library's public content interpreter with each font looked up once:
// Page.Content asks the font for each character's width, and the library
// parses the font's widths array again for every one of them (28 ms for
// a page of 1,855 characters, 2 ms here), and it decodes a line end after
// each TJ array through the font, which comes out as a stray letter.
//
// Text drawn turned (a ticket's stub, a margin's code set sideways) is
// returned apart, one group a direction, each piece placed in its own
// text's frame: laid out with the upright text, each of its letters
// would stand on a row of its own and be glued to that row's end.
func pageTexts(p pdf.Page) (upright []pdf.Text, turned [][]pdf.Text) {
	contents := p.V.Key("Contents")
	if p.V.IsNull() || contents.Kind() == pdf.Null {
		return nil, nil
	}
	fonts := map[string]*fontInfo{}
	g := gstate{th: 1, ctm: ident}
	var saved []gstate
	var dirs []int // the direction, in whole degrees, of each group of turned
	pieces := 0
	show := func(s string) {
		f := g.font
		if f == nil || pieces >= maxPieces {
			return
		}
		n := 0
		for _, ch := range f.enc.Decode(s) {
			w0 := f.width(s, n)
			n++
			trm := mat{{g.tfs * g.th, 0, 0}, {0, g.tfs, 0}, {0, g.trise, 1}}.mul(g.tm).mul(g.ctm)
			tx := (w0/1000*g.tfs + g.tc) * g.th
			g.tm = mat{{1, 0, 0}, {0, 1, 0}, {tx, 0, 1}}.mul(g.tm)
			if pieces >= maxPieces {
				continue
			}
			pieces++
			a, b := trm[0][0], trm[0][1]
			// Upright: a character no size draws is kept there, as before.
			if math.Abs(b) <= math.Abs(a)/100 && a > 0 || a == 0 && b == 0 {
				upright = append(upright, pdf.Text{Font: f.name, FontSize: a, X: trm[2][0], Y: trm[2][1], W: w0 / 1000 * a, S: string(ch)})
				continue
			}
			size := math.Hypot(a, b)
			if math.IsNaN(size) || math.IsInf(size, 0) {
				continue
			}
			deg := int(math.Round(math.Atan2(b, a) * 180 / math.Pi))
			i := slices.Index(dirs, deg)
			if i < 0 {
				if len(dirs) >= maxDirections {
					continue
				}
				dirs = append(dirs, deg)
				turned = append(turned, nil)
				i = len(dirs) - 1
			}
			// Turn the page back by the text's angle: the text then runs
			// left to right and its lines top to bottom, as upright text.
			cos, sin := a/size, b/size
			x, y := trm[2][0], trm[2][1]
			turned[i] = append(turned[i], pdf.Text{Font: f.name, FontSize: size, X: x*cos + y*sin, Y: -x*sin + y*cos, W: w0 / 1000 * size, S: string(ch)})
		}
	}
	matrixOf := func(args []pdf.Value) (mat, bool) {
		if len(args) != 6 {
			return mat{}, false
		}
		var m mat
		for i := 0; i < 6; i++ {
			m[i/2][i%2] = args[i].Float64()
		}
		m[2][2] = 1
		return m, true
	}
	move := func(tx, ty float64) {
		g.tlm = mat{{1, 0, 0}, {0, 1, 0}, {tx, ty, 1}}.mul(g.tlm)
		g.tm = g.tlm
	}
	pdf.Interpret(contents, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		one := func() (float64, bool) {
			if len(args) != 1 {
				return 0, false
			}
			return args[0].Float64(), true
		}
		switch op {
		case "cm":
			if m, ok := matrixOf(args); ok {
				g.ctm = m.mul(g.ctm)
			}
		case "q":
			if len(saved) < 64 {
				saved = append(saved, g)
			}
		case "Q":
			if n := len(saved) - 1; n >= 0 {
				g, saved = saved[n], saved[:n]
			}
		case "BT":
			g.tm, g.tlm = ident, ident
		case "T*":
			move(0, -g.tl)
		case "Tc":
			if v, ok := one(); ok {
				g.tc = v
			}
		case "TL":
			if v, ok := one(); ok {
				g.tl = v
			}
		case "Ts":
			if v, ok := one(); ok {
				g.trise = v
			}
		case "Tz":
			if v, ok := one(); ok {
				g.th = v / 100
			}
		case "TD", "Td":
			if len(args) == 2 {
				if op == "TD" {
					g.tl = -args[1].Float64()
				}
				move(args[0].Float64(), args[1].Float64())
			}
		case "Tm":
			if m, ok := matrixOf(args); ok {
				g.tm, g.tlm = m, m
			}
		case "Tf":
			if len(args) == 2 {
				name := args[0].Name()
				f, ok := fonts[name]
				if !ok && len(fonts) < 64 {
					f = newFontInfo(p.Font(name))
					fonts[name] = f
				}
				g.font, g.tfs = f, args[1].Float64()
			}
		case "\"":
			if len(args) == 3 {
				g.tc = args[1].Float64()
				move(0, -g.tl)
				show(args[2].RawString())
			}
		case "'":
			if len(args) == 1 {
				move(0, -g.tl)
				show(args[0].RawString())
			}
		case "Tj":
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			v := args[0]
			for i := 0; i < v.Len() && i < maxPieces; i++ {
				x := v.Index(i)
				if x.Kind() == pdf.String {
					show(x.RawString())
				} else {
					tx := -x.Float64() / 1000 * g.tfs * g.th
					g.tm = mat{{1, 0, 0}, {0, 1, 0}, {tx, 0, 1}}.mul(g.tm)
				}
			}
		}
	})
	return upright, turned
}

// maxPieces bounds the characters read from one page.
const maxPieces = 20000

// maxDirections bounds the directions of turned text kept from one page.
const maxDirections = 4

// fontInfo is what the layout needs of a font, read once per page.
type fontInfo struct {
	name   string
	enc    pdf.TextEncoding
	first  int
	widths []float64
	// A composite font (Type0) draws two-byte codes, each its
	// descendant's width from W, else DW.
	cid       bool
	cidWidths map[int]float64
	cidDW     float64
}

// width is the width, in thousandths of an em, of the n-th character
// decoded from the string s.
func (f *fontInfo) width(s string, n int) float64 {
	if f.cid {
		if 2*n+1 >= len(s) {
			return f.cidDW
		}
		if w, ok := f.cidWidths[int(s[2*n])<<8|int(s[2*n+1])]; ok {
			return w
		}
		return f.cidDW
	}
	if n < len(s) {
		if i := int(s[n]) - f.first; i >= 0 && i < len(f.widths) {
			return f.widths[i]
		}
	}
	return 0
}

// maxCIDWidths bounds the widths read from one composite font.
const maxCIDWidths = 1 << 16

func newFontInfo(f pdf.Font) *fontInfo {
	fi := &fontInfo{name: f.BaseFont(), enc: f.Encoder(), first: f.FirstChar(), widths: f.Widths()}
	if fi.enc == nil {
		fi.enc = plainEncoding{}
	}
	if f.V.Key("Subtype").Name() == "Type0" && f.V.Key("Encoding").Name() == "Identity-H" {
		d := f.V.Key("DescendantFonts").Index(0)
		fi.cid, fi.cidDW, fi.cidWidths = true, 1000, map[int]float64{}
		if dw := d.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
			fi.cidDW = dw.Float64()
		}
		// W: "c [w1 w2 …]" gives c, c+1, …; "c1 c2 w" gives c1 to c2.
		w := d.Key("W")
		for i := 0; i < w.Len() && len(fi.cidWidths) < maxCIDWidths; {
			c := int(w.Index(i).Int64())
			if i+1 < w.Len() && w.Index(i+1).Kind() == pdf.Array {
				ws := w.Index(i + 1)
				for j := 0; j < ws.Len() && len(fi.cidWidths) < maxCIDWidths; j++ {
					fi.cidWidths[c+j] = ws.Index(j).Float64()
				}
				i += 2
				continue
			}
			if i+2 >= w.Len() {
				break
			}
			last, v := int(w.Index(i+1).Int64()), w.Index(i+2).Float64()
			for k := c; k <= last && k-c < maxCIDWidths && len(fi.cidWidths) < maxCIDWidths; k++ {
				fi.cidWidths[k] = v
			}
			i += 3
		}
	}
	return fi
}

// plainEncoding reads a string's bytes as they are, for a font without a
// usable encoding, as the library does.
type plainEncoding struct{}

func (plainEncoding) Decode(raw string) string { return raw }

// gstate is the part of the graphics and text state the layout follows.
type gstate struct {
	tc, th, tl, tfs, trise float64
	font                   *fontInfo
	tm, tlm, ctm           mat
}

// mat is a PDF transformation matrix, rows as the specification writes
// them ([a b 0] [c d 0] [e f 1]).
type mat [3][3]float64

var ident = mat{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func (a mat) mul(b mat) mat {
	var c mat
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}
