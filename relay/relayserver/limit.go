package relayserver

import (
	"context"
	"math"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// limiter is a token bucket per client, one per client network, one per
// provider, and one for everyone. A request takes from its client's
// bucket, then, only if that passed, from its network's, then its
// provider's, then everyone's: a request refused at one level spends
// nothing of the levels after it (one address refused at 10/s could
// otherwise keep everyone at 429 by sending 2,000/s). Whichever runs
// dry, the answer is the same 429. No address is exempt, loopback
// included: a relay behind a proxy sees one address and must be given
// limits that fit it.
//
// A client is its IPv4 address or its IPv6 /64 (clientKey), a network
// its IPv4 /24 or its IPv6 /48 (networkOf), a provider its IPv6 /32
// (providerOf; an IPv4 client has none). The network level is there so
// that spending everyone's rate takes many networks, not many clients:
// 200 clients at 10/s spend the 2,000, and one home's IPv6 /56 holds
// 256 /64s; at 40/s a network, it takes addresses in 50 networks. The
// provider level is there because IPv6 networks come cheap in numbers:
// one routed /42 holds 64 /48s, a tunnel broker gives several /48s to
// one free account, so at a tenth of everyone's rate a provider, it
// takes addresses in ten /32s (issue 47's outside attack, round 2,
// finding 4). An address that carries an IPv4 one (IPv4-mapped, 6to4,
// Teredo, NAT64's well-known prefix) is that IPv4 address at every
// level (embeddedIPv4): 6to4 gives every IPv4 address a /48 of its own,
// and Teredo's /64 is its server's, not its client's.
//
// Every request of the API passes here, so it takes no lock: a bucket is
// one atomic word (bucket), and the buckets of clients, networks and
// providers are in a sync.Map, which finds a key already there without a
// lock. A mutex here (and golang.org/x/time/rate's in each bucket) was
// most of the contention a mutex profile of resolve found once its store
// lookup took none (issue 47).
//
// The buckets reckon in nanoseconds since start on the clock's monotonic
// reading (time.Now's carries one), so a wall clock stepped back (an NTP
// step, a restored VM) refuses nothing. A clock without one (a test's)
// reckons by its wall time, and a bucket whose "full again at" lies
// further ahead than any request leaves it counts as full (bucket.take).
//
// The table stays small and cannot be filled to lock new clients out: a
// bucket full again is forgotten at the next sweep (forgetting it changes
// no answer), so an entry lives only while its client, network or
// provider keeps sending near its rate; and past maxClients entries,
// every level's counted together, a new key is a coarser prefix
// (keyPast) instead of one bucket shared with everyone else who is new.
// The sweep runs off the request path, in sweepEvery, which Run runs.
type limiter struct {
	now      func() time.Time
	start    time.Time // what the buckets reckon from
	client   bucketRate
	network  bucketRate
	provider bucketRate
	global   bucketRate
	all      bucket
	every    time.Duration // the mean time between sweeps

	// table holds the buckets: a client's under its clientKey (a
	// string), a network's under its prefix (a netip.Prefix), a
	// provider's under its /32 as a provider, so that no two levels
	// share a key even where a key past the table's bound names the
	// same prefix as another level's.
	table sync.Map     // string, netip.Prefix or provider → *bucket
	count atomic.Int64 // entries in table
}

// The table's bounds, clients', networks' and providers' entries
// together. Up to maxClients entries a client is its IPv4 address or its IPv6 /64
// (clientKey) and a network its IPv4 /24 or IPv6 /48 (networkOf); past
// it, a new client is its IPv4 /24 or its IPv6 /48, past maxClients48 a
// new client or network is its IPv4 /24 or IPv6 /32, and past
// maxClientsAll, which bounds the memory (about 160 bytes an entry:
// 56 MB), a new client shares one bucket with every client new since,
// a new network one bucket with every network new since, and a new
// provider one with every provider new since (keyPast).
//
// One routed IPv6 /32 holds 2^32 /64s and 65,536 /48s, enough for the
// first two steps, but it is one /32; the last step takes addresses in
// 100,000 networks more.
const (
	maxClients    = 200_000
	maxClients48  = 250_000
	maxClientsAll = 350_000
)

// sweepMean is the mean time between sweeps: the time a bucket of the
// default limits takes to fill again from empty (100 at 10/s, a
// network's 400 at 40/s).
const sweepMean = 10 * time.Second

func newLimiter(l Limits, now func() time.Time) *limiter {
	lim := &limiter{now: now, start: now(), every: sweepMean,
		client:   newBucketRate(l.ClientRate, l.ClientBurst),
		network:  newBucketRate(l.NetworkRate, l.NetworkBurst),
		provider: newBucketRate(l.ProviderRate, l.ProviderBurst),
		global:   newBucketRate(l.GlobalRate, l.GlobalBurst)}
	// A sync.Map sets itself up at its first use, under a lock: use it
	// here, so that the first requests do not meet on that lock (it was
	// the limiter's one entry in a mutex profile of resolve).
	lim.table.Load("")
	return lim
}

// epoch is where the limiter's clock starts: 2^62 ns (146 years), so
// that a bucket's zero value lies long before any time it reckons,
// whatever a clock without a monotonic reading does, and is full.
const epoch = 1 << 62

// elapsed is the limiter's clock: nanoseconds since start, by the
// monotonic reading when both times carry one, from epoch.
func (l *limiter) elapsed() int64 { return epoch + int64(l.now().Sub(l.start)) }

// allow takes a token for client (a clientKey) from its bucket, then,
// if that passed, from its network's, then, if that passed, from its
// provider's (an IPv6 client's only), then, if that passed, from the
// global one.
func (l *limiter) allow(client string) bool {
	if !l.take(client, l.client) {
		return false
	}
	network := networkOf(client)
	if !l.take(network, l.network) {
		return false
	}
	if p, ok := providerOf(network); ok && !l.take(p, l.provider) {
		return false
	}
	return l.takeGlobal()
}

func (l *limiter) takeGlobal() bool {
	ok, _ := l.all.take(l.global, l.elapsed)
	return ok
}

// take takes a token from the bucket of key (a client's string, a
// network's netip.Prefix or a provider) at rate r.
func (l *limiter) take(key any, r bucketRate) bool {
	for {
		k, b := l.bucketOf(key)
		ok, gone := b.take(r, l.elapsed)
		if !gone {
			return ok
		}
		// The sweep forgot this bucket as this request found it: it was
		// full, so a new one answers the same.
		if l.table.CompareAndDelete(k, b) {
			l.count.Add(-1)
		}
	}
}

// bucketOf is key's bucket and the key it is held under: key itself, or
// past the table's bound a coarser one (keyPast).
func (l *limiter) bucketOf(key any) (any, *bucket) {
	if b, ok := l.table.Load(key); ok {
		return key, b.(*bucket)
	}
	if n := l.count.Load(); n >= maxClients {
		key = keyPast(key, n)
		if b, ok := l.table.Load(key); ok {
			return key, b.(*bucket)
		}
	}
	b, loaded := l.table.LoadOrStore(key, new(bucket))
	if !loaded {
		l.count.Add(1)
	}
	return key, b.(*bucket)
}

// clientKey is the limiter's key for a remote address (host:port, or a
// bare host): the IPv4 address, the IPv4 address an IPv6 one carries
// (embeddedIPv4), or the IPv6 /64, as a string. A remote that is no
// address (a unix socket's) is keyed as it is.
func clientKey(remote string) string {
	ip, host, ok := remoteIP(remote)
	if !ok {
		return host
	}
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64)
	return p.Addr().String()
}

// remoteIP is the client address of a remote (host:port, or a bare
// host), with no zone, an IPv6 address that carries an IPv4 one read as
// that (embeddedIPv4); ok is false, and host the remote's host, when it
// is no address (a unix socket's).
func remoteIP(remote string) (ip netip.Addr, host string, ok bool) {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip, err = netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, host, false
	}
	return embeddedIPv4(ip.WithZone("")), host, true
}

// Prefixes of IPv6 addresses that carry an IPv4 address: the client is
// that IPv4 address, wherever it sends from.
var (
	// sixToFour (RFC 3056): 2002:AABB:CCDD::/48 is the site behind the
	// IPv4 address AABB:CCDD, one /48 for every IPv4 address.
	sixToFour = netip.MustParsePrefix("2002::/16")
	// teredo (RFC 4380): 2001:0:server:flags:port:client, the client's
	// public IPv4 address in the last 32 bits, each bit inverted; the
	// server's address, in the /64, is anyone's choice.
	teredo = netip.MustParsePrefix("2001::/32")
	// nat64 (RFC 6052): the well-known prefix, the IPv4 address in the
	// last 32 bits.
	nat64 = netip.MustParsePrefix("64:ff9b::/96")
)

// embeddedIPv4 is the IPv4 address ip carries, if it is IPv4-mapped,
// 6to4, Teredo or NAT64's well-known prefix, and ip itself otherwise.
func embeddedIPv4(ip netip.Addr) netip.Addr {
	if ip.Is4In6() || ip.Is4() {
		return ip.Unmap()
	}
	b := ip.As16()
	switch {
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	case teredo.Contains(ip):
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
	case nat64.Contains(ip):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	return ip
}

// networkOf is the network of client (a clientKey): its IPv4 /24 or its
// IPv6 /48. A client that is no address (a unix socket's) is in the
// zero prefix, with every other such client.
func networkOf(client string) netip.Prefix {
	ip, err := netip.ParseAddr(client)
	if err != nil {
		return netip.Prefix{}
	}
	bits := 24
	if ip.Is6() {
		bits = 48
	}
	p, _ := ip.Prefix(bits)
	return p
}

// provider is the key of a provider's bucket: an IPv6 /32, the least a
// registry allocates to an ISP or a tunnel broker. A type of its own,
// so that it is never the key of a network keyed by its /32 past the
// table's bound (keyPast).
type provider netip.Prefix

// providerOf is the provider of network (a networkOf): the IPv6 /32 it
// is in. An IPv4 network (6to4, Teredo and NAT64 included) has none, nor
// one that is no address: a provider's share of IPv4 would be a /16 or
// wider, and docs/relay.md says why there is none.
func providerOf(network netip.Prefix) (provider, bool) {
	if !network.Addr().Is6() {
		return provider{}, false
	}
	p, _ := network.Addr().Prefix(32)
	return provider(p), true
}

// keyPast is the key of a client, network or provider new to a table
// of n entries, n at least maxClients: a coarser prefix, so that whoever
// filled the table shares buckets with its own networks only. A client
// (a clientKey) is keyed by its IPv4 /24 or IPv6 /48, past maxClients48
// its IPv6 /32, as a string; a network (a netip.Prefix, already an IPv4
// /24 or IPv6 /48) past maxClients48 by its IPv6 /32; a provider is a
// /32 already. Past maxClientsAll every new client shares the key
// "overflow", every new network the zero prefix, every new provider
// the zero provider.
func keyPast(key any, n int64) any {
	switch k := key.(type) {
	case string:
		ip, err := netip.ParseAddr(k)
		if err != nil || n >= maxClientsAll {
			return "overflow"
		}
		return coarser(netip.PrefixFrom(ip, ip.BitLen()), n).String()
	case netip.Prefix:
		if !k.IsValid() || n >= maxClientsAll {
			return netip.Prefix{}
		}
		return coarser(k, n)
	case provider:
		if n >= maxClientsAll {
			return provider{}
		}
	}
	return key
}

// coarser is p's IPv4 /24 or IPv6 /48 (/32 past maxClients48), or p if
// that is shorter.
func coarser(p netip.Prefix, n int64) netip.Prefix {
	bits := 24
	switch {
	case p.Addr().Is6() && n < maxClients48:
		bits = 48
	case p.Addr().Is6():
		bits = 32
	}
	if p.Bits() <= bits {
		return p
	}
	q, _ := p.Addr().Prefix(bits)
	return q
}

// sweepEvery forgets the buckets full again, at random intervals of
// l.every on average (from half to one and a half times it, so that no
// client can time one request just before each sweep to keep its
// entry), until ctx ends. Run runs it.
func (l *limiter) sweepEvery(ctx context.Context) error {
	t := time.NewTimer(l.every/2 + rand.N(l.every))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		l.sweep()
		t.Reset(l.every/2 + rand.N(l.every))
	}
}

// sweep forgets every client, network and provider whose bucket is full
// again: a new bucket is full, so forgetting one changes no answer.
func (l *limiter) sweep() {
	l.table.Range(func(k, v any) bool {
		r := l.client
		switch k.(type) {
		case netip.Prefix:
			r = l.network
		case provider:
			r = l.provider
		}
		if v.(*bucket).forget(r, l.elapsed) && l.table.CompareAndDelete(k, v) {
			l.count.Add(-1)
		}
		return true
	})
}

// bucketRate is a token bucket's rate and size as the bucket reckons
// them: a token every interval nanoseconds, and a burst of tokens beyond
// the one a request takes worth tolerance nanoseconds.
type bucketRate struct {
	interval, tolerance int64
	none                bool // a burst of zero: nothing passes
}

func newBucketRate(perSecond float64, burst int) bucketRate {
	if burst <= 0 || perSecond <= 0 {
		return bucketRate{none: true}
	}
	interval := int64(float64(time.Second) / perSecond)
	return bucketRate{interval: interval, tolerance: interval * int64(burst-1)}
}

// bucket is a token bucket in one atomic word, as the generic cell rate
// algorithm keeps it: the time at which it will be full again (the
// theoretical arrival time). A request at now passes if that time is at
// most tolerance ahead of now, and moves it one interval on; a bucket
// never used (zero) is full, and one the sweep forgot holds forgotten.
type bucket struct{ full atomic.Int64 }

// forgotten marks a bucket the sweep took out of the table.
const forgotten = math.MinInt64

// take takes a token at the time now returns, if the bucket has one;
// gone if the sweep forgot the bucket (nothing taken).
//
// now is read after the word: a request's time is then never earlier
// than that of the request that set the word, so the word is at most
// tolerance+interval ahead of it, unless the clock went back in
// between. A word further ahead than that counts as a full bucket, so a
// clock stepped back refuses nothing it would not have.
func (b *bucket) take(r bucketRate, now func() int64) (ok, gone bool) {
	if r.none {
		return false, false
	}
	for {
		full := b.full.Load()
		if full == forgotten {
			return false, true
		}
		at := now()
		t := max(full, at)
		if t-at > r.tolerance {
			if t-at <= r.tolerance+r.interval {
				return false, false
			}
			t = at // the clock went back: full
		}
		if b.full.CompareAndSwap(full, t+r.interval) {
			return true, false
		}
	}
}

// forget marks the bucket forgotten if it is full: full again by now,
// or further ahead than any request leaves it (take). A request that
// finds it forgotten takes a new bucket, which answers the same.
func (b *bucket) forget(r bucketRate, now func() int64) bool {
	full := b.full.Load()
	if full == forgotten {
		return true
	}
	at := now()
	if full > at && full-at <= r.tolerance+r.interval {
		return false
	}
	return b.full.CompareAndSwap(full, forgotten)
}
