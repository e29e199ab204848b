// Package kstest is the two-sample Kolmogorov-Smirnov test that the
// relay's timing tests use to show that a stranger cannot tell a
// registered address from an unknown one by how long an answer takes:
// two samples of timings, one of each, must not differ by more than
// chance would make them differ.
package kstest

import (
	"math"
	"slices"
)

// D is the two-sample Kolmogorov-Smirnov statistic: the largest gap
// between the empirical distribution functions of a and b.
func D(a, b []float64) float64 {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	var i, j int
	var d float64
	for i < len(a) && j < len(b) {
		x := min(a[i], b[j])
		for i < len(a) && a[i] <= x {
			i++
		}
		for j < len(b) && b[j] <= x {
			j++
		}
		d = max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return d
}

// Critical1 is D's critical value at the 1 % level for samples of n and
// m (the asymptotic c(0.01) = 1.63): two samples of one distribution
// give a larger D once in a hundred tries.
func Critical1(n, m int) float64 {
	return 1.63 * math.Sqrt(float64(n+m)/float64(n*m))
}
