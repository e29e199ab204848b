package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// Every window fits a 1024×768 and a 1280×720 screen (issue 42 item 5):
// Fyne's desktop driver grows a window to its content's minimum size, and
// an unwrapped label or a row of buttons is as wide as its text. The
// helpers below keep text wrapping and buttons flowing onto a new row.

// wrapped is a label whose text wraps at word boundaries (and inside a
// word longer than a line).
func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// heading is a bold wrapped label.
func heading(text string) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.Wrapping = fyne.TextWrapWord
	return l
}

// buttonRow lays buttons out side by side, going on to a new row where the
// window is too narrow for them.
func buttonRow(objects ...fyne.CanvasObject) *fyne.Container {
	return container.New(rowWrap{wrap: layout.NewRowWrapLayout()}, objects...)
}

// rowWrap is Fyne's row-wrapping layout, asking only for its widest
// object's width: Fyne's asks, once laid out, for the width of its widest
// row, so that a window once wide could not be made narrow again.
type rowWrap struct{ wrap fyne.Layout }

func (r rowWrap) Layout(objects []fyne.CanvasObject, size fyne.Size) { r.wrap.Layout(objects, size) }

func (r rowWrap) MinSize(objects []fyne.CanvasObject) fyne.Size {
	m := r.wrap.MinSize(objects) // the height of the rows laid out
	m.Width = 0
	for _, o := range objects {
		if o.Visible() {
			m.Width = max(m.Width, o.MinSize().Width)
		}
	}
	return m
}
