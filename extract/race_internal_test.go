//go:build race

package extract

// raceSlowdown is how many times longer the race detector makes the
// time-bounded tests' work (the external tests' raceSlowdown, for the
// package's own tests).
const raceSlowdown = 20
