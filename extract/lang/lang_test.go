package lang

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// categories every language must have.
var categories = []string{"tracking", "status.out_for_delivery", "status.delivered", "status.cancelled", "status.returned",
	"status.shipped", "status.problem", "status.ordered", "reservation", "order", "invoice", "amount", "due", "checkin",
	"checkout", "hotel", "words.flight", "words.train", "words.hotel", "codeshare", "notice.payment_failed", "common",
	"injection.override", "injection.instructions", "injection.forward", "injection.all", "injection.to", "departure", "arrival",
	"bill.debit", "parcel.from", "status.today", "status.deliver", "status.past", "status.future", "status.will", "ticket.class",
	"injection.you", "injection.verbs", "injection.note", "clause.verb", "clause.relative", "seat.label",
	"column.flight", "column.date", "column.departure", "column.arrival", "honorific", "plan", "booking.sign", "unbooked", "offer"}

// labelCategories hold regular-expression fragments; the others plain
// lower-case phrases or words.
var labelCategories = map[string]bool{"tracking": true, "reservation": true, "order": true, "invoice": true, "amount": true,
	"due": true, "checkin": true, "checkout": true, "hotel": true, "departure": true, "arrival": true, "departure.marker": true,
	"arrival.marker": true}

// TestFiles: the languages the extractors read, each with every
// category; labels compile as regular expressions; status phrases are
// lower case, as the text they are looked for in.
func TestFiles(t *testing.T) {
	langs := Languages()
	if want := "bg cs da de el en es et fi fr hr hu id it ja ko lt lv mk ms nb nl pl pt ro ru sk sl sr sv tr uk zh"; strings.Join(langs, " ") != want {
		t.Fatalf("languages = %v, want %s", langs, want)
	}
	for _, l := range langs {
		for _, c := range categories {
			if len(Of(l, c)) == 0 {
				t.Errorf("%s has no %s", l, c)
			}
		}
		// The note rule needs a reader after a word for "for" or a
		// reader in a case that says it alone (Finnish "avustajalle").
		if (len(Of(l, "injection.for")) == 0 || len(Of(l, "injection.reader")) == 0) && len(Of(l, "injection.reader.to")) == 0 {
			t.Errorf("%s has neither injection.for and injection.reader nor injection.reader.to", l)
		}
		for _, c := range append(categories, "injection.for", "injection.reader", "injection.reader.to") {
			for _, p := range Of(l, c) {
				if labelCategories[c] {
					if _, err := regexp.Compile("(?i)" + p); err != nil {
						t.Errorf("%s %s %q: %v", l, c, p, err)
					}
					continue
				}
				if p != strings.ToLower(p) {
					t.Errorf("%s %s %q is not lower case", l, c, p)
				}
			}
		}
	}
}

// TestLiteralPhrases: the categories the extractors look for as plain
// phrases (words.Set, whole words) hold no expression's syntax, which
// would never match there ("paqueter[íi]a" is no word).
func TestLiteralPhrases(t *testing.T) {
	for _, l := range Languages() {
		for _, c := range []string{"carrier.label", "carrier.with", "status.delivered", "status.shipped", "status.out_for_delivery",
			"status.returned", "status.problem", "status.lost", "status.when", "status.cancelled", "bill.newcharge"} {
			for _, p := range Of(l, c) {
				if strings.ContainsAny(p, `[]()?+{}\|^$`) {
					t.Errorf("%s %s %q holds an expression's syntax", l, c, p)
				}
			}
		}
	}
}

// TestCalendarWords: every language names the twelve months and seven
// weekdays, and no month name means two months.
func TestCalendarWords(t *testing.T) {
	month := map[string]string{}
	for _, l := range Languages() {
		for i := 1; i <= 12; i++ {
			names := Of(l, fmt.Sprintf("month.%d", i))
			if len(names)+len(Of(l, fmt.Sprintf("month.own.%d", i))) == 0 {
				t.Errorf("%s has no month %d", l, i)
			}
			for _, n := range names {
				key := strings.ToLower(n)
				if prev, ok := month[key]; ok && prev != fmt.Sprint(i) {
					t.Errorf("%q is month %s and %d", n, prev, i)
				}
				month[key] = fmt.Sprint(i)
			}
		}
		for i := 1; i <= 7; i++ {
			if len(Of(l, fmt.Sprintf("weekday.%d", i))) == 0 {
				t.Errorf("%s has no weekday %d", l, i)
			}
		}
	}
	if OwnMonths()["hr"]["listopada"] != 10 || OwnMonths()["cs"] != nil {
		t.Errorf("OwnMonths: Croatian listopada = %d, want 10; Czech has %v, want none", OwnMonths()["hr"]["listopada"], OwnMonths()["cs"])
	}
	if Months()["desember"] != 12 || Months()["października"] != 10 || Weekdays()["fredag"] != 5 {
		t.Error("Months or Weekdays misread the files")
	}
}

// TestDetect: a few sentences are enough to tell the language; a text of
// numbers and names is none.
func TestDetect(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Thank you for your booking. Please check the details below and have your passport with you.", "en"},
		{"Vielen Dank für Ihre Buchung. Bitte prüfen Sie die Angaben, wir freuen uns auf Sie.", "de"},
		{"Hola Lucía, tu reserva está confirmada. Equipaje de mano incluido para el vuelo del lunes.", "es"},
		{"Hej Mads, tak for din booking. Husk at tjekke ind, det er vigtigt for os.", "da"},
		{"Hei Liisa, uusi laskusi on valmis. Kiitos, että olet asiakas ja se on hyvä.", "fi"},
		{"VY 8302 12/06/2027 BCN 06:50 AMS 09:15", ""},
		{"Ďakujeme za nákup. Lístok si môžete stiahnuť, ak sa vám nezobrazí, napíšte nám alebo zavolajte.", "sk"},
		{"Děkujeme za nákup. Jízdenka je v příloze, pokud se vám nezobrazí, napište nám. Pro cestu je platná.", "cs"},
		{"Poštovani, hvala što ste odabrali naše letove. Molimo provjerite podatke ili nas kontaktirajte.", "hr"},
		{"Spoštovani, hvala za nakup. Vozovnico lahko prenesete tudi v aplikaciji, ki je brezplačna.", "sl"},
		{"Dėkojame, kad pirkote bilietą. Jūsų bilietas yra prisegtas, prašome jį pateikti.", "lt"},
		{"Paldies, ka iegādājāties biļeti. Jūsu biļete tiek pievienota, lūdzam to uzrādīt.", "lv"},
		{"Tere! Täname ostu eest. Teie pilet on lisatud, palun näidake seda telefonis või paberil.", "et"},
		{"Hei Liisa, uusi laskusi on valmis. Kiitos, että olet asiakas ja se on hyvä.", "fi"},
	} {
		if got := Detect(c.text); got != c.want {
			t.Errorf("Detect(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestDetectSure(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Vielen Dank für Ihre Buchung. Bitte beachten Sie die Hinweise.", "de"},
		{"PNR:2438941616,TRAIN:12138,DOJ:25-08-2012,TIME:05:15,SL,NDLS TO FDB,S7 49", ""},
		{"Grazie per la prenotazione, il treno parte alle 08:15 per Roma.", "it"},
		{"Ďakujeme za nákup. Lístok si môžete stiahnuť alebo ukázať v mobile, sú platné pre cestu.", "sk"},
		{"Děkujeme za nákup. Jízdenka je v příloze a je platná pro cestu, pokud se vám nezobrazí, napište nám.", "cs"},
		{"Tere! Täname ostu eest. Teie pilet on lisatud, palun näidake seda telefonis või paberil.", "et"},
		{"ok", ""},
	}
	for _, tt := range tests {
		if got := DetectSure(tt.text); got != tt.want {
			t.Errorf("DetectSure(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
