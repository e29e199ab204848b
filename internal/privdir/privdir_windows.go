package privdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows a file's mode bits say only whether it is read-only: every
// file reads as 0666 or 0444, every directory as 0777. Who may open a
// file is its DACL, and who may change that DACL its owner. So private
// here is: owned by this user, and a DACL that grants access to nobody
// but this user, SYSTEM and the Administrators group (who can take any
// file anyway; OpenSSH for Windows checks its keys the same way) and
// CREATOR OWNER (inherit-only, the creator of a child, who must already
// be allowed in). What this package makes private gets a protected DACL
// (nothing inherited from the parent) granting this user alone, and for
// a directory inherited by everything made in it: a key written there
// is private from its first byte, as 0600 in a 0700 directory is.

// fileAllAccess is FILE_ALL_ACCESS: STANDARD_RIGHTS_REQUIRED |
// SYNCHRONIZE | 0x1FF.
const fileAllAccess = 0x1F01FF

// writeRights are the rights that let a holder change a file or its
// protection (FILE_WRITE_DATA, FILE_APPEND_DATA, FILE_WRITE_EA,
// FILE_WRITE_ATTRIBUTES, DELETE, WRITE_DAC, WRITE_OWNER, GENERIC_WRITE,
// GENERIC_ALL).
const writeRights = 0x2 | 0x4 | 0x10 | 0x100 | windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER | windows.GENERIC_WRITE | windows.GENERIC_ALL

// processToken opens the process's token to read it.
func processToken() (windows.Token, error) {
	var tok windows.Token
	if err := windows.OpenProcessToken(windows.CurrentProcess(), windows.TOKEN_QUERY, &tok); err != nil {
		return 0, fmt.Errorf("open process token: %w", err)
	}
	return tok, nil
}

// currentUser is the SID the process runs as.
func currentUser() (*windows.SID, error) {
	tok, err := processToken()
	if err != nil {
		return nil, err
	}
	defer tok.Close()
	u, err := tok.GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("read process token: %w", err)
	}
	return u.User.Sid.Copy()
}

// tokenOwner is the SID that owns what the process creates: the user,
// or for an elevated administrator the Administrators group.
func tokenOwner() (*windows.SID, error) {
	tok, err := processToken()
	if err != nil {
		return nil, err
	}
	defer tok.Close()
	n := uint32(64)
	for {
		buf := make([]byte, n)
		err := windows.GetTokenInformation(tok, windows.TokenOwner, &buf[0], n, &n)
		if errors.Is(err, windows.ERROR_INSUFFICIENT_BUFFER) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read process token owner: %w", err)
		}
		return (*struct{ Owner *windows.SID })(unsafe.Pointer(&buf[0])).Owner.Copy()
	}
}

// security reads path's owner and DACL.
func security(path string) (owner *windows.SID, dacl *windows.ACL, err error) {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: read its security descriptor: %w", path, err)
	}
	owner, _, err = sd.Owner()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: read its owner: %w", path, err)
	}
	dacl, _, err = sd.DACL()
	if err != nil && !errors.Is(err, windows.ERROR_OBJECT_NOT_FOUND) {
		return nil, nil, fmt.Errorf("%s: read its DACL: %w", path, err)
	}
	return owner, dacl, nil
}

// ownedByMe checks that path belongs to this user (or to the owner
// this user's files get).
func ownedByMe(path string, _ fs.FileInfo) error {
	owner, _, err := security(path)
	if err != nil {
		return err
	}
	me, err := currentUser()
	if err != nil {
		return err
	}
	if owner == nil {
		return fmt.Errorf("%s has no owner: choose a directory of your own", path)
	}
	if owner.Equals(me) {
		return nil
	}
	if def, err := tokenOwner(); err == nil && owner.Equals(def) {
		return nil
	}
	return fmt.Errorf("%s belongs to another user (%s, you are %s): someone may have made it to plant keys or read yours; choose a directory of your own", path, owner, me)
}

// others returns the SIDs path's DACL lets in, beyond this user and
// those trusted with every file, with a right in mask (any right, for
// mask 0). A missing DACL lets everyone in.
func others(path string, mask windows.ACCESS_MASK) ([]string, error) {
	_, dacl, err := security(path)
	if err != nil {
		return nil, err
	}
	if dacl == nil {
		return []string{"Everyone (no DACL)"}, nil
	}
	me, err := currentUser()
	if err != nil {
		return nil, err
	}
	var out []string
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return nil, fmt.Errorf("%s: read its DACL: %w", path, err)
		}
		if ace.Header.AceType == windows.ACCESS_DENIED_ACE_TYPE {
			continue
		}
		// Any other type (object and callback ACEs included) is read
		// as a grant: wrongly refusing a file is the safe mistake.
		if mask != 0 && ace.Mask&mask == 0 {
			continue
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if sid.Equals(me) || sid.IsWellKnown(windows.WinLocalSystemSid) ||
			sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) || sid.IsWellKnown(windows.WinCreatorOwnerSid) {
			continue
		}
		out = append(out, sid.String())
	}
	return out, nil
}

// setPrivate gives path a protected DACL granting this user alone;
// inherit passes it on to what is made inside a directory.
func setPrivate(path string, inherit bool) error {
	acl, err := privateACL(inherit)
	if err != nil {
		return err
	}
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, acl, nil); err != nil {
		return fmt.Errorf("%s: set a private DACL: %w", path, err)
	}
	return nil
}

func privateACL(inherit bool) (*windows.ACL, error) {
	me, err := currentUser()
	if err != nil {
		return nil, err
	}
	inh := uint32(windows.NO_INHERITANCE)
	if inherit {
		inh = windows.SUB_CONTAINERS_AND_OBJECTS_INHERIT
	}
	acl, err := windows.ACLFromEntries([]windows.EXPLICIT_ACCESS{{
		AccessPermissions: fileAllAccess,
		AccessMode:        windows.SET_ACCESS,
		Inheritance:       inh,
		Trustee: windows.TRUSTEE{
			TrusteeForm:  windows.TRUSTEE_IS_SID,
			TrusteeType:  windows.TRUSTEE_IS_USER,
			TrusteeValue: windows.TrusteeValueFromSID(me),
		},
	}}, nil)
	if err != nil {
		return nil, fmt.Errorf("build a private DACL: %w", err)
	}
	return acl, nil
}

// ensurePrivateDir gives dir (this user's) a private DACL if others
// are let in.
func ensurePrivateDir(dir string, _ fs.FileInfo) (bool, error) {
	open, err := others(dir, 0)
	if err != nil || len(open) == 0 {
		return false, err
	}
	if err := setPrivate(dir, true); err != nil {
		return false, fmt.Errorf("%s is open to other users (%v) and cannot be made private: %w", dir, open, err)
	}
	return true, nil
}

// checkPublic refuses a file others may change.
func checkPublic(path string, _ fs.FileInfo) error {
	open, err := others(path, writeRights)
	if err != nil {
		return err
	}
	if len(open) > 0 {
		return fmt.Errorf("%s may be changed by other users (%v): remove it", path, open)
	}
	return nil
}

// checkPrivate refuses a file others may open.
func checkPrivate(path string, _ fs.FileInfo) error {
	open, err := others(path, 0)
	if err != nil {
		return err
	}
	if len(open) > 0 {
		return fmt.Errorf("%s is open to other users (%v): whoever could read or change it may hold the secret; remove it, or give it a DACL for you alone if you know it is yours", path, open)
	}
	return nil
}

// makePrivate gives a file of this user's a private DACL if others may
// open it.
func makePrivate(path string, _ fs.FileInfo) (bool, error) {
	open, err := others(path, 0)
	if err != nil || len(open) == 0 {
		return false, err
	}
	if err := setPrivate(path, false); err != nil {
		return false, fmt.Errorf("%s is open to other users and cannot be made private: %w", path, err)
	}
	return true, nil
}

// setMode gives a file being written (still empty) a private DACL when
// mode has no bits for group and others; otherwise it keeps the DACL it
// inherited. By name: the handle os.CreateTemp opens has no WRITE_DAC.
func setMode(f *os.File, mode os.FileMode) error {
	if mode&0o077 != 0 {
		return nil
	}
	return setPrivate(f.Name(), false)
}
