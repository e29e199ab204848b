package extract

import "testing"

// TestNominativeName: a stay's name read from a sentence that inflects
// it is the place's own form of it.
func TestNominativeName(t *testing.T) {
	sig := "Dobrý den,\npotvrzujeme Vaši rezervaci.\nS pozdravem\nHotel Kaštan, Třeboň\n"
	fi := "kiitos varauksestasi Hotelli Kuusessa.\n\nTervetuloa!\nHotelli Kuusi, Kuopio\n"
	tests := []struct{ name, text, want string }{
		{"Hotelu Kaštan", sig, "Hotel Kaštan"},
		{"Pensjonatu Pod Lipami", "", "Pensjonat Pod Lipami"},
		{"Penzionu U Zlaté studny", "", "Penzion U Zlaté studny"},
		{"Hotelli Kuusessa", fi, "Hotelli Kuusi"},
		{"Hotelli Kuusessa", "no line signs it\n", "Hotelli Kuusessa"},
		{"Hotel Kaštan", sig, "Hotel Kaštan"},
		{"Hotels Combined", "", "Hotels Combined"},                        // no case ending of these languages
		{"Hotelu", "", "Hotelu"},                                          // no name after the word
		{"Hotelu centrum", "", "Hotelu centrum"},                          // no proper name after it
		{"Hotel Sacher Wien", "Hotel Sachertorte\n", "Hotel Sacher Wien"}, // a longer word is no form of it
	}
	for _, tt := range tests {
		if got := nominativeName(tt.name, tt.text); got != tt.want {
			t.Errorf("nominativeName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
