package site_test

import (
	"strings"
	"sync"
	"testing"

	"mailnode/approvals/site"
)

func TestOf(t *testing.T) {
	sites, err := site.New("agents.relay.example", "Hosting.Example.", "agents.relay.test")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ domain, want string }{
		// The Public Suffix List alone.
		{"a.b.evil.example", "evil.example"},
		{"a.evil.example", "evil.example"},
		{"x.shop.co.uk", "shop.co.uk"},
		{"agent.github.io", "agent.github.io"}, // a private entry of the list
		{"co.uk", "co.uk"},                     // a public suffix is its own site
		{"Agent.Example.COM", "example.com"},
		{"agent.example.com.", "example.com"},
		{"localhost", "localhost"},
		{"", ""},
		// The relay's hosted zone: each label is a site.
		{"k1.agents.relay.example", "k1.agents.relay.example"},
		{"k2.agents.relay.example", "k2.agents.relay.example"},
		{"K1.AGENTS.Relay.Example.", "k1.agents.relay.example"},
		{"x.y.agents.relay.example", "y.agents.relay.example"}, // the label directly under the suffix
		{"agents.relay.example", "agents.relay.example"},       // the suffix itself
		{"relay.example", "relay.example"},
		{"node1.relay.example", "relay.example"}, // the relay's nodes are not under the hosted zone
		{"xagents.relay.example", "relay.example"},
		{"k1.agents.relay.example.evil.example", "evil.example"},
		{"k1.agents.relay.test", "k1.agents.relay.test"}, // a TLD the list does not know
		// A configured suffix, given in upper case with a trailing dot.
		{"a.hosting.example", "a.hosting.example"},
		{"b.a.hosting.example", "a.hosting.example"},
		{"hosting.example", "hosting.example"},
	} {
		if got := sites.Of(tc.domain); got != tc.want {
			t.Errorf("Of(%q) = %q, want %q", tc.domain, got, tc.want)
		}
		if got := sites.Of(sites.Of(tc.domain)); got != sites.Of(tc.domain) {
			t.Errorf("Of(Of(%q)) = %q, want %q", tc.domain, got, sites.Of(tc.domain))
		}
	}
}

// TestOfWithoutSuffixes: a nil or empty Sites is the Public Suffix List
// alone, under which every hosted agent is one site.
func TestOfWithoutSuffixes(t *testing.T) {
	empty, _ := site.New()
	for _, s := range []*site.Sites{nil, empty} {
		for domain, want := range map[string]string{"k1.agents.relay.example": "relay.example",
			"a.b.evil.example": "evil.example", "agent.github.io": "agent.github.io", "Co.UK.": "co.uk"} {
			if got := s.Of(domain); got != want {
				t.Errorf("Of(%q) = %q, want %q", domain, got, want)
			}
		}
	}
}

// TestMostSpecificRuleWins: a hosting suffix above a private entry of the
// list does not merge what the list keeps apart.
func TestMostSpecificRuleWins(t *testing.T) {
	s, _ := site.New("github.io", "blogspot.com")
	for domain, want := range map[string]string{"x.agent.github.io": "agent.github.io", "a.b.blogspot.com": "b.blogspot.com"} {
		if got := s.Of(domain); got != want {
			t.Errorf("Of(%q) = %q, want %q", domain, got, want)
		}
	}
	nested, _ := site.New("hosting.example", "eu.hosting.example")
	for domain, want := range map[string]string{"a.eu.hosting.example": "a.eu.hosting.example",
		"b.a.eu.hosting.example": "a.eu.hosting.example", "eu.hosting.example": "eu.hosting.example", "us.hosting.example": "us.hosting.example"} {
		if got := nested.Of(domain); got != want {
			t.Errorf("Of(%q) = %q, want %q", domain, got, want)
		}
	}
}

func TestParseSuffix(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"agents.relay.example", "agents.relay.example", ""},
		{" Agents.Relay.Example. ", "agents.relay.example", ""},
		{"xn--bcher-kva.example", "xn--bcher-kva.example", ""},
		{"", "", "empty"},
		{".", "", "empty"},
		{"example", "", "two labels"},
		{"*.relay.example", "", "not a DNS name"},
		{"a..example", "", "not a DNS name"},
		{"-a.example", "", "not a DNS name"},
		{"relay.example:443", "", "not a DNS name"},
		{"bücher.example", "", "not a DNS name"},
		{strings.Repeat("a", 64) + ".example", "", "not a DNS name"},
		{strings.Repeat("a.", 127) + "example", "", "longer than 253"},
	} {
		got, err := site.ParseSuffix(tc.in)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseSuffix(%q) = %q, %v; want %q, an error with %q", tc.in, got, err, tc.want, tc.err)
		}
	}
	if _, err := site.New("agents.relay.example", "example"); err == nil {
		t.Error("New with a one-label suffix: no error")
	}
}

// TestAdd: a suffix added while Of runs elsewhere takes effect, once.
func TestAdd(t *testing.T) {
	s, _ := site.New()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				s.Of("k1.agents.relay.example")
			}
		})
	}
	for range 3 {
		if err := s.Add("AGENTS.relay.example."); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if got := s.Suffixes(); len(got) != 1 || got[0] != "agents.relay.example" {
		t.Errorf("Suffixes() = %q, want [agents.relay.example]", got)
	}
	if got := s.Of("k1.agents.relay.example"); got != "k1.agents.relay.example" {
		t.Errorf("Of after Add = %q", got)
	}
	if err := s.Add("*.example"); err == nil {
		t.Error("Add(*.example): no error")
	}
}

func FuzzOf(f *testing.F) {
	for _, d := range []string{"k1.agents.relay.example", "x.y.agents.relay.example.", "a.b.evil.example", "co.uk", "", ".", "..", "A.B"} {
		f.Add(d)
	}
	s, _ := site.New("agents.relay.example")
	f.Fuzz(func(t *testing.T, domain string) {
		got := s.Of(domain)
		if again := s.Of(got); again != got {
			t.Errorf("Of(%q) = %q, but Of(%q) = %q", domain, got, got, again)
		}
		d := strings.TrimRight(strings.ToLower(domain), ".")
		if got != d && !strings.HasSuffix(d, "."+got) {
			t.Errorf("Of(%q) = %q, not the domain or a parent of it", domain, got)
		}
	})
}

// TestHosted: a site a host hands out to anyone (under a hosting suffix,
// or a private entry of the list) is hosted; a registrable domain, the
// suffix itself and a name under a top-level domain the list does not
// know are not.
func TestHosted(t *testing.T) {
	sites, _ := site.New("agents.relay.example")
	for _, tc := range []struct {
		domain string
		want   bool
	}{
		{"k1.agents.relay.example", true},
		{"x.k1.agents.relay.example", true},
		{"K2.Agents.Relay.Example.", true},
		{"agents.relay.example", false}, // the suffix itself
		{"relay.example", false},
		{"node1.relay.example", false},
		{"agent.github.io", true}, // a private entry of the list
		{"x.agent.github.io", true},
		{"github.io", false},
		{"agent.example.com", false},
		{"x.shop.co.uk", false},
		{"agent.site1.example", false}, // .example is not in the list
		{"localhost", false},
	} {
		if got := sites.Hosted(tc.domain); got != tc.want {
			t.Errorf("Hosted(%q) = %v, want %v", tc.domain, got, tc.want)
		}
	}
	var none *site.Sites
	if !none.Hosted("agent.github.io") || none.Hosted("k1.agents.relay.example") {
		t.Errorf("nil Sites: Hosted(agent.github.io) = %v, Hosted(k1.agents.relay.example) = %v, want true, false",
			none.Hosted("agent.github.io"), none.Hosted("k1.agents.relay.example"))
	}
}
