package push_test

import (
	"net/url"
	"testing"

	"mailnode/approvals/push"
)

// FuzzParseSubscription: whatever a phone sends, ParseSubscription either
// refuses it or returns an https URL on port 443 within MaxEndpoint bytes
// and keys that parse.
func FuzzParseSubscription(f *testing.F) {
	f.Add([]byte(`{"endpoint":"https://fcm.googleapis.com/fcm/send/abc","expirationTime":null,"keys":{"p256dh":"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4","auth":"BTBZMqHH6r4Tts7J_aSIgg"}}`))
	f.Add([]byte(`{"endpoint":"https://[::1]:443/x","keys":{"p256dh":"","auth":""}}`))
	f.Add([]byte(`{"endpoint":"https://a@b/x#f"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		sub, u, err := push.ParseSubscription(body)
		if err != nil {
			return
		}
		again, perr := url.Parse(sub.Endpoint)
		if perr != nil || u.Scheme != "https" || again.Scheme != "https" || (u.Port() != "" && u.Port() != "443") ||
			len(sub.Endpoint) > push.MaxEndpoint || u.User != nil || u.Hostname() == "" {
			t.Fatalf("ParseSubscription(%q) took %q", body, sub.Endpoint)
		}
	})
}
