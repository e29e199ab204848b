//go:build race

package injectioneval

// raceSlowdown: the race detector makes the tools several times slower,
// and make test runs with it; the 100 ms bound is for the real build.
const raceSlowdown = 10
