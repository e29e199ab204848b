// Package screenqr reads the pairing QR code off a capture of the desktop
// app's window, as the tests of the window (Fyne's test driver) and of the
// real binary (under Xvfb) do: what a phone's camera would be shown.
package screenqr

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// Read returns the text of the QR code in img. It looks for the code with
// ZXing's detector, with its local binarizer and then its global one, as
// a phone's scanner tries more than one way. gozxing's detector misses the
// grid of about one code in a hundred that zbar reads (random pairing
// links, measured 2026-11-27): then the code is read where its quiet zone
// shows, as a code alone.
func Read(img image.Image) (string, error) {
	src := gozxing.NewLuminanceSourceFromImage(img)
	hints := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true}
	var err error
	for _, bin := range []gozxing.Binarizer{gozxing.NewHybridBinarizer(src), gozxing.NewGlobalHistgramBinarizer(src)} {
		bmp, berr := gozxing.NewBinaryBitmap(bin)
		if berr != nil {
			return "", berr
		}
		var res *gozxing.Result
		if res, err = qrcode.NewQRCodeReader().Decode(bmp, hints); err == nil {
			return res.GetText(), nil
		}
	}
	r, ok := quietZone(img)
	if !ok {
		return "", fmt.Errorf("no QR code found: %w", err)
	}
	crop := image.NewRGBA(image.Rectangle{Max: r.Size()})
	draw.Draw(crop, crop.Bounds(), img, r.Min, draw.Src)
	bmp, berr := gozxing.NewBinaryBitmapFromImage(crop)
	if berr != nil {
		return "", berr
	}
	res, perr := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if perr != nil {
		return "", fmt.Errorf("no QR code found (%v), nor at %v as a code alone: %w", err, r, perr)
	}
	return res.GetText(), nil
}

// minQuiet is the shortest run of white that starts a quiet zone: text and
// icons never draw one, and a code of 21 modules at the app's smallest
// module (5 pixels) with its quiet zone is 145 pixels wide.
const minQuiet = 140

// quietZone finds the code as the square under the first row with a run
// of at least minQuiet pure white pixels (the top of its quiet zone).
func quietZone(img image.Image) (image.Rectangle, bool) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		run := 0
		for x := b.Min.X; x <= b.Max.X; x++ {
			if x < b.Max.X && color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y == 0xff {
				run++
				continue
			}
			if run >= minQuiet {
				r := image.Rect(x-run, y, x, y+run)
				return r, r.In(b)
			}
			run = 0
		}
	}
	return image.Rectangle{}, false
}
