package config

// dataDirName is the data directory's name inside the platform's
// directory for applications' data.
const dataDirName = "mailnode"

// DefaultDataDir is where the node keeps its files unless told
// otherwise, as each platform expects it: $XDG_DATA_HOME/mailnode
// (~/.local/share/mailnode) on Linux and the BSDs, ~/Library/Application
// Support/mailnode on macOS, %AppData%\mailnode on Windows (dirs_*.go).
// getenv is the environment (the caller's: this package reads none).
// With none of the variables it needs set, it returns "mailnode-data",
// relative to the working directory.
func DefaultDataDir(getenv func(string) string) string {
	if d := platformDataDir(getenv); d != "" {
		return d
	}
	return "mailnode-data"
}
