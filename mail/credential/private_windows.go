package credential

import (
	"fmt"

	"mailnode/internal/privdir"
)

// checkPrivate refuses a password file others may open: on Windows its
// DACL says who may, not its mode bits (internal/privdir).
func checkPrivate(path string) error {
	if err := privdir.CheckFile(path); err != nil {
		return fmt.Errorf("password file: %w", err)
	}
	return nil
}
