package carriers

import "testing"

// TestImpersonated: a sender named as a carrier whose domains are known is
// that carrier's only from a domain one of whose labels is the carrier's;
// a name that is no carrier's, or a carrier no list has domains for, is
// never impersonated.
func TestImpersonated(t *testing.T) {
	for _, c := range []struct {
		name, domain string
		want         bool
	}{
		{"Royal Mail", "rm-redelivery-uk.info", true},
		{"DHL Express", "dhl-zoll-paket.top", true},
		{"La Poste", "laposte-suivi-colis.net", true},
		{"Royal Mail", "royalmail.com", false},
		{"UPS", "email.ups.com", false},
		{"DPD CZ", "dpd.cz", false},
		{"DHL Paket", "dhl.de", false},
		{"Zalando", "zalando.de", false},
		{"Hermesetas Shop", "hermesetas.example", false},
		{"", "x.example", false},
		{"Royal Mail", "", false},
	} {
		if got := Impersonated(c.name, c.domain); got != c.want {
			t.Errorf("Impersonated(%q, %q) = %v, want %v", c.name, c.domain, got, c.want)
		}
	}
}

// TestNotifyCarrier: a carrier's notification domain (a notification's
// word beside the carrier's own label, apart by hyphens) names the
// carrier; a look-alike with a word for tracking, a shop's domain and the
// carrier's own domain do not.
func TestNotifyCarrier(t *testing.T) {
	for _, c := range []struct{ domain, want string }{
		{"notif-colissimo-laposte.info", "Colissimo"},
		{"notificaties-postnl.example", "PostNL"},
		{"notificaciones-correos.example", "Correos"},
		{"mail.notif-chronopost.example", "Chronopost"},
		{"benachrichtigung-dpd.example", "DPD"},
		{"laposte-suivi-colis.net", ""},
		{"dhl-zoll-paket.top", ""},
		{"notif-post.example", ""},
		{"notifications-shop.example", ""},
		{"postnl.nl", ""},
		{"notif", ""},
		{"", ""},
	} {
		if got := NotifyCarrier(c.domain); got != c.want {
			t.Errorf("NotifyCarrier(%q) = %q, want %q", c.domain, got, c.want)
		}
	}
}
