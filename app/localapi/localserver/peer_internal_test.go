package localserver

import (
	"testing"

	"mailnode/app/localapi"
)

// TestPermit: the node's own user reads and writes; every other user,
// root included, and an unknown caller (-1) do neither.
func TestPermit(t *testing.T) {
	for _, tc := range []struct {
		name        string
		uid, owner  int
		read, write bool
	}{
		{"owner", 1000, 1000, true, true},
		{"root's own node", 0, 0, true, true},
		{"another user", 1001, 1000, false, false},
		{"root on a user's node", 0, 1000, false, false},
		{"a user on root's node", 1000, 0, false, false},
		{"unknown caller", -1, 1000, false, false},
		{"unknown on a platform without uids", -1, -1, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := permit(tc.uid, tc.owner)
			if p.Allows(localapi.Read) != tc.read || p.Allows(localapi.Write) != tc.write {
				t.Errorf("permit(%d, %d) = %+v, want read %v write %v", tc.uid, tc.owner, p, tc.read, tc.write)
			}
		})
	}
}

// TestEveryRouteHasAccess: a route added without saying what it needs
// would be refused to everyone; the test says which.
func TestEveryRouteHasAccess(t *testing.T) {
	for _, r := range localapi.Routes {
		if r.Access != localapi.Read && r.Access != localapi.Write {
			t.Errorf("%s has no access (read or write)", r.Pattern())
		}
		if r.Method == "GET" && r.Access != localapi.Read {
			t.Errorf("%s is a GET that writes", r.Pattern())
		}
	}
}
