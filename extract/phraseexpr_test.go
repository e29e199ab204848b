package extract

import (
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"
)

// foldsAcrossWidths reports whether s holds a letter that (?i) matches
// to a letter of another width (the Kelvin sign and k, the long s and
// s): widthLower leaves them, so a phrase written with one is not looked
// for, as phraseExpr says.
func foldsAcrossWidths(s string) bool {
	for _, r := range s {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if utf8.RuneLen(f) != utf8.RuneLen(r) {
				return true
			}
		}
	}
	return false
}

// FuzzPhraseExpr: the phrase expressions find what the whole expressions
// find over the whole text: the same matches, their groups and ends, in
// order, up to the same limit.
func FuzzPhraseExpr(f *testing.F) {
	for _, s := range []string{
		"Tickets from £9! Desde 19,90 € · ab 29 € · fra kr 1 290,- · alk. 49 €",
		"xfrom £9 FROM  $12 a partir de 30 EUR, à partir de 45 €, 29 900 Ft-tól 3 €",
		"Bus-Nr. N 1174 · Linie 032 · LÍNEA 7 · coach no: 540 · Service 24/7 · Рейс 12",
		"最安値 9€ 低至 12 eur 부터 5 usd",
		"partida 09:00 lisboa (cais 12) · ebay 3 · steig3 · stání 4 · bay\n5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if foldsAcrossWidths(s) {
			return
		}
		for _, e := range []*phraseExpr{offerPrice, busNumberExpr, busBayExpr} {
			if got, want := e.match(s), e.whole.MatchString(s); got != want {
				t.Fatalf("match(%q) = %v, the whole expression %v", s, got, want)
			}
			got, want := e.findAll(s, 8), e.whole.FindAllStringSubmatchIndex(s, 8)
			if len(got) != len(want) {
				t.Fatalf("findAll(%q) = %v, the whole expression %v", s, got, want)
			}
			for i := range got {
				if !slices.Equal(got[i][1:], want[i][1:]) {
					t.Fatalf("findAll(%q) = %v, the whole expression %v", s, got, want)
				}
			}
		}
	})
}

// TestPhraseExprAnchored: every phrase of the tables read this way has a
// literal start, so none of them runs as the whole expression.
func TestPhraseExprAnchored(t *testing.T) {
	for name, e := range map[string]*phraseExpr{"offerPrice": offerPrice, "busNumberExpr": busNumberExpr, "busBayExpr": busBayExpr} {
		if e.set == nil {
			t.Errorf("%s: a phrase without a literal start; the whole expression runs from every byte", name)
		}
	}
}
