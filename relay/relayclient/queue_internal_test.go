package relayclient

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"mailnode/relay"
)

// deliveryLine is the line the relay writes for an envelope.
func deliveryLine(id string, sealed []byte) string {
	b, _ := json.Marshal(relay.QueueDelivery{RequestID: id, Envelope: base64.RawURLEncoding.EncodeToString(sealed)})
	return string(b) + "\n"
}

// serveLines runs serveQueue on a stream that carries in, and returns the
// acknowledgements it wrote, by request_id, once it has acknowledged
// every id of want (acknowledgements come in any order), failing the test
// after 10 s.
func serveLines(t testing.TB, queue func(context.Context, []byte) ([]byte, error), in string, want ...string) map[string]relay.QueueAck {
	t.Helper()
	node, relayEnd := net.Pipe()
	defer relayEnd.Close()
	tun := &Tunnel{Queue: queue}
	done := make(chan struct{})
	go func() { defer close(done); defer node.Close(); tun.serveQueue(context.Background(), node) }()
	go func() { relayEnd.Write([]byte(in)) }()
	acks := map[string]relay.QueueAck{}
	relayEnd.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(relayEnd)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			t.Fatalf("no acknowledgement of %s: %v; got %v", want, err, acks)
		}
		var ack relay.QueueAck
		if err := json.Unmarshal(line, &ack); err != nil {
			t.Fatalf("acknowledgement %q: %v", line, err)
		}
		acks[ack.RequestID] = ack
		all := true
		for _, id := range want {
			_, seen := acks[id]
			all = all && seen
		}
		if all {
			relayEnd.Close()
			<-done
			return acks
		}
	}
}

// TestServeQueueHostileLines: what a broken or hostile relay may write on
// a delivery stream never stops the envelopes behind it. Each case's lines
// are followed by a good delivery, which is taken and acknowledged with
// its reply; an envelope that never will open is acknowledged without a
// reply; a line without a request_id is skipped.
func TestServeQueueHostileLines(t *testing.T) {
	queue := func(_ context.Context, sealed []byte) ([]byte, error) {
		switch string(sealed) {
		case "not now":
			return nil, errors.New("the gateway is not running")
		case "panics":
			panic("a bug")
		case "no reply":
			return nil, nil
		}
		return append([]byte("reply to "), sealed...), nil
	}
	long := strings.Repeat("A", maxDeliveryLine)
	tests := []struct {
		name  string
		lines string
		acked map[string]string // request_id: reply (base64url of it)
	}{
		{"not JSON", "hello\n", nil},
		{"empty line", "\n", nil},
		{"a JSON array", "[1,2,3]\n", nil},
		{"no request_id", `{"envelope":"AAAA"}` + "\n", nil},
		{"NUL bytes and invalid UTF-8", "\x00\xff\xfe{\x00}\n", nil},
		{"envelope not base64url", `{"request_id":"bad-b64","envelope":"a+b/"}` + "\n", map[string]string{"bad-b64": ""}},
		{"envelope not a string", `{"request_id":"num-env","envelope":12}` + "\n", nil},
		{"envelope over the limit", deliveryLine("too-big", make([]byte, relay.MaxEnvelope+1)), map[string]string{"too-big": ""}},
		{"largest envelope", deliveryLine("largest", make([]byte, relay.MaxEnvelope)),
			map[string]string{"largest": base64.RawURLEncoding.EncodeToString(append([]byte("reply to "), make([]byte, relay.MaxEnvelope)...))}},
		{"line over the limit, request_id first", `{"request_id":"long-line","envelope":"` + long + `"}` + "\n", map[string]string{"long-line": ""}},
		{"line over the limit, request_id last", `{"envelope":"` + long + `","request_id":"long-last"}` + "\n", nil},
		{"line over the limit, no JSON", strings.Repeat("x", 4*maxDeliveryLine) + "\n", nil},
		{"request_id over the limit", `{"request_id":"` + long + `"}` + "\n", nil},
		{"handler cannot take it now", deliveryLine("not-now", []byte("not now")), nil},
		{"handler panics", deliveryLine("panics", []byte("panics")), map[string]string{"panics": ""}},
		{"handler has no reply", deliveryLine("no-reply", []byte("no reply")), map[string]string{"no-reply": ""}},
		{"lines mixed", "junk\n" + deliveryLine("mixed-1", []byte("one")) + "\n[]\n" + deliveryLine("mixed-2", []byte("two")),
			map[string]string{"mixed-1": base64.RawURLEncoding.EncodeToString([]byte("reply to one")),
				"mixed-2": base64.RawURLEncoding.EncodeToString([]byte("reply to two"))}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			good := fmt.Sprintf("good-%02d", i)
			want := []string{good}
			for id := range tt.acked {
				want = append(want, id)
			}
			acks := serveLines(t, queue, tt.lines+deliveryLine(good, []byte("good")), want...)
			if got, want := acks[good].Reply, base64.RawURLEncoding.EncodeToString([]byte("reply to good")); got != want {
				t.Errorf("the good delivery's reply = %q, want %q", got, want)
			}
			delete(acks, good)
			for id, reply := range tt.acked {
				ack, ok := acks[id]
				if !ok || ack.Reply != reply {
					t.Errorf("ack of %s = %+v (%v), want reply %.40q", id, ack, ok, reply)
				}
				delete(acks, id)
			}
			for id := range acks {
				t.Errorf("unexpected ack of %.40q", id)
			}
		})
	}
}

// TestServeQueueSlowEnvelope: an envelope whose check takes long (its
// agent's key document is slow to come) does not hold up the ones behind
// it: here the first is done only once the second has been taken.
func TestServeQueueSlowEnvelope(t *testing.T) {
	second := make(chan struct{})
	queue := func(_ context.Context, sealed []byte) ([]byte, error) {
		switch string(sealed) {
		case "slow":
			select {
			case <-second:
			case <-time.After(15 * time.Second):
			}
		case "second":
			close(second)
		}
		return sealed, nil
	}
	start := time.Now()
	serveLines(t, queue, deliveryLine("slow", []byte("slow"))+deliveryLine("second", []byte("second")), "slow", "second")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the envelope behind a slow one waited for it: %v", d)
	}
}

// TestLineReader: every line up to the limit comes back whole, however
// it falls across the reader's buffer, and a longer one is cut and read
// past.
func TestLineReader(t *testing.T) {
	const max = 100
	for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 99, 100, 101, 250} {
		line := strings.Repeat(string(rune('a'+n%26)), n)
		in := line + "\n" + "next\n"
		lr := lineReader{r: bufio.NewReaderSize(strings.NewReader(in), 16), max: max}
		got, err := lr.next()
		switch {
		case n > max && (!errors.Is(err, errLineTooLong) || string(got) != line[:max]):
			t.Errorf("line of %d: %d bytes, %v; want its first %d and errLineTooLong", n, len(got), err, max)
		case n <= max && (err != nil || string(got) != line):
			t.Errorf("line of %d: %q, %v", n, got, err)
		}
		if got, err := lr.next(); err != nil || string(got) != "next" {
			t.Errorf("after a line of %d: %q, %v; want the next line", n, got, err)
		}
	}
	lr := lineReader{r: bufio.NewReaderSize(strings.NewReader("no newline"), 16), max: max}
	if got, err := lr.next(); err == nil {
		t.Errorf("a line cut by the stream's end = %q, want an error", got)
	}
}

// FuzzServeQueue: whatever a relay writes before a newline, the good
// delivery after it is taken and acknowledged.
func FuzzServeQueue(f *testing.F) {
	f.Add([]byte("hello"))
	f.Add([]byte(`{"request_id":"x","envelope":"AAAA"}`))
	f.Add([]byte(`{"request_id":"y","envelope":"a+b/"}` + "\n" + `{"request_id":""}`))
	f.Add([]byte(`{"request_id":"` + strings.Repeat("A", maxDeliveryLine)))
	f.Add([]byte{0, 0xff, '\n', '{'})
	queue := func(_ context.Context, sealed []byte) ([]byte, error) { return sealed, nil }
	f.Fuzz(func(t *testing.T, junk []byte) {
		acks := serveLines(t, queue, string(junk)+"\n"+deliveryLine("fuzz-good", []byte("good")), "fuzz-good")
		if acks["fuzz-good"].Reply != base64.RawURLEncoding.EncodeToString([]byte("good")) {
			t.Fatalf("the good delivery's ack = %+v", acks["fuzz-good"])
		}
	})
}
