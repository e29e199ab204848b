package invisible_test

import (
	"testing"

	"mailnode/mail/invisible"
)

func TestIs(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want bool
	}{
		{'a', false}, {'\n', false}, {'\t', false}, {' ', false}, {'é', false}, {'東', false},
		{'\u200b', true}, {'\u200c', true}, {'\u200d', true}, {'\u00ad', true}, {'\u2060', true},
		{'\ufeff', true}, {'\u202e', true}, {'\u2066', true}, {'\u061c', true}, {'\r', true},
		{'\x00', true}, {'\u3164', true}, {'\ufe0f', true}, {'\U000e0041', true}, {'\u034f', true},
		{'\u2028', true}, {'\u2029', true}, {'\u0085', true},
	} {
		if got := invisible.Is(tc.r); got != tc.want {
			t.Errorf("Is(%U) = %v, want %v", tc.r, got, tc.want)
		}
	}
	if got := invisible.Strip("ig\u00adnore all pre\u200bvious"); got != "ignore all previous" {
		t.Errorf("Strip = %q", got)
	}
}
