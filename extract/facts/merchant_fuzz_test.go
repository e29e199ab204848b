package facts

import (
	"strings"
	"testing"
)

// FuzzMerchantPatterns: an agent's merchant argument, any text, gives
// patterns without panicking, each a non-empty run of folded words; and
// a shop's name always finds the shop by its own words.
func FuzzMerchantPatterns(f *testing.F) {
	for _, s := range []string{"Acme Home & Co", "zalando.de", "service-mail.zalando.de", "&", "and and", "Ⅻ & ß", "a.b.", " ", "Acme Co Ltd GmbH", "コトブキヤ・ショップ", "っッー"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pats := merchantPatterns(s)
		for _, p := range pats {
			if strings.TrimSpace(p) == "" || strings.Contains(p, "  ") {
				t.Fatalf("merchantPatterns(%q) has pattern %q", s, p)
			}
		}
		if len(pats) > 0 && !strings.ContainsAny(s, ".") {
			if m := merchantMatch(s, ""); !strings.Contains(m, " "+pats[0]+" ") {
				t.Fatalf("merchantMatch(%q) = %q does not hold its own words %q", s, m, pats[0])
			}
		}
	})
}
