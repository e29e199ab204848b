//go:build !race

package injectioneval

const raceSlowdown = 1
