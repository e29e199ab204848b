package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestFoldWidth(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"予約番号：ＫＱ７Ｍ４Ｔ", "予約番号:KQ7M4T"},
		{"０７：４５発", "07:45発"},
		{"合計金額\u300012,650円（税込）", "合計金額 12,650円(税込)"},
		{"￥699 〒100-0005", "￥699 〒100-0005"}, // the yen sign and the postcode mark stay
		{"plain ASCII", "plain ASCII"},
		{"\xef\xbc", "\xef\xbc"}, // a cut rune is no full-width form
	} {
		if got := foldWidth(c.in); got != c.want {
			t.Errorf("foldWidth(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCJKDates(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // y-m-d of each date, "" for none
	}{
		{"搭乗日：2026年12月18日(金)", "2026-12-18"},
		{"날짜: 2026년 12월 19일 (토)", "2026-12-19"},
		{"12月18日(金) 07:45", "0-12-18"},
		{"배송 예정일: 11월 23일", "0-11-23"},
		{"ご使用期間：2026年10月15日～2026年11月13日", "2026-10-15 2026-11-13"},
		{"2026年11月分の電気料金", ""},             // a month, no day
		{"1,600月13日", ""},                  // a longer number's digits
		{"2026年13月40日", ""},                // no such day
		{"12 月 5 日", "0-12-5"},             // spaced as some systems print it
		{"お支払期限：令和8年12月25日", "2026-12-25"}, // Japan's era
		{"令和元年5月1日", "2019-5-1"},
		{"搭乗日：12/18(金)", "0-12-18"}, // month first before its weekday
		{"1/9 (토) 22:30", "0-1-9"},
		{"1/9 (Sat)", ""}, // no clock after it, no weekday of these scripts
		{"3/4", ""},
	} {
		var got []string
		for _, d := range findDates(c.in, false) {
			got = append(got, fmt.Sprintf("%d-%d-%d", d.y, d.m, d.d))
		}
		if !slices.Equal(got, strings.Fields(c.want)) {
			t.Errorf("findDates(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestCJKMeridiem(t *testing.T) {
	for _, c := range []struct {
		in   string
		h, m int
	}{
		{"출발 오후 7:45", 19, 45},
		{"오전 12:10", 0, 10},
		{"下午 3:05", 15, 5},
		{"午後7:30発", 19, 30},
		{"07:45発", 7, 45},
		{"오후 19:45", 19, 45},
	} {
		cs := findClocks(c.in)
		if len(cs) != 1 || cs[0].h != c.h || cs[0].m != c.m {
			t.Errorf("findClocks(%q) = %+v, want %02d:%02d", c.in, cs, c.h, c.m)
		}
	}
}

func TestYen(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"お支払い金額：¥1,280", "JPY"},
		{"实付金额：¥699.00", "CNY"},
		{"Total: ¥1,280", ""},
	} {
		if got := yen(c.text); got != c.want {
			t.Errorf("yen(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestCJKPlaceWords(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []string
	}{
		{[]string{"出発", "東京(羽田)", "発"}, []string{"東京(羽田)"}},
		{[]string{"出发", "北京首都国际机场", "T3"}, []string{"北京首都国际机场"}},
		{[]string{"도착", "부산"}, []string{"부산"}},
		{[]string{"福岡", "(金)"}, []string{"福岡"}},
		{[]string{"Terminal", "T3"}, []string{"Terminal"}},
	} {
		if got := cjkPlaceWords(slices.Clone(c.in)); !slices.Equal(got, c.want) {
			t.Errorf("cjkPlaceWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCJKClockMarks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"新大阪 10:24発 → 東京 12:51着", "新大阪 10:24    → 東京 12:51   "},
		{"東京(10:20発)→仙台(11:50着)", "東京(10:20)   →仙台(11:50)   "},
		{"出発：東京(羽田) 07:45発", "出発：東京(羽田) 07:45   "},
		{"東京発 福岡行き", "東京発 福岡行き"}, // no clock before the sign
	} {
		got := cjkClockMarks(c.in)
		if got != c.want || len(got) != len(c.in) {
			t.Errorf("cjkClockMarks(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCJKTrainLabel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"열차: KTX 017", "KTX 017"},
		{"열차번호: SRT 325", "SRT 325"},
		{"车次：G102", "G102"},
		{"列車名：のぞみ215号", "のぞみ215号"},
		{"좌석: 5호차 12A석", ""},
	} {
		got := ""
		if m := trainLabel(foldWidth(c.in)); m != nil {
			got = m[1]
		}
		if got != c.want {
			t.Errorf("trainLabel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestScriptCountry(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"승차일: 2026.12.24 (목)", "KR"},
		{"以下の内容でご予約が完了しました。乗車日：2026年12月26日", "JP"},
		{"新大阪 10:24 → 東京 12:51", "CN"}, // Chinese characters alone: the offset China's, Taiwan's and Hong Kong's share
		{"Abfahrt 10:24", ""},
		{"Αναχώρηση: 18 Δεκεμβρίου 2026, 07:30", "GR"},
		{"Відправлення: 18 грудня 2026, 22:10 — Київ-Пасажирський", "UA"},
		{"Поштована Јелена, ваша поруџбина је послата", "RS"},
		{"10 µm, 5 Ω, 2 μg", ""},                              // units, not Greek
		{"R1 10 kΩ, R2 4,7 kΩ, C1 100 μF, L1 5 μH, 3 μm", ""}, // many units, still no Greek word
		{"Ω Ω Ω μ μ", ""},                                     // symbols apart, no word
		{"Θέση 14, ΚΤΕΛ", "GR"},
		{"Отправление: 18 декабря 2026, 23:55", ""},    // Russian: many zones
		{"Заминаване: 18 декември 2026 г., 07:05", ""}, // Bulgarian: told by its words
	} {
		if got := scriptCountry(c.text); got != c.want {
			t.Errorf("scriptCountry(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestCJKRailSentence(t *testing.T) {
	c := &msgContext{}
	text := "1.张伟，2026年12月20日08:00开，北京南站-上海虹桥站，G102次列车，02车05F号，二等座。\n2.李娜，2026年12月20日08:00开，北京南站-上海虹桥站，G102次列车，02车05D号，二等座。"
	legs := c.cjkRailSentences(text)
	if len(legs) != 1 {
		t.Fatalf("cjkRailSentences = %d legs, want 1 (two travellers, one train)", len(legs))
	}
	l := legs[0]
	if l.Number != "G102" || l.From.Name != "北京南站" || l.To.Name != "上海虹桥站" || l.Depart.Format("2006-01-02 15:04") != "2026-12-20 08:00" || l.Arrive != nil {
		t.Errorf("cjkRailSentences = %s %s-%s %v %v", l.Number, l.From.Name, l.To.Name, l.Depart, l.Arrive)
	}
}

func TestScriptBreak(t *testing.T) {
	for _, c := range []struct {
		text string
		i    int
		want bool
	}{
		{"订单号码E567891234", len("订单号码"), true},
		{"HOTELS", 5, false},
		{"注文番号の", len("注文番号"), false},
	} {
		if got := scriptBreak(c.text, c.i); got != c.want {
			t.Errorf("scriptBreak(%q, %d) = %v, want %v", c.text, c.i, got, c.want)
		}
	}
}

// TestHasWide: the full-width forms of ASCII (U+FF01 to U+FF5E) and the
// ideographic space, wherever they are; nothing else that starts EF.
func TestHasWide(t *testing.T) {
	for s, want := range map[string]bool{
		"": false, "plain text": false, "０７：４５": true, "a\u3000b": true, "Ａ": true, "end～": true,
		"\uff5f": false, "\uff00": false, "€ and ﬁ": false, "\xef": false, "\xef\xbc": false, "x\ufeffy": false,
		"long " + string(make([]byte, 1000)) + "ｚ": true,
	} {
		if got := hasWide(s); got != want {
			t.Errorf("hasWide(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestBracketLabels(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"【オーダーID】0434429495\n", "オーダーID: 0434429495\n"},
		{"[運送会社] 佐川急便\n[配送伝票] 470550808943", "運送会社: 佐川急便\n配送伝票: 470550808943"},
		{"  【ご注文日】2026年04月15日", "  ご注文日: 2026年04月15日"},
		{"【ご注文明細】\n・お届け先", "【ご注文明細】\n・お届け先"},                               // a section's heading
		{"[image: Shop logo] Order 1234", "[image: Shop logo] Order 1234"}, // a picture's text
		{"[1] https://example.com/track", "[1] https://example.com/track"},
		{"[Track your parcel](https://example.com)", "[Track your parcel](https://example.com)"},
		{"Your order [pending]", "Your order [pending]"}, // not at the line's start
		{"【未完", "【未完"},
	} {
		if got := bracketLabels(c.in); got != c.want {
			t.Errorf("bracketLabels(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWithoutItemRows(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"価格：￥6,930 x 数量：1 = 合計：￥6,930\n注文金額合計：￥7,590", "\n注文金額合計：￥7,590"},
		{"単価：9,350円 × 個数：1 = 9,350円\n合計 9,350円", "\n合計 9,350円"},
		{"2 x Mug = $24.00\nOrder total: $29.95", "\nOrder total: $29.95"},
		{"Total = $29.95", "Total = $29.95"}, // no item's product
		{"Order total: $29.95", "Order total: $29.95"},
	} {
		if got := withoutItemRows(c.in); got != c.want {
			t.Errorf("withoutItemRows(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
