// Package barcode reads the 2D codes tickets carry as images: Aztec (most
// airlines' and many railways' boarding passes) and QR, with
// github.com/makiuchi-d/gozxing (MIT), the Go port of ZXing. The version
// the module proxy serves (v0.1.1) has no PDF417 reader, the other
// symbology of boarding passes: those are read only where the text comes
// without an image (Wallet passes).
//
// Images come from mail: they are decoded only within a pixel cap, and a
// reader's panic is an unreadable image, not a crashed node.
package barcode

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // decoders for image.Decode
	_ "image/jpeg"
	_ "image/png"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/aztec"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// MaxPixels bounds the images read: a ticket's code is at most a few
// hundred pixels a side.
const MaxPixels = 4 << 20

// DecodeBytes reads the codes of an encoded image (PNG, GIF, JPEG).
func DecodeBytes(b []byte) ([]string, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("barcode: %w", err)
	}
	if cfg.Width*cfg.Height > MaxPixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("barcode: %dx%d pixels", cfg.Width, cfg.Height)
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("barcode: %w", err)
	}
	return Decode(img)
}

// Decode reads the Aztec and QR codes of an image: the text of each one
// found (at most one of each kind).
func Decode(img image.Image) (texts []string, err error) {
	r := img.Bounds()
	if r.Dx()*r.Dy() > MaxPixels || r.Empty() {
		return nil, fmt.Errorf("barcode: %dx%d pixels", r.Dx(), r.Dy())
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("barcode: unreadable image (%v)", v)
		}
	}()
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return nil, fmt.Errorf("barcode: %w", err)
	}
	hints := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true}
	if res, err := aztec.NewAztecReader().Decode(bmp, hints); err == nil && res.GetText() != "" {
		texts = append(texts, res.GetText())
	}
	if text := decodeQR(bmp); text != "" {
		texts = append(texts, text)
	}
	return texts, nil
}

// maxFinderCandidates bounds the finder patterns (a QR code's three
// corner squares) the QR detector may consider in one image. It picks
// its three among every candidate by looking at each triple, so an image
// tiled with such squares, a few kilobytes of PNG, cost minutes of CPU
// (issue 46's outside review: 151 s for 2048x2048 pixels). A code has
// three; a photo or a page of text yields a handful more.
const maxFinderCandidates = 128

// tooManyFinders is decodeQR's panic when the bound is passed.
type tooManyFinders struct{}

// decodeQR reads a QR code of bmp, within maxFinderCandidates, or "".
func decodeQR(bmp *gozxing.BinaryBitmap) (text string) {
	defer func() {
		if v := recover(); v != nil {
			text = ""
		}
	}()
	seen := 0
	hints := map[gozxing.DecodeHintType]any{
		gozxing.DecodeHintType_TRY_HARDER: true,
		// Called once for each new candidate: past the bound the
		// detector stops, by a panic that Decode's own reading of
		// unreadable images would catch too.
		gozxing.DecodeHintType_NEED_RESULT_POINT_CALLBACK: gozxing.ResultPointCallback(func(gozxing.ResultPoint) {
			if seen++; seen > maxFinderCandidates {
				panic(tooManyFinders{})
			}
		}),
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, hints)
	if err != nil {
		// gozxing's QR detector misses the grid of some valid codes (3
		// boarding passes in 2,000, 1 pairing link in 100; zbar reads
		// them): an image that is the code alone, as a ticket's image in
		// a PDF or a mail mostly is, is read once more as such.
		res, err = qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	}
	if err != nil {
		return ""
	}
	return res.GetText()
}
