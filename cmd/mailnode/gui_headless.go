//go:build headless

package main

import (
	"context"
	"fmt"
	"io"
)

// runDesktop in a headless build (-tags headless, CGO_ENABLED=0, for
// servers and CI): there is no desktop app, only the commands.
func runDesktop(_ context.Context, _ []string, _, stderr io.Writer, _ func(string) string) error {
	fmt.Fprint(stderr, "This mailnode was built without the desktop app (-tags headless).\n\n", usage)
	return flagError{fmt.Errorf("no command")}
}
