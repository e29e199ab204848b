package main

import "errors"

// haveDisplay says in words that there is no display to open windows on,
// before the node starts: GLFW's own way is a panic once it has.
func haveDisplay(goos string, getenv func(string) string) error {
	switch goos {
	case "darwin", "windows", "android", "ios":
		return nil
	}
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("no display to show the desktop app on (neither DISPLAY nor WAYLAND_DISPLAY is set); " +
			"on a server use mailnode serve, or the headless build (go build -tags headless ./cmd/mailnode)")
	}
	return nil
}
