package tools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mailnode/extract/answer"
	"mailnode/gateway/tools"
)

// factSource answers the structured tools and facts-first questions from
// fixed merged facts, and finds no mail.
type factSource struct{ facts []string }

func (f factSource) raw() []json.RawMessage {
	var out []json.RawMessage
	for _, s := range f.facts {
		out = append(out, json.RawMessage(s))
	}
	return out
}

func (factSource) TermStats(context.Context, []answer.Term) (map[string]int, int, error) {
	return map[string]int{}, 0, nil
}

func (factSource) Retrieve(context.Context, []answer.Term, map[string]int, int, int) ([]tools.Message, error) {
	return nil, nil
}
func (factSource) Text(context.Context, tools.Message) (string, bool, error) { return "", false, nil }
func (f factSource) Trips(context.Context, time.Time, time.Time, int) ([]json.RawMessage, error) {
	return f.raw(), nil
}
func (f factSource) Orders(context.Context, string, int) ([]json.RawMessage, error) {
	return f.raw(), nil
}
func (f factSource) BillsDue(context.Context, time.Time, int) ([]json.RawMessage, error) {
	return f.raw(), nil
}
func (f factSource) About(context.Context, []string, int) ([]json.RawMessage, error) {
	return f.raw(), nil
}

func run(t *testing.T, src tools.Source, name string, args any) map[string]any {
	t.Helper()
	now := func() time.Time { return time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC) }
	for _, tl := range tools.Catalog(src, nil, now) {
		if tl.Name != name {
			continue
		}
		b, _ := json.Marshal(args)
		out, err := tl.Run(context.Background(), b)
		if err != nil {
			t.Fatalf("%s(%s) = %v", name, b, err)
		}
		var m map[string]any
		j, _ := json.Marshal(out)
		json.Unmarshal(j, &m)
		return m
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// TestApartByTrust: bills_due lists under "bills" only the facts of
// authenticated, trusted senders from untainted mail; the rest are under
// "unverified", their markers kept.
func TestApartByTrust(t *testing.T) {
	for _, tt := range []struct {
		name, fact string
		listed     bool
	}{
		{"verified and trusted", `{"id":"b_1","status":"due","verified_sender":true,"trusted_sender":true}`, true},
		{"a free-mail sender with DKIM pass", `{"id":"b_2","status":"due","verified_sender":true,"trusted_sender":false}`, false},
		{"a new domain", `{"id":"b_3","status":"due","verified_sender":true,"trusted_sender":false}`, false},
		{"not authenticated", `{"id":"b_4","status":"due","verified_sender":false,"trusted_sender":false}`, false},
		{"tainted", `{"id":"b_5","status":"due","verified_sender":true,"trusted_sender":true,"tainted":true}`, false},
		{"no trust said", `{"id":"b_6","status":"due","verified_sender":true}`, false},
	} {
		out := run(t, factSource{[]string{tt.fact}}, "bills_due", map[string]any{})
		bills, _ := out["bills"].([]any)
		unverified, _ := out["unverified"].([]any)
		if got := len(bills) == 1 && len(unverified) == 0; got != tt.listed || len(bills)+len(unverified) != 1 {
			t.Errorf("%s: bills_due = %v, want listed %v", tt.name, out, tt.listed)
		}
		if !tt.listed && out["unverified_note"] == nil {
			t.Errorf("%s: bills_due = %v, want the note", tt.name, out)
		}
		if strings.Contains(tt.fact, "tainted") && !strings.Contains(jsonOf(unverified), `"tainted":true`) {
			t.Errorf("%s: the tainted marker is lost: %v", tt.name, out)
		}
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAskFromFactsTrust: a fact answers ask with its sender's standing:
// an untrusted sender's contacts are not handed out, a tainted fact does
// not answer, and a stale bill is not said to be due.
func TestAskFromFactsTrust(t *testing.T) {
	for _, tt := range []struct {
		name, fact  string
		want, avoid []string // in the answer / not in it
		trusted     bool
	}{
		{"trusted", `{"id":"b_1","issuer":"Power Call 030 1234 5678","domain":"power.example","number":"4411","status":"due","amount":{"amount":"89.00","currency":"EUR"},"due":{"at":"2026-12-20T00:00:00Z","date_only":true},"verified_sender":true,"trusted_sender":true}`,
			[]string{"89.00 EUR", "due 20 Dec 2026", "030 1234 5678"}, []string{"not trusted", "unverified"}, true},
		// An untrusted sender's fact answers only a question that names
		// its domain, never by the names its mail gives itself.
		{"a free-mail sender with DKIM pass", `{"id":"b_2","issuer":"gmail.com","domain":"gmail.com","number":"4411","status":"due","amount":{"amount":"89.00","currency":"EUR"},"due":{"at":"2026-12-20T00:00:00Z","date_only":true},"verified_sender":true,"trusted_sender":false}`,
			[]string{"No answer"}, []string{"89.00"}, false},
		{"a new domain's bill, its domain named", `{"id":"b_5","issuer":"power-billing.example","domain":"power-billing.example","number":"4411","status":"due","amount":{"amount":"89.00","currency":"EUR"},"due":{"at":"2026-12-20T00:00:00Z","date_only":true},"verified_sender":true,"trusted_sender":false}`,
			[]string{"power-billing.example bill 4411: 89.00 EUR", "sender not trusted"}, nil, false},
		{"a hotel of a new domain with DKIM pass", `{"id":"t_1","status":"confirmed","segments":[{"type":"hotel","status":"confirmed","hotel":"Power Hotel, call 030 1234 5678","check_in":{"at":"2026-12-20T00:00:00Z","date_only":true}}],"sources":[1],"verified_sender":true,"trusted_sender":false}`,
			[]string{"No answer"}, []string{"030 1234 5678", "Power Hotel"}, false},
		{"a 4-year-old unpaid bill", `{"id":"b_3","issuer":"Power","domain":"power.example","number":"4411","status":"stale","amount":{"amount":"89.00","currency":"EUR"},"due":{"at":"2022-11-01T00:00:00Z","date_only":true},"verified_sender":true,"trusted_sender":true}`,
			[]string{"stale", "1 Nov 2022"}, []string{"due"}, true},
		{"tainted", `{"id":"b_4","issuer":"Power","domain":"power.example","number":"4411","status":"due","amount":{"amount":"89.00","currency":"EUR"},"due":{"at":"2026-12-20T00:00:00Z","date_only":true},"verified_sender":true,"trusted_sender":true,"tainted":true}`,
			[]string{"No answer"}, []string{"89.00"}, false},
	} {
		q := "How much is my Power bill?"
		if strings.Contains(tt.fact, `"t_`) {
			q = "When do I check in at the Power Hotel?"
		}
		out := run(t, factSource{[]string{tt.fact}}, "ask", map[string]any{"question": q})
		a, _ := out["answer"].(string)
		for _, w := range tt.want {
			if !strings.Contains(a, w) {
				t.Errorf("%s: ask = %q, want %q in it", tt.name, a, w)
			}
		}
		for _, w := range tt.avoid {
			if strings.Contains(a, w) {
				t.Errorf("%s: ask = %q, want no %q in it", tt.name, a, w)
			}
		}
		if tr, _ := out["trusted_sender"].(bool); tr != tt.trusted {
			t.Errorf("%s: ask trusted_sender = %v, want %v", tt.name, out["trusted_sender"], tt.trusted)
		}
	}
}

// TestLookAlikeNeverOutranks: a trusted look-alike on a subdomain of its
// own registrable domain, dated after the real bill, does not answer for
// the real sender, and of two equal facts of two senders the one from
// older mail wins, whatever date the newer mail gives itself.
func TestLookAlikeNeverOutranks(t *testing.T) {
	real := `{"id":"b_2","issuer":"Telekom","domain":"telekom.de","number":"1","status":"paid","amount":{"amount":"44.95","currency":"EUR"},"updated":"2026-11-17T08:00:00Z","sources":[12],"verified_sender":true,"trusted_sender":true}`
	fake := `{"id":"b_1","issuer":"Telekom","domain":"telekom.de.rechnung-service.example","number":"7741","status":"due","amount":{"amount":"389.95","currency":"EUR"},"due":{"at":"2026-12-10T00:00:00Z","date_only":true},"updated":"2026-11-27T08:00:00Z","sources":[900],"verified_sender":true,"trusted_sender":true}`
	out := run(t, factSource{[]string{fake, real}}, "ask", map[string]any{"question": "How much is my Telekom bill?"})
	if a, _ := out["answer"].(string); !strings.Contains(a, "44.95") {
		t.Errorf("ask = %q, want the real bill", a)
	}
	sameName := strings.Replace(fake, "telekom.de.rechnung-service.example", "telekom.example", 1) // "telekom" a whole label too
	out = run(t, factSource{[]string{sameName, real}}, "ask", map[string]any{"question": "How much is my Telekom bill?"})
	if a, _ := out["answer"].(string); !strings.Contains(a, "44.95") {
		t.Errorf("ask = %q, want the real bill", a)
	}
}
