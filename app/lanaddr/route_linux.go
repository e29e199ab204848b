package lanaddr

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// defaultRouteInterface is the interface of the IPv4 default route with
// the lowest metric, from the kernel's routing table (/proc/net/route),
// or "" when there is none. Reading the table sends nothing on the
// network, unlike "connecting" a UDP socket to a public address.
func defaultRouteInterface() string {
	f, err := os.Open("/proc/net/route")
	if err != nil {
		return ""
	}
	defer f.Close()
	return parseRoutes(bufio.NewScanner(f))
}

// parseRoutes reads /proc/net/route: a header line, then Iface,
// Destination, Gateway, Flags, RefCnt, Use, Metric, Mask … per route,
// Destination and Mask in hex.
func parseRoutes(s *bufio.Scanner) string {
	best, bestMetric := "", -1
	s.Scan() // the header
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) < 8 || f[1] != "00000000" || f[7] != "00000000" {
			continue
		}
		flags, err := strconv.ParseUint(f[3], 16, 32)
		if err != nil || flags&1 == 0 { // RTF_UP
			continue
		}
		m, err := strconv.Atoi(f[6])
		if err != nil {
			continue
		}
		if bestMetric < 0 || m < bestMetric {
			best, bestMetric = f[0], m
		}
	}
	return best
}
