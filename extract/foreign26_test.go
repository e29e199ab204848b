package extract_test

import (
	"testing"
	"time"
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

// TestLabelledRailListWithZone: a railway's mail that lists its trip's
// fields each after a label (foreign-26: Russian Railways' "Departure
// time: 07.10.2019 at 18:06(MSK)") writes the time zone after each
// clock; the zone names no station. Its trains are numbered by digits
// and two Cyrillic letters ("022ЧА").
func TestLabelledRailListWithZone(t *testing.T) {
	text := "Your train on 14.05.2027 at 07:25(MSK) between TVER - MOSKVA OKT.\n\n" +
		"- Train No118ЧЯ\n\n- Carriage No.07\n\n- Departure time: 14.05.2027 at 07:25(MSK)\n\n- Departure station: TVER\n\n" +
		"- Arrival time: 14.05.2027 at 09:41 (MSK)\n\n- Arrival station: MOSKVA OKT\n"
	facts := mailFacts("Railway <tickets@rail.example>", "Your tickets", text, time.Date(2027, 4, 1, 9, 0, 0, 0, time.UTC))
	var got []string
	for _, f := range facts {
		if s := f.Segment; s != nil && s.Type == "train" && s.From != nil && s.To != nil && s.Depart != nil && s.Arrive != nil {
			got = append(got, s.Number+" "+s.From.Name+" "+s.To.Name+" "+s.Depart.Format("15:04")+" "+s.Arrive.Format("15:04"))
		}
	}
	if want := "118ЧЯ TVER MOSKVA OKT 07:25 09:41"; len(got) != 1 || got[0] != want {
		t.Errorf("trains %q, want [%q]", got, want)
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
