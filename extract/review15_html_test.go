package extract_test

// The fifteenth outside review (2026-11-30, an attacker given the docs and
// a clone): proofs of what works today, each with the safe result it
// expects. These are of mail/mime's HTMLToText after 7882c84e (a tiny font
// size hides only the text of the element that sets it, a child setting a
// size again is shown): text no reader sees reaches the extractors and the
// agent.

import (
	"strings"
	"testing"

	"mailnode/mail/mime"
)

func review15Leaks(t *testing.T, cases []string) {
	t.Helper()
	for _, h := range cases {
		if got := mime.HTMLToText(h); strings.Contains(got, "HIDDEN") {
			t.Errorf("text no reader sees is read: %q -> %q", h, got)
		}
	}
}

// ATTACK (MEDIUM, text the person cannot see shown to the agent; new with
// 7882c84e): a child that sets its size again is shown, but a size
// relative to its parent's zero (1em, 100%, 0.5em, 2ex, larger, smaller,
// calc(1em), var(), unset and revert, which inherit) is still zero. A
// stranger's mail hides a false booking or a note to the assistant in
// "<div style=font-size:0><span style=font-size:1em>…".
// SAFE: none of the HIDDEN text: a child's size counts as set again only
// when absolute (px, pt, a keyword of absolute size, rem, initial); a
// relative one (em, ex, ch, %, larger, smaller, calc/var, unset, revert)
// keeps the parent's tiny.
func TestReview15RelativeSizeUnderZeroShown(t *testing.T) {
	review15Leaks(t, []string{
		`<div style="font-size:0"><span style="font-size:1em">HIDDEN flight LH1234 gate B22</span></div>shown`,
		`<div style="font-size:0"><span style="font-size:100%">HIDDEN</span></div>shown`,
		`<div style="font-size:0"><p style="font-size:0.5em">HIDDEN</p></div>shown`,
		`<div style="font-size:0"><span style="font-size:2ex">HIDDEN</span></div>shown`,
		`<div style="font-size:0"><span style="font-size:larger">HIDDEN</span></div>shown`,
		`<div style="font-size:0"><span style="font-size:smaller">HIDDEN</span></div>shown`,
		`<div style="font-size:0"><span style="font-size:calc(1em)">HIDDEN</span></div>shown`,
		`<div style="font-size:0"><span style="font-size:var(--x)">HIDDEN</span></div>shown`,
		`<div style="font-size:0"><span style="font-size:unset">HIDDEN</span></div>shown`,
		`<div style="font-size:0"><span style="font-size:revert">HIDDEN</span></div>shown`,
	})
}

// ATTACK (MEDIUM, hidden text shown): fontSize reads the last
// "font-size:" of a style and takes "inherit" as no size of its own, but
// an "!important" declaration before it wins in CSS: "font-size:0
// !important; font-size:inherit" is zero, read as the parent's (shown).
// SAFE: HIDDEN not read: a declaration marked !important wins over a
// later one of the same property (tinyFontSize's verdict, or the
// important one's, decides).
func TestReview15ImportantZeroThenInheritShown(t *testing.T) {
	review15Leaks(t, []string{
		`<div style="font-size:0!important;font-size:inherit">HIDDEN</div>shown`,
	})
}

// ATTACK (MEDIUM, hidden text shown): HTMLToText only tokenises, and a
// size leaves force at its element's end tag. A browser ignores an end
// tag whose element is outside a special element ("<span
// style=font-size:0><div></span>HIDDEN</div>": the div keeps the span
// open), and treats "<div style=…/>" as a start tag (the self-closing
// slash means nothing on a normal element), so the text after it is zero
// sized (or display:none, the older hiding) in a mail client and read
// here.
// SAFE: neither HIDDEN read: the element tree is the one html.Parse
// builds (or the tokeniser closes sizes only as the parser's stack would,
// and treats a self-closing non-void element as opened).
func TestReview15TagTreeMismatchShown(t *testing.T) {
	review15Leaks(t, []string{
		`<span style="font-size:0"><div></span>HIDDEN</div></span>shown`,
		`<div style="font-size:0"/>HIDDEN</div>shown`,
		`<div style="display:none"/>HIDDEN</div>shown`,
	})
}

// ATTACK (LOW, hidden text shown; new with 7882c84e): a tiny size once
// hid its element whole; now only text tokens are dropped, and an image's
// alt text inside it is written ("<div style=font-size:0><img alt=…>").
// SAFE: an alt text under a tiny size is not read.
func TestReview15AltUnderZeroShown(t *testing.T) {
	review15Leaks(t, []string{
		`<div style="font-size:0"><img alt="HIDDEN"></div>shown`,
	})
}

// ATTACK (LOW, older): sizes tinyFontSize does not parse: the "font"
// shorthand, a number in exponent form, and absolute units other than px
// and pt (mm, in, q) or viewport units.
// SAFE: none read.
func TestReview15TinySizesUnread(t *testing.T) {
	review15Leaks(t, []string{
		`<div style="font:0/0 a">HIDDEN</div>shown`,
		`<div style="font-size:1e-9px">HIDDEN</div>shown`,
		`<div style="font-size:0.1mm">HIDDEN</div>shown`,
		`<div style="font-size:0.001in">HIDDEN</div>shown`,
		`<div style="font-size:1q">HIDDEN</div>shown`,
		`<div style="font-size:0.01vw">HIDDEN</div>shown`,
	})
}

// ATTACK (MEDIUM, older): docs/extract.md says text hidden by CSS
// (display:none, opacity 0, transparent colour, zero height) "is not
// part of the message text at all", but hiddenStyle matches exact
// spellings of inline styles only: a style sheet's class
// (".x{display:none}", the usual preheader), "opacity:0.0", "opacity:0
// !important", "height:0px" (only "height:0" is), "overflow-y:hidden",
// "color:rgba(0,0,0,0)" and a comment inside a value ("display:/**/none")
// all hide text from the person and show it to the agent.
// SAFE: none of the HIDDEN text: declarations parsed (comments dropped,
// "!important" and units stripped, numbers compared as numbers, rgba's
// alpha read), and a style sheet's simple class rules applied as
// blockClassesOf does for display:block.
func TestReview15DocumentedHidingBypassed(t *testing.T) {
	review15Leaks(t, []string{
		`<style>.x{display:none}</style><div class="x">HIDDEN</div>shown`,
		`<div style="opacity:0.0">HIDDEN</div>shown`,
		`<div style="opacity:0 !important">HIDDEN</div>shown`,
		`<div style="height:0px;overflow:hidden">HIDDEN</div>shown`,
		`<div style="max-height:0;overflow-y:hidden">HIDDEN</div>shown`,
		`<div style="color:rgba(0,0,0,0)">HIDDEN</div>shown`,
		`<div style="display:/**/none">HIDDEN</div>shown`,
	})
}
