//go:build unix

package privdir

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe checks that fi (of path) belongs to the effective user.
func ownedByMe(path string, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if me := os.Geteuid(); int(st.Uid) != me {
		return fmt.Errorf("%s belongs to another user (uid %d, you are %d): someone may have made it to plant keys or read yours; choose a directory of your own", path, st.Uid, me)
	}
	return nil
}
