package approvals_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"mailnode/approvals"
)

func TestReadable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text\nsecond line", "plain text\nsecond line"},
		{"a\n\nb", "a\n\nb"},
		{"a\n\n\nb", "a\n\n\nb"},
		{"a\n\n\n\nb", "a\n⟦3 blank lines⟧\nb"},
		{"Hi\n" + strings.Repeat("   \n", 40) + "tail", "Hi\n⟦40 blank lines⟧\ntail"},
		{"zero\u200bwidth", "zero⟦U+200B⟧width"},
		{"soft\u00adhyphen", "soft⟦U+00AD⟧hyphen"},
		{"\u202egnp.exe", "⟦U+202E⟧gnp.exe"},
		{"bom\ufeff", "bom⟦U+FEFF⟧"},
		{"word\u2060joiner", "word⟦U+2060⟧joiner"},
		{"esc\x1b[2J", "esc⟦U+001B⟧[2J"},
		{"cr\rhidden", "cr⟦U+000D⟧hidden"},
		{"crlf\r\nline\r\n\r\n\r\n\r\nend", "crlf\nline\n⟦3 blank lines⟧\nend"},
		{"bad \xff byte", "bad ⟦0xFF⟧ byte"},
		{"a line of \u200b only\n\u200b\n\n\nb", "a line of ⟦U+200B⟧ only\n⟦U+200B⟧\n\n\nb"},
		{"tab\tkept, Grüße, 東京", "tab\tkept, Grüße, 東京"},
		// Line and paragraph separators break lines on a phone's text
		// view, so they could fake lines or hide a tail below a
		// screenful of them (outside attack 43c, finding 2); NEL too.
		{"Client id: x\u2028It asks for: bills only\u2029", "Client id: x⟦U+2028⟧It asks for: bills only⟦U+2029⟧"},
		{"P.S." + strings.Repeat("\u2028", 3) + "wire it", "P.S.⟦U+2028⟧⟦U+2028⟧⟦U+2028⟧wire it"},
		{"a\n\u2028\n\u0085\nb", "a\n⟦U+2028⟧\n⟦U+0085⟧\nb"},
	} {
		if got := approvals.Readable(tc.in); got != tc.want {
			t.Errorf("Readable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPromptNeverCut: a request whose readable form does not fit whole
// is refused, and one that fits is stored in full and shown visibly.
func TestPromptNeverCut(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	call := func(details string) (approvals.Decision, error) {
		return e.m.Request(ctx, approvals.Call{Domain: "a.example", KeyFP: keyA, Tool: "send_draft",
			Tier: approvals.Send, Args: json.RawMessage(`{"draft_id":"d_1"}`), Bind: details[:8], Details: details})
	}
	// 40,000 zero-width spaces are 120 KB, which fit; shown visibly they
	// are 480 KB, which do not.
	hidden := "To: " + strings.Repeat("\u200b", 40_000) + " <x@example.com>\n\nHello"
	if _, err := call(hidden); !errors.Is(err, approvals.ErrPromptTooLarge) {
		t.Fatalf("Request(%d bytes of zero-width) = %v, want ErrPromptTooLarge", len(hidden), err)
	}
	if p, _ := e.m.Pending(ctx); len(p) != 0 {
		t.Fatalf("a refused prompt is pending: %+v", p)
	}
	body := "Hi\n" + strings.Repeat("\n", 500) + "the tail " + strings.Repeat("x", approvals.MaxDetails-1000)
	d, err := call(body)
	if err != nil || d.Outcome != approvals.ApprovalRequired {
		t.Fatalf("Request(long body) = %+v, %v", d, err)
	}
	if got := d.Approval.Details; !strings.Contains(got, "⟦500 blank lines⟧\nthe tail") || !strings.HasSuffix(got, "xxx") {
		t.Errorf("stored details lose or hide the tail: %q…%q", got[:40], got[len(got)-20:])
	}
}
