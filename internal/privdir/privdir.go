// Package privdir makes and checks directories that hold keys and
// databases: they must belong to the user running the program and be
// closed to others. A directory someone else made first (the README's
// /tmp paths, on a machine with other users) would let them plant a CA
// key the program then trusts, or read its database: the program refuses
// it rather than use it (outside attack on the development relay).
//
// Both the node and the relay use it, so it imports nothing of either.
//
// "Private" is the platform's: on unix the mode bits (0700, 0600) and
// the owner's uid; on Windows, where mode bits mean little (every file
// reads as 0666), the owner's SID and a protected DACL that grants this
// user alone (SYSTEM and the Administrators group, who can read any
// file, may appear in one made elsewhere): privdir_windows.go.
package privdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Ensure makes dir (mode 0700) if it is missing, and checks that it is a
// directory owned by this user. A directory of this user's that others
// may enter is made private; changed reports so, for the caller to log.
func Ensure(dir string) (changed bool, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("create %s: %w", dir, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return false, fmt.Errorf("%s: %w", dir, err)
	}
	if !fi.IsDir() {
		return false, fmt.Errorf("%s is not a directory", dir)
	}
	if err := ownedByMe(dir, fi); err != nil {
		return false, err
	}
	return ensurePrivateDir(dir, fi)
}

// CheckPublic checks a file others may read but not change (a CA
// certificate): if it exists it must be this user's, and writable by
// this user alone.
func CheckPublic(path string) error {
	fi, err := mine(path)
	if fi == nil || err != nil {
		return err
	}
	return checkPublic(path, fi)
}

// CheckFile checks a file that holds a secret (a key, a database): if it
// exists it must be this user's and closed to others. A missing file is
// no error: the caller makes it.
func CheckFile(path string) error {
	fi, err := mine(path)
	if fi == nil || err != nil {
		return err
	}
	return checkPrivate(path, fi)
}

// MakePrivate checks a file of this user's that holds secrets, as
// CheckFile, but closes one open to others instead of refusing it (a
// database an older version or a hand made before): changed reports so.
// Another user's file, or a link, is still refused.
func MakePrivate(path string) (changed bool, err error) {
	fi, err := mine(path)
	if fi == nil || err != nil {
		return false, err
	}
	return makePrivate(path, fi)
}

// mine returns path's information if it exists (nil if not), checking
// that it is a regular file of this user's.
func mine(path string) (fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (a link or a device someone may have put there): remove it", path)
	}
	if err := ownedByMe(path, fi); err != nil {
		return nil, err
	}
	return fi, nil
}

// WriteFile writes data to path atomically, with mode from the start: a
// crash leaves the old file or the new one, never a cut key in its place,
// and a key is never readable by others, not even for a moment (on
// Windows a mode with no bits for group and others is a private DACL,
// any other leaves the directory's inherited one). One err
// runs through every step: a failed write (a full disk, a file size
// limit) must stop the rename.
func WriteFile(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	defer os.Remove(tmp.Name())
	err = setMode(tmp, mode)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}
