package carriers

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// senderDomains are the mail domains each carrier sends its notices from,
// by courier code; the postal operators that number parcels in UPU S10
// (code "s10") by their own codes. A mail from one of them is about a
// parcel that carrier carries, whatever else its numbers could be.
var senderDomains = map[string][]string{
	// Amazon's own mails are a merchant's (orders), not a carrier's:
	// no sender domain for its logistics.
	"canada_post":  {"canadapost.ca", "postescanada.ca"},
	"canpar":       {"canpar.com"},
	"dhl":          {"dhl.com", "dhl.de", "dhl.co.uk", "dhl.nl", "dhl.se", "dhl.fr", "dhl.pl", "dhl.it", "dhl.es", "dhl-news.com"},
	"dpd":          {"dpd.de", "dpd.co.uk", "dpd.com", "dpd.fr", "dpd.nl", "dpd.pl", "dpd.at", "dpd.ch", "dpdgroup.com"},
	"fedex":        {"fedex.com"},
	"gofo":         {"gofoexpress.com"},
	"landmark":     {"landmarkglobal.com"},
	"lasership":    {"lasership.com"},
	"old_dominion": {"odfl.com"},
	"ontrac":       {"ontrac.com"},
	"purolator":    {"purolator.com"},
	"speedee":      {"speedeedelivery.com"},
	"ups":          {"ups.com"},
	"usps":         {"usps.com", "usps.gov"},
	"yodel":        {"yodel.co.uk"},
	"yunexpress":   {"yunexpress.com"},
	// Carriers without a format in the data, known by their domains.
	"gls":        {"gls-pakete.de", "gls-group.eu", "gls-group.com", "gls.de", "gls-italy.com", "gls-spain.es", "gls-spain.com", "gls-denmark.com", "gls-sweden.com", "gls-netherlands.com"},
	"hermes":     {"myhermes.de", "hermesworld.com", "hermes-europe.eu"},
	"evri":       {"evri.com", "myhermes.co.uk"}, // Hermes UK, renamed in 2022
	"postnord":   {"postnord.se", "postnord.dk", "postnord.no", "postnord.fi", "postnord.com"},
	"bring":      {"posten.no", "bring.no", "bring.com", "bring.se", "bring.dk"},
	"postnl":     {"postnl.nl", "postnl.com"},
	"royalmail":  {"royalmail.com", "royalmail.co.uk"},
	"laposte":    {"laposte.fr", "laposte.net", "colissimo.fr", "colissimo.com"},
	"correos":    {"correos.es", "correos.com"},
	"posteit":    {"poste.it", "posteitaliane.it"},
	"swisspost":  {"post.ch", "swisspost.ch"},
	"austrian":   {"post.at"},
	"deutsche":   {"deutschepost.de"},
	"bpost":      {"bpost.be"},
	"anpost":     {"anpost.ie", "anpost.com"},
	"ceskaposta": {"cpost.cz", "postaonline.cz"},
	"pocztapl":   {"poczta-polska.pl"},
	"inpost":     {"inpost.pl", "inpost.co.uk", "inpost.it"},
	"posti":      {"posti.fi"},
	"ctt":        {"ctt.pt"},
	"budbee":     {"budbee.com"},
	"instabox":   {"instabox.se", "instabox.io"},
	"chronopost": {"chronopost.fr"},
	"mondial":    {"mondialrelay.fr", "mondialrelay.com"},
	"seur":       {"seur.com"},
	"brt":        {"brt.it"},
	"correiosbr": {"correios.com.br"},
	// Carriers whose notices name no shop when they name an order's
	// number, known by their domains and names (issue 46, xorder3).
	"aramex":         {"aramex.com"},
	"auspost":        {"auspost.com.au"},
	"startrack":      {"startrack.com.au"},
	"nzpost":         {"nzpost.co.nz"},
	"couriersplease": {"couriersplease.com.au"},
	"sendle":         {"sendle.com"},
	"delhivery":      {"delhivery.com"},
	"bluedart":       {"bluedart.com"},
	"ninjavan":       {"ninjavan.co"},
	"veho":           {"shipveho.com"},
	"axlehire":       {"axlehire.com"},
	"tnt":            {"tnt.com"},
	"parcelforce":    {"parcelforce.co.uk", "parcelforce.com"},
	"packeta":        {"packeta.com"},
	// East Asia's carriers, by the names their notices sign with (issue 46, xcjk).
	"yamato":      {"kuronekoyamato.co.jp", "yamato-hd.co.jp"},
	"sagawa":      {"sagawa-exp.co.jp"},
	"japanpost":   {"japanpost.jp"},
	"cjlogistics": {"cjlogistics.com"},
	"lotte":       {"lotteglogis.com"},
	"hanjin":      {"hanjin.com", "hanjin.co.kr"},
	"sfexpress":   {"sf-express.com"},
	"dachser":     {"dachser.com"},
}

// carrierNames are the names shown for the codes above.
var carrierNames = map[string]string{
	"amazon": "Amazon Logistics", "canada_post": "Canada Post", "canpar": "Canpar", "dhl": "DHL", "dpd": "DPD", "fedex": "FedEx",
	"gofo": "GOFO", "landmark": "Landmark Global", "lasership": "LaserShip", "old_dominion": "Old Dominion", "ontrac": "OnTrac",
	"purolator": "Purolator", "speedee": "Spee-Dee", "ups": "UPS", "usps": "USPS", "yodel": "Yodel", "yunexpress": "YunExpress",
	"gls": "GLS", "hermes": "Hermes", "evri": "Evri", "postnord": "PostNord", "bring": "Bring", "postnl": "PostNL", "royalmail": "Royal Mail",
	"laposte": "La Poste", "correos": "Correos", "posteit": "Poste Italiane", "swisspost": "Swiss Post", "austrian": "Österreichische Post",
	"deutsche": "Deutsche Post", "bpost": "bpost", "anpost": "An Post", "ceskaposta": "Česká pošta", "pocztapl": "Poczta Polska",
	"inpost": "InPost", "posti": "Posti", "ctt": "CTT", "budbee": "Budbee", "instabox": "Instabox", "chronopost": "Chronopost",
	"mondial": "Mondial Relay", "seur": "SEUR", "brt": "BRT", "correiosbr": "Correios",
	"aramex": "Aramex", "auspost": "Australia Post", "startrack": "StarTrack", "nzpost": "NZ Post", "couriersplease": "CouriersPlease",
	"sendle": "Sendle", "delhivery": "Delhivery", "bluedart": "Blue Dart", "ninjavan": "Ninja Van", "veho": "Veho", "axlehire": "AxleHire",
	"tnt": "TNT", "parcelforce": "Parcelforce", "packeta": "Packeta",
	"yamato": "ヤマト運輸", "sagawa": "佐川急便", "japanpost": "日本郵便", "cjlogistics": "CJ대한통운", "lotte": "롯데택배",
	"hanjin": "한진택배", "sfexpress": "SF Express", "dachser": "Dachser",
}

// Impersonated reports whether name, a mail's sender name, names a carrier
// whose mail domains are known while domain, the mail's, is none of them:
// "Royal Mail" on rm-redelivery-uk.info, "DHL Express" on
// dhl-zoll-paket.top. A domain is the carrier's when one of its labels is
// the first label of one of the carrier's domains, so a country's domain
// no list holds ("dpd.cz") or a subdomain ("email.ups.com") still is.
func Impersonated(name, domain string) bool {
	name, domain = strings.ToLower(name), strings.ToLower(domain)
	if name == "" || domain == "" {
		return false
	}
	labels := strings.Split(domain, ".")
	named := false
	for code, ds := range senderDomains {
		if !hasWord(name, strings.ToLower(carrierNames[code])) {
			continue
		}
		named = true
		for _, d := range ds {
			first, _, _ := strings.Cut(d, ".")
			if slices.Contains(labels, first) {
				return false
			}
		}
	}
	return named
}

// hasWord reports whether s holds w with no letter or digit on either side.
func hasWord(s, w string) bool {
	for i := 0; w != ""; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[j+len(w):])
		if !isAlnum(before) && !isAlnum(after) {
			return true
		}
		i = j + 1
	}
	return false
}

func isAlnum(r rune) bool { return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) }

// notifyWords are the words a carrier's notification domain sets beside
// its own name, apart by hyphens: a national post's notices come from a
// domain of their own (notif-<carrier>.info, the seventh outside set's),
// not its main one. Words for tracking ("suivi", "track") are left out:
// look-alikes that ask for a fee use them (laposte-suivi-colis.net).
var notifyWords = []string{"notif", "notifs", "notification", "notifications", "notificaciones", "notificacoes",
	"notificações", "notifiche", "notificaties", "benachrichtigung", "benachrichtigungen", "powiadomienia", "aviseringar"}

// ownLabels are the carriers' names by the first label of their mail
// domains ("colissimo" Colissimo, "postnl" PostNL), without those a
// word of a language or two carriers share ("post", "bring").
var ownLabels = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	shared := map[string]bool{"post": true, "poste": true, "posten": true, "posti": true, "bring": true}
	add := func(label, name string) {
		if shared[label] || strings.Contains(label, "-") {
			return
		}
		if n, ok := m[label]; ok && n != name {
			shared[label] = true
			delete(m, label)
			return
		}
		m[label] = name
	}
	for code, ds := range senderDomains {
		for _, d := range ds {
			first, _, _ := strings.Cut(d, ".")
			add(first, carrierNames[code])
		}
	}
	// A brand's domain names the brand, as CarrierOf reads it.
	for _, b := range brandDomains {
		first, _, _ := strings.Cut(b.domain, ".")
		m[first] = b.brand
	}
	return m
})

// NotifyCarrier is the carrier whose notification domain domain is ("" if
// none): one of its labels, apart by hyphens, holds a word of notifyWords
// and the first label of one of a carrier's own domains
// (notif-colissimo-laposte.info: Colissimo). Such a domain names the
// carrier, never a shop. It is not one of the carrier's own domains
// (CarrierOf): a stranger may register one.
func NotifyCarrier(domain string) string {
	if strings.IndexByte(domain, '-') < 0 {
		return "" // most domains: no allocation
	}
	labels := strings.Split(strings.ToLower(domain), ".")
	for _, l := range labels[:len(labels)-1] {
		if !strings.Contains(l, "-") {
			continue
		}
		notify, name := false, ""
		for p := range strings.SplitSeq(l, "-") {
			if slices.Contains(notifyWords, p) {
				notify = true
			} else if n := ownLabels()[p]; n != "" && name == "" {
				name = n
			}
		}
		if notify && name != "" {
			return name
		}
	}
	return ""
}
