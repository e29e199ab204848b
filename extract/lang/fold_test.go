package lang

import "testing"

// TestFold: the Latin letters lose their marks, Polish ł and Croatian đ
// too; other scripts stay.
func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"a été livré":      "a ete livre",
		"doręczono":        "doreczono",
		"przesyłkę":        "przesylke",
		"Číslo zásilky":    "Cislo zasilky",
		"ĐAKOVO đ":         "DAKOVO d",
		"gönderildi ı":     "gonderildi i",
		"straße æ":         "straße æ",
		"доставлено":       "доставлено",
		"plain":            "plain",
		"":                 "",
		"n[úu]mero de env": "n[uu]mero de env",
		"x\xffé":           "x\uFFFDe",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFoldedVariant: a phrase of several words folds; one word only when
// it is long and its last letter keeps its form, so that the fold makes
// no other word ("livré" is no "livre", a book).
func TestFoldedVariant(t *testing.T) {
	for in, want := range map[string]string{
		"a été livré":        "a ete livre",
		"doręczono":          "doreczono",
		"livrée":             "livree",
		"livré":              "",
		"annulé":             "",
		"dziś":               "",
		"váš":                "",
		"mâine":              "",
		"doruč*":             "",
		"kézbesít*":          "kezbesit*",
		"delivered":          "",
		"historia przesyłki": "historia przesylki",
	} {
		got, ok := foldedVariant(in)
		if ok != (want != "") || got != want {
			t.Errorf("foldedVariant(%q) = %q, %v, want %q", in, got, ok, want)
		}
	}
}

// TestStatusFolded: the status phrases are there in their unaccented
// spelling, the labels are not folded here (the extractor does).
func TestStatusFolded(t *testing.T) {
	has := func(l, c, p string) bool {
		for _, e := range Of(l, c) {
			if e == p {
				return true
			}
		}
		return false
	}
	for _, c := range [][3]string{
		{"fr", "status.delivered", "a ete livre"},
		{"pl", "status.delivered", "zostala doreczona"},
		{"cs", "status.delivered", "byla dorucena"},
		{"pt", "status.delivered", "disponivel para levantamento"},
		{"es", "status.shipped", "llegara manana"},
		{"fr", "status.past", "a ete"},
		{"fr", "status.history", "etapes precedentes"},
	} {
		if !has(c[0], c[1], c[2]) {
			t.Errorf("%s %s has no %q", c[0], c[1], c[2])
		}
	}
	for _, c := range [][3]string{{"fr", "status.delivered", "livre"}, {"fr", "status.cancelled", "annule"}} {
		if has(c[0], c[1], c[2]) {
			t.Errorf("%s %s has %q", c[0], c[1], c[2])
		}
	}
}
