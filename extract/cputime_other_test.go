//go:build !unix

package extract

import "time"

var started = time.Now()

// processCPU is wall time where the system tells no CPU time.
func processCPU() time.Duration { return time.Since(started) }
