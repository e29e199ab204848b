package extract

import "testing"

func TestHeadCode(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"1NBNYMU-0\n1 Ungdom den 14 oktober 2011\nLinje 830\n", "1NBNYMU-0"},
		{"\n  JL4492QX  \nAikuinen, lauantai 24.4.2027\n", "JL4492QX"},
		{"K7TRW42-1\nRute 430\n", "K7TRW42-1"},
		{"Hei Ingrid,\nK7TRW42-1\n", ""},                    // not the first line
		{"SUMMER25\nLinje 830 16:35 Jönköping\n", ""},       // a promotion's word and number
		{"Booking: K7TRW42\n", ""},                          // a label's line
		{"4471209933\nLinje 830\n", ""},                     // digits alone
		{"ABCDEF\n", ""},                                    // no digits
		{"RB-2041\nRB 2041 fällt aus\n", ""},                // a train's number
		{"N14301\nLinie N14301\nab 08:30 Berlin ZOB\n", ""}, // the line's number
		{"2027-03-12\n", ""},                                // a date
		{"A1B2C3D4E5F6G7H8I9J0K\n", ""},                     // too long
		{"K7--TRW42\n", ""},                                 // a double dash
	} {
		if got := headCode(tt.text); got != tt.want {
			t.Errorf("headCode(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
