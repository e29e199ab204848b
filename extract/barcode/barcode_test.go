package barcode

import (
	"image"
	"image/color"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/skip2/go-qrcode"
)

// TestDecode: Aztec and QR boarding passes are read; PDF417 is not (the
// library has no reader for it), and says nothing rather than something
// wrong.
func TestDecode(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"boardingpass-aztec.png", "M1DOE/JOHN            EXXX007 TXLBRUSN 2592 110Y017C0040 100"},
		{"boardingpass-qr.png", "M1KRAUSE/VOLKER       EXXX007 TXLRIXBT 0212 309Y014E0063 100"},
		{"boardingpass-pdf417.png", ""},
		{"wikipedia-aztec.png", "This is an example Aztec symbol for Wikipedia."},
	} {
		b, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeBytes(b)
		if err != nil {
			t.Fatal(c.file, err)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: %q, want %q", c.file, got, c.want)
		}
	}
}

// TestDecodeDetectorMisses: QR boarding passes whose grid gozxing's
// detector misses (found among 2,000 generated ones) are read as codes
// alone, at the sizes a ticket's image has.
func TestDecodeDetectorMisses(t *testing.T) {
	for _, pass := range []string{
		"M1DOE/JOHN            E430058 TXLBRUSN 0531 110Y017C1903 100",
		"M1DOE/JOHN            E569192 TXLBRUSN 0099 110Y017C2058 100",
		"M1DOE/JOHN            E356371 TXLBRUSN 4675 110Y017C3736 100",
	} {
		for _, k := range []int{4, 6} {
			if got, err := Decode(qrImage(t, pass, k)); err != nil || len(got) != 1 || got[0] != pass {
				t.Errorf("%q at %d pixels a module: %q, %v", pass, k, got, err)
			}
		}
	}
}

// qrImage draws s as a QR code with its quiet zone, k pixels a module.
func qrImage(t *testing.T, s string, k int) image.Image {
	q, err := qrcode.New(s, qrcode.Medium)
	if err != nil {
		t.Fatal(err)
	}
	return q.Image(-k)
}

func TestCaps(t *testing.T) {
	if _, err := Decode(image.NewGray(image.Rect(0, 0, 4000, 4000))); err == nil {
		t.Error("a 16-megapixel image was decoded")
	}
	if _, err := DecodeBytes([]byte("not an image")); err == nil {
		t.Error("not an image was decoded")
	}
}

// FuzzDecodeBytes: no image makes the decoder panic.
func FuzzDecodeBytes(f *testing.F) {
	b, _ := os.ReadFile("testdata/boardingpass-aztec.png")
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { DecodeBytes(b) })
}

// finderTiles is an image tiled with QR finder patterns (7x7 modules:
// a dark ring, a light ring, a dark 3x3 core), one pixel a module, one
// light module between them: the outside review's image that made the
// QR detector weigh every triple of its thousands of candidates.
func finderTiles(side int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, side, side))
	for y := range side {
		for x := range side {
			mx, my := x%8, y%8
			dark := false
			if mx < 7 && my < 7 {
				ring := min(mx, my, 6-mx, 6-my)
				dark = ring == 0 || ring >= 2
			}
			if !dark {
				img.SetGray(x, y, color.Gray{Y: 255})
			}
		}
	}
	return img
}

// TestFinderFlood: an image of finder patterns costs what an ordinary
// image does, not minutes (8.7 s at 768 pixels a side before the bound,
// 151 s at 2048).
func TestFinderFlood(t *testing.T) {
	for _, side := range []int{768, 2048} {
		start := time.Now()
		texts, _ := Decode(finderTiles(side))
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%d pixels a side: %v, want well under a second", side, d)
		}
		if len(texts) != 0 {
			t.Errorf("%d pixels a side: read %q from no code", side, texts)
		}
	}
}
