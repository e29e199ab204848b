package extract

import (
	"bytes"
	"image"

	"mailnode/extract/barcode"
)

// messagePixels is how many pixels of pictures one message, with the
// mails attached to it, is read for barcodes: four images of the largest
// size the barcode reader takes (barcode.MaxPixels). A ticket carries one
// or two codes; a hostile mail can carry hundreds of images (four
// documents a message, eight images a PDF, in seven messages nested in
// one), and each costs up to a few tenths of a second to read (the
// outside review of 2026-11-28: 56 s for one 270 KB mail before this).
const messagePixels = 4 * barcode.MaxPixels

// imageBudget is what is left of a message's messagePixels.
type imageBudget struct{ left int }

// take reports whether w×h pixels are still within the budget, and
// spends them if so.
func (b *imageBudget) take(w, h int) bool {
	if b == nil || w <= 0 || h <= 0 || w*h > b.left {
		return false
	}
	b.left -= w * h
	return true
}

// allowance is the pixels left, for readers that take a bound.
func (b *imageBudget) allowance() int {
	if b == nil {
		return 0
	}
	return b.left
}

// decodeBytes reads the barcodes of an encoded picture within the budget.
func (b *imageBudget) decodeBytes(data []byte) []string {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || !b.take(cfg.Width, cfg.Height) {
		return nil
	}
	texts, _ := barcode.DecodeBytes(data)
	return texts
}
