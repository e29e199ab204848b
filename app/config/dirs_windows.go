package config

import "path/filepath"

// platformDataDir is in %AppData% (the user's roaming application data,
// C:\Users\NAME\AppData\Roaming), what os.UserConfigDir returns there
// and where Windows apps keep their settings and state.
func platformDataDir(getenv func(string) string) string {
	if d := getenv("AppData"); d != "" {
		return filepath.Join(d, dataDirName)
	}
	return ""
}
