package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"mailnode/app/localapi"
	"mailnode/approvals"
)

// pushBackend is the part of the local API listApprovals reads: a
// request waiting, and the phones given.
type pushBackend struct {
	localapi.Backend
	phones []approvals.Phone
}

func (b pushBackend) Pending(context.Context) ([]approvals.Approval, error) {
	return []approvals.Approval{{ID: "apr_1", MatchCode: "ABC-DEF", Domain: "agent.example", Tool: "send_draft",
		Tier: approvals.Send, ExpiresAt: time.Now().Add(time.Minute)}}, nil
}
func (b pushBackend) Grants(context.Context) ([]approvals.Grant, error) { return nil, nil }
func (b pushBackend) Phones(context.Context) ([]approvals.Phone, error) { return b.phones, nil }

// TestApprovalsListSaysNoPush (issue 44): with a request waiting,
// `mailnode approvals list` says when no paired phone can be reached by
// push, and not when one can.
func TestApprovalsListSaysNoPush(t *testing.T) {
	const warning = "No paired phone gets push notifications"
	at := time.Now()
	tests := []struct {
		name   string
		phones []approvals.Phone
		warn   bool
	}{
		{"no phone", nil, true},
		{"push off", []approvals.Phone{{State: approvals.PhonePaired}}, true},
		{"last push refused", []approvals.Phone{{State: approvals.PhonePaired,
			Push: approvals.PushStatus{On: true, LastAt: at, LastResult: "refused by the push service (403)"}}}, true},
		{"pending phone only", []approvals.Phone{{State: approvals.PhonePending, Push: approvals.PushStatus{On: true}}}, true},
		{"subscribed", []approvals.Phone{{State: approvals.PhonePaired, Push: approvals.PushStatus{On: true}}}, false},
		{"last push accepted", []approvals.Phone{{State: approvals.PhonePaired,
			Push: approvals.PushStatus{On: true, LastAt: at, LastOK: true, LastResult: "accepted"}}}, false},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := listApprovals(context.Background(), pushBackend{phones: tt.phones}, 0, &out); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), warning); got != tt.warn {
			t.Errorf("%s: approvals list printed\n%s\nwarning shown %v, want %v", tt.name, out.String(), got, tt.warn)
		}
	}
}

// TestPushStatusText: how `mailnode phones` and the Phones window say a
// phone's push state.
func TestPushStatusText(t *testing.T) {
	at := time.Date(2026, 11, 28, 9, 30, 0, 0, time.Local)
	tests := []struct {
		st   approvals.PushStatus
		want string
	}{
		{approvals.PushStatus{}, "off"},
		{approvals.PushStatus{On: true}, "on, nothing pushed yet"},
		{approvals.PushStatus{On: true, LastAt: at, LastOK: true, LastResult: "accepted"}, "on, last push accepted 2026-11-28 09:30:00"},
		{approvals.PushStatus{LastAt: at, LastResult: "refused: the push service no longer knows this subscription (410); push is off until the phone subscribes again"},
			"off, last push 2026-11-28 09:30:00: refused: the push service no longer knows this subscription (410)"},
	}
	for _, tt := range tests {
		if got := tt.st.String(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%+v.String() = %q, want %q", tt.st, got, tt.want)
		}
	}
}
