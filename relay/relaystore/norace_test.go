//go:build !race

package relaystore

const raceDetector = false
