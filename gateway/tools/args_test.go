package tools_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"mailnode/gateway/tools"
)

func TestCheckArguments(t *testing.T) {
	for _, tc := range []struct {
		args string
		ok   bool
	}{
		{``, true},
		{`null`, true},
		{`{}`, true},
		{`{"query":"A"}`, true},
		{`{"to":["a@example.com","b@example.com"],"body":"x","cc":[]}`, true},
		{`{"nested":{"a":1,"b":{"c":[{"d":1},{"d":2}]}}}`, true},
		{`{"query":"A","Query":"B"}`, false},
		{`{"query":"A","query":"B"}`, false},
		{`{"Query":"B"}`, false},
		{`{"QUERY":"B"}`, false},
		{"{\"\u017fubject\":\"s\"}", false}, // long s folds to s in encoding/json
		{"{\"draft_id\":\"d_1\",\"draft_\u0131d\":\"d_2\"}", false},
		{`{"x":{"k":1,"K":2}}`, false},
		{"{\"x\":{\"k\":1,\"\u212a\":2}}", false}, // Kelvin sign
		{`{"a":[{"b":1,"b":2}]}`, false},
		{`["query"]`, false},
		{`"query"`, false},
		{`{"query":"A"} {"query":"B"}`, false},
		{`{"query":`, false},
		{`{"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, false},
	} {
		err := tools.CheckArguments(json.RawMessage(tc.args))
		var te *tools.Error
		switch {
		case tc.ok && err != nil:
			t.Errorf("CheckArguments(%s) = %v, want nil", tc.args, err)
		case !tc.ok && (!errors.As(err, &te) || te.Code != "invalid_arguments"):
			t.Errorf("CheckArguments(%s) = %v, want invalid_arguments", tc.args, err)
		}
	}
}

// FuzzCheckArguments: whatever it accepts decodes to one object whose
// keys no two readers could match differently.
func FuzzCheckArguments(f *testing.F) {
	for _, s := range []string{`{"query":"A"}`, `{"query":"A","Query":"B"}`, `{"to":["x"],"body":"y"}`, `{"a":{"b":[1,{"c":2}]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tools.CheckArguments(json.RawMessage(s)) != nil {
			return
		}
		var m map[string]json.RawMessage
		if strings.TrimSpace(s) == "" || strings.TrimSpace(s) == "null" {
			return
		}
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("accepted %q, which is not a JSON object: %v", s, err)
		}
		seen := map[string]string{}
		for k := range m {
			l := strings.ToLower(k)
			if other, ok := seen[l]; ok {
				t.Fatalf("accepted %q with keys %q and %q", s, k, other)
			}
			seen[l] = k
		}
	})
}
