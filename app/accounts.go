package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/zalando/go-keyring"

	"mailnode/app/config"
	"mailnode/mail/autoconfig"
)

// DiscoveredAccount is what DiscoverAccount found for an address.
type DiscoveredAccount = autoconfig.Settings

// ErrNoAccountSettings: no source knew the address's servers; the person
// types them in.
var ErrNoAccountSettings = autoconfig.ErrNotFound

// DiscoverAccount finds the IMAP and SMTP servers of an e-mail address
// (mail/autoconfig: the provider's documents, Thunderbird's ISP database,
// the MX domain, SRV records, well-known host names).
func (n *Node) DiscoverAccount(ctx context.Context, address string) (DiscoveredAccount, error) {
	return n.finder().Discover(ctx, address)
}

func (n *Node) finder() *autoconfig.Finder {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.autoconfig == nil {
		cfg := n.cfg.Autoconfig
		if cfg.Logger == nil {
			cfg.Logger = n.log.With("component", "autoconfig")
		}
		n.autoconfig = autoconfig.New(cfg)
	}
	return n.autoconfig
}

// keyringService is the OS keyring's service name for account passwords;
// config.Password.Keyring reads the same entry.
const keyringService = "mailnode"

// StorePassword keeps an account's password where the node can read it
// again and says where: the OS keyring, or, where no keyring answers (a
// desktop without a Secret Service), a file of mode 0600 in the data
// directory. The password is never written to the settings file.
func (n *Node) StorePassword(ctx context.Context, username, password string) (config.Password, error) {
	if username == "" || password == "" {
		return config.Password{}, errors.New("a username and a password are needed")
	}
	if !keyringReachable(n.cfg.Getenv) {
		n.log.Info("No session bus, so no OS keyring; keeping the password in a private file")
	} else if err := keyring.Set(keyringService, username, password); err == nil {
		return config.Password{Keyring: true}, nil
	} else {
		n.log.Info("No OS keyring; keeping the password in a private file", "err", err)
	}
	dir := filepath.Join(n.cfg.DataDir, "secrets")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return config.Password{}, fmt.Errorf("store password: %w", err)
	}
	sum := sha256.Sum256([]byte(username))
	path := filepath.Join(dir, "imap-"+hex.EncodeToString(sum[:8])+".password")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(password), 0o600); err != nil {
		return config.Password{}, fmt.Errorf("store password: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return config.Password{}, fmt.Errorf("store password: %w", err)
	}
	return config.Password{File: path}, nil
}

// keyringReachable: on Linux and the BSDs the keyring is the Secret Service
// on the session bus. Without a bus address, godbus would start a bus of
// its own (dbus-launch) that outlives the node; there is no keyring then.
func keyringReachable(getenv func(string) string) bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return getenv("DBUS_SESSION_BUS_ADDRESS") != ""
}

// CheckLogin logs in to an account's IMAP server once, and explains a
// failure in words a person acts on, the technical reason after them.
func (n *Node) CheckLogin(ctx context.Context, a config.Account) error {
	err := n.CheckAccount(ctx, a)
	if err == nil {
		return nil
	}
	return explainLogin(err, a.Server)
}

// explainLogin turns a failed login into advice.
func explainLogin(err error, server string) error {
	host, port, _ := net.SplitHostPort(server)
	msg := err.Error()
	lower := strings.ToLower(msg)
	var dnsErr *net.DNSError
	var advice string
	switch {
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		advice = fmt.Sprintf("There is no server named %s. Check the server name.", host)
	case strings.Contains(lower, "connection refused"):
		advice = fmt.Sprintf("%s does not take connections on port %s. Check the port and the security setting.", host, port)
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(lower, "timeout") || strings.Contains(lower, "time-out"):
		advice = fmt.Sprintf("%s did not answer in time. Check the server name and your connection.", host)
	case strings.Contains(lower, "answered in plain text"):
		advice = "The server does not speak TLS on this port: choose STARTTLS (usually port 143)."
	case strings.Contains(lower, "certificate"):
		advice = fmt.Sprintf("The certificate of %s cannot be trusted, so mailnode did not send your password.", host)
	case strings.Contains(lower, "login to"):
		advice = "The server refused this username and password. Check them; Gmail, Outlook and several " +
			"other providers need an app password instead of your usual one."
	default:
		advice = "mailnode could not log in."
	}
	return fmt.Errorf("%s (%w)", advice, err)
}

// UseRelay saves the relay's URL and, when the node runs no relay service
// yet, registers the address there and keeps the tunnel up.
func (n *Node) UseRelay(ctx context.Context, url, address string) error {
	if err := n.SetRelay(ctx, url); err != nil && !errors.Is(err, ErrNoSettings) {
		return err
	}
	n.mu.Lock()
	rc := n.cfg.Relay
	_, running := n.tokens["relay"]
	n.mu.Unlock()
	if running {
		return nil
	}
	rc.URL, rc.Address = url, address
	return n.StartRelay(rc)
}

// Transparency is a relay's statement of what it can and cannot see
// (GET /v1/transparency), shown before an address is registered there.
type Transparency struct {
	// Text is the statement as a person reads it.
	Text string
	// Raw is the statement as the relay sent it.
	Raw json.RawMessage
}

// RelayTransparency fetches a relay's transparency statement.
func (n *Node) RelayTransparency(ctx context.Context, relayURL string) (Transparency, error) {
	n.mu.Lock()
	hc := n.cfg.Relay.HTTP
	n.mu.Unlock()
	if hc == nil {
		hc = &http.Client{Timeout: 15 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(relayURL, "/")+"/v1/transparency", nil)
	if err != nil {
		return Transparency{}, fmt.Errorf("relay %s: %w", relayURL, err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Transparency{}, fmt.Errorf("relay %s cannot be reached: %w", relayURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil || resp.StatusCode != http.StatusOK {
		return Transparency{}, fmt.Errorf("relay %s did not give its transparency statement (HTTP %d)", relayURL, resp.StatusCode)
	}
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		return Transparency{}, fmt.Errorf("relay %s: its transparency statement is not JSON", relayURL)
	}
	return Transparency{Text: readableStatement(doc, ""), Raw: body}, nil
}

// readableStatement lays a JSON statement out as indented lines: keys as
// headings, lists as bullets.
func readableStatement(v any, indent string) string {
	var b strings.Builder
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			child := v[k]
			label := strings.ReplaceAll(k, "_", " ")
			switch child.(type) {
			case map[string]any, []any:
				fmt.Fprintf(&b, "%s%s:\n%s", indent, label, readableStatement(child, indent+"  "))
			default:
				fmt.Fprintf(&b, "%s%s: %v\n", indent, label, child)
			}
		}
	case []any:
		for _, it := range v {
			switch it.(type) {
			case map[string]any, []any:
				b.WriteString(readableStatement(it, indent+"  "))
			default:
				fmt.Fprintf(&b, "%s• %v\n", indent, it)
			}
		}
	default:
		fmt.Fprintf(&b, "%s%v\n", indent, v)
	}
	return b.String()
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
