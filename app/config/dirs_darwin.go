package config

import "path/filepath"

// platformDataDir is in ~/Library/Application Support, where macOS apps
// keep what they make for their user (Apple's File System Programming
// Guide); not ~/Library/Caches: the mailbox and the keys are not a cache.
func platformDataDir(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, "Library", "Application Support", dataDirName)
	}
	return ""
}
