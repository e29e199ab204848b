// Command mkicons makes the phone web app's icons (assets/phone) from the
// application icon (assets/icon.png), so that the app on a Home Screen is
// the same picture as the desktop app: run by `go generate ./assets`, and
// its output is committed (the node embeds it).
//
//   - icon-192.png, icon-512.png: the icon as it is ("any" in the manifest).
//   - icon-maskable-512.png: Android crops an icon to its own shape (a
//     circle, a squircle) from a full square, keeping only the central
//     circle of 80% of its width safe; so the icon's own blue fills the
//     square and the icon is drawn in the middle 80%.
//   - apple-touch-icon.png, 180 px: iOS rounds the corners itself and
//     shows transparent pixels black, so the blue fills the corners.
package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"os"
	"path/filepath"

	"golang.org/x/image/draw"
)

func main() {
	if err := run("icon.png", "phone"); err != nil {
		log.Fatal(err)
	}
}

func run(src, dir string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	icon, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	// The icon's background: the middle of its top edge, inside the
	// rounded corners.
	r := icon.Bounds()
	bg := color.RGBAModel.Convert(icon.At(r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/16)).(color.RGBA)
	for _, o := range []struct {
		name  string
		size  int
		inset float64 // the share of the side the icon takes
		fill  bool    // fill the square with bg first
	}{
		{"icon-192.png", 192, 1, false},
		{"icon-512.png", 512, 1, false},
		{"icon-maskable-512.png", 512, 0.8, true},
		{"apple-touch-icon.png", 180, 1, true},
	} {
		if err := write(filepath.Join(dir, o.name), render(icon, o.size, o.inset, o.fill, bg)); err != nil {
			return err
		}
	}
	return nil
}

func render(icon image.Image, size int, inset float64, fill bool, bg color.RGBA) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, size, size))
	if fill {
		draw.Draw(out, out.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	}
	side := int(float64(size)*inset + 0.5)
	off := (size - side) / 2
	draw.CatmullRom.Scale(out, image.Rect(off, off, off+side, off+side), icon, icon.Bounds(), draw.Over, nil)
	return out
}

func write(path string, img image.Image) error {
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
