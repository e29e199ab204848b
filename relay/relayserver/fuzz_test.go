package relayserver_test

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relayserver"
)

// clientHello records the first flight of a real TLS client for name.
func clientHello(t testing.TB, name string) []byte {
	a, b := net.Pipe()
	go func() {
		tls.Client(a, &tls.Config{ServerName: name, InsecureSkipVerify: true}).Handshake()
		a.Close()
	}()
	b.SetReadDeadline(time.Now().Add(2 * time.Second))
	_, peeked, err := relayserver.PeekClientHello(b)
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	return peeked
}

// fragment splits the handshake message of a one-record hello into
// records of n bytes each, as a client may.
func fragment(hello []byte, n int) []byte {
	body := hello[5:]
	var out []byte
	for len(body) > 0 {
		k := min(n, len(body))
		out = append(out, hello[0], hello[1], hello[2], byte(k>>8), byte(k))
		out = append(out, body[:k]...)
		body = body[k:]
	}
	return out
}

func TestPeekClientHello(t *testing.T) {
	hello := clientHello(t, "abcdefghijklmnop.relay.example")
	tests := []struct {
		name  string
		in    []byte
		want  string
		fails bool
	}{
		{"one record", hello, "abcdefghijklmnop.relay.example", false},
		{"records of 100 bytes", fragment(hello, 100), "abcdefghijklmnop.relay.example", false},
		{"records of 1 byte", fragment(hello, 1), "abcdefghijklmnop.relay.example", false},
		{"cut short", hello[:len(hello)/2], "", true},
		{"not TLS", []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "", true},
		{"empty", nil, "", true},
		{"endless records", bytes.Repeat([]byte{22, 3, 1, 0, 4, 1, 0, 0xff, 0xff}, 10000), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, peeked, err := relayserver.PeekClientHello(bytes.NewReader(tt.in))
			if tt.fails {
				if err == nil {
					t.Fatalf("PeekClientHello = %q, want an error", name)
				}
				return
			}
			if err != nil || name != tt.want || !bytes.Equal(peeked, tt.in) {
				t.Fatalf("PeekClientHello = %q, %d bytes, %v; want %q and every byte", name, len(peeked), err, tt.want)
			}
		})
	}
}

// FuzzPeekClientHello: any bytes give a name and at most the cap, or an
// error; never a panic, and what was peeked is a prefix of the input.
func FuzzPeekClientHello(f *testing.F) {
	hello := clientHello(f, "abcdefghijklmnop.relay.example")
	f.Add(hello)
	f.Add(fragment(hello, 7))
	f.Add([]byte{22, 3, 1, 0, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		_, peeked, err := relayserver.PeekClientHello(bytes.NewReader(in))
		if err == nil && (!bytes.HasPrefix(in, peeked) || len(peeked) > 32<<10) {
			t.Fatalf("peeked %d bytes not a prefix of the input", len(peeked))
		}
	})
}

// FuzzNormalizeAddress: an accepted address is trimmed, lower case, has
// one @ and a dotted domain, and normalising it again changes nothing.
func FuzzNormalizeAddress(f *testing.F) {
	for _, s := range []string{"ann@example.com", " Ann@Example.COM ", "a@b", "@x.y", "a@@b.c", "a@b..c", "\u200ba@b.c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, ok := relayserver.NormalizeAddress(in)
		if !ok {
			return
		}
		if out != strings.ToLower(strings.TrimSpace(out)) || strings.Count(out, "@") != 1 || len(out) > 254 {
			t.Fatalf("NormalizeAddress(%q) = %q", in, out)
		}
		if again, ok := relayserver.NormalizeAddress(out); !ok || again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
	})
}

// FuzzResolveBody: any body gets 200 with a complete answer or 400 with
// bad_request or invalid_address; never a server error or a panic.
func FuzzResolveBody(f *testing.F) {
	for _, s := range []string{`{"address":"ann@example.com"}`, `{"address":" ANN@example.com "}`, `{"address":1}`,
		`{"address":"a@b.c"} {}`, `[]`, ``, `{"address":"a@b.c","x":[1,2]}`, `{"address":null}`, "{\"address\":\"\u00e9@b.c\"}"} {
		f.Add([]byte(s))
	}
	r := newRelay(f, "", relayserver.Limits{ClientRate: 1e9, ClientBurst: 1e9, GlobalRate: 1e9, GlobalBurst: 1e9})
	h := r.srv.Handler()
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, relay.PathResolve, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		switch w.Code {
		case http.StatusOK:
			var res relay.Resolution
			if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil || !res.Complete() {
				t.Fatalf("200 with %q for %q", w.Body.String(), body)
			}
		case http.StatusBadRequest:
			var e relay.Error
			if json.Unmarshal(w.Body.Bytes(), &e) != nil || (e.Code != "bad_request" && e.Code != "invalid_address") {
				t.Fatalf("400 with %q for %q", w.Body.String(), body)
			}
		default:
			t.Fatalf("status %d for %q", w.Code, body)
		}
	})
}

// FuzzQueueBody: whatever an agent posts to the queue, the answer is one
// of the queue's (202 with a receipt, 400, 413, 507) with the relay's
// error body, and a 202's envelope is stored as posted.
func FuzzQueueBody(f *testing.F) {
	for _, s := range []string{queueBody(100, ""), queueBody(100, "retry-id-1"), queueBody(40, ""), `{"envelope":"a+b"}`,
		`{"envelope":null}`, `[]`, ``, `{"envelope":"` + strings.Repeat("A", 80) + `","request_id":7}`, queueBody(100, "") + " {}"} {
		f.Add([]byte(s))
	}
	r := newRelay(f, "", relayserver.Limits{ClientRate: 1e9, ClientBurst: 1e9, GlobalRate: 1e9, GlobalBurst: 1e9})
	h := r.srv.Handler()
	path := relay.PathQueue + "/" + relayserver.NewLabel() + ".relay.example"
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		switch w.Code {
		case http.StatusAccepted:
			var q relay.Queued
			if err := json.Unmarshal(w.Body.Bytes(), &q); err != nil || q.RequestID == "" || q.ExpiresAt == 0 {
				t.Fatalf("202 with %q for %q", w.Body.String(), body)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusInsufficientStorage:
			var e relay.Error
			if json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Code == "" || e.Detail == "" {
				t.Fatalf("%d with %q for %q", w.Code, w.Body.String(), body)
			}
		default:
			t.Fatalf("status %d for %q", w.Code, body)
		}
	})
}
