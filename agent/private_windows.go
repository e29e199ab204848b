package agent

import (
	"fmt"

	"mailnode/internal/privdir"
)

// checkPrivate refuses a key file others may open: on Windows its DACL
// says who may, not its mode bits (internal/privdir).
func checkPrivate(path string) error {
	if err := privdir.CheckFile(path); err != nil {
		return fmt.Errorf("key file: %w", err)
	}
	return nil
}

// restrictNew gives a new, still empty key file a DACL for this user
// alone, whatever the directory it is in lets others do.
func restrictNew(path string) error {
	_, err := privdir.MakePrivate(path)
	return err
}
