package barcode

import (
	"image"
	"os"
	"strings"
	"testing"
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
