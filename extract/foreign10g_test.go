package extract_test

import (
	"testing"
	"time"
)

// Ground travel in short or foreign mail, the forms foreign-10 showed
// (issue 46, xf10g, 2026-11-30), each proved in other brands and
// languages than the mails that showed them: the route whole after the
// departure's label ("From: A → B", "From: A to B"), its day alone or
// its day and time under their own labels; a route apart by ">" over its
// day "at" its clock; China's rail sentence without its year and with
// "至" or "一" between the stations; a booking's code of four groups of
// digits. Every mail but the distractors gave no fact before.

// TestGroundRouteForms: the leg each mail gives, or none.
func TestGroundRouteForms(t *testing.T) {
	type leg struct{ kind, number, from, to, depart, ref string }
	for _, c := range []struct {
		name, from, subject, body string
		date                      time.Time
		want                      []leg
	}{
		{"en: coach, route after From, Date over Time", "Kerala Roadways <tickets@keralaroadways.example.in>", "Your Bus Ticket - KR88120",
			"Dear Anu,\n\nYour booking is confirmed!\n\nPNR: KR88120\nFrom: Kozhikode → Mangalore\nDate: April 22, 2026\nTime: 09:30 PM\nSeat: 14\n\nHappy journey!\n",
			time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC),
			[]leg{{"bus", "", "Kozhikode", "Mangalore", "2026-04-22 21:30", "KR88120"}}},
		{"es: coach, Origen with the route, Fecha over Hora", "Autocares Levante <reservas@autocareslevante.example.es>", "Tu billete de autobús",
			"Hola Lucía,\n\nLocalizador: LV-55310\nOrigen: Valencia → Alicante\nFecha: 18/06/2026\nHora: 07:45\nAsiento: 22\n",
			time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC),
			[]leg{{"bus", "", "Valencia", "Alicante", "2026-06-18 07:45", "LV-55310"}}},
		{"en: coach operator, From A to B, a day without a clock", "Megaline Coaches <noreply@megalinecoaches.example>", "Booking confirmed",
			"Your Megaline bus booking is confirmed\nFrom: Manchester to Liverpool\nDeparture: 12 June 2026\nTotal: GBP 8.50\nBooking No: MGL4471\n",
			time.Date(2026, 5, 20, 9, 0, 0, 0, time.UTC),
			[]leg{{"bus", "", "Manchester", "Liverpool", "2026-06-12", "MGL4471"}}},
		{"de: train, Von A nach B, Abfahrt a day", "Elbtal Bahn <tickets@elbtalbahn.example.de>", "Ihre Fahrkarte",
			"Ihre Fahrkarte ist gebucht.\nVon: Dresden nach Leipzig\nAbfahrt: 14.06.2026\nKlasse: 2. Klasse\nPreis: 24,90 EUR\nAuftragsnummer: 58812047\n",
			time.Date(2026, 6, 2, 9, 0, 0, 0, time.UTC),
			[]leg{{"train", "", "Dresden", "Leipzig", "2026-06-14", "58812047"}}},
		{"de: route apart by >, its day um its clock, a code of four groups", "Alpenland Bahn <tickets@alpenlandbahn.example.at>", "Ihr Ticket",
			"Buchungscode: 4410 2287 9035 1176\nBuchungsdatum: 2. Juni 2026\n\nIhre Tickets\nInnsbruck Hbf  >  Salzburg Hbf\nEine Fahrt für Lena Huber\ngültig am 20. Juni 2026 um 09:12\n",
			time.Date(2026, 6, 2, 8, 0, 0, 0, time.UTC),
			[]leg{{"train", "", "Innsbruck Hbf", "Salzburg Hbf", "2026-06-20 09:12", "4410 2287 9035 1176"}}},
		{"fr: route apart by an arrow, its day à its clock", "Rail Dauphiné <billets@raildauphine.example.fr>", "Votre billet de train",
			"Référence : RDX7Q2\n\nLyon Part-Dieu → Grenoble\nvalable le 4 juillet 2026 à 10:14\nVoiture 3\n",
			time.Date(2026, 6, 20, 8, 0, 0, 0, time.UTC),
			[]leg{{"train", "", "Lyon Part-Dieu", "Grenoble", "2026-07-04 10:14", "RDX7Q2"}}},
		{"zh: no year, 至 between the stations, the code glued in a sentence", "铁路客服 <service@rail.example.cn>", "购票成功",
			"尊敬的王先生：您好！您成功购买了1张车票。所购车票信息如下：1.王伟，05月12日08:15，北京南至天津，C2051次列车，3车12F号，二等座，票价54.50元。请持订单号码E123456789到车站换取纸质车票。",
			time.Date(2026, 5, 1, 12, 0, 0, 0, time.FixedZone("CST", 8*3600)),
			[]leg{{"train", "C2051", "北京南", "天津", "2026-05-12 08:15", "E123456789"}}},
		{"zh: a year, no 开, a dash", "铁路客服 <service@rail.example.cn>", "购票成功",
			"您好！您于2026年03月02日购买了1张车票，订单号码 EA55102938。1.李娜，2026年03月09日14:05，广州南-深圳北，G6017次列车，5车8A号，二等座。",
			time.Date(2026, 3, 2, 12, 0, 0, 0, time.FixedZone("CST", 8*3600)),
			[]leg{{"train", "G6017", "广州南", "深圳北", "2026-03-09 14:05", "EA55102938"}}},
		// Distractors.
		{"en: a fare offer From A to B keeps nothing", "Megaline Coaches <news@megalinecoaches.example>", "Summer deals",
			"Summer deals!\nFrom: Manchester to Liverpool\nDeparture: 12 June 2026\nPrices from GBP 4.99\nBook now.\n",
			time.Date(2026, 5, 20, 9, 0, 0, 0, time.UTC), nil},
		{"en: opening hours From Monday to Friday are no route", "Harbour Dental <info@harbourdental.example>", "Our new hours",
			"Dear patient,\nFrom: Monday to Friday\nDeparture: 12 June 2026\nBooking No: HD2231\n",
			time.Date(2026, 5, 20, 9, 0, 0, 0, time.UTC), nil},
		{"en: a route over the time it was booked is no departure", "Dales Rail <tickets@dalesrail.example.co.uk>", "Request received DR-88123",
			"Your seat reservation request was received.\nReference: DR-88123\nLeeds → Skipton\nRequested on 2 June 2026 at 10:12\nWe will write again once the seats are confirmed.\n",
			time.Date(2026, 6, 2, 10, 13, 0, 0, time.UTC), nil},
		{"en: without a Date header the day at its clock is no departure either", "Dales Rail <tickets@dalesrail.example.co.uk>", "Request received DR-88123",
			"Your seat reservation request was received.\nReference: DR-88123\nLeeds → Skipton\nRequested on 2 June 2026 at 10:12\nWe will write again once the seats are confirmed.\n",
			time.Time{}, nil},
	} {
		facts := mailFacts(c.from, c.subject, c.body, c.date)
		if len(facts) != len(c.want) {
			t.Errorf("%s: got %d facts, want %d: %+v", c.name, len(facts), len(c.want), facts)
			continue
		}
		for i, w := range c.want {
			s := facts[i].Segment
			if s == nil || s.From == nil || s.To == nil || s.Depart == nil {
				t.Errorf("%s: fact %d: %+v", c.name, i, facts[i])
				continue
			}
			layout := "2006-01-02 15:04"
			if s.Depart.DateOnly {
				layout = "2006-01-02"
			}
			got := leg{facts[i].Kind, s.Number, s.From.Name, s.To.Name, s.Depart.Format(layout), s.Reservation}
			if got != w {
				t.Errorf("%s: leg %d = %+v, want %+v", c.name, i, got, w)
			}
		}
	}
}
