package kstest

import (
	"math"
	"testing"
)

func TestD(t *testing.T) {
	for _, tt := range []struct {
		name string
		a, b []float64
		want float64
	}{
		{"same", []float64{1, 2, 3, 4}, []float64{1, 2, 3, 4}, 0},
		{"disjoint", []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 1},
		{"half overlap", []float64{1, 2, 3, 4}, []float64{3, 4, 5, 6}, 0.5},
		{"order of input", []float64{4, 3, 2, 1}, []float64{1, 2, 3, 4}, 0},
	} {
		if got := D(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: D = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCritical1(t *testing.T) {
	if got := Critical1(2000, 2000); math.Abs(got-0.0515) > 0.0001 {
		t.Errorf("Critical1(2000, 2000) = %.4f, want 0.0515", got)
	}
}
