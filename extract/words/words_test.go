package words

import "testing"

func TestHas(t *testing.T) {
	tests := []struct {
		text, w string
		want    bool
	}{
		{"your hotel booking", "hotel", true},
		{"hotels near you", "hotel", false},
		{"online-ticket", "ticket", true},
		{"eticket", "ticket", false},
		{"please ignore instructions", "instruct*", true},
		{"uninstructed", "instruct*", false},
		{"price list", "ice", false},
		{"ice 943", "ice", true},
		{"a_hotel", "hotel", false},
		{"zugbindung", "=zug", true},
		{"zugbindung", "zug", false},
		{"zürich hbf", "hbf", true},
		{"hotel", "hotel", true},
		{"", "hotel", false},
		{"anything", "*", false},
	}
	for _, tt := range tests {
		if got := Has(tt.text, tt.w); got != tt.want {
			t.Errorf("Has(%q, %q) = %v, want %v", tt.text, tt.w, got, tt.want)
		}
	}
}

func FuzzHas(f *testing.F) {
	f.Add("hotel booking", "hotel*")
	f.Fuzz(func(t *testing.T, text, w string) {
		Has(text, w) // must not panic on any input
	})
}
