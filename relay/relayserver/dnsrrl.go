package relayserver

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Response rate limiting for the DNS over UDP, in the spirit of BIND's
// RRL: a UDP query's source address can be forged, so an answer to
// anyone is a reflector aimed at whoever the forger names. Responses are
// counted per client network (an IPv4 /24, an IPv6 /56, as the relay's
// other per-network limits); past the network's rate, one response in
// dnsSlip is sent truncated (TC=1, no records: smaller than the query,
// and a real resolver retries over TCP, which a forged source cannot
// complete) and the others are dropped. TCP is not limited this way:
// its handshake proves the source address.

// dnsSlip is BIND's "slip 2": every second response past the limit is a
// truncated one, the rest are dropped.
const dnsSlip = 2

// maxDNSNets bounds the limiter's table; past it, new networks share
// one bucket until the sweep frees room, so memory stays bounded under
// a flood of forged sources.
const maxDNSNets = 100_000

type dnsVerdict int

const (
	dnsAnswer dnsVerdict = iota
	dnsTruncate
	dnsDrop
)

// dnsLimiter is a token bucket per client network.
type dnsLimiter struct {
	rate, burst float64 // tokens per second, bucket size
	now         func() time.Time
	limited     atomic.Uint64 // responses truncated or dropped

	mu    sync.Mutex // guards the fields below
	nets  map[netip.Prefix]*dnsBucket
	swept time.Time
}

type dnsBucket struct {
	tokens float64
	last   time.Time
	over   uint32 // responses past the limit, for the slip
}

// newDNSLimiter limits to rate responses per second per network, with
// bursts of twice that; nil (no limit) if rate is not positive.
func newDNSLimiter(rate float64, now func() time.Time) *dnsLimiter {
	if rate <= 0 {
		return nil
	}
	return &dnsLimiter{rate: rate, burst: 2 * rate, now: now, nets: map[netip.Prefix]*dnsBucket{}, swept: now()}
}

// check takes a response's token for the network of addr. What is not a
// UDP address (TCP) is always answered.
func (l *dnsLimiter) check(addr net.Addr) dnsVerdict {
	if l == nil {
		return dnsAnswer
	}
	ua, ok := addr.(*net.UDPAddr)
	if !ok {
		return dnsAnswer
	}
	key := udpNetwork(ua)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > 10*time.Second {
		// A bucket refilled to the brim is the same as none.
		full := time.Duration(l.burst / l.rate * float64(time.Second))
		for k, b := range l.nets {
			if now.Sub(b.last) >= full {
				delete(l.nets, k)
			}
		}
		l.swept = now
	}
	b := l.nets[key]
	if b == nil {
		if len(l.nets) >= maxDNSNets {
			key = netip.Prefix{}
			b = l.nets[key]
		}
		if b == nil {
			b = &dnsBucket{tokens: l.burst, last: now}
			l.nets[key] = b
		}
	}
	if dt := now.Sub(b.last); dt > 0 {
		b.tokens = min(l.burst, b.tokens+dt.Seconds()*l.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return dnsAnswer
	}
	l.limited.Add(1)
	b.over++
	if b.over%dnsSlip == 0 {
		return dnsTruncate
	}
	return dnsDrop
}

// udpNetwork is addr's client network: its IPv4 /24 or IPv6 /56 (an
// address that carries an IPv4 one is that one), as clientNetwork,
// without allocating.
func udpNetwork(addr *net.UDPAddr) netip.Prefix {
	ip, ok := netip.AddrFromSlice(addr.IP)
	if !ok {
		return netip.Prefix{}
	}
	ip = embeddedIPv4(ip)
	bits := 56
	if ip.Is4() {
		bits = 24
	}
	p, _ := ip.Prefix(bits)
	return p
}
