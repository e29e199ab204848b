package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestFlattenedTicketStops: an agency's e-ticket whose table was
// flattened row by row (issue 46, foreign-26: a Russian agency's S7
// ticket) puts the stop's label before the place and the terminal after
// its code ("Departure Санкт-Петербург, Пулково (LED) Терминал: 1"),
// the clock above the day, the day's line ending in the fare's class,
// and the airline's name before the number ("S7 Airlines S7 6003").
// A city whose saint's "St" reads as Czech's Wednesday keeps the code
// printed after it ("St Petersburg (LED)", not Petersburg in Alaska).
func TestFlattenedTicketStops(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []flightLeg
	}{
		{"Russian, flattened", "Электронный билет (Маршрутная квитанция)\nElectronic ticket (Itinerary receipt)\n\n" +
			"Номер брони в авиакомпании:\nKQ7ZRT\n\nВылет\nDeparture Новосибирск, Толмачёво (OVB) Терминал: A\n09:40\n12 марта 2027 Эконом (Y)\n" +
			"Класс / Class Рейс/Flight:\nSiberia Airlines S7 2511\nAirbus A320\n\nПрибытие\nArrival Иркутск (IKT)\n13:55\n12 марта 2027 Багаж 23 кг\n",
			[]flightLeg{{"S7 2511", "OVB", "IKT", "2027-03-12 09:40 +0700", "2027-03-12 13:55 +0800"}}},
		{"English, the saint's city", "Your e-ticket\n\nBooking: MX4QTR\nFlight: SU 35\n" +
			"Departure: St Petersburg (LED) 14:10 16 April 2027\nArrival: Kaliningrad (KGD) 15:40 16 April 2027\n",
			[]flightLeg{{"SU 35", "LED", "KGD", "2027-04-16 14:10 +0300", "2027-04-16 15:40 +0200"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts("Aviakassa <tickets@aviakassa.example>", "Электронные билеты по заказу 55012", tt.text,
				time.Date(2027, 2, 1, 9, 0, 0, 0, time.UTC))
			checkLegs(t, flightLegs(facts), tt.want)
		})
	}
}

// TestForeign26RailLegs: railways' mails of foreign-26, each a class:
//   - a list of the trip's fields each after a label (Russian Railways'
//     "Departure time: 07.10.2019 at 18:06(MSK)") writes the time zone
//     after each clock: the zone names no station; trains are numbered
//     by digits and two Cyrillic letters ("022ЧА");
//   - the same list in Russian puts the word for "time" before the
//     stop's ("- Время отправления: …"), after a bullet; its clocks are
//     in the mail's own zone;
//   - a timetable, a row a stop (RegioJet's, in Russian): the day, the
//     station, the clock, then the route and the train, the day opened by
//     the weekday's short name ("Ср 11.09.19"): the station is the cell
//     between the day and the clock, not the route after it; the booking
//     named by the number after its heading ("Подтверждение бронирования
//     9827613848") is no newsletter's offer, whatever its footer says.
func TestForeign26RailLegs(t *testing.T) {
	msk := time.FixedZone("MSK", 3*3600)
	for _, tt := range []struct {
		name, from, text string
		sent             time.Time
		layout, want     string
	}{
		{"a labelled list, zones after the clocks", "Railway <tickets@rail.example>",
			"Your train on 14.05.2027 at 07:25(MSK) between TVER - MOSKVA OKT.\n\n" +
				"- Train No118ЧЯ\n\n- Carriage No.07\n\n- Departure time: 14.05.2027 at 07:25(MSK)\n\n- Departure station: TVER\n\n" +
				"- Arrival time: 14.05.2027 at 09:41 (MSK)\n\n- Arrival station: MOSKVA OKT\n",
			time.Date(2027, 4, 1, 9, 0, 0, 0, time.UTC), "15:04", "118ЧЯ | TVER | MOSKVA OKT | 07:25 | 09:41"},
		{"the list in Russian", "Railway <tickets@zheldor-bilet.ru>",
			"Ваша поездка 14.05.2027 в 07:25(МСК) по маршруту ТВЕРЬ - МОСКВА ОКТ.\n\n- Поезд №118ЧЯ\n\n- Вагон №07\n\n" +
				"- Время отправления: 14.05.2027 в 07:25(МСК)\n\n- Станция отправления: ТВЕРЬ\n\n" +
				"- Время прибытия: 14.05.2027 в 09:41(МСК)\n\n- Станция прибытия: МОСКВА ОКТ\n",
			time.Date(2027, 4, 1, 9, 0, 0, 0, msk), "15:04 -0700", "118ЧЯ | ТВЕРЬ | МОСКВА ОКТ | 07:25 +0300 | 09:41"},
		{"a booking named by its heading's number, over a newsletter's footer", "Rail Coach <noreply@railcoach.example>",
			"Подтверждение бронирования 4410277719\n\nПоездка\n\n" +
				"Дата\tОстановка/пересадка\tПрибытие\tОтбытие\tПлатф.\tАвтобус/поезд\tВагон/места\n\n" +
				"Чт 14.10.27\tБрно, hl.n.\t08:48\tБрно → Прага (RJ, RJ 1008)\t3/12 ...\n\nПрага, hl.n.\t11:19\n\nОбщая цена: 9,90 EUR\n\n" +
				"Если Вы не хотите получать наши электронные письма автоматически, внесите изменения в раздел «Настройки».\n",
			time.Date(2027, 10, 1, 9, 0, 0, 0, time.UTC), "2006-01-02 15:04", "RJ 1008 | Брно, hl.n | Прага, hl.n | 2027-10-14 08:48 | 11:19"},
		{"a timetable's rows", "Rail Coach <noreply@railcoach.example>",
			"Подтверждение бронирования 4410277719\nПоездка\n" +
				"Дата\tОстановка/пересадка\tПрибытие\tОтбытие\tПлатф.\tАвтобус/поезд\tВагон/места\n" +
				"Чт 14.10.27\tБрно, hl.n.\t08:48\tБрно → Прага (RJ, RJ 1008)\t3/12 ...\nПрага, hl.n.\t11:19\nОбщая цена: 9,90 EUR\n",
			time.Date(2027, 10, 1, 9, 0, 0, 0, time.UTC), "2006-01-02 15:04", "RJ 1008 | Брно, hl.n | Прага, hl.n | 2027-10-14 08:48 | 11:19"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := trainLegs(mailFacts(tt.from, "Ваши билеты", tt.text, tt.sent), tt.layout)
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("trains %q, want [%q]", got, tt.want)
			}
		})
	}
}

// TestMalayBill: Malaysia's bills in Malay (foreign-25: TNB) say the sum
// to pay "Jumlah Perlu Dibayar", in ringgit written "RM", the last day
// "Bayar Sebelum", the number "No. Invois"; a row of values each after a
// colon under a row of labels gives no number, as which cell is the
// invoice's it does not say.
func TestMalayBill(t *testing.T) {
	type want struct{ number, amount, currency, status, due string }
	for _, tt := range []struct {
		name, text string
		want       want
	}{
		{"labelled", "BIL ELEKTRIK\n\nNo. Akaun: 330011224455\nNo. Invois: 7701234567\nTarikh Bil : 14.04.2027\n\n" +
			"Jumlah Perlu Dibayar RM 88.20\nBayar Sebelum 14.05.2027\n",
			want{"7701234567", "88.20", "MYR", "due", "2027-05-14"}},
		{"a row of colon cells", "BIL ELEKTRIK DAN INVOIS CUKAI No. Akaun No. Kontrak Deposit No. Invois Cukai\n\n" +
			": 330011224455 : 200481 : RM120.00 : 7701234567\n\nJumlah Perlu Dibayar RM 88.20\nBayar Sebelum 14.05.2027\n",
			want{"", "88.20", "MYR", "due", "2027-05-14"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := oneBill(t, mailFacts("Tenaga Utara <bil@tenagautara.example.my>", "Bil Elektrik", tt.text, time.Date(2027, 4, 14, 9, 0, 0, 0, time.UTC)))
			due := ""
			if b.Due != nil {
				due = b.Due.Format("2006-01-02")
			}
			a, cur := billAmount(b)
			if got := (want{b.Number, a, cur, b.Status, due}); got != tt.want {
				t.Errorf("bill %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestPrintedInvoiceFootAndStoreReceipt: bills of foreign-26 that gave
// nothing. A fuel station's printed invoice (Polish, as invoice2data
// keeps it) numbers itself "Faktura nr: F 1234K20/1234/12", letters after
// the first digits, and says at its foot, under its items, that it was
// paid by an app ("Zapłacono: Aplikacja mobilna ORLEN Pay"). A game
// store's receipt names itself a receipt in its ninth line of text, not
// its first eight, its payment under "Payment Info:" and its number
// under "Confirmation Number:", as payment confirmations number theirs.
func TestPrintedInvoiceFootAndStoreReceipt(t *testing.T) {
	items := ""
	for i := 1; i <= 24; i++ {
		items += "Pozycja " + string(rune('A'+i%26)) + "   szt   1   10,00   10,00\n"
	}
	for _, tt := range []struct {
		name, from, subject, text string
		want                      [4]string // number, amount, currency, status
	}{
		{"a printed invoice paid at its foot", "Stacja Paliw Lipa <faktury@stacjalipa.example.pl>", "Faktura",
			"Faktura nr: F 7781P31/0042/27                    Data wystawienia: 2027-02-03\nSprzedawca: Stacja Paliw Lipa Sp. z o.o.\n\n" + items +
				"Należność ogółem: 240,00 PLN\nSłownie: dwieście czterdzieści PLN\nZapłacono: Aplikacja mobilna LIPA Pay\n",
			[4]string{"F 7781P31/0042/27", "240.00", "PLN", "paid"}},
		{"a store's receipt named late", "Game Hall <noreply@gamehall.example>", "Thank you for your Game Hall purchase!",
			"GAME HALL\n\nDear player,\n\nThank you for your recent purchase on Game Hall.\n\nInstall the app now:\n\nhttps://gamehall.example/get\n\n" +
				"Launch the app and log in.\n\nYour games are in your Library.\n\nDownloadable content arrives by itself.\n\nThis email message will serve as your receipt.\n\n" +
				"Lantern Keeper\n4.99 EUR\nTotal:\n4.99 EUR\nPayment Info:\nPayPal\n4.99 EUR\nConfirmation Number:\n550184422907316611\n",
			[4]string{"550184422907316611", "4.99", "EUR", "paid"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := oneBill(t, mailFacts(tt.from, tt.subject, tt.text, time.Date(2027, 2, 3, 9, 0, 0, 0, time.UTC)))
			a, cur := billAmount(b)
			if got := [4]string{b.Number, a, cur, b.Status}; got != tt.want {
				t.Errorf("bill %v, want %v", got, tt.want)
			}
		})
	}
}

// TestItalianOrderTotalWithVAT: an Italian shop's order confirmation
// gives its total as "Totale IVA inclusa (ove applicabile):" after the
// items' subtotal and the shipping (foreign-26: Amazon.it).
func TestItalianOrderTotalWithVAT(t *testing.T) {
	o := orderOf(t, "Bottega Lume <ordini@bottegalume.example.it>", "Conferma ordine",
		"Conferma ordine\n\nOrdine n°LM-2027-00418\n\nGrazie per il tuo ordine.\n\nDettagli ordine\n\nLampada da tavolo, ottone\n\n"+
			"Totale parziale degli articoli:\tEUR 48,00\nCosti di spedizione:\tEUR 5,90\nTotale IVA inclusa (ove applicabile):\tEUR 53,90\n")
	if o.Total == nil || o.Total.Amount != "53.90" || o.Total.Currency != "EUR" {
		t.Errorf("total %+v, want 53.90 EUR", o.Total)
	}
}

// TestRussianCheckOutLabel: Booking.com's Russian confirmation labels the
// stay's last day "Регистрация отъезда" (foreign-26), beside its
// "Регистрация заезда".
func TestRussianCheckOutLabel(t *testing.T) {
	checkStays(t, time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC), []staySeen{
		{"Booking.com <noreply@booking.com>", "Подтверждение бронирования", "Номер бронирования: 2201933571\n\n" +
			"Спасибо, Ирина! Ваше бронирование в городе Kazan подтверждено.\n\nГостевой дом Ладья ожидает вас 15 июля\n\n" +
			"Ваше бронирование 2 ночи, 1 номер\nРегистрация заезда суббота, 15 июля 2027 (14:00 - 16:00)\n" +
			"Регистрация отъезда понедельник, 17 июля 2027 (08:00 - 12:00)\nОбщая стоимость 5 400 руб.\n",
			"Гостевой дом Ладья", "2027-07-15", "2027-07-17", "2201933571"},
	})
}

// TestBareTotalBeforeSentenceAmount: a telecom's bill as its PDF's text
// (foreign-26: Türk Telekom) prints its total bare, the currency only in
// its columns' headers and other amounts ("ÖDENECEK TOPLAM TUTAR 73,50"),
// and its terms an amount in a sentence ("alt limiti … 20 TL'dir"): the
// total's row is the bill's amount, not the sentence's.
func TestBareTotalBeforeSentenceAmount(t *testing.T) {
	text := "FATURA AYRINTILARI Tutar (TL) Tutar (TL)\nAYLIK ÜCRETLER 41,20 52,40\nKDV (18%) (Matrah 41,20 TL) 7,42\n" +
		"TOPLAM FATURA TUTARI 59,82\nÖDENECEK TOPLAM TUTAR 59,82\n\nFaturalama Limiti: Faturalama alt limiti vergiler dahil 20 TL'dir.\n"
	b := oneBill(t, mailFacts("Hat Mobil <fatura@hatmobil.example.com.tr>", "Hat Mobil Fatura", text, time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)))
	if a, cur := billAmount(b); a != "59.82" || cur != "TRY" {
		t.Errorf("amount %s %s, want 59.82 TRY", a, cur)
	}
}

// trainLegs are the trains of facts with both ends and both times, as
// "number | from | to | departure | arrival", the departure in layout.
func trainLegs(facts []extract.Fact, layout string) []string {
	var out []string
	for _, f := range facts {
		if s := f.Segment; s != nil && s.Type == "train" && s.From != nil && s.To != nil && s.Depart != nil && s.Arrive != nil {
			out = append(out, s.Number+" | "+s.From.Name+" | "+s.To.Name+" | "+s.Depart.Format(layout)+" | "+s.Arrive.Format("15:04"))
		}
	}
	return out
}

// TestInvoiceNumberAfterIssuerName: a telecom's one-line notice names the
// bill "factura Vodafone VDF087232507" (foreign-26: Vodafone Romania): the
// issuer's name, its domain's, stands between the word and the number. A
// name that is not the sender's stays a value, and no number is read.
func TestInvoiceNumberAfterIssuerName(t *testing.T) {
	for _, tt := range []struct{ from, want string }{
		{"Retea Mobila <facturi@reteamobila.ro>", "RTM004411220"},
		{"Alt Operator <facturi@altoperator.ro>", ""},
	} {
		text := "Va informam ca pe data de 17-06-2027 a fost emisa factura Reteamobila RTM004411220 in valoare de 58.20 RON. Cod client 205702309 .Total datorat: 58,20 RON. Data scadenta: 07-07-2027.\n"
		b := oneBill(t, mailFacts(tt.from, "Factura emisa", text, time.Date(2027, 6, 17, 9, 0, 0, 0, time.UTC)))
		if b.Number != tt.want {
			t.Errorf("%s: number %q, want %q", tt.from, b.Number, tt.want)
		}
	}
}
