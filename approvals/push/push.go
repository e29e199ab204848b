package push

import (
	"bytes"
	"context"
	"crypto/ecdh"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"mailnode/approvals"
	"mailnode/approvals/pairing"
	"mailnode/approvals/phoneapi"
	"mailnode/internal/publicaddr"
)

// Config is what the push service needs. The zero value of each tuning
// field means its default.
type Config struct {
	Phones    *approvals.Phones
	Approvals *approvals.Manager
	// Subject is the VAPID token's sub (RFC 8292 section 2.1): a mailto:
	// or https URL by which a push service can reach the node's operator.
	// Default "https://localhost".
	Subject string
	// Workers send pushes at once. Default 4.
	Workers int
	// QueueSize bounds the pushes waiting for a worker; past it a push is
	// dropped and its device's status says so. Default 1024.
	QueueSize int
	// Timeout bounds one push request, from the dial to the last byte of
	// the answer, and the resolving of an endpoint's name at
	// subscription. Default 10 s.
	Timeout time.Duration
	// MaxAnswer is how much of a push service's answer is read. Default
	// 4 KiB.
	MaxAnswer int64
	// RetryBase is the first wait before a push the service answered 429
	// or 5xx, or did not answer, is tried again; it doubles up to
	// RetryMax (default 1 s and 1 min), unless the service said how long
	// (Retry-After).
	RetryBase, RetryMax time.Duration
	// NoticeTTL is the TTL of a notice that a prompt was decided or
	// expired: it replaces a notification that may stay on the phone for
	// long. Default 24 h.
	NoticeTTL time.Duration
	// LookupAddrs resolves a name. Default: the system resolver.
	LookupAddrs func(ctx context.Context, host string) ([]netip.Addr, error)

	// DevAddrs maps push endpoint hosts to fixed host:port addresses,
	// dialed without the address checks, and DevRootCAs are trusted
	// besides the system roots: a push service stand-in on loopback.
	// Development and tests only (the node's --dev-agent and
	// --dev-agent-ca); the service logs a warning when set.
	DevAddrs   map[string]string
	DevRootCAs []*x509.Certificate

	Now func() time.Time
}

// Service subscribes phones to push and pushes prompts to them. Its
// methods are safe for concurrent use; Run sends.
type Service struct {
	cfg    Config
	log    *slog.Logger
	client *http.Client
	queue  chan job
	pub    string // the VAPID public key, base64url

	// tracked are the prompts pushed and not yet decided or expired,
	// by approval id; only Run touches it.
	tracked map[string]*tracked
	wake    chan struct{} // a tracked prompt's expiry came

	mu     sync.Mutex // guards the field below
	timers map[*time.Timer]struct{}
}

// tracked is a prompt whose notice was queued for phones.
type tracked struct {
	a      approvals.Approval
	phones []string
	timer  *time.Timer
}

// job is one push to one device.
type job struct {
	phone    string
	sub      approvals.PushSubscription
	notice   phoneapi.PushNotice
	topic    string
	urgency  string
	expires  time.Time // the TTL counts down to it
	deadline time.Time // tries end then
	attempt  int
	last     string // why the last try failed
}

// ErrForbidden: the endpoint's name resolved to no public address when
// dialed.
var ErrForbidden = errors.New("push endpoint resolves to no public address")

// New returns a push service. It does no I/O.
func New(cfg Config, logger *slog.Logger) (*Service, error) {
	if cfg.Phones == nil || cfg.Approvals == nil {
		return nil, errors.New("push: phones and approvals are required")
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.Timeout, 10*time.Second)
	def(&cfg.RetryBase, time.Second)
	def(&cfg.RetryMax, time.Minute)
	def(&cfg.NoticeTTL, 24*time.Hour)
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = 1024
	}
	if cfg.MaxAnswer <= 0 {
		cfg.MaxAnswer = 4 << 10
	}
	if cfg.Subject == "" {
		cfg.Subject = "https://localhost"
	}
	if cfg.LookupAddrs == nil {
		cfg.LookupAddrs = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	dev := map[string]string{}
	for h, a := range cfg.DevAddrs {
		dev[strings.ToLower(h)] = a
	}
	cfg.DevAddrs = dev
	pub, err := PublicKey(cfg.Phones.VAPIDKey())
	if err != nil {
		return nil, fmt.Errorf("push: %w", err)
	}
	s := &Service{cfg: cfg, log: logger.With("component", "push"), pub: pub,
		queue: make(chan job, cfg.QueueSize), tracked: map[string]*tracked{}, wake: make(chan struct{}, 1),
		timers: map[*time.Timer]struct{}{}}
	if len(cfg.DevAddrs) > 0 || len(cfg.DevRootCAs) > 0 {
		s.log.Warn("DEVELOPMENT OVERRIDES ON: push endpoints may be on local addresses or under untrusted CAs",
			"devAddrs", len(cfg.DevAddrs), "devRootCAs", len(cfg.DevRootCAs))
	}
	dialer := &publicaddr.Dialer{Timeout: cfg.Timeout, Lookup: cfg.LookupAddrs, DevAddrs: cfg.DevAddrs, NoPublic: ErrForbidden}
	s.client = publicaddr.Client(dialer, cfg.DevRootCAs, cfg.Timeout, func(t *http.Transport) {
		t.ForceAttemptHTTP2 = true
		t.MaxIdleConnsPerHost = cfg.Workers
		t.IdleConnTimeout = 90 * time.Second
	})
	return s, nil
}

// PublicKey is the node's VAPID public key, base64url: what the phone
// subscribes with.
func (s *Service) PublicKey() string { return s.pub }

// Subscribe stores the phone's push subscription from the body of its
// request, after ParseSubscription and the address check; a refusal is a
// *BadSubscriptionError.
func (s *Service) Subscribe(ctx context.Context, phoneID string, body []byte) error {
	sub, u, err := ParseSubscription(body)
	if err != nil {
		return err
	}
	if err := s.checkHost(ctx, u.Hostname()); err != nil {
		return err
	}
	return s.cfg.Phones.SetPushSubscription(ctx, phoneID, sub)
}

// Unsubscribe forgets the phone's push subscription.
func (s *Service) Unsubscribe(ctx context.Context, phoneID string) error {
	return s.cfg.Phones.ClearPushSubscription(ctx, phoneID)
}

// Run sends pushes until ctx is done: for each new prompt a notice to
// every paired phone that has a subscription, and once a prompt pushed
// was decided or expired, a notice that replaces it. It returns nil on
// cancel.
func (s *Service) Run(ctx context.Context) error {
	events, unsubscribe := s.cfg.Approvals.Subscribe()
	defer unsubscribe()
	// Last: no kept-alive connection to a push service outlives Run.
	defer s.client.CloseIdleConnections()
	var wg sync.WaitGroup
	defer wg.Wait()
	for range s.cfg.Workers {
		wg.Go(func() { s.work(ctx) })
	}
	defer s.stopTimers()
	// A missed event (the Manager drops what a slow subscriber cannot
	// take) is made up by the next one: each reads every prompt newer
	// than the last seen. Those pending at start are pushed too: a node
	// restarted while a prompt waits has not told the phone.
	var cursor int64
	catchUp := func() {
		pending, next, err := s.cfg.Approvals.PendingAfter(ctx, cursor)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("Cannot read the pending prompts to push", "err", err)
			}
			return
		}
		cursor = next
		for _, a := range pending {
			s.prompt(ctx, a)
		}
	}
	catchUp()
	// A prompt decided while its event was missed is seen at the latest
	// by this tick.
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-events:
			if !ok {
				return nil
			}
			if e.Kind == "pending" {
				catchUp()
			} else {
				s.sweep(ctx)
			}
		case <-s.wake:
			s.sweep(ctx)
		case <-tick.C:
			catchUp()
			s.sweep(ctx)
		}
	}
}

// prompt queues a's notice for every paired phone with a subscription.
func (s *Service) prompt(ctx context.Context, a approvals.Approval) {
	if _, ok := s.tracked[a.ID]; ok {
		return
	}
	now := s.cfg.Now()
	if !a.ExpiresAt.After(now) {
		return
	}
	t := &tracked{a: a}
	n := phoneapi.PushNotice{Type: "prompt", ApprovalID: a.ID, Agent: cut(a.Domain, 253),
		Tool: cut(a.Tool, 100) + " (" + cut(string(a.Tier), 20) + ")", MatchCode: cut(a.MatchCode, 32),
		ExpiresAt: a.ExpiresAt.UTC().Format(time.RFC3339)}
	for _, ph := range s.cfg.Phones.List() {
		sub, ok := ph.PushSub()
		if ph.State != approvals.PhonePaired || !ok {
			continue
		}
		t.phones = append(t.phones, ph.ID)
		s.enqueue(ctx, job{phone: ph.ID, sub: sub, notice: n, topic: topic(a.ID), urgency: "high",
			expires: a.ExpiresAt, deadline: a.ExpiresAt})
	}
	if len(t.phones) == 0 {
		return
	}
	s.tracked[a.ID] = t
	t.timer = s.afterFunc(a.ExpiresAt.Sub(now)+time.Second, func() {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	})
}

// sweep sends the closing notice of every tracked prompt that is no
// longer pending.
func (s *Service) sweep(ctx context.Context) {
	for id, t := range s.tracked {
		a, err := s.cfg.Approvals.Get(ctx, id)
		if (err == nil && a.State == approvals.Pending) || (err != nil && !errors.Is(err, approvals.ErrNotFound)) {
			continue
		}
		delete(s.tracked, id)
		s.stopTimer(t.timer)
		state := closingState(a, err, s.cfg.Approvals)
		n := phoneapi.PushNotice{Type: "decided", ApprovalID: id, State: state}
		if state == "expired" {
			n.Type = "expired"
		}
		now := s.cfg.Now()
		for _, phID := range t.phones {
			ph, ok := s.cfg.Phones.Get(phID)
			sub, on := ph.PushSub()
			if !ok || !on {
				continue
			}
			s.enqueue(ctx, job{phone: phID, sub: sub, notice: n, topic: topic(id), urgency: "normal",
				expires: now.Add(s.cfg.NoticeTTL), deadline: now.Add(10 * time.Minute)})
		}
	}
}

// closingState is what a decided or expired notice says of a.
func closingState(a approvals.Approval, err error, m *approvals.Manager) string {
	switch {
	case err != nil || a.State == approvals.Expired:
		return "expired"
	case a.State == approvals.Approved || a.State == approvals.Used:
		return "approved"
	}
	for _, b := range m.Blocked() {
		if b == a.Domain || b == m.BlockName(a.Domain) || b == "*."+a.Site {
			return "blocked"
		}
	}
	return "denied"
}

// topic is the Topic header of an approval's pushes (RFC 8030 section
// 5.4: at most 32 characters of the base64url alphabet), so that a later
// push replaces one the push service still holds: the approval id, or a
// hash of it if it does not fit.
func topic(id string) string {
	if topicRE.MatchString(id) {
		return id
	}
	h := sha256.Sum256([]byte(id))
	return pairing.Encode(h[:])[:32]
}

var topicRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// cut shortens s to at most n bytes of whole UTF-8 characters.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// enqueue hands j to the workers without waiting: when the queue is full
// the push is dropped and the device's status says so.
func (s *Service) enqueue(ctx context.Context, j job) {
	select {
	case s.queue <- j:
	default:
		s.log.Warn("Push queue full: a push was dropped", "phone", j.phone, "approvalID", j.notice.ApprovalID)
		s.record(ctx, j, false, "not sent: the node's push queue was full", false)
	}
}

func (s *Service) work(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-s.queue:
			s.send(ctx, j)
		}
	}
}

// send makes one try of j, and schedules the next one or records the
// outcome.
func (s *Service) send(ctx context.Context, j job) {
	ph, ok := s.cfg.Phones.Get(j.phone)
	if sub, on := ph.PushSub(); !ok || !on || sub != j.sub {
		return // removed, unsubscribed or subscribed anew since
	}
	now := s.cfg.Now()
	ttl := int(j.expires.Sub(now) / time.Second)
	if ttl <= 0 || !now.Before(j.deadline) {
		s.giveUp(ctx, j)
		return
	}
	code, retryAfter, err := s.post(ctx, ph, j, ttl, now)
	if ctx.Err() != nil {
		return
	}
	switch {
	case err != nil && errors.Is(err, ErrForbidden):
		s.record(ctx, j, false, "not sent: the push service's name no longer resolves to a public address", false)
	case err != nil:
		s.log.Debug("Push not delivered, will retry", "phone", j.phone, "err", err)
		j.last = "the push service could not be reached"
		s.retry(ctx, j, 0)
	case code == http.StatusCreated || code == http.StatusOK || code == http.StatusAccepted:
		s.record(ctx, j, true, "accepted", false)
	case code == http.StatusNotFound || code == http.StatusGone:
		s.log.Info("The push service no longer knows a phone's subscription: deleted", "phone", j.phone, "status", code)
		s.record(ctx, j, false, fmt.Sprintf("refused: the push service no longer knows this subscription (%d); push is off until the phone subscribes again", code), true)
	case code == http.StatusTooManyRequests || code >= 500:
		j.last = fmt.Sprintf("the push service answered %d", code)
		s.retry(ctx, j, retryAfter)
	default:
		s.record(ctx, j, false, fmt.Sprintf("refused by the push service (%d)", code), false)
	}
}

// post sends j's push request and returns the push service's status and
// Retry-After.
func (s *Service) post(ctx context.Context, ph approvals.Phone, j job, ttl int, now time.Time) (int, time.Duration, error) {
	plain, err := json.Marshal(j.notice)
	if err != nil {
		return 0, 0, err
	}
	sealed, err := pairing.Seal(s.cfg.Phones.NodeKey(), ph.BoxKey(), ph.ID, pairing.ToPhonePush, phoneapi.PushAAD, plain)
	if err != nil {
		return 0, 0, err
	}
	ua, auth, err := subKeys(j.sub)
	if err != nil {
		return 0, 0, err
	}
	body, err := encrypt([]byte(phoneapi.PushPrefix+pairing.Encode(sealed)), ua, auth)
	if err != nil {
		return 0, 0, err
	}
	u, err := url.Parse(j.sub.Endpoint)
	if err != nil {
		return 0, 0, err
	}
	authz, err := vapidHeader(s.cfg.Phones.VAPIDKey(), u, s.cfg.Subject, now)
	if err != nil {
		return 0, 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.sub.Endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("TTL", strconv.Itoa(ttl))
	req.Header.Set("Urgency", j.urgency)
	req.Header.Set("Topic", j.topic)
	req.Header.Set("Content-Encoding", "aes128gcm")
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("Authorization", authz)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, s.cfg.MaxAnswer))
	return resp.StatusCode, retryAfter(resp.Header.Get("Retry-After"), now), nil
}

// subKeys decodes a stored subscription's keys.
func subKeys(sub approvals.PushSubscription) (*ecdh.PublicKey, []byte, error) {
	p, err := pairing.Decode(sub.P256dh)
	if err != nil {
		return nil, nil, err
	}
	ua, err := ecdh.P256().NewPublicKey(p)
	if err != nil {
		return nil, nil, err
	}
	auth, err := pairing.Decode(sub.Auth)
	return ua, auth, err
}

// retryAfter reads a Retry-After header (RFC 9110 section 10.2.3):
// seconds or an HTTP date; 0 if absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// retry tries j again after the wait the service asked for, or the next
// back-off with jitter, if that is before its deadline; else gives up.
func (s *Service) retry(ctx context.Context, j job, wait time.Duration) {
	if wait <= 0 {
		wait = s.cfg.RetryBase << min(j.attempt, 16)
		if wait > s.cfg.RetryMax || wait <= 0 {
			wait = s.cfg.RetryMax
		}
		wait = wait/2 + rand.N(wait/2+1)
	}
	j.attempt++
	if !s.cfg.Now().Add(wait).Before(j.deadline) {
		s.giveUp(ctx, j)
		return
	}
	s.afterFunc(wait, func() {
		if ctx.Err() == nil {
			s.enqueue(ctx, j)
		}
	})
}

// giveUp records that j's tries ended with its prompt's life.
func (s *Service) giveUp(ctx context.Context, j job) {
	why := j.last
	if why == "" {
		why = "it was queued too long"
	}
	s.record(ctx, j, false, "not delivered before the prompt expired: "+why, false)
}

// record stores what became of j on its phone.
func (s *Service) record(ctx context.Context, j job, ok bool, result string, forget bool) {
	if err := s.cfg.Phones.RecordPush(ctx, j.phone, j.sub, ok, result, forget); err != nil && ctx.Err() == nil {
		s.log.Warn("Cannot record a push's result", "phone", j.phone, "err", err)
	}
	if !ok {
		s.log.Info("Push not delivered", "phone", j.phone, "approvalID", j.notice.ApprovalID, "result", result)
	}
}

// afterFunc runs f after d, unless Run ended first.
func (s *Service) afterFunc(d time.Duration, f func()) *time.Timer {
	s.mu.Lock()
	defer s.mu.Unlock()
	var t *time.Timer
	t = time.AfterFunc(d, func() {
		s.mu.Lock()
		_, live := s.timers[t]
		delete(s.timers, t)
		s.mu.Unlock()
		if live {
			f()
		}
	})
	s.timers[t] = struct{}{}
	return t
}

func (s *Service) stopTimer(t *time.Timer) {
	if t == nil {
		return
	}
	s.mu.Lock()
	delete(s.timers, t)
	s.mu.Unlock()
	t.Stop()
}

func (s *Service) stopTimers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t := range s.timers {
		t.Stop()
	}
	clear(s.timers)
}
