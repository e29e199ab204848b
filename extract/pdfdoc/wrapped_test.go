package pdfdoc

import (
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// TestJoinWrapped: a table cell's text that wrapped onto a second line,
// drawn cell by cell, comes out on its row's line; a block's lines that
// did not wrap, a header over its value drawn column by column in
// another font, and a cell of three lines stay apart.
func TestJoinWrapped(t *testing.T) {
	// word draws s from x on baseline y, 6 points a character.
	word := func(x, y float64, font, s string) []pdf.Text {
		var out []pdf.Text
		for _, r := range s {
			out = append(out, pdf.Text{Font: font, FontSize: 12, X: x, Y: y, W: 6, S: string(r)})
			x += 6
		}
		return out
	}
	join := func(ws ...[]pdf.Text) []pdf.Text {
		var out []pdf.Text
		for _, w := range ws {
			out = append(out, w...)
		}
		return out
	}
	for _, c := range []struct {
		name   string
		pieces []pdf.Text
		want   string
	}{
		{"wrapped cells", join(word(50, 700, "F", "SK"), word(50, 686, "F", "4402"), word(90, 700, "F", "Oslo Gardermoen"), word(90, 686, "F", "(OSL)"),
			word(190, 700, "F", "Tromsø (TOS)"), word(290, 700, "F", "07:35")),
			"SK 4402   Oslo Gardermoen (OSL)   Tromsø (TOS)   07:35"},
		{"a block that did not wrap", join(word(50, 700, "F", "Hotel Mirador"), word(50, 686, "F", "Calle Betis 24"), word(300, 700, "F", "Localizador: HMT-5")),
			"Hotel Mirador   Localizador: HMT-5|Calle Betis 24"},
		{"a header over its value", join(word(50, 700, "B", "Check In"), word(50, 686, "F", "31/12/2017"), word(130, 700, "B", "Check Out"), word(130, 686, "F", "01/01/2018"), word(220, 700, "B", "Rooms")),
			"Check In   Check Out   Rooms|31/12/2017   01/01/2018"},
		{"three lines", join(word(50, 714, "F", "Departure Paris"), word(50, 700, "F", "Arrival Lyon Part"), word(50, 686, "F", "Dieu"), word(160, 714, "F", "TGV 6603")),
			"Departure Paris   TGV 6603|Arrival Lyon Part|Dieu"},
	} {
		if got := strings.Join(rows(c.pieces), "|"); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
