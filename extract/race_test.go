//go:build race

package extract_test

// raceSlowdown: the race detector makes the readers many times slower,
// and make test runs with it; a test's time bound is for the real build.
const raceSlowdown = 20
