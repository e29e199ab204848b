package approvals

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"mailnode/approvals/site"
)

// Migrations are the approval tables' migrations (sql/NNNN_name.sql), for
// store.Attach.
//
//go:embed sql/*.sql
var Migrations embed.FS

// Config tunes the state machine. The zero value means the defaults.
type Config struct {
	// GrantTTL is how long a standing grant lasts. Default 90 days.
	GrantTTL time.Duration
	// PendingTTL is how long a request waits for the user. Default 10 min.
	PendingTTL time.Duration
	// ApprovedTTL is how long an approved raw_read or send request waits
	// for the agent's retry before it lapses. Default 10 min.
	ApprovedTTL time.Duration
	// DenialHold is how long the same request is answered approval_denied
	// after the user refused it, instead of prompting again. Default 1 h.
	DenialHold time.Duration
	// MaxPending caps the open requests per agent domain, and per site
	// (Manager.Site), so that an agent cannot bury the user in prompts.
	// Default 5.
	MaxPending int
	// MaxPendingTotal caps the open requests of all agents that hold no
	// grant (strangers) together, half of it, rounded up, those of
	// strangers under hosted sites (site.Sites.Hosted), and a fifth,
	// rounded up, those of registered OAuth clients (IsRegisteredClient),
	// whom anyone makes by the dozen; its last fifth is only for a
	// stranger whose site opened no prompt in the last hour (freshShare). An agent domain and key holding a
	// grant, or an OAuth client identity holding a grant from an earlier
	// consent (each consent has a key of its own), is not refused by it:
	// its prompts are
	// bounded by MaxPending for it and for its site (counting the
	// granted agents' prompts there). No agent domain ever has more than
	// MaxPending open, so the table holds at most MaxPendingTotal plus
	// MaxPending per agent domain that held a grant within PendingTTL;
	// only the person makes grants. Default 50.
	MaxPendingTotal int
	// MaxPromptsPerHour caps the prompts an agent domain, and a site,
	// may open in any hour, so that an agent whose requests the user keeps refusing or
	// letting lapse cannot keep the phone buzzing at MaxPending at a
	// time. Retries merged into an open prompt do not count. Default 30.
	MaxPromptsPerHour int
	// AuditRetention is how long audit entries and decided requests are
	// kept. Default 90 days.
	AuditRetention time.Duration
	// Sites is the node's notion of a site, which MaxPending,
	// MaxPromptsPerHour and site blocks count by; the gateway's rate
	// limits must be given the same. Nil: registrable domains by the
	// Public Suffix List alone, with no hosting suffix.
	Sites *site.Sites
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func (c *Config) setDefaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.GrantTTL, 90*24*time.Hour)
	def(&c.PendingTTL, 10*time.Minute)
	def(&c.ApprovedTTL, 10*time.Minute)
	def(&c.DenialHold, time.Hour)
	def(&c.AuditRetention, 90*24*time.Hour)
	if c.MaxPending <= 0 {
		c.MaxPending = 5
	}
	if c.MaxPromptsPerHour <= 0 {
		c.MaxPromptsPerHour = 30
	}
	if c.MaxPendingTotal <= 0 {
		c.MaxPendingTotal = 50
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Call is one tools/call as the gateway verified it.
type Call struct {
	Domain string // verified agent domain
	KeyFP  string // Fingerprint of the key that signed
	Tool   string
	Tier   Tier
	Args   json.RawMessage // the call's arguments as received
	// Bind is what a raw_read or send approval is bound to besides the
	// arguments, and found by: for send_draft, the hash of the exact
	// message that will be sent, so that an approval is void once the
	// draft changes and a changed draft is a new request. It must be
	// computed from what the agent itself knows (its own draft), since
	// whether a call is pending, denied or approved, and under which
	// approval id, depends on it and the agent sees that.
	Bind string
	// Pin is what a raw_read or send approval is bound to when that
	// comes from data the agent has not been shown (get_excerpt: the
	// hash of the excerpt the phone shows). It is stored with a new
	// request and handed back with it (Approval.Bound), but takes no part
	// in finding one: the same arguments from the same agent and key
	// find the same request whatever Pin is now, so that its outcome
	// says nothing of the mail. The tool compares the stored value with
	// what it would return when the approved call runs. At most one of
	// Bind and Pin is set.
	Pin string
	// Details is the request in readable form as the user's phone shows
	// it: for a send, the recipients on labelled lines, the subject and
	// the full body. It is built by the node from the verified call,
	// never taken from the agent as text to display.
	Details string
	// Also are grant tiers besides Tier that the same prompt asks for
	// and approving it grants, with the same key: an OAuth client's
	// consent (package gateway/oauth), which asks for the tiers of its
	// scopes under one match code. Only for a grant tier; Details must
	// say what each allows, as the phone shows only Details and Tier.
	Also []Tier
	// Queued marks a call that came through the relay's offline queue.
	// It only opens the prompt, so that the person can decide while the
	// agent is away: it never runs, so an approved raw_read or send is not
	// spent by it (the agent's live retry spends it), and a call that
	// would be allowed is audited as QueuedNotRun.
	Queued bool
	// QuietRefusal leaves a refusal without a prompt (blocked, too many
	// pending or prompts) out of the audit log: for requests anyone can
	// make by the thousand without an identity that costs anything (an
	// OAuth client's consent naming a public client id), whose refusals
	// would otherwise fill the log and bury the person's activity. What
	// opens a prompt is audited as always.
	QuietRefusal bool
}

// Outcome is what Request decided.
type Outcome string

// Outcomes. All but Allowed are also the tool error codes the agent sees.
const (
	Allowed          Outcome = "allowed"
	ApprovalRequired Outcome = "approval_required"
	ApprovalDenied   Outcome = "approval_denied"
	AgentBlocked     Outcome = "agent_blocked"
	TooManyPending   Outcome = "too_many_pending"
	TooManyPrompts   Outcome = "too_many_prompts"
	// QueuedNotRun: a queued call that would have been allowed; it is
	// not run, and the agent's live retry is.
	QueuedNotRun Outcome = "queued_not_run"
)

// Decision is the answer to Request.
type Decision struct {
	Outcome Outcome
	// Approval is the request the outcome concerns: the pending one for
	// ApprovalRequired, the refused one for ApprovalDenied, the spent one
	// when a raw_read or send call is Allowed.
	Approval *Approval
	// RetryAfter is, for TooManyPrompts, when the agent may ask again.
	RetryAfter time.Duration
	// NodeWide marks a TooManyPending that the cap of all strangers'
	// open requests together refused (or of hosted sites', or of
	// registered clients' share of it), not the agent's or its site's
	// own: what waits for the person is other agents' prompts, so that
	// an OAuth consent page can say so rather than blame the client.
	NodeWide bool
}

// State is where an approval request is.
type State string

// States of an approval request.
const (
	Pending  State = "pending"
	Approved State = "approved"
	Denied   State = "denied"
	Used     State = "used"
	Revoked  State = "revoked" // withdrawn by Revoke or Block before use
	Expired  State = "expired" // never stored: a pending or approved row past its time
)

// Approval is one request put to the user.
type Approval struct {
	ID        string    `json:"approval_id"`
	MatchCode string    `json:"match_code"`
	Domain    string    `json:"agent"`
	Site      string    `json:"site"` // Domain's site when asked: the prompt shows it, "block all of" blocks it
	KeyFP     string    `json:"key_fingerprint"`
	Tool      string    `json:"tool"`
	Tier      Tier      `json:"tier"`
	Args      string    `json:"arguments,omitempty"`  // canonical, raw_read and send only
	Details   string    `json:"details,omitempty"`    // readable form for the phone (Readable), whole
	Also      []Tier    `json:"also_tiers,omitempty"` // grant tiers approved with Tier (Call.Also)
	State     State     `json:"state"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	DecidedAt time.Time `json:"decided_at,omitzero"`
	// Bound is the Bind or Pin the request was made with: for an
	// approved raw_read or send call, what the user approved, for the
	// tool to compare with what it would act on now. Never sent out: an
	// excerpt's hash would let whoever holds it test guesses at the
	// mail.
	Bound string `json:"-"`
}

// Grant is a standing permission for a tier.
type Grant struct {
	Domain     string    `json:"agent"`
	Tier       Tier      `json:"tier"`
	KeyFP      string    `json:"key_fingerprint"`
	GrantedAt  time.Time `json:"granted_at"`
	ExpiresAt  time.Time `json:"expires_at"`
	ApprovalID string    `json:"approval_id"`
}

// Event tells subscribers that the requests or grants changed.
type Event struct {
	Kind     string   // "pending", "decided", "revoked", "blocked"
	Approval Approval // for "pending" and "decided"
	Domain   string
}

// Errors of Decide.
var (
	ErrNotFound   = errors.New("no such approval request")
	ErrNotPending = errors.New("approval request is no longer pending")
	ErrAmbiguous  = errors.New("match code is shared by several pending requests; use the approval id")
	// ErrPhoneOnly refuses to approve a raw_read or send request other
	// than on a paired phone: the spec gives those tiers to the phone
	// every time.
	ErrPhoneOnly = errors.New("raw_read and send requests are approved on your paired phone only (the phone web app at https://<node>/phone/, or mailnode-phone approve CODE on a paired device)")
)

// Manager is the approval state machine on the node's SQLite file. Its
// methods are safe for concurrent use.
type Manager struct {
	file File
	db   *sql.DB // file.DB(), for reads
	cfg  Config
	log  *slog.Logger

	// slow serialises every path that reads or writes approvals, so that
	// two identical calls cannot both create a request or both spend one
	// approval. The common case, a call under a standing grant, does not
	// take it.
	slow sync.Mutex

	mu      sync.RWMutex // guards the fields below
	grants  map[grantKey]Grant
	blocked map[string]bool
	subs    map[chan Event]struct{}

	audit *auditLog
}

// File is the node's SQLite file as store.Attach hands it to a component.
type File interface {
	DB() *sql.DB
	WriteTx(ctx context.Context, f func(*sql.Tx) error) error
}

// New loads grants and blocks from file, whose tables Migrations created,
// and starts the audit writer; Close stops it.
func New(ctx context.Context, file File, cfg Config, logger *slog.Logger) (*Manager, error) {
	db := file.DB()
	cfg.setDefaults()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	m := &Manager{
		file:    file,
		db:      db,
		cfg:     cfg,
		log:     logger.With("component", "approvals"),
		grants:  map[grantKey]Grant{},
		blocked: map[string]bool{},
		subs:    map[chan Event]struct{}{},
	}
	rows, err := db.QueryContext(ctx, "SELECT domain, tier, key_fp, granted_at, expires_at, approval_id FROM grants")
	if err != nil {
		return nil, fmt.Errorf("load grants: %w", err)
	}
	for rows.Next() {
		var g Grant
		var at, exp int64
		if err := rows.Scan(&g.Domain, &g.Tier, &g.KeyFP, &at, &exp, &g.ApprovalID); err != nil {
			rows.Close()
			return nil, fmt.Errorf("load grants: %w", err)
		}
		g.GrantedAt, g.ExpiresAt = time.Unix(at, 0), time.Unix(exp, 0)
		m.grants[grantKey{g.Domain, g.Tier}] = g
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load grants: %w", err)
	}
	rows, err = db.QueryContext(ctx, "SELECT domain FROM blocked")
	if err != nil {
		return nil, fmt.Errorf("load blocked agents: %w", err)
	}
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			rows.Close()
			return nil, fmt.Errorf("load blocked agents: %w", err)
		}
		m.blocked[d] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load blocked agents: %w", err)
	}
	m.audit = startAudit(file, cfg, m.log)
	return m, nil
}

// Close writes the audit entries still buffered and stops the writer.
func (m *Manager) Close() error { return m.audit.close() }

// Request decides whether call may run now. Every call is written to the
// audit log with the outcome. An error means the decision could not be
// made; the call must not run.
func (m *Manager) Request(ctx context.Context, call Call) (Decision, error) {
	if !call.Tier.Valid() {
		return Decision{}, fmt.Errorf("request approval: unknown tier %q", call.Tier)
	}
	if call.Domain == "" || call.KeyFP == "" || call.Tool == "" {
		return Decision{}, errors.New("request approval: call without agent, key or tool")
	}
	for _, t := range call.Also {
		if call.Tier.PerCall() || t.PerCall() || !t.Valid() {
			return Decision{}, fmt.Errorf("request approval: tier %q cannot be granted with %q", t, call.Tier)
		}
	}
	d, err := m.decide(ctx, call)
	if err != nil {
		return Decision{}, err
	}
	if call.Queued && d.Outcome == Allowed {
		d.Outcome = QueuedNotRun
	}
	id := ""
	if d.Approval != nil {
		id = d.Approval.ID
	}
	if call.QuietRefusal && (d.Outcome == AgentBlocked || d.Outcome == TooManyPending || d.Outcome == TooManyPrompts) {
		return d, nil
	}
	m.audit.add(AuditEntry{
		At: m.cfg.Now(), Domain: call.Domain, KeyFP: call.KeyFP, Tool: call.Tool,
		Tier: call.Tier, Decision: d.Outcome, ApprovalID: id,
	})
	return d, nil
}

func (m *Manager) decide(ctx context.Context, call Call) (Decision, error) {
	now := m.cfg.Now()
	m.mu.RLock()
	blocked := m.isBlockedLocked(call.Domain)
	g, granted := m.grants[grantKey{call.Domain, call.Tier}]
	m.mu.RUnlock()
	if blocked {
		return Decision{Outcome: AgentBlocked}, nil
	}
	if !call.Tier.PerCall() && granted && g.KeyFP == call.KeyFP && now.Before(g.ExpiresAt) {
		return Decision{Outcome: Allowed}, nil
	}

	var hash, shown, bound string
	if call.Tier.PerCall() {
		if call.Bind != "" && call.Pin != "" {
			return Decision{}, errors.New("request approval: a call both bound and pinned")
		}
		c, err := Canonical(call.Args)
		if err != nil {
			return Decision{}, fmt.Errorf("request approval: %w", err)
		}
		// Pin is left out on purpose: see Call.Pin.
		hash, shown, bound = argsHash(c, call.Bind), string(c), call.Bind+call.Pin
	}
	if len(shown) > MaxDetails {
		return Decision{}, ErrPromptTooLarge
	}

	m.slow.Lock()
	defer m.slow.Unlock()
	// A grant may have been stored while this call waited for the lock.
	m.mu.RLock()
	blocked = m.isBlockedLocked(call.Domain)
	g, granted = m.grants[grantKey{call.Domain, call.Tier}]
	m.mu.RUnlock()
	if blocked {
		return Decision{Outcome: AgentBlocked}, nil
	}
	if !call.Tier.PerCall() && granted && g.KeyFP == call.KeyFP && now.Before(g.ExpiresAt) {
		return Decision{Outcome: Allowed}, nil
	}

	a, err := m.latest(ctx, call, hash)
	if err != nil {
		return Decision{}, err
	}
	if a != nil {
		switch a.State {
		case Pending:
			return Decision{Outcome: ApprovalRequired, Approval: a}, nil
		case Approved:
			if call.Bind != "" {
				// Found by it, so it is what was approved; rows made
				// before the bound column hold ''.
				a.Bound = call.Bind
			}
			if call.Tier.PerCall() && call.Queued {
				return Decision{Outcome: Allowed, Approval: a}, nil
			}
			if call.Tier.PerCall() {
				res, err := m.exec(ctx, "UPDATE approvals SET state = 'used' WHERE id = ? AND state = 'approved'", a.ID)
				if err != nil {
					return Decision{}, fmt.Errorf("spend approval: %w", err)
				}
				if n, _ := res.RowsAffected(); n == 1 {
					a.State = Used
					return Decision{Outcome: Allowed, Approval: a}, nil
				}
			}
			// A tier approval whose grant was revoked or lapsed: ask again.
		case Denied:
			if now.Before(a.DecidedAt.Add(m.cfg.DenialHold)) {
				return Decision{Outcome: ApprovalDenied, Approval: a}, nil
			}
		}
	}

	// The user is shown the whole request or it is not asked at all.
	// Checked only for a new request: the details of a pinned call
	// come from mail, and must not change what an existing one answers.
	details := Readable(call.Details)
	if len(details) > MaxDetails {
		return Decision{}, ErrPromptTooLarge
	}
	if d, err := m.limits(ctx, call, now); err != nil || d.Outcome != "" {
		return d, err
	}
	n := &Approval{
		ID: newID("apr_"), MatchCode: newMatchCode(), Domain: call.Domain, Site: m.Site(call.Domain), KeyFP: call.KeyFP,
		Tool: call.Tool, Tier: call.Tier, Args: shown, Details: details, Bound: bound, State: Pending, Also: call.Also,
		CreatedAt: time.Unix(now.Unix(), 0), ExpiresAt: time.Unix(now.Add(m.cfg.PendingTTL).Unix(), 0),
	}
	also := make([]string, len(n.Also))
	for i, t := range n.Also {
		also[i] = string(t)
	}
	_, err = m.exec(ctx, `INSERT INTO approvals
		(id, match_code, domain, site, key_fp, tool, tier, args_hash, args, details, bound, state, created_at, expires_at, also)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
		n.ID, n.MatchCode, n.Domain, n.Site, n.KeyFP, n.Tool, string(n.Tier), hash, n.Args, n.Details, n.Bound, n.CreatedAt.Unix(), n.ExpiresAt.Unix(), strings.Join(also, " "))
	if err != nil {
		return Decision{}, fmt.Errorf("store approval request: %w", err)
	}
	m.log.Info("Approval requested", "agent", n.Domain, "tier", n.Tier, "tool", n.Tool, "approvalID", n.ID)
	m.publish(Event{Kind: "pending", Approval: *n, Domain: n.Domain})
	return Decision{Outcome: ApprovalRequired, Approval: n}, nil
}

// limits decides whether a new prompt for call may open now: at most
// MaxPending open and MaxPromptsPerHour in the last hour for the agent
// domain and for its site alike (for a granted agent, its site's granted
// agents); and, for an agent that holds no grant, at most MaxPendingTotal
// open for all such agents together, of which half at most for hosted
// sites (site.Sites.Hosted) and a fifth at most for registered OAuth
// clients (IsRegisteredClient). An agent that holds a grant (knownLocked)
// is counted apart from strangers: their prompts fill neither its site's
// caps nor the total it is refused by, so that strangers, however many
// free hosted names or client registrations they use, cannot keep the
// person's agents from asking. The zero Decision lets it open. m.slow is
// held.
func (m *Manager) limits(ctx context.Context, call Call, now time.Time) (Decision, error) {
	domain, site := call.Domain, m.Site(call.Domain)
	type group struct {
		domain, key, site string
		n                 int
	}
	var groups []group
	rows, err := m.db.QueryContext(ctx, `SELECT domain, key_fp, site, count(*) FROM approvals
		WHERE state = 'pending' AND expires_at > ? GROUP BY domain, key_fp, site`, now.Unix())
	if err != nil {
		return Decision{}, fmt.Errorf("count pending approvals: %w", err)
	}
	for rows.Next() {
		var g group
		if err := rows.Scan(&g.domain, &g.key, &g.site, &g.n); err != nil {
			rows.Close()
			return Decision{}, fmt.Errorf("count pending approvals: %w", err)
		}
		groups = append(groups, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Decision{}, fmt.Errorf("count pending approvals: %w", err)
	}
	var open, siteOpen, strangers, hosted, registered int
	m.mu.RLock()
	known := m.knownLocked(domain, call.KeyFP, now)
	counts := m.countsLocked(domain, call.KeyFP, known, now)
	for _, g := range groups {
		gk := m.knownLocked(g.domain, g.key, now)
		if g.domain == domain && counts(g.domain, g.key) {
			open += g.n
		}
		if g.site == site && counts(g.domain, g.key) {
			siteOpen += g.n
		}
		if !gk {
			strangers += g.n
			if m.cfg.Sites.Hosted(g.site) {
				hosted += g.n
			}
			if IsRegisteredClient(g.domain) {
				registered += g.n
			}
		}
	}
	m.mu.RUnlock()
	if open >= m.cfg.MaxPending || siteOpen >= m.cfg.MaxPending {
		return Decision{Outcome: TooManyPending}, nil
	}
	hourAgo := now.Add(-time.Hour).Unix()
	// The site's hour, counted as its pending cap is: a granted agent's
	// by the granted agents of its site alone.
	siteAsked, siteOldest, err := m.hour(ctx, "site", site, hourAgo, counts)
	if err != nil {
		return Decision{}, err
	}
	if !known {
		// The last fifth of the strangers' room is for a site that
		// asked nothing this hour and is neither hosted nor a
		// registration (free by the dozen): a few domains asking
		// again as their prompts lapse keep at most the rest, and
		// one new agent or client still reaches the person.
		fresh := !m.cfg.Sites.Hosted(site) && !IsRegisteredClient(domain)
		if fresh {
			// What the person denied does not count: a stranger who
			// names a site once (a hosted client's public id) must
			// not take its freshness for the hour (outside attack
			// 43d, finding 4).
			var n int
			err := m.db.QueryRowContext(ctx, "SELECT count(*) FROM approvals WHERE site = ? AND created_at > ? AND state != ?",
				site, hourAgo, string(Denied)).Scan(&n)
			if err != nil {
				return Decision{}, fmt.Errorf("count recent prompts: %w", err)
			}
			fresh = n == 0
		}
		if strangers >= m.cfg.MaxPendingTotal ||
			!fresh && strangers >= m.cfg.MaxPendingTotal-m.freshShare() ||
			m.cfg.Sites.Hosted(site) && hosted >= m.hostedShare() ||
			IsRegisteredClient(domain) && registered >= m.registeredShare() {
			return Decision{Outcome: TooManyPending, NodeWide: true}, nil
		}
	}
	asked, oldest, err := m.hour(ctx, "domain", domain, hourAgo, counts)
	if err != nil {
		return Decision{}, err
	}
	if asked >= m.cfg.MaxPromptsPerHour {
		return tooManyPrompts(oldest, hourAgo), nil
	}
	if siteAsked >= m.cfg.MaxPromptsPerHour {
		return tooManyPrompts(siteOldest, hourAgo), nil
	}
	return Decision{}, nil
}

// tooManyPrompts refuses a prompt until the window frees a slot: when its
// oldest prompt leaves it.
func tooManyPrompts(oldest, hourAgo int64) Decision {
	return Decision{Outcome: TooManyPrompts, RetryAfter: time.Duration(oldest-hourAgo) * time.Second}
}

// countsLocked returns which agents' prompts count against the caps of
// a call's domain and site (MaxPending, MaxPromptsPerHour): for a stranger,
// everyone's there; for an agent key holding a grant, those of keys
// holding one; for an OAuth client's new consent counted as known (its
// identity holds a grant from an earlier consent, knownLocked), those of
// keys holding none there. So neither strangers nor consents that anyone
// can start by naming a hosted client's public id use up the room of the
// client's granted calls (outside attack 43d, finding 2), and consents
// are capped among themselves. m.mu is held.
func (m *Manager) countsLocked(domain, key string, known bool, now time.Time) func(domain, key string) bool {
	if !known {
		return func(string, string) bool { return true }
	}
	granted := m.holdsGrantLocked(domain, key, now)
	return func(d, k string) bool {
		if granted {
			return m.holdsGrantLocked(d, k, now)
		}
		return m.knownLocked(d, k, now) && !m.holdsGrantLocked(d, k, now)
	}
}

// hour counts the prompts made since hourAgo for an agent domain or a
// site (column "domain" or "site", value) by the agents counts selects
// (countsLocked), and the oldest one's time. m.slow is held.
func (m *Manager) hour(ctx context.Context, column, value string, hourAgo int64, counts func(domain, key string) bool) (int, int64, error) {
	if column != "domain" && column != "site" {
		return 0, 0, fmt.Errorf("count recent prompts by %q", column)
	}
	rows, err := m.db.QueryContext(ctx, `SELECT domain, key_fp, count(*), min(created_at) FROM approvals
		WHERE `+column+` = ? AND created_at > ? GROUP BY domain, key_fp`, value, hourAgo)
	if err != nil {
		return 0, 0, fmt.Errorf("count recent prompts: %w", err)
	}
	defer rows.Close()
	var asked int
	var oldest int64
	for rows.Next() {
		var domain, key string
		var n int
		var first int64
		if err := rows.Scan(&domain, &key, &n, &first); err != nil {
			return 0, 0, fmt.Errorf("count recent prompts: %w", err)
		}
		m.mu.RLock()
		counted := counts(domain, key)
		m.mu.RUnlock()
		if !counted {
			continue
		}
		asked += n
		if oldest == 0 || first < oldest {
			oldest = first
		}
	}
	if err := rows.Err(); err != nil {
		return 0, 0, fmt.Errorf("count recent prompts: %w", err)
	}
	return asked, oldest, nil
}

// hostedShare is how many open requests the strangers under hosted
// sites may hold together: half of MaxPendingTotal, so that free names
// alone cannot fill it for a new agent on a domain of its own.
func (m *Manager) hostedShare() int { return (m.cfg.MaxPendingTotal + 1) / 2 }

// registeredShare is how many open requests registered OAuth clients
// that hold no grant may hold together: a fifth of MaxPendingTotal,
// since a registration costs nothing and each is a site of its own, so
// that registrations cannot fill the strangers' room for new agents and
// for clients that prove a domain (a Client ID Metadata Document).
func (m *Manager) registeredShare() int { return (m.cfg.MaxPendingTotal + 4) / 5 }

// freshShare is the part of MaxPendingTotal, a fifth rounded up, that
// only a stranger whose site opened no prompt in the last hour may take
// (and not under a hosted site or as a registered client): domains cost
// money, and each lends its site one prompt of the reserve an hour, so
// holding the reserve takes six new domains an hour per place in it.
func (m *Manager) freshShare() int { return (m.cfg.MaxPendingTotal + 4) / 5 }

// Decide records the user's answer to a pending request, named by its
// approval id or by its match code, from the node's own machine (the
// command line, the desktop app). Approving a structured_read,
// free_form_read or compose request stores a grant for the agent domain and
// tier, pinned to the key that asked. A raw_read or send request may be
// denied here but approved only on a paired phone (Answer): ErrPhoneOnly.
func (m *Manager) Decide(ctx context.Context, idOrCode string, approve bool) (Approval, error) {
	m.slow.Lock()
	defer m.slow.Unlock()
	now := m.cfg.Now()
	a, err := m.findPending(ctx, idOrCode, now)
	if err != nil {
		return Approval{}, err
	}
	if approve && a.Tier.PerCall() {
		return Approval{}, ErrPhoneOnly
	}
	if err := m.record(ctx, a, approve, now); err != nil {
		return Approval{}, err
	}
	return *a, nil
}
