package demo

import (
	"strings"
	"testing"
	"testing/fstest"

	"mailnode/assets"
)

// TestProblemStep (issue 42 item 9): the sample's message broken on
// purpose is told as such, not as a problem of the demo; others are not.
func TestProblemStep(t *testing.T) {
	tests := []struct {
		problems, onPurpose int
		want, wantNot       string
	}{
		{1, 1, "The sample mailbox holds 1 message broken on purpose", "could not be decoded"},
		{2, 2, "holds 2 messages broken on purpose", "could not be decoded"},
		{2, 1, "2 messages had a MIME part that could not be decoded (1 of them broken on purpose", "holds"},
		{1, 0, "1 message had a MIME part that could not be decoded", "holds"},
	}
	for _, tt := range tests {
		got := problemStep(tt.problems, tt.onPurpose)
		if !strings.Contains(got, tt.want) || strings.Contains(got, tt.wantNot) {
			t.Errorf("problemStep(%d, %d) = %q, want %q and not %q", tt.problems, tt.onPurpose, got, tt.want, tt.wantNot)
		}
	}
}

func TestBrokenOnPurpose(t *testing.T) {
	if got := brokenOnPurpose(assets.DemoMailbox()); got != 1 {
		t.Errorf("brokenOnPurpose(the sample mailbox) = %d, want 1 (INBOX/44-broken-mime.eml)", got)
	}
	fsys := fstest.MapFS{"INBOX/01-a.eml": {}, "INBOX/02-broken-x.eml": {}, "Sent/03-broken-y.eml": {}, "Archive/broken.eml": {}}
	if got := brokenOnPurpose(fsys); got != 2 {
		t.Errorf("brokenOnPurpose(%v) = %d, want 2", fsys, got)
	}
}
