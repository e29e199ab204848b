//go:build !race

package extract_test

const raceSlowdown = 1
