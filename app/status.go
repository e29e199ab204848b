package app

import (
	"slices"
	"time"
)

// State is the node's state in one word, as the tray icon shows it.
type State string

const (
	StateStarting State = "starting"
	StateSyncing  State = "syncing"
	StateIdle     State = "idle"    // every account current
	StateOffline  State = "offline" // a mail server cannot be reached; retrying
	StateError    State = "error"   // a service failed; see Services
	StatePaused   State = "paused"  // the user paused syncing; agents are still served
	StateStopped  State = "stopped"
)

// Status is everything a screen shows about the node. It is a value: a
// subscriber may keep and read it while the node moves on.
type Status struct {
	State    State
	Accounts []AccountStatus
	Folders  []FolderStatus // per folder, in the order the sync met them
	Messages int            // messages in the store
	LastSync time.Time      // end of the last complete pass
	Facts    FactsStatus
	Gateway  GatewayStatus
	// Pending is how many agents' requests wait for the user.
	Pending int
	// Phones is how many phones are paired.
	Phones int
	// PushPhones is how many of them can be expected to get a push
	// notification (approvals.PushStatus.Reachable).
	PushPhones int
	// PushUnreachable: a request waits and no paired phone can be
	// reached by push, so that nobody learns of it until a phone's app
	// is opened; the tray and `mailnode approvals list` say so.
	PushUnreachable bool
	Services        []ServiceStatus
	// LastError is the newest public error message of any service, "" once
	// it recovered. Never a secret.
	LastError string
	// ShowRequests counts the times another launch of the desktop app
	// asked this node's screen to come to the front (Show); a screen
	// comes forward when it grows.
	ShowRequests int
	// SyncPaused is set while the user has paused syncing.
	SyncPaused bool
	// Settings counts saved changes of the settings file: a screen that
	// shows them reads Node.Settings again when it changes.
	Settings int
}

// AccountStatus is one account as the node syncs it.
type AccountStatus struct {
	Name, Server, Username string
	PasswordSource         string // where the password comes from, never the password
	// OAuth: the account signs in with its provider's tokens.
	OAuth bool
	// Problem is what the person must do before this account syncs
	// again ("Sign in to Microsoft again"); "" while it syncs.
	Problem string
}

// FolderStatus is how far a folder's sync has come.
type FolderStatus struct {
	Account, Folder string
	Done, Total     int   // new messages stored / new on the server when the pass began
	Bytes           int64 // raw bytes of the messages Done
	Started         time.Time
	Finished        bool
}

// Rate is the folder's messages per second so far; 0 before the first
// batch.
func (f FolderStatus) Rate(now time.Time) float64 {
	el := now.Sub(f.Started).Seconds()
	if f.Done == 0 || el <= 0 {
		return 0
	}
	return float64(f.Done) / el
}

// Left estimates the time to fetch the rest at the rate so far; 0 when
// done or unknown.
func (f FolderStatus) Left(now time.Time) time.Duration {
	r := f.Rate(now)
	if r == 0 || f.Finished || f.Done >= f.Total {
		return 0
	}
	return time.Duration(float64(f.Total-f.Done) / r * float64(time.Second))
}

// FactsStatus counts what the node read from mail, and how far the pass
// that reads it is: after an extractor upgrade it reads every message
// again in the background while agents are answered from the facts read
// before ("Re-reading Done of Total messages").
type FactsStatus struct {
	Trips, Orders, Bills int
	// Done of Total messages the running pass has read; both 0 when no
	// pass runs.
	Done, Total int
}

// GatewayStatus is how agents reach the node.
type GatewayStatus struct {
	// URL is the MCP endpoint once the gateway listens, "" before and
	// when the node serves no agents.
	URL string
	// Listen is the address the gateway listens on ("127.0.0.1:8443":
	// this computer only; "[::]:443": every network it is on).
	Listen string
	// LANURL is the MCP endpoint on this computer's local network
	// address while the person has pairing over this network on
	// (Node.SetLAN); phones paired there reach the node at its origin.
	LANURL string
	// Reachable says how agents outside this machine can reach the
	// node: "local" (only at URL and LANURL), or "relay" while the
	// relay's tunnel is up.
	Reachable string
	// Relay is the node's state at its relay; zero without one.
	Relay RelayStatus
}

// RelayStatus is the node's registration and tunnel at its relay.
type RelayStatus struct {
	URL string // the relay
	// State is "starting", "registering", "awaiting code",
	// "connecting", "connected" or "disconnected".
	State    string
	Address  string // the address agents resolve
	Hostname string // the node's name at the relay, once confirmed
	// PublicURL is the MCP endpoint agents reach through the relay.
	PublicURL string
	LastError string
	// CertError is why the relay name has no certificate from the ACME
	// CA yet; agents reach the node only if they trust its local CA.
	CertError string
}

// ServiceStatus is one supervised service: its state and its last error.
type ServiceStatus struct {
	Name      string
	State     string // "running", "restarting", "stopped"
	LastError string
	Restarts  int
}

// clone copies s so that the node's later changes do not show through
// the slices a subscriber holds.
func (s Status) clone() Status {
	s.Accounts = slices.Clone(s.Accounts)
	s.Folders = slices.Clone(s.Folders)
	s.Services = slices.Clone(s.Services)
	return s
}

// Status returns the current status.
func (n *Node) Status() Status {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.status.clone()
}

// Subscribe returns a channel that carries the node's Status each time it
// changes, starting with the current one, and a function that ends the
// subscription and closes the channel.
//
// The channel holds one value: a subscriber that reads slowly skips
// intermediate states and always finds the newest, and the node never
// waits for it. The channel is also closed when the node stops, after
// the final "stopped" status has been delivered.
func (n *Node) Subscribe() (<-chan Status, func()) {
	ch := make(chan Status, 1)
	n.mu.Lock()
	if n.stopped {
		ch <- n.status.clone()
		close(ch)
		n.mu.Unlock()
		return ch, func() {}
	}
	n.subs[ch] = struct{}{}
	ch <- n.status.clone()
	n.mu.Unlock()
	return ch, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		if _, ok := n.subs[ch]; ok {
			delete(n.subs, ch)
			close(ch)
		}
	}
}

// update changes the status under the lock and tells every subscriber.
func (n *Node) update(f func(*Status)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	f(&n.status)
	n.notifyLocked()
}

func (n *Node) notifyLocked() {
	for ch := range n.subs {
		select {
		case <-ch: // drop the value the subscriber has not read yet
		default:
		}
		ch <- n.status.clone() // cannot block: the buffer is now empty and only we send
	}
}

// closeSubsLocked ends every subscription after the final status.
func (n *Node) closeSubsLocked() {
	for ch := range n.subs {
		delete(n.subs, ch)
		close(ch)
	}
}

// folderProgress records a folder's progress.
func (s *Status) folderProgress(f FolderStatus) {
	for i := range s.Folders {
		if s.Folders[i].Account == f.Account && s.Folders[i].Folder == f.Folder {
			s.Folders[i] = f
			return
		}
	}
	s.Folders = append(s.Folders, f)
}

// service returns the status entry of the named service, adding it.
func (s *Status) service(name string) *ServiceStatus {
	for i := range s.Services {
		if s.Services[i].Name == name {
			return &s.Services[i]
		}
	}
	s.Services = append(s.Services, ServiceStatus{Name: name})
	return &s.Services[len(s.Services)-1]
}
