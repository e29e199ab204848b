package screenqr

import (
	"encoding/base64"
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"

	"github.com/skip2/go-qrcode"
)

// window draws the code of s as the app does (whole pixels a module, white
// quiet zone) at an offset on a dark window with a light line of "text"
// above it.
func window(t *testing.T, s string, k int) image.Image {
	q, err := qrcode.New(s, qrcode.Medium)
	if err != nil {
		t.Fatal(err)
	}
	code := q.Image(-k)
	img := image.NewRGBA(image.Rect(0, 0, code.Bounds().Dx()+300, code.Bounds().Dy()+200))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{0x44, 0x44, 0x44, 0xff}}, image.Point{}, draw.Src)
	for x := 20; x < 260; x += 3 {
		img.Set(x, 40, color.RGBA{0xf3, 0xf3, 0xf3, 0xff})
	}
	draw.Draw(img, code.Bounds().Add(image.Pt(157, 103)), code, image.Point{}, draw.Src)
	return img
}

// TestRead: pairing links of the app's length, drawn as the window shows
// them, all read back; the detector alone misses link 59 of this seed.
func TestRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 150 {
		b := make([]byte, 120)
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		link := "https://lynuo72ny7fd3h4i.relay.test/phone/#pair=" + base64.RawURLEncoding.EncodeToString(b)
		if got, err := Read(window(t, link, 5)); err != nil || got != link {
			t.Fatalf("link %d: %q, %v", i, got, err)
		}
	}
}

func TestReadNoCode(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 400, 300))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{0x44, 0x44, 0x44, 0xff}}, image.Point{}, draw.Src)
	if got, err := Read(img); err == nil {
		t.Fatalf("Read(no code) = %q, want an error", got)
	}
}
