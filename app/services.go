package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"slices"

	"github.com/thejerf/suture/v4"

	"mailnode/approvals"
	"mailnode/mail/imapsync"
)

// This file is where the node's services start and stop. Each runs under
// one supervisor (suture, as Syncthing's) in a supervisor of its own, so
// that one service failing again and again backs off alone. The policy:
//
//	service      on failure
//	local API    another node on the data directory: stop the node;
//	             otherwise restart with back-off
//	gateway      restart with back-off (a failure before it first
//	             listens fails Start instead)
//	sync/ACCOUNT restart with back-off; the syncer also reconnects with
//	             its own back-off and never returns while it can retry
//	facts        restart with back-off (it passes at each start: a pass
//	             cut short resumes)
//	status       restart with back-off
//	relay        restart with back-off; the tunnel also reconnects with
//	             its own back-off (first retry within 0.5 s); no address
//	             to register ends the service until the settings change
//
// "Back-off": a service that fails is restarted at once; one that fails
// more than restartThreshold times within about a minute waits
// restartBackoff before its next start.

const (
	restartThreshold = 3
	restartBackoff   = 10 * time.Second
	stopTimeout      = 10 * time.Second
)

// stopNode is a service error that stops the whole node: the condition
// will not go away by restarting.
type stopNode struct{ err error }

func (e stopNode) Error() string { return e.err.Error() }
func (e stopNode) Unwrap() []error {
	return []error{e.err, suture.ErrTerminateSupervisorTree}
}

// stopService is a service error that ends that service only, without a
// restart: it cannot work as configured until the settings change.
type stopService struct{ err error }

func (e stopService) Error() string { return e.err.Error() }
func (e stopService) Unwrap() []error {
	return []error{e.err, suture.ErrDoNotRestart}
}

// service is one supervised job of the node.
type service struct {
	name  string
	serve func(ctx context.Context) error
}

func (s *service) Serve(ctx context.Context) error { return s.serve(ctx) }
func (s *service) String() string                  { return s.name }

// Start opens the store, attaches every component once, starts the
// services of Config.Services and returns when those that listen (the
// local API, the gateway) are listening. ctx bounds the start only: the
// services run until Stop, or until one of them stops the node.
func (n *Node) Start(ctx context.Context) error {
	n.mu.Lock()
	if n.started {
		n.mu.Unlock()
		return errors.New("node already started")
	}
	n.started = true
	n.mu.Unlock()

	// The local API's socket is the data directory's single-instance
	// lock: take it before anything else, so that a second node says
	// "another node is running" and not first what its gateway could not
	// bind, or what it did to the store.
	localLn := make(chan net.Listener, 1) // the first run of the local API service takes it
	if n.cfg.Services.LocalAPI {
		ln, err := n.listenLocalAPI()
		if err != nil {
			n.finish(nil, err)
			return err
		}
		localLn <- ln
	}
	closeLocalLn := func() {
		select {
		case ln := <-localLn:
			ln.Close()
		default:
		}
	}

	c, err := n.open(ctx)
	if err != nil {
		closeLocalLn()
		n.finish(nil, err)
		return err
	}
	n.mu.Lock()
	n.c = c
	n.mu.Unlock()
	n.refreshCounts(ctx, c)
	n.update(func(s *Status) { s.Accounts = accountStatus(c.accountsCopy(), s.Accounts) })

	root := suture.New("node", suture.Spec{EventHook: n.serviceEvent, Timeout: stopTimeout})
	n.mu.Lock()
	n.root = root
	n.mu.Unlock()
	var ready []chan error
	add := n.addService
	// listening adds a service that signals once whether it could listen.
	listening := func(name string, serve func(context.Context, func(error)) error) {
		ch := make(chan error, 1)
		ready = append(ready, ch)
		first := true
		add(name, func(ctx context.Context) error {
			signal := func(err error) {
				if first {
					first = false
					ch <- err
				}
			}
			err := serve(ctx, signal)
			signal(err)
			return err
		})
	}
	if n.cfg.Services.LocalAPI {
		listening("local API", func(ctx context.Context, ready func(error)) error {
			var ln net.Listener
			select {
			case ln = <-localLn:
			default: // a restart: listen again
			}
			return n.serveLocalAPI(ctx, ln, ready)
		})
	}
	if n.cfg.Services.Gateway {
		listening("gateway", func(ctx context.Context, ready func(error)) error {
			return n.serveGateway(ctx, c, ready)
		})
	}
	if n.cfg.Services.Sync {
		// With a settings file, accounts can be added while the node runs
		// (the desktop app's first run starts with none).
		if len(c.accountsCopy()) == 0 && n.cfg.Settings == nil {
			closeLocalLn()
			n.finish(c, ErrNoAccount)
			return ErrNoAccount
		}
		for _, acct := range c.accountsCopy() {
			n.addSync(c, acct)
		}
	}
	if n.cfg.Services.Sync || n.cfg.Services.Gateway {
		// Start does not wait for the facts: after an extractor upgrade
		// this service reads the mail again while agents are answered
		// from the facts read before.
		add("facts", func(ctx context.Context) error { return n.runFacts(ctx, c, n.kick) })
	}
	if n.cfg.Services.Relay && n.cfg.Relay.URL != "" {
		add("relay", func(ctx context.Context) error { return n.runRelay(ctx, c) })
	}
	add("status", func(ctx context.Context) error { return n.watchApprovals(ctx, c) })
	for _, s := range n.extra {
		add(s.name, s.serve)
	}

	runCtx, cancel := context.WithCancel(context.Background())
	n.mu.Lock()
	n.cancel = cancel
	n.mu.Unlock()
	stopped := root.ServeBackground(runCtx)
	go func() {
		err := <-stopped
		if errors.Is(err, context.Canceled) && runCtx.Err() != nil {
			err = nil // Stop
		}
		var sn stopNode
		if errors.As(err, &sn) {
			err = sn.err
		}
		cancel()
		closeLocalLn() // the local API service never ran
		n.finish(c, err)
	}()

	for _, ch := range ready {
		select {
		case err := <-ch:
			if err != nil {
				n.abort(err)
				return err
			}
		case <-ctx.Done():
			n.abort(ctx.Err())
			return ctx.Err()
		}
	}
	if n.cfg.Services.Sync && len(c.accountsCopy()) > 0 {
		n.update(func(s *Status) { s.State = StateSyncing })
	} else {
		n.update(func(s *Status) { s.State = StateIdle })
	}
	return nil
}

// addService runs serve as the named service, in a supervisor of its
// own under the root.
func (n *Node) addService(name string, serve func(context.Context) error) {
	sup := suture.New(name, suture.Spec{
		EventHook:        n.serviceEvent,
		FailureThreshold: restartThreshold,
		FailureDecay:     20,
		FailureBackoff:   restartBackoff,
		Timeout:          stopTimeout,
	})
	sup.Add(&service{name: name, serve: serve})
	n.mu.Lock()
	n.tokens[name] = n.root.Add(sup)
	n.mu.Unlock()
	n.update(func(s *Status) { s.service(name).State = "running" })
}

// addSync starts an account's sync service.
func (n *Node) addSync(c *components, acct imapsync.Config) {
	n.addService("sync/"+acct.Account, func(ctx context.Context) error { return n.runSync(ctx, c, acct, n.kick) })
}

// removeService stops the named service and forgets it.
func (n *Node) removeService(name string) error {
	n.mu.Lock()
	tok, ok := n.tokens[name]
	delete(n.tokens, name)
	root := n.root
	n.mu.Unlock()
	if !ok {
		return nil
	}
	err := root.RemoveAndWait(tok, stopTimeout)
	n.update(func(s *Status) {
		s.Services = slices.DeleteFunc(s.Services, func(st ServiceStatus) bool { return st.Name == name })
	})
	return err
}

// finish closes the components once every service has stopped, records
// why the node stopped and ends the subscriptions.
func (n *Node) finish(c *components, why error) {
	var closeErr error
	if c != nil {
		closeErr = c.close()
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.stopped {
		return
	}
	n.stopped = true
	n.c = nil
	if why == nil {
		why = n.startErr
	}
	n.err = why
	if why == nil && closeErr != nil {
		n.err = fmt.Errorf("close: %w", closeErr)
	}
	n.status.State = StateStopped
	for i := range n.status.Services {
		n.status.Services[i].State = "stopped"
	}
	if why != nil {
		n.status.LastError = why.Error()
	}
	n.notifyLocked()
	n.closeSubsLocked()
	close(n.done)
}

// Wait blocks until the node has stopped and returns why: nil after
// Stop, or the error of the service that stopped it.
func (n *Node) Wait() error {
	n.mu.Lock()
	started := n.started
	n.mu.Unlock()
	if !started {
		return nil
	}
	<-n.done
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.err
}

// Stop stops every service, then closes the store, and returns what
// Wait returns. It may be called more than once, and before Start.
func (n *Node) Stop() error {
	n.mu.Lock()
	cancel, started := n.cancel, n.started
	if !started {
		n.started = true // a Start after Stop must not run
		n.mu.Unlock()
		n.finish(nil, nil)
		return nil
	}
	n.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return n.Wait()
}

// abort stops a node whose start failed; Wait then returns err.
func (n *Node) abort(err error) {
	n.mu.Lock()
	n.startErr = err
	n.mu.Unlock()
	n.Stop()
}

// serviceEvent logs the supervisor's events and keeps each service's
// state and last error in the status.
func (n *Node) serviceEvent(e suture.Event) {
	switch e := e.(type) {
	case suture.EventServiceTerminate:
		msg := fmt.Sprint(e.Err)
		n.log.Warn("Service stopped", "service", e.ServiceName, "err", msg, "restarting", e.Restarting)
		n.update(func(s *Status) {
			st := s.service(e.ServiceName)
			st.LastError = msg
			st.Restarts++
			st.State = "restarting"
			if !e.Restarting {
				st.State = "stopped"
			}
			s.LastError = e.ServiceName + ": " + msg
		})
	case suture.EventServicePanic:
		n.log.Error("Service panicked", "service", e.ServiceName, "panic", e.PanicMsg, "stack", e.Stacktrace)
		n.update(func(s *Status) {
			st := s.service(e.ServiceName)
			st.LastError, st.State = "internal error", "restarting"
			st.Restarts++
		})
	case suture.EventBackoff:
		n.log.Warn("Service failing repeatedly; backing off", "supervisor", e.SupervisorName)
	case suture.EventResume:
		n.log.Info("Service restarting after back-off", "supervisor", e.SupervisorName)
	case suture.EventStopTimeout:
		n.log.Error("Service did not stop in time", "service", e.ServiceName)
	}
}

// runSync is the sync service of one account: Run keeps the store
// current until ctx is done, reporting each pass.
func (n *Node) runSync(ctx context.Context, c *components, acct imapsync.Config, kick chan<- struct{}) error {
	s, err := imapsync.New(n.withProgress(acct), c.store, n.log)
	if err != nil {
		return stopNode{fmt.Errorf("account %q: %w", acct.Account, err)}
	}
	n.logAccount(acct)
	name := "sync/" + acct.Account
	err = s.Run(ctx, func(res imapsync.Result, err error) {
		if err != nil {
			n.update(func(s *Status) {
				s.State = StateOffline
				s.LastError = "cannot reach the mail server for account " + acct.Account + "; retrying"
				s.service(name).LastError = err.Error()
			})
			return
		}
		n.update(func(s *Status) {
			s.State, s.LastSync, s.LastError = StateIdle, time.Now(), ""
			s.service(name).LastError = ""
		})
		select {
		case kick <- struct{}{}:
		default: // a pass is already due
		}
	})
	if problem := SignInProblem(err); problem != "" {
		// The provider refuses the account's grant: no retry helps. This
		// account's sync stops, saying what to do; every other account
		// keeps running, and signing in again (SignInAccount) starts it.
		n.log.Warn("Account needs signing in again", "account", acct.Account, "err", err)
		n.update(func(s *Status) {
			for i := range s.Accounts {
				if s.Accounts[i].Name == acct.Account {
					s.Accounts[i].Problem = problem
				}
			}
			s.LastError = problem + " (account " + acct.Account + ")"
			s.service(name).LastError = err.Error()
			s.service(name).State = "stopped"
			if s.State == StateOffline {
				s.State = StateIdle
			}
		})
		<-ctx.Done()
		return nil
	}
	return err
}

// runFacts is the facts service: when it starts, and after every sync
// pass, it reads what the sync did not (all mail, after an extractor
// upgrade; a pass the node stopped resumes where it was) and counts the
// facts. The pass runs beside the gateway, at low priority (facts.Store.Pass).
func (n *Node) runFacts(ctx context.Context, c *components, kick <-chan struct{}) error {
	for first := true; ; first = false {
		if !first {
			select {
			case <-ctx.Done():
				return nil
			case <-kick:
			}
		}
		if _, err := c.facts.Pass(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("read facts: %w", err)
		}
		n.refreshCounts(ctx, c)
		n.releaseAfterPass()
	}
}

// releaseAfterPass releases memory (ReleaseMemory) once a sync and facts
// pass is over, at most once a minute. GCPercent lets the heap grow to
// five times what is live, up to MemoryLimit, for the gateway's
// throughput, and the store's connections keep the pages the pass read:
// at rest that left an app in the tray holding tens of megabytes of the
// last pass's until the collector happened by and the connections
// closed.
func (n *Node) releaseAfterPass() {
	n.mu.Lock()
	due := time.Since(n.released) >= time.Minute
	if due {
		n.released = time.Now()
	}
	n.mu.Unlock()
	if due {
		n.ReleaseMemory()
	}
}

// ReleaseMemory gives back what the node holds only to be quick: the
// store's idle connections and their page caches, then the heap's
// garbage. It costs a full collection and reopening a connection, so
// callers bound how often: the node after a pass, the desktop app when
// its UI has gone quiet.
func (n *Node) ReleaseMemory() {
	if c, err := n.comp(); err == nil {
		c.store.ReleaseMemory()
	}
	ReleaseMemory()
}

// watchApprovals is the status service: it keeps the counts of pending
// requests and paired phones current. Requests also expire without an
// event, hence the tick.
func (n *Node) watchApprovals(ctx context.Context, c *components) error {
	events, unsubscribe := c.approvals.Subscribe()
	defer unsubscribe()
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	for {
		pending, err := c.approvals.Pending(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("count pending requests: %w", err)
		}
		phones, reach := 0, 0
		list := c.phones.List()
		for _, p := range list {
			if p.State == approvals.PhonePaired {
				phones++
				if p.Push.Reachable() {
					reach++
				}
			}
		}
		n.update(func(s *Status) {
			s.Pending, s.Phones, s.PushPhones = len(pending), phones, reach
			s.PushUnreachable = len(pending) > 0 && !approvals.AnyPushReachable(list)
		})
		select {
		case <-ctx.Done():
			return nil
		case <-events:
		case <-c.phones.Changed():
		case <-tick.C:
		}
	}
}
