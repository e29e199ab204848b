package app

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestSupervisorPolicy: a failing service is restarted and its failures
// show in the status; a service that stops the node stops every service,
// and Wait says why.
func TestSupervisorPolicy(t *testing.T) {
	n, err := New(Config{DataDir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var starts atomic.Int32
	fatal := make(chan struct{})
	n.extra = []service{
		{name: "flaky", serve: func(ctx context.Context) error {
			if starts.Add(1) <= 2 {
				return errors.New("flaked")
			}
			<-ctx.Done()
			return nil
		}},
		{name: "fatal", serve: func(ctx context.Context) error {
			select {
			case <-fatal:
				return stopNode{errors.New("disk on fire")}
			case <-ctx.Done():
				return nil
			}
		}},
	}
	sub, unsubscribe := n.Subscribe()
	defer unsubscribe()
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for flaky := (ServiceStatus{}); flaky.Restarts < 2; {
		select {
		case s := <-sub:
			for _, sv := range s.Services {
				if sv.Name == "flaky" {
					flaky = sv
				}
			}
			if flaky.Restarts >= 2 && flaky.LastError != "flaked" {
				t.Errorf("flaky service status = %+v", flaky)
			}
		case <-deadline:
			t.Fatal("the flaky service's restarts never showed in the status")
		}
	}
	for i := 0; i < 500 && starts.Load() < 3; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if starts.Load() < 3 {
		t.Errorf("flaky service started %d times, want 3", starts.Load())
	}
	if _, err := n.Stats(context.Background()); err != nil {
		t.Fatalf("node not serving after a service's restarts: %v", err)
	}

	close(fatal)
	waited := make(chan error, 1)
	go func() { waited <- n.Wait() }()
	select {
	case err := <-waited:
		if err == nil || err.Error() != "disk on fire" {
			t.Errorf("Wait() = %v, want the fatal service's error", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("a service that stops the node did not stop it")
	}
	if s := n.Status(); s.State != StateStopped || s.LastError != "disk on fire" {
		t.Errorf("status after the fatal error = %q, %q", s.State, s.LastError)
	}
	if _, err := n.Stats(context.Background()); !errors.Is(err, ErrNotStarted) {
		t.Errorf("Stats after the node stopped = %v, want ErrNotStarted", err)
	}
	if err := n.Stop(); err == nil || err.Error() != "disk on fire" {
		t.Errorf("Stop() after the node stopped itself = %v", err)
	}
}
