package extract

import (
	"testing"

	"mailnode/extract/places"
)

// TestZoneByLanguage: a text carried without its mail's header (no Date,
// no sender) is read in the zone of the country its language is spoken in
// when its words say the language beyond doubt and its letters do not:
// Serbian in Cyrillic without ђ, ћ, џ, љ, њ, ј; Macedonian by its own words.
func TestZoneByLanguage(t *testing.T) {
	for _, c := range []struct{ text, country string }{
		{"Поштовани,\nхвала на куповини. Ваша карта:\nВоз 741 Београд Центар — Нови Сад\nПолазак: 29.12.2026. у 10:05\n", "RS"},
		{"Почитувани,\nблагодариме за купувањето. Вашиот билет ќе го најдете во прилог.\nЗаминување: 21.12.2026 во 07:40\n", "MK"},
		{"Здравствуйте, ваш билет на поезд: Москва — Казань, отправление 18.12.2026 в 23:55", ""}, // Russia: many zones
	} {
		want, _ := places.CountryZone(c.country)
		if got := (&msgContext{langText: c.text}).countryZone(""); got.name != want {
			t.Errorf("countryZone of %q = %q, want %q (%s)", c.text, got.name, want, c.country)
		}
	}
}
