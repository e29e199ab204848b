package facts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/extract/facts"
	"mailnode/mail/msgauth"
	"mailnode/mail/store"
	"mailnode/mail/trust"
)

// TestOrdersByName: order_status's merchant as a person says it ("Acme
// Home & Co") finds the shop's orders by its shown name and by its
// domain's name written together (acmehomeandco.shop, whose mail was not
// authenticated and so is named by its domain), case-, accent- and
// "&"/"and"-folded; not the orders of another shop whose name shares a
// common word, nor of a look-alike domain whose mail carries the same
// display name.
func TestOrdersByName(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2030, 3, 1, 12, 0, 0, 0, time.UTC)
	st, _, fsx, inbox := hookedStoreWith(t, msgauth.Checker{AuthServIDs: []string{"mx.test.example"}})
	mail := func(uid uint32, display, from string, authenticated bool, number string) store.NewMessage {
		_, domain, _ := strings.Cut(from, "@")
		ar := ""
		if authenticated {
			ar = fmt.Sprintf("Authentication-Results: mx.test.example; dmarc=pass header.from=%s\r\n", domain)
		}
		raw := fmt.Sprintf("%sFrom: %s <%s>\r\nTo: me@home.example\r\nSubject: Your order %s has shipped\r\n"+
			"Date: %s\r\nMessage-ID: <o%d@x>\r\n\r\nThank you for shopping at %s.\r\nOrder number: %s\r\nYour order has shipped.\r\n",
			ar, display, from, number, now.Add(-time.Duration(uid)*time.Hour).Format(time.RFC1123Z), uid, display, number)
		return store.NewMessage{UID: uid, Raw: []byte(raw), InternalDate: now}
	}
	if err := st.AddMessages(ctx, inbox.ID, []store.NewMessage{
		mail(1, "Acme Home & Co", "orders@acmehomeandco.shop", false, "AH-44102231"),
		mail(2, "ACME Home and Co.", "hello@mail.acmehome.com", true, "AH-55012"),
		mail(3, "Acme Tools", "orders@acmetools.com", true, "AT-77120"),
		mail(4, "Home & Co Outlet", "orders@homeandcooutlet.com", true, "HC-30118"),
		mail(5, "Acme Home & Co", "orders@acmehomeandco-shop.com", false, "LA-99001"),
		mail(6, "Acme Home & Co", "orders@acmehomeandc0.shop", true, "LA-99002"),
		// A domain spells umlauts out and writes "&" in its language.
		mail(7, "Müller & Söhne", "shop@muellerundsoehne.de", true, "MS-20418"),
		mail(8, "Dupont & Fils", "commandes@dupont-et-fils.fr", true, "DF-7731"),
		mail(9, "Bjørn & Co", "ordre@bjoernogco.no", false, "BC-5512"),
		mail(10, "Müller Technik", "info@mueller-technik.de", true, "MT-3301"),
		// A shop named in another script than its domain's.
		mail(11, "Озон", "orders@ozon.ru", true, "OZ-88120"),
		mail(12, "Πλαίσιο", "eshop@plaisio.gr", true, "PL-55310"),
		mail(13, "あみあみ", "order@amiami.example", true, "AA-219908"),
		mail(14, "コトブキヤオンラインショップ", "shop@kotobukiya.co.jp", true, "KT-434429"),
		mail(15, "ヨドバシ・ドット・コム", "info@yodobashi.com", true, "YD-100231"),
		// Shops sending through their commerce platform's domain (issue
		// 46, xf9o): found by their names when the platform's domain is
		// authenticated, an imitated brand's name never.
		mail(16, "Indigo Loom", "store+7712@t.shopifyemail.com", true, "IL-3391"),
		mail(17, "Amazon", "store+6620@t.shopifyemail.com", true, "AZ-4410"),
		// A shop's domain of its name with digits after it.
		mail(18, "Saeed Ghani", "customercare@saeedghani1888.com", false, "SG-2856598"),
		// Latvian's "un" is "and": the domain leaves it out.
		mail(19, "Mājai un dārzam", "info@majaidarzam.example", true, "MD-88120"),
		// A shop's name with its country after it (foreign-10's Topps
		// UK, unauthenticated: shown by its domain).
		mail(20, "Topps UK", "noreply@shop-uk.topps.com", false, "UK-1196937-S"),
		mail(21, "Zalando DE", "info@service-mail.zalando.de", true, "ZA-10233"),
		// A Latin name run into its kind's word in Japanese
		// (foreign-11's DMM通販, from dmm.com).
		mail(22, "DMM", "info@mail.dmm.example", true, "BS-2732"),
		// A brand's domain with a verb before its name (foreign-21's
		// Pebble, from getpebble.com, unauthenticated), and a
		// look-alike of a brand strangers imitate written so.
		mail(23, "Pebble", "support@getpebble.com", false, "PB-4471"),
		mail(24, "Amazon", "ship@getamazon.com", true, "GA-1001"),
		// A domain of a name's words, one cut to its stem (an inflected
		// adjective: foreign-29o's "Hurtownia Detailingowa Pro" from
		// detailingpro.pl), and a look-alike of it.
		mail(25, "Sklep Rowerowy Koło", "zamowienia@rowerkolo.example", true, "RK-2210"),
		mail(26, "Sklep Rowerowy Koło", "zamowienia@rowerk0lo.example", true, "RK-9901"),
		mail(27, "Hurtownia Rowerowa Max", "zamowienia@rowermax.example", false, "HO-1120"),
		// A letter no accent's removal folds ("ł"), asked for without it.
		mail(28, "Kwiaciarnia Łąka", "sklep@kwiaciarnia-laka.example", true, "KL-3310"),
	}, 28); err != nil {
		t.Fatal(err)
	}
	if _, err := fsx.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	numbers := func(merchant string) []string {
		items, err := fsx.Orders(ctx, now, merchant, 20)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, raw := range items {
			var o struct{ Number string }
			if err := json.Unmarshal(raw, &o); err != nil {
				t.Fatal(err)
			}
			out = append(out, o.Number)
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		merchant string
		want     []string
	}{
		{"Acme Home & Co", []string{"AH-44102231", "AH-55012"}},
		{"Sklep Rowerowy Koło", []string{"RK-2210"}},
		{"Rowerowy Koło", []string{"RK-2210"}},
		{"sklep rowerowy kolo", []string{"RK-2210"}},
		{"Laka", []string{"KL-3310"}},
		{"Łąka", []string{"KL-3310"}},
		{"rowerk0lo.example", []string{"RK-9901"}},
		// Shown by its domain (unauthenticated), found by the name whose
		// stem the domain writes, a word for a shop before it left off.
		{"Hurtownia Rowerowa Max", []string{"HO-1120"}},
		{"Rowerowa", nil},
		{"acme home and co", []string{"AH-44102231", "AH-55012"}},
		{"Acmé Home & Co.", []string{"AH-44102231", "AH-55012"}},
		{"ACME HOME", []string{"AH-55012"}},
		{"acmehomeandco.shop", []string{"AH-44102231"}},
		{"acmehome.com", []string{"AH-55012"}},
		{"Acme Tools", []string{"AT-77120"}},
		{"Home & Co Outlet", []string{"HC-30118"}},
		{"Acme Home & Co Ltd", []string{"AH-44102231", "AH-55012"}},
		{"Acme Co", nil},
		{"Saeed Ghani", []string{"SG-2856598"}},
		{"Saeed", nil},
		{"Mājai un dārzam", []string{"MD-88120"}},
		{"acmehomeandc0.shop", []string{"LA-99002"}},
		{"acmehomeandco-shop.com", []string{"LA-99001"}},
		{"Acme Gardens", nil},
		{"Müller & Söhne", []string{"MS-20418"}},
		{"mueller und soehne", []string{"MS-20418"}},
		{"Muller und Sohne", []string{"MS-20418"}},
		{"MÜLLER & SÖHNE GmbH", []string{"MS-20418"}},
		{"muellerundsoehne.de", []string{"MS-20418"}},
		{"Dupont & Fils", []string{"DF-7731"}},
		{"dupont et fils", []string{"DF-7731"}},
		{"Bjørn & Co", []string{"BC-5512"}},
		{"Müller Technik", []string{"MT-3301"}},
		{"Müller", []string{"MS-20418", "MT-3301"}},
		{"Müller & Partner", nil},
		{"Озон", []string{"OZ-88120"}},
		{"ozon", []string{"OZ-88120"}},
		{"ОЗОН", []string{"OZ-88120"}},
		{"Πλαίσιο", []string{"PL-55310"}},
		{"Plaisio", []string{"PL-55310"}},
		{"あみあみ", []string{"AA-219908"}},
		{"アミアミ", []string{"AA-219908"}},
		{"amiami", []string{"AA-219908"}},
		{"コトブキヤ", []string{"KT-434429"}},
		{"ことぶきや", []string{"KT-434429"}},
		{"ヨドバシ", []string{"YD-100231"}},
		{"ヨドバシカメラ", nil},
		{"Indigo Loom", []string{"IL-3391"}},
		{"Amazon", nil},
		{"Topps UK", []string{"UK-1196937-S"}},
		{"Topps", []string{"UK-1196937-S"}},
		{"Zalando DE", []string{"ZA-10233"}},
		{"Zalando", []string{"ZA-10233"}},
		{"Topps Direct", nil},
		{"Acme UK", nil},
		{"DMM通販", []string{"BS-2732"}},
		{"ABC通販", nil},
		{"Pebble", []string{"PB-4471"}},
		{"getpebble.com", []string{"PB-4471"}},
		{"Pebb", nil},
		{"getamazon.com", []string{"GA-1001"}},
	} {
		if got := numbers(c.merchant); !slices.Equal(got, c.want) {
			t.Errorf("Orders(%q) = %v, want %v", c.merchant, got, c.want)
		}
	}
}

// TestOrderMatch: a carrier's notice is found by its carrier's name, a
// shop's order only by the shop's, its words as written (not read as a
// place's compass).
func TestOrderMatch(t *testing.T) {
	tests := []struct {
		name     string
		order    extract.OrderState
		has, not []string
	}{
		{"USPS notice naming no shipper", extract.OrderState{Order: extract.Order{Shipments: []extract.Shipment{{Carrier: "USPS", Tracking: "92748931508577307776690000"}}}},
			[]string{"usps"}, nil},
		{"Royal Mail notice naming the shop", extract.OrderState{Order: extract.Order{Merchant: "Waterstones", Shipments: []extract.Shipment{{Carrier: "Royal Mail"}}}},
			[]string{"waterstones", "royal mail"}, nil},
		{"a shop named with a compass word", extract.OrderState{Order: extract.Order{Merchant: "Fietsenwinkel Noord", Domain: "fietsenwinkelnoord.nl"}},
			[]string{"fietsenwinkel noord", "@fietsenwinkelnoord"}, []string{"north"}},
		{"a two-letter domain's shop", extract.OrderState{Order: extract.Order{Merchant: "H&M", Domain: "hm.com"}},
			[]string{"h m", "@hm"}, nil},
		{"shop's own order", extract.OrderState{Order: extract.Order{Merchant: "Amazon.com", Domain: "amazon.com", Shipments: []extract.Shipment{{Carrier: "Amazon Logistics"}}}},
			[]string{"amazon"}, []string{"logistics"}},
	}
	for _, tt := range tests {
		m := facts.OrderMatch(tt.order)
		for _, w := range tt.has {
			if !strings.Contains(m, " "+w+" ") {
				t.Errorf("%s: OrderMatch = %q, want it to hold %q", tt.name, m, w)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(m, w) {
				t.Errorf("%s: OrderMatch = %q, must not hold %q", tt.name, m, w)
			}
		}
	}
}

// TestCommercePlatformsAreFreeMail: a commerce platform whose shops' names
// extract shows is free mail to mail/trust, so that each shop is its own
// address for the merge and never trusted by the platform's seasoned
// domain (one stranger's shop would otherwise change another's order of
// the same number).
func TestCommercePlatformsAreFreeMail(t *testing.T) {
	for _, d := range extract.CommercePlatforms() {
		if !trust.FreeMail(d) {
			t.Errorf("%s is a commerce platform to extract but not free mail to mail/trust (freemail.txt)", d)
		}
	}
}
