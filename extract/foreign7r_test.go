package extract_test

import (
	"testing"
	"time"
)

// Classes found by the held-out set foreign-7 of other projects' mail
// (issue 46, xf7r, 2026-11-29), each proved here in other words and other
// brands than the mails that showed them.

// TestCJKServiceLegs: East Asian high-speed rail legs on one line each,
// the train's service before its stops without a label ("かもめ2号",
// "KTX-이음 711") or after its label ("車次 0615"), the stops' signs after
// their clocks as Japanese ("6:53発"), Chinese ("07:45 發", "08:32 到")
// and Korean ("05:13 출발") write them.
func TestCJKServiceLegs(t *testing.T) {
	type leg struct{ number, from, to, depart, arrive string }
	for _, c := range []struct {
		from, body string
		date       time.Time
		want       []leg
	}{
		{"JR九州ネット予約 <yoyaku@jrkyushu-net.example.jp>",
			"予約番号：Q7284\n\n往路 12月5日(土)\nかもめ2号 長崎 6:53発 → 武雄温泉 7:23着\nリレーかもめ2号 武雄温泉 7:28発 → 博多 8:35着\n\n大人1名 指定席\n",
			time.Date(2026, 11, 16, 12, 0, 0, 0, time.UTC),
			[]leg{{"かもめ2号", "長崎", "武雄温泉", "2026-12-05 06:53", "2026-12-05 07:23"},
				{"リレーかもめ2号", "武雄温泉", "博多", "2026-12-05 07:28", "2026-12-05 08:35"}}},
		{"레일코리아 <ticket@railkorea.example.kr>",
			"예약번호: 3304-1127-55120\n\n[가는 열차] 2026년 12월 19일 (토)\nKTX 101 서울 Seoul 05:13 출발 → 오송 Osong 05:58 도착\nKTX-이음 711 오송 Osong 06:20 출발 → 충주 Chungju 07:12 도착\n",
			time.Date(2026, 11, 18, 5, 0, 0, 0, time.UTC),
			[]leg{{"KTX 101", "서울 Seoul", "오송 Osong", "2026-12-19 05:13", "2026-12-19 05:58"},
				{"KTX-이음 711", "오송 Osong", "충주 Chungju", "2026-12-19 06:20", "2026-12-19 07:12"}}},
		{"高鐵訂票 <booking@hsr-tix.example.tw>",
			"訂位代號：07194523\n\n去程 2026/12/24 (四)\n車次 0615 台北 Taipei 07:45 發 → 台中 Taichung 08:32 到\n\n標準車廂 全票\n",
			time.Date(2026, 11, 19, 1, 0, 0, 0, time.UTC),
			[]leg{{"0615", "台北 Taipei", "台中 Taichung", "2026-12-24 07:45", "2026-12-24 08:32"}}},
	} {
		facts := mailFacts(c.from, "ご予約", c.body, c.date)
		if len(facts) != len(c.want) {
			t.Errorf("%s: got %d facts, want %d: %+v", c.from, len(facts), len(c.want), facts)
			continue
		}
		for i, w := range c.want {
			s := facts[i].Segment
			if facts[i].Kind != "train" || s == nil || s.From == nil || s.To == nil || s.Depart == nil || s.Arrive == nil {
				t.Errorf("%s: fact %d: %+v", c.from, i, facts[i])
				continue
			}
			got := leg{s.Number, s.From.Name, s.To.Name, s.Depart.Time.Format("2006-01-02 15:04"), s.Arrive.Time.Format("2006-01-02 15:04")}
			if got != w {
				t.Errorf("%s: leg %d = %+v, want %+v", c.from, i, got, w)
			}
		}
	}
}

// TestDirectionHeadingIsNoStation: a journey's direction heading ("Aller",
// "Hinfahrt:", "Ida") on a stop's line, before the station or before the
// clock, is never the origin.
func TestDirectionHeadingIsNoStation(t *testing.T) {
	day := time.Date(2026, 6, 3, 16, 0, 0, 0, time.UTC)
	for _, c := range []struct{ from, body, wantFrom, wantTo string }{
		{"Ligne Azur Rail <confirmation@ligneazur-rail.example.fr>",
			"Référence dossier : PLQ7RM\n\nvendredi 12 juin 2026\nAller Paris Gare de Lyon 07h04 - Lyon Part-Dieu 09h01\nTrain 9621 - Voiture 5 - Place 63\n",
			"Paris Gare de Lyon", "Lyon Part-Dieu"},
		{"Westtal Bahn <tickets@westtalbahn.example.de>",
			"Buchungsnummer: WT-330871\n\nSamstag, 27. Juni 2026\nHinfahrt: 09:14 Dortmund Hbf\nAnkunft: 09:52 Münster(Westf)Hbf\nRE 7 (Zug 10714), Wagen 2\n",
			"Dortmund Hbf", "Münster(Westf)Hbf"},
		{"Alta Velocidad Levante <reservas@avlevante.example.es>",
			"Localizador: AV8K2T\n\nSábado 20 de junio de 2026\nIda 08:00 Madrid Puerta de Atocha → 09:52 Valencia Joaquín Sorolla\nTren 6041 · Coche 4 · Plaza 7A\n",
			"Madrid Puerta de Atocha", "Valencia Joaquín Sorolla"},
	} {
		facts := mailFacts(c.from, "Confirmation", c.body, day)
		if len(facts) != 1 || facts[0].Segment == nil || facts[0].Segment.From == nil || facts[0].Segment.To == nil {
			t.Errorf("%s: got %+v, want one leg", c.from, facts)
			continue
		}
		if s := facts[0].Segment; s.From.Name != c.wantFrom || s.To.Name != c.wantTo {
			t.Errorf("%s: leg %q -> %q, want %q -> %q", c.from, s.From.Name, s.To.Name, c.wantFrom, c.wantTo)
		}
	}
}

// TestCJKAdvertIsNoBooking: a rail site's advert of its trains, in the
// same lines as a booking's legs, that asks "出かけませんか" and invites
// "ご予約は…から" books nothing: "ご予約" alone (an invitation to book) is no
// booking's sign, "ご予約内容", "ご予約番号", "ご予約を承りました" are.
func TestCJKAdvertIsNoBooking(t *testing.T) {
	body := "冬の長崎へ、西九州新幹線で出かけませんか。\n\nかもめ2号 長崎 6:53発 → 武雄温泉 7:23着\nリレーかもめ2号 武雄温泉 7:28発 → 博多 8:35着\n\n早特きっぷ 発売中：12月1日～2月28日\nご予約はネット予約から。\n"
	if facts := mailFacts("JR九州ネット予約 <info@jrkyushu-net.example.jp>", "冬の長崎へ", body, time.Date(2026, 11, 10, 3, 0, 0, 0, time.UTC)); len(facts) != 0 {
		t.Errorf("an advert gave %d facts: %+v", len(facts), facts)
	}
}
