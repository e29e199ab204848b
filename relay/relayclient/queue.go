package relayclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"runtime/debug"
	"sync"
	"time"

	"mailnode/relay"
)

// maxDeliveryLine bounds one delivery line, without its newline: the
// largest envelope's base64url (relay.MaxEnvelope sealed bytes), a
// request_id and the JSON around them. The relay never writes a longer
// one.
const maxDeliveryLine = (relay.MaxEnvelope*4+2)/3 + 1024

// queueLineTimeout bounds the wait for each line of a delivery.
const queueLineTimeout = 2 * routeTimeout

// errLineTooLong is a delivery line over maxDeliveryLine.
var errLineTooLong = errors.New("queue delivery line too long")

// queueWorkers is how many envelopes of one delivery are handled at
// once: checking one may wait seconds for an agent's key document, and
// one stranger's slow envelopes must not hold up the others past the
// relay's 30 s round. Memory stays bounded: a line each.
const queueWorkers = 8

// serveQueue takes the envelopes of one delivery (docs/relay.md, "The
// offline queue"), a relay.QueueDelivery a line, and acknowledges each
// once Queue has taken it, in the order they are done. Nothing the relay
// sends stops the envelopes behind it: a line that is not a delivery is
// skipped; one too long is read past, keeping only its first
// maxDeliveryLine bytes, and acknowledged if its request_id can be read;
// an envelope that is not base64url or is over the limit is acknowledged
// without a reply, as it never will open; one Queue cannot take now is
// left unacknowledged, for the relay to deliver again, while the next
// ones are taken.
func (t *Tunnel) serveQueue(ctx context.Context, st net.Conn) {
	var wg sync.WaitGroup
	defer wg.Wait()
	var mu sync.Mutex // serialises the acknowledgements
	send := func(ack relay.QueueAck) {
		b, _ := json.Marshal(ack)
		mu.Lock()
		defer mu.Unlock()
		// A failed write means the stream is gone: the read below
		// fails too and ends the delivery.
		st.SetWriteDeadline(time.Now().Add(queueLineTimeout))
		st.Write(append(b, '\n'))
	}
	workers := make(chan struct{}, queueWorkers)
	lr := lineReader{r: bufio.NewReader(st), max: maxDeliveryLine}
	for ctx.Err() == nil {
		st.SetReadDeadline(time.Now().Add(queueLineTimeout))
		line, err := lr.next()
		switch {
		case errors.Is(err, errLineTooLong):
			t.debug("Dropped a queue delivery line over the limit")
			if id := leadingRequestID(line); id != "" {
				send(relay.QueueAck{RequestID: id})
			}
			continue
		case err != nil:
			return
		}
		select {
		case workers <- struct{}{}:
		case <-ctx.Done():
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-workers }()
			if ack, ok := t.take(ctx, line); ok {
				send(ack)
			}
		}()
	}
}

// take hands one delivery line's envelope to Queue and returns its
// acknowledgement; ok is false when there is none to send.
func (t *Tunnel) take(ctx context.Context, line []byte) (ack relay.QueueAck, ok bool) {
	var d relay.QueueDelivery
	if json.Unmarshal(line, &d) != nil || d.RequestID == "" {
		t.debug("Skipped a queue delivery line that is not a delivery")
		return relay.QueueAck{}, false
	}
	ack.RequestID = d.RequestID
	sealed, err := base64.RawURLEncoding.DecodeString(d.Envelope)
	if err != nil || len(sealed) > relay.MaxEnvelope {
		t.debug("Dropped a queued envelope that is not base64url or is over the limit")
		return ack, true
	}
	// An envelope whose handling panics would panic again at every
	// delivery: it is acknowledged, and the node keeps serving.
	defer func() {
		if p := recover(); p != nil {
			if t.Log != nil {
				t.Log.Error("Handling a queued envelope panicked", "panic", p, "stack", string(debug.Stack()))
			}
			ack, ok = relay.QueueAck{RequestID: d.RequestID}, true
		}
	}()
	reply, err := t.Queue(ctx, sealed)
	if err != nil {
		return ack, false // the relay delivers it again later
	}
	if reply != nil {
		ack.Reply = base64.RawURLEncoding.EncodeToString(reply)
	}
	return ack, true
}

func (t *Tunnel) debug(msg string) {
	if t.Log != nil {
		t.Log.Debug(msg)
	}
}

// lineReader reads lines of at most max bytes. Each chunk is copied out
// of the bufio.Reader before the next read reuses its buffer.
type lineReader struct {
	r   *bufio.Reader
	max int
}

// next returns the next line without its newline. A longer line than max
// is read to its end: next returns its first max bytes and
// errLineTooLong. A line the stream ends in the middle of is an error.
func (l *lineReader) next() ([]byte, error) {
	var line []byte
	n := 0
	for {
		chunk, err := l.r.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
		end := err == nil
		if end {
			chunk = chunk[:len(chunk)-1]
		}
		n += len(chunk)
		if room := l.max - len(line); room > 0 {
			line = append(line, chunk[:min(len(chunk), room)]...)
		}
		if end {
			if n > l.max {
				return line, errLineTooLong
			}
			return line, nil
		}
	}
}

// leadingRequestID reads the request_id of a delivery line cut short:
// the relay writes it first, before the envelope.
func leadingRequestID(prefix []byte) string {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		if key == "request_id" {
			v, _ := dec.Token()
			id, _ := v.(string)
			return id
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}
