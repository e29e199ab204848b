package extract

import (
	"bytes"
	"image"
	"time"

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

// messageTime is how long one message, with the mails attached to it, is
// read for its documents, pictures and attached mails: the readers whose
// cost grows with what a sender attaches. The bounds on candidates and
// pixels remove the costs known; this one stops a cost nobody has found
// yet from holding the sync and the facts pass on one mail. A message's
// own text is always read (linear in its size); a legitimate ticket or
// invoice takes tens of milliseconds.
const messageTime = 3 * time.Second

// imageBudget is what is left of a message's messagePixels, and until
// when the message's documents and attached mails are read.
type imageBudget struct {
	left  int
	until time.Time // zero: no time limit
	// overdue: a reader found the time spent; nothing more is read.
	overdue bool
}

// newBudget is the budget of one message read from now.
func newBudget() *imageBudget {
	return &imageBudget{left: messagePixels, until: time.Now().Add(messageTime)}
}

// late reports whether the message's time is spent, and remembers it.
func (b *imageBudget) late() bool {
	if b == nil || b.overdue {
		return b != nil
	}
	if !b.until.IsZero() && time.Now().After(b.until) {
		b.overdue = true
	}
	return b.overdue
}

// take reports whether w×h pixels are still within the budget, and
// spends them if so. Nothing is within it once the time is spent.
func (b *imageBudget) take(w, h int) bool {
	if b == nil || w <= 0 || h <= 0 || w*h > b.left || b.late() {
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
