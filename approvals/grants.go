package approvals

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Standing grants and blocked agents: the in-memory cache the gateway
// consults on every call, and the rows behind it.

type grantKey struct {
	domain string
	tier   Tier
}

// Grants lists the standing grants that have not expired, by agent and
// tier.
func (m *Manager) Grants() []Grant {
	now := m.cfg.Now()
	m.mu.RLock()
	out := make([]Grant, 0, len(m.grants))
	for _, g := range m.grants {
		if now.Before(g.ExpiresAt) {
			out = append(out, g)
		}
	}
	m.mu.RUnlock()
	sortGrants(out)
	return out
}

// HoldsGrant reports whether the agent domain holds a standing grant of
// any tier that has not expired, with any key.
func (m *Manager) HoldsGrant(domain string) bool {
	now := m.cfg.Now()
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, t := range []Tier{StructuredRead, FreeFormRead, Compose} {
		if g, ok := m.grants[grantKey{domain, t}]; ok && now.Before(g.ExpiresAt) {
			return true
		}
	}
	return false
}

// HoldsGrantWith reports whether the agent domain holds a standing grant
// of any tier that has not expired, pinned to key: for an OAuth client
// (package gateway/oauth), whether the consent its tokens came from still
// stands, so that revoking or blocking it ends its tokens at once.
func (m *Manager) HoldsGrantWith(domain, key string) bool {
	now := m.cfg.Now()
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.holdsGrantLocked(domain, key, now)
}

// Revoke removes the agent's grant for tier, or all its grants when tier
// is empty, and withdraws its open requests for them. It returns how many
// grants it removed.
func (m *Manager) Revoke(ctx context.Context, domain string, tier Tier) (int, error) {
	if tier != "" && !tier.Valid() {
		return 0, fmt.Errorf("revoke: unknown tier %q", tier)
	}
	m.slow.Lock()
	defer m.slow.Unlock()
	n, err := m.removeGrants(ctx, domain, tier)
	if err != nil {
		return 0, fmt.Errorf("revoke %s: %w", domain, err)
	}
	m.log.Info("Grants revoked", "agent", domain, "tier", tier, "count", n)
	m.publish(Event{Kind: "revoked", Domain: domain})
	return n, nil
}

func (m *Manager) removeGrants(ctx context.Context, domain string, tier Tier) (int, error) {
	now := m.cfg.Now().Unix()
	var n int64
	err := m.file.WriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM grants WHERE domain = ? AND (tier = ? OR ? = '')", domain, string(tier), string(tier))
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		// Open requests and unspent single-use approvals go with the
		// grants. A later call asks again rather than hearing
		// approval_denied: revoking is not refusing.
		_, err = tx.ExecContext(ctx, `UPDATE approvals SET state = 'revoked', decided_at = ?
			WHERE domain = ? AND (tier = ? OR ? = '') AND state IN ('pending', 'approved')`,
			now, domain, string(tier), string(tier))
		return err
	})
	if err != nil {
		return 0, err
	}
	m.mu.Lock()
	for k := range m.grants {
		if k.domain == domain && (tier == "" || k.tier == tier) {
			delete(m.grants, k)
		}
	}
	m.mu.Unlock()
	return int(n), nil
}

// Block refuses every call from the agent domain, removes its grants and
// withdraws its open requests, until Unblock. A domain written "*.name"
// blocks name's whole site (Site): every agent domain under it, present
// and future.
func (m *Manager) Block(ctx context.Context, domain string) error {
	return m.block(ctx, m.blockKey(domain))
}

// block stores the block key as it is: an agent domain, or "*." and a
// site.
func (m *Manager) block(ctx context.Context, key string) error {
	m.slow.Lock()
	defer m.slow.Unlock()
	if _, err := m.exec(ctx, "INSERT OR IGNORE INTO blocked (domain, blocked_at) VALUES (?, ?)", key, m.cfg.Now().Unix()); err != nil {
		return fmt.Errorf("block %s: %w", key, err)
	}
	m.mu.Lock()
	m.blocked[key] = true
	m.mu.Unlock()
	for _, d := range m.affected(key) {
		if _, err := m.removeGrants(ctx, d, ""); err != nil {
			return fmt.Errorf("block %s: %w", key, err)
		}
	}
	if name, ok := strings.CutPrefix(key, sitePrefix); ok {
		// Open requests of agents that have no grant go too: those of
		// name and of every domain under it, whatever site they were
		// counted in when they were made.
		if _, err := m.exec(ctx, `UPDATE approvals SET state = 'revoked', decided_at = ?
			WHERE (domain = ? OR substr(domain, -length(?)) = ?) AND state IN ('pending', 'approved')`,
			m.cfg.Now().Unix(), name, "."+name, "."+name); err != nil {
			return fmt.Errorf("block %s: %w", key, err)
		}
	}
	m.log.Info("Agent blocked", "agent", key)
	m.publish(Event{Kind: "blocked", Domain: key})
	return nil
}

// affected returns the agent domains a block of key covers that hold
// grants or requests: key itself, or for a site block every domain
// under the site with a grant.
func (m *Manager) affected(key string) []string {
	if !strings.HasPrefix(key, sitePrefix) {
		return []string{key}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []string
	for k := range m.grants {
		if covers(key, k.domain) && !slices.Contains(out, k.domain) {
			out = append(out, k.domain)
		}
	}
	return out
}

// Unblock lets the agent domain (or "*.name", the site) ask for
// approvals again. A block is lifted as listed (Blocked) and as Block
// would have named it today, which differ once the hosting suffixes
// changed.
func (m *Manager) Unblock(ctx context.Context, domain string) error {
	key := m.blockKey(domain)
	listed := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	m.slow.Lock()
	defer m.slow.Unlock()
	if _, err := m.exec(ctx, "DELETE FROM blocked WHERE domain IN (?, ?)", key, listed); err != nil {
		return fmt.Errorf("unblock %s: %w", key, err)
	}
	m.mu.Lock()
	delete(m.blocked, key)
	delete(m.blocked, listed)
	m.mu.Unlock()
	m.log.Info("Agent unblocked", "agent", key)
	return nil
}

// Blocked lists the blocked agent domains.
func (m *Manager) Blocked() []string {
	m.mu.RLock()
	out := make([]string, 0, len(m.blocked))
	for d := range m.blocked {
		out = append(out, d)
	}
	m.mu.RUnlock()
	slices.Sort(out)
	return out
}

// isBlockedLocked reports whether a block covers domain: the domain's
// own, or a site block of it or of any name above it (covers). m.mu is
// held.
func (m *Manager) isBlockedLocked(domain string) bool {
	if m.blocked[domain] {
		return true
	}
	for name := domain; name != ""; {
		if m.blocked[sitePrefix+name] {
			return true
		}
		_, name, _ = strings.Cut(name, ".")
	}
	return false
}

// holdsGrantLocked reports whether the agent domain, signing with key,
// holds a standing grant of any tier that has not expired: an agent the
// person has let in, whose prompts are counted apart from strangers'
// (Manager.limits). m.mu is held.
func (m *Manager) holdsGrantLocked(domain, key string, now time.Time) bool {
	for _, t := range []Tier{StructuredRead, FreeFormRead, Compose} {
		if g, ok := m.grants[grantKey{domain, t}]; ok && g.KeyFP == key && now.Before(g.ExpiresAt) {
			return true
		}
	}
	return false
}

// knownLocked reports whether a request of the agent domain with key is
// of an agent the person has let in (holdsGrantLocked), or is an OAuth
// client's consent (an OAuth key, new with every consent) while the
// client identity holds a grant from an earlier consent: a client the
// person connected that asks again, for another tier or after losing its
// tokens, is not a stranger. m.mu is held.
func (m *Manager) knownLocked(domain, key string, now time.Time) bool {
	if m.holdsGrantLocked(domain, key, now) {
		return true
	}
	if !IsOAuthKey(key) {
		return false
	}
	for _, t := range []Tier{StructuredRead, FreeFormRead, Compose} {
		if g, ok := m.grants[grantKey{domain, t}]; ok && IsOAuthKey(g.KeyFP) && now.Before(g.ExpiresAt) {
			return true
		}
	}
	return false
}

func sortGrants(gs []Grant) {
	slices.SortFunc(gs, func(a, b Grant) int {
		if c := strings.Compare(a.Domain, b.Domain); c != 0 {
			return c
		}
		return strings.Compare(string(a.Tier), string(b.Tier))
	})
}
