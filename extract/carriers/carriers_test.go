package carriers

import (
	"testing"
)

// TestTestNumbers: every format takes its valid test numbers and refuses
// its invalid ones, as tracking_number_data's own suites expect.
func TestTestNumbers(t *testing.T) {
	fs, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) < 30 {
		t.Fatalf("%d formats loaded", len(fs))
	}
	valid, invalid := 0, 0
	for i := range fs {
		f := &fs[i]
		for _, n := range f.valid {
			if _, ok := f.validate(n); !ok {
				t.Errorf("%s: valid %q refused", f.id, n)
			}
			valid++
		}
		for _, n := range f.invalid {
			if _, ok := f.validate(n); ok {
				t.Errorf("%s: invalid %q taken", f.id, n)
			}
			invalid++
		}
	}
	t.Logf("%d formats, %d valid and %d invalid test numbers", len(fs), valid, invalid)
}
