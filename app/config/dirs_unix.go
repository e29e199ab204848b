//go:build !windows && !darwin

package config

import "path/filepath"

// platformDataDir follows the XDG Base Directory Specification: user
// data goes in $XDG_DATA_HOME, by default ~/.local/share.
func platformDataDir(getenv func(string) string) string {
	if x := getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, dataDirName)
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", dataDirName)
	}
	return ""
}
