package imapsync

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Run keeps the store current until ctx is done, then returns nil. onPass,
// if set, is called after every pass (with what it changed) and after every
// failed session (with the error); it must not block for long.
func (s *Syncer) Run(ctx context.Context, onPass func(Result, error)) error {
	if onPass == nil {
		onPass = func(Result, error) {}
	}
	bo := backoff{min: time.Second, max: 5 * time.Minute}
	var lastErr string
	for {
		started := s.now()
		err := s.session(ctx, onPass)
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, errTokenLapsing) {
			// A planned end: the next session signs in with a fresh token,
			// at once, unless this one was short (lapseWait).
			s.log.Debug("Reconnecting before the access token lapses")
			s.renewNext.Store(true)
			if wait := lapseWait(started, s.now(), s.cfg.MinTokenLife, &bo); wait > 0 {
				select {
				case <-time.After(wait):
				case <-ctx.Done():
					return nil
				}
			}
			continue
		}
		if Permanent(err) {
			s.log.Warn("Sync stopped: the account's sign-in is refused", "err", err)
			return err
		}
		onPass(Result{}, err)
		// A session that stayed healthy for a while resets the back-off.
		if s.now().Sub(started) > 2*time.Minute {
			bo.reset()
		}
		wait := bo.next()
		// Log a repeating failure once at Warn, then at Debug until it changes.
		if msg := err.Error(); msg != lastErr {
			s.log.Warn("Sync session failed; reconnecting", "err", err, "retryIn", wait.Round(time.Millisecond))
			lastErr = msg
		} else {
			s.log.Debug("Sync session failed again", "err", err, "retryIn", wait.Round(time.Millisecond))
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil
		}
	}
}

// errTokenLapsing ends a session shortly before its OAuth access token
// lapses: providers end a session whose token expired (Gmail,
// Microsoft), and one that ended mid-command would be a failure.
var errTokenLapsing = errors.New("the access token is about to lapse")

// Permanent reports whether err is one no retry can cure: the provider
// refuses the account's OAuth grant (mail/signin's invalid_grant, revoked
// or expired). Run then stops and returns it; the person must sign in
// again.
func Permanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

// reconnectAt is when a session signed in with a token lapsing at expiry
// (got at start) should end: a tenth of the token's remaining life ahead,
// at most 5 minutes, so the next session starts with a fresh token well
// before a server would cut this one; a token said to last less than
// minLife (Config.MinTokenLife) is planned as lasting that long: a
// provider answering expires_in 1 would otherwise have the node sign in
// and pass over every folder about once a second, which gets an account
// rate-limited or locked at its mail provider. Zero: no token, or none
// that lapses.
func reconnectAt(start, expiry time.Time, minLife time.Duration) time.Time {
	if expiry.IsZero() || !expiry.After(start) {
		return time.Time{}
	}
	expiry = start.Add(max(expiry.Sub(start), minLife))
	return expiry.Add(-min(expiry.Sub(start)/10, 5*time.Minute))
}

// lapseWait is how long Run waits after a session ended for its token's
// lapse: none after one that lasted minLife (the back-off starts over),
// else the back-off's next step, as after a failure.
func lapseWait(started, now time.Time, minLife time.Duration, bo *backoff) time.Duration {
	if now.Sub(started) >= minLife {
		bo.reset()
		return 0
	}
	return bo.next()
}

// errNoFolders: the account has no folder to sync (the configured list
// names none the server has). Run retries with back-off, in case it is
// being set up.
var errNoFolders = errors.New("no folder to sync: check the folder list of the account")

// session runs one connection: a full pass, then IDLE (or polling) on the
// watched folder (INBOX, unless the configuration leaves it out), with a
// pass over that folder on every change and a full pass every
// FullSyncInterval. It returns when the connection fails or ctx is done.
func (s *Syncer) session(ctx context.Context, onPass func(Result, error)) error {
	changed := make(chan struct{}, 1)
	poke := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	handler := &imapclient.UnilateralDataHandler{
		Expunge: func(uint32) { poke() },
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				poke()
			}
		},
		Fetch: func(m *imapclient.FetchMessageData) {
			m.Collect() // flag change by another client; the data itself is refetched by the pass
			poke()
		},
	}
	c, err := s.connect(ctx, handler)
	if err != nil {
		return err
	}
	defer c.Close()
	// With a token that lapses, end the session before it does.
	var lapse time.Time
	if e, ok := s.cfg.OAuth.(interface{ Expiry() time.Time }); ok {
		lapse = reconnectAt(s.now(), e.Expiry(), s.cfg.MinTokenLife)
	}

	res, err := s.syncAll(ctx, c)
	if err != nil {
		return err
	}
	onPass(res, nil)
	lastFull := s.now()
	hasIdle := c.Caps().Has(imap.CapIdle)
	acct, err := s.account(ctx)
	if err != nil {
		return err
	}
	// Watch INBOX, where new mail lands, if it is synced; else the first
	// synced folder. Never pass over a folder the configuration leaves out.
	remote, err := s.listFolders(c)
	if err != nil {
		return err
	}
	if len(remote) == 0 {
		return errNoFolders
	}
	watched := remote[0]
	for _, rf := range remote {
		if strings.EqualFold(rf.name, "INBOX") {
			watched = rf
		}
	}

	fruitless := false
	for {
		// Changes reported while the pass ran are either in the store or
		// in what this SELECT shows; start IDLE from a clean slate, unless
		// the folder already differs from what the pass stored (mail that
		// arrived after the pass looked at it, which IDLE will never
		// report again). Cleared before the SELECT, not after it: a change
		// reported between the SELECT's answer and the clearing is in
		// neither, and was lost until IDLE's restart (a relay's code mail
		// waited 40 s in CI). The SELECT's own EXISTS is its answer's, not
		// a change (imapclient hands it to the command).
		select {
		case <-changed:
		default:
		}
		sel, err := c.Select(watched.name, &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			return err
		}
		// Not again after a catch-up pass that stored nothing, so that a
		// folder the store cannot match never becomes a busy loop.
		behind := false
		if !fruitless {
			if behind, err = s.behind(ctx, acct.ID, watched, sel); err != nil {
				return err
			}
		}
		if !behind {
			timeout := s.cfg.FullSyncInterval - s.now().Sub(lastFull)
			if !lapse.IsZero() {
				timeout = min(timeout, lapse.Sub(s.now()))
			}
			if err := s.wait(ctx, c, hasIdle, changed, timeout); err != nil {
				return err
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		if !lapse.IsZero() && !s.now().Before(lapse) {
			// Whatever arrived since the wait began is fetched by the
			// next session's first pass: nothing lost, and UIDs keep
			// anything from being stored twice.
			return errTokenLapsing
		}
		var res Result
		if s.now().Sub(lastFull) >= s.cfg.FullSyncInterval {
			res, err = s.syncAll(ctx, c)
			lastFull = s.now()
		} else {
			res, err = s.syncFolder(ctx, c, acct.ID, watched)
		}
		if err != nil {
			return err
		}
		fruitless = behind && res.Added == 0
		onPass(res, nil)
	}
}

// behind reports whether the selected folder has mail the store has not:
// a UIDNEXT other than the one the last pass recorded. (Expunges in the
// gap wait for the next full pass.)
func (s *Syncer) behind(ctx context.Context, accountID int64, rf remoteFolder, sel *imap.SelectData) (bool, error) {
	f, err := s.store.EnsureFolder(ctx, accountID, rf.name, rf.specialUse)
	if err != nil {
		return false, err
	}
	return sel.UIDNext != 0 && uint32(sel.UIDNext) != f.UIDNext, nil
}

// wait blocks until the server reports a change, the timeout passes, or ctx
// is done. With IDLE the server pushes changes; without it, a NOOP every
// PollInterval asks for them.
func (s *Syncer) wait(ctx context.Context, c *imapclient.Client, hasIdle bool, changed <-chan struct{}, timeout time.Duration) error {
	if timeout < 0 {
		timeout = 0
	}
	if !hasIdle {
		if timeout > s.cfg.PollInterval {
			timeout = s.cfg.PollInterval
		}
		select {
		case <-time.After(timeout):
		case <-changed:
		case <-ctx.Done():
			return nil
		}
		return c.Noop().Wait()
	}
	if timeout > s.cfg.IdleRestart {
		timeout = s.cfg.IdleRestart
	}
	idle, err := c.Idle()
	if err != nil {
		return err
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-changed:
	case <-timer.C:
	case <-ctx.Done():
	case <-c.Closed():
		return errors.New("connection closed during IDLE")
	}
	if err := idle.Close(); err != nil {
		return err
	}
	return idle.Wait()
}

// backoff is capped exponential back-off with full jitter.
type backoff struct {
	min, max time.Duration
	n        int
}

func (b *backoff) next() time.Duration {
	d := b.min << min(b.n, 20)
	if d > b.max || d <= 0 {
		d = b.max
	}
	b.n++
	// Full jitter keeps many nodes from reconnecting in step after an outage.
	return d/2 + rand.N(d/2+1)
}

func (b *backoff) reset() { b.n = 0 }
