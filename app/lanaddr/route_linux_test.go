package lanaddr

import (
	"bufio"
	"strings"
	"testing"
)

func TestParseRoutes(t *testing.T) {
	const header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
	for _, tc := range []struct {
		name, table, want string
	}{
		{"one default", header + "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n" +
			"eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n", "eth0"},
		{"lowest metric", header + "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n" +
			"eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n", "eth0"},
		{"a route that is down", header + "eth0\t00000000\t0101A8C0\t0002\t0\t0\t0\t00000000\t0\t0\t0\n", ""},
		{"no default", header + "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n", ""},
		{"empty", "", ""},
	} {
		if got := parseRoutes(bufio.NewScanner(strings.NewReader(tc.table))); got != tc.want {
			t.Errorf("%s: parseRoutes = %q, want %q", tc.name, got, tc.want)
		}
	}
}
