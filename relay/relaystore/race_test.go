//go:build race

package relaystore

// raceDetector: the race detector instruments every memory access, so
// timings measure it more than the code (make test runs the timing test
// again without it).
const raceDetector = true
